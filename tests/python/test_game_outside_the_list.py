"""Nim, a game defined only in the test tree (tests/games/nim/), in no list: the Python
module built with it registered at run time (tests/games/CMakeLists.txt, its one
registration line in nim/register.cc) knows it everywhere, and every test of the suites
that runs once per conformance spec (conformance, Gymnasium's env checker, PettingZoo's
api and seed tests, OpenSpiel, pictures) runs, unchanged, on Nim's specs
(tests/games/nim/conformance_specs.txt). What "Adding a game" in docs/api.md promises rests
on this: a game is its folder, two lines of the list and its docs."""

import os
import pathlib
import re
import subprocess
import sys

import knightgym
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(knightgym.__file__).resolve().parents[2]
MODULE_DIR = BUILD / "tests" / "games" / "python"
NIM = ROOT / "tests" / "games" / "nim"

pytestmark = pytest.mark.skipif(
    not (MODULE_DIR / "knightgym").is_dir(), reason="the test-game module is not built"
)


def run_in_the_test_game_module(*args, specs=NIM / "conformance_specs.txt"):
    env = dict(os.environ, PYTHONPATH=str(MODULE_DIR), KNIGHTGYM_CONFORMANCE_SPECS=str(specs))
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


def test_the_module_built_with_nim_lists_it_beside_every_game_of_the_list():
    code = (
        "import gymnasium, knightgym, knightgym.gymnasium;"
        "print(knightgym.games());"
        "print('knightgym/Nim-v0' in gymnasium.registry)"
    )
    done = run_in_the_test_game_module("-c", code)
    assert done.returncode == 0, done.stderr
    games, registered = done.stdout.splitlines()
    assert games == str(knightgym.games() + ["nim"])
    assert registered == "True"
    assert "nim" not in knightgym.games()  # the package's own module has only the list


def test_every_suite_that_runs_per_spec_passes_on_nim():
    # Golden pictures are written for the specs of the list's games only.
    done = run_in_the_test_game_module(
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-m",
        "every_spec",
        "-k",
        "not golden",
        "tests/python",
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    passed = int(re.search(r"(\d+) passed", done.stdout).group(1))
    specs = [
        line
        for line in (NIM / "conformance_specs.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert passed >= 10 * len(specs), done.stdout[-2000:]
    collected = run_in_the_test_game_module(
        "-m",
        "pytest",
        "--collect-only",
        "-q",
        "-p",
        "no:cacheprovider",
        "-m",
        "every_spec",
        "tests/python",
    ).stdout
    for suite in ("test_conformance", "test_gymnasium", "test_pettingzoo", "test_svg"):
        tests = [line for line in collected.splitlines() if f"/{suite}.py::" in line]
        for spec in specs:
            assert any(line.endswith(f"[{spec}]") for line in tests), (suite, spec)


def test_what_needs_the_typed_list_names_it_for_a_game_outside():
    """Games played in batches run on the list's typed code: for Nim they are refused by
    name, where they once returned no games at all."""
    code = (
        "import tempfile, knightgym.balance\n"
        "try:\n"
        "    knightgym.balance.evaluate(game='nim', agents=['random'], games=4, batch=2,\n"
        "                               out=tempfile.mkdtemp(), plots=False)\n"
        "except ValueError as error:\n"
        "    print(error)\n"
    )
    done = run_in_the_test_game_module("-c", code)
    assert done.returncode == 0, done.stderr
    assert "a match played in batches needs a game of the list" in done.stdout
