"""pyproject.toml's extras and version: a module whose optional dependency is missing
names the extra that brings it (knightgym/_optional.py), each checked in a fresh
interpreter where that dependency cannot be imported; knightgym.__version__ is the
version the package's metadata reads from _version.py; and the versions pinned in
tools/setup/python_requirements*.txt lie within the extras' ranges, so the two cannot drift
apart."""

import json
import os
import pathlib
import re
import subprocess
import sys
import textwrap

import knightgym
import pytest
import tomllib
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXTRAS = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
PINS = sorted((ROOT / "tools" / "setup").glob("python_requirements*.txt"))

# In a fresh interpreter: argv[1] made unimportable (as if not installed), then the module
# argv[2] imported and the call argv[3] (for a lazy import) made; what failed is printed.
SCRIPT = textwrap.dedent("""
    import importlib, json, sys
    sys.modules[sys.argv[1]] = None
    try:
        module = importlib.import_module(sys.argv[2])
        print("imported")
        exec(sys.argv[3], {"module": module, "knightgym": sys.modules["knightgym"]})
    except ModuleNotFoundError as error:
        print(json.dumps([str(error), error.name, type(error.__cause__).__name__]))
""")

STATE = "knightgym.load_game('tailten').new_initial_state(seed=0)"

# (extra, missing dependency, module, the call that needs it: None where the import does)
CASES = [
    ("gymnasium", "gymnasium", "knightgym.gymnasium", None),
    ("pettingzoo", "pettingzoo", "knightgym.pettingzoo", None),
    ("pettingzoo", "gymnasium", "knightgym.pettingzoo", None),
    ("sb3", "stable_baselines3", "knightgym.sb3", None),
    ("sb3", "sb3_contrib", "knightgym.sb3", None),
    ("tianshou", "gymnasium", "knightgym.tianshou", None),
    ("rllib", "ray", "knightgym.rllib", None),
    ("openspiel", "pyspiel", "knightgym.openspiel", "module.register()"),
    ("openspiel", "pyspiel", "knightgym.openspiel", "module.load_game('tailten')"),
    ("render", "cairosvg", "knightgym.raster", f"module.rgb_array({STATE})"),
    ("render", "PIL", "knightgym.raster", f"module.rgb_array({STATE})"),
    ("ray", "ray", "knightgym.ray_cluster", "module.connect('auto')"),
    ("ray", "ray", "knightgym.balance_ray", "module.RayRunner('auto', None)"),
    ("ray", "ray", "knightgym.training_ray", "module.RayChannel('auto', None)"),
    ("plot", "matplotlib", "knightgym.training_report", None),
    ("plot", "matplotlib", "knightgym.ladder", "module.plot_elo_over_time([], 'elo.png')"),
]


@pytest.mark.parametrize("extra, missing, module, call", CASES)
def test_a_missing_dependency_names_the_extra_that_brings_it(extra, missing, module, call):
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(knightgym.__file__).parent.parent))
    lines = subprocess.run(
        [sys.executable, "-c", SCRIPT, missing, module, call or ""],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        timeout=120,
    ).stdout.splitlines()
    # A lazy import stays lazy: the module imports, and the call fails.
    assert lines[:-1] == (["imported"] if call else [])
    message = f'{module} needs {missing}: pip install "knightgym[{extra}]"'
    assert json.loads(lines[-1]) == [message, missing, "ModuleNotFoundError"]


def test_the_version_is_the_one_the_metadata_reads():
    # The regex of pyproject.toml's version provider, over the file it reads.
    text = (ROOT / "bindings" / "python" / "knightgym" / "_version.py").read_text()
    value = re.search(r'__version__ = "(?P<value>[^"]+)"', text)["value"]
    assert knightgym.__version__ == value
    assert str(Version(value)) == value  # PEP 440, in the normal form the metadata shows
    assert re.fullmatch(r"\d+\.\d+\.\d+", value)  # as CMake's project(VERSION) takes it


def expanded(extra):
    """The requirements of `extra`, those of the extras it names (knightgym[...]) included."""
    requirements = []
    for line in EXTRAS[extra]:
        requirement = Requirement(line)
        if requirement.name == "knightgym":
            requirements += [r for name in sorted(requirement.extras) for r in expanded(name)]
        else:
            requirements.append(requirement)
    return requirements


def pinned():
    """{package: [(file, version)]} of every `name==version` line of the pin files."""
    pins = {}
    for path in PINS:
        for line in path.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                requirement = Requirement(line)
                (specifier,) = requirement.specifier
                assert specifier.operator == "==", f"{path.name}: {line} is not a pin"
                name = canonicalize_name(requirement.name)
                pins.setdefault(name, []).append((path.name, specifier.version))
    return pins


def test_all_is_every_other_extra():
    assert set(expanded("all")) == {r for e in EXTRAS if e != "all" for r in expanded(e)}


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_the_pinned_versions_lie_in_the_extras_bounded_ranges(extra):
    pins = pinned()
    for requirement in expanded(extra):
        operators = sorted(s.operator for s in requirement.specifier)
        assert operators == ["<", ">="], f"{requirement}: a lower and an upper bound"
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement} is pinned in none of {[p.name for p in PINS]}"
        for path, version in pins[name]:
            assert requirement.specifier.contains(version), f"{path}: {name}=={version}"


def test_a_gymnasium_older_than_the_extra_leaves_knightgym_importable_and_warns():
    script = textwrap.dedent("""
        import importlib.metadata, warnings
        real = importlib.metadata.version
        importlib.metadata.version = lambda name: "0.29.1" if name == "gymnasium" else real(name)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import knightgym, gymnasium
        print([str(w.message) for w in caught if "Gymnasium" in str(w.message)])
        print(sorted(name for name in gymnasium.envs.registry if name.startswith("knightgym/")))
        print(knightgym.load_game(knightgym.games()[0]).num_distinct_actions() > 0)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    warned, registered, works = done.stdout.splitlines()
    assert "Gymnasium 0.29.1 is older than 1.1" in warned and "knightgym[gymnasium]" in warned
    assert registered == "[]" and works == "True"
    # the oldest Gymnasium _optional.py accepts is the extra's lower bound
    from knightgym._optional import OLDEST_GYMNASIUM

    (gymnasium,) = [Requirement(text) for text in EXTRAS["gymnasium"]]
    (lower,) = [spec.version for spec in gymnasium.specifier if spec.operator == ">="]
    assert Version(lower).release == OLDEST_GYMNASIUM
