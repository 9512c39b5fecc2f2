"""The wheel as users get it (make wheel-test): run by the interpreter of a clean virtual
environment (no Debian packages: PyPI's torch and NumPy 2) into which the wheel was
installed, from a folder outside the checkout, with that environment's bin/ on PATH.

    smoke_test.py base   the wheel alone: the core works, each integration names its extra
    smoke_test.py all    after knightgym[all]: the integrations, the command, the viewer

Each check prints one line; the first failure ends the run with its reason."""

import contextlib
import importlib
import io
import json
import os
import pathlib
import shutil
import subprocess
import sys
import urllib.request
from importlib.metadata import version

import numpy as np

VENV = pathlib.Path(sys.prefix).resolve()
INTEGRATIONS = {
    "knightgym.gymnasium": "gymnasium",
    "knightgym.pettingzoo": "pettingzoo",
    "knightgym.sb3": "sb3",
    "knightgym.tianshou": "tianshou",
}


def check(what, condition, detail=""):
    if not condition:
        sys.exit(f"FAILED: {what}{': ' + detail if detail else ''}")
    print(f"ok  {what}")


def run(*command, timeout=300):
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    check(
        " ".join(command)[:100],
        done.returncode == 0,
        f"exit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}",
    )
    return done.stdout


def shipped_game():
    """The game (registry name) of the smallest shipped network: the quickest to play."""
    import knightgym

    smallest = min(knightgym.agents.pretrained(), key=lambda model: os.path.getsize(model["path"]))
    return knightgym.load_game(smallest["game"]).get_type().short_name


def core():
    import knightgym

    where = pathlib.Path(knightgym.__file__).resolve()
    check("knightgym imported from the venv", VENV in where.parents, str(where))
    check("knightgym.__version__ is the wheel's", knightgym.__version__ == version("knightgym"))
    game = shipped_game()
    env = knightgym.make(game, num_envs=16, num_threads=2, seed=0)
    obs, _ = env.reset()
    check("the vector env's observations", obs["observation"].dtype == np.float32)
    for _ in range(20):
        obs, rewards, *_ = env.step(env.sample_actions())
    check("the vector env steps", rewards.shape[0] == 16 and obs["action_mask"].any(axis=1).all())
    state = knightgym.load_game(game).new_initial_state(seed=0)
    agent = knightgym.agents.make("az:model=pretrained,sims=16", game)
    check("az:model=pretrained plays", state.legal_actions_mask()[agent.act(state)])


def missing_extras():
    for module, extra in INTEGRATIONS.items():
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            check(f"{module} names its extra", f"knightgym[{extra}]" in str(error), str(error))
        else:
            sys.exit(f"FAILED: {module} imported without its extra installed")


def integrations():
    for module in INTEGRATIONS:
        importlib.import_module(module)
    check("the integrations import", True)
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    ids = [name for name in gymnasium.envs.registry if name.startswith("knightgym/")]
    check("knightgym's Gymnasium ids registered", len(ids) > 0)
    for name in ids:
        with contextlib.redirect_stdout(io.StringIO()):  # the boards its render check prints
            check_env(gymnasium.make(name, opponent="random").unwrapped)
    check(f"Gymnasium's env checker on {len(ids)} ids", True)


def command():
    program = shutil.which("knightgym")
    check("knightgym on the venv's PATH", program and VENV in pathlib.Path(program).parents)
    check(
        "knightgym --version",
        run(program, "--version").split() == ["knightgym", version("knightgym")],
    )
    game = shipped_game()
    check("knightgym list", game in run(program, "list", "--names").split())
    out = run(
        program, "play", game, "--agents", "az:model=pretrained,sims=64,random", "--games", "10"
    )
    check("knightgym play with the pretrained network", "az:model=pretrained" in out, out)
    check("python -m knightgym", "usage" in run(sys.executable, "-m", "knightgym", "--help"))
    # balance hands its report to this venv's Python (the script names it to the program)
    run(program, "balance", game, "--agents", "random", "--games", "20", "--out", "balance")
    report = pathlib.Path("balance", "balance.md")
    check("knightgym balance writes its report", report.is_file() and game in report.read_text())


def viewer():
    child = subprocess.Popen(
        ["knightgym", "view", "--port", "0"], stdout=subprocess.PIPE, text=True
    )
    try:
        line = child.stdout.readline()
        check("knightgym view prints its address", "/?token=" in line, line)
        url, _, token = line.split()[-1].partition("/?token=")
        request = urllib.request.Request(
            url + "/api/games", headers={"Authorization": f"token {token}"}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            games = json.load(answer)
        check("the viewer answers", shipped_game() in json.dumps(games["games"]))
    finally:
        child.terminate()
        child.wait(timeout=10)


def main(stage):
    check("run outside the checkout", not pathlib.Path("pyproject.toml").exists())
    check("the venv sees no Debian package", "/usr/lib/python3/dist-packages" not in sys.path)
    check("numpy is PyPI's", VENV in pathlib.Path(np.__file__).resolve().parents)
    os.environ.pop("KNIGHTGYM_MODELS", None)
    core()
    if stage == "base":
        missing_extras()
    else:
        integrations()
        command()
        viewer()
    print(f"the wheel's {stage} checks passed")


if __name__ == "__main__":
    if sys.argv[1:] not in (["base"], ["all"]):
        sys.exit("usage: smoke_test.py base|all")
    main(sys.argv[1])
