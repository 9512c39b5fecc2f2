"""Nim, a game defined only in the test tree (tests/games/nim/), in no list: the Python
module built with it registered at run time (tests/games/CMakeLists.txt, its one
registration line in nim/register.cc) knows it everywhere, and every test of the suites
that runs once per conformance spec (conformance, Gymnasium's env checker, PettingZoo's
api and seed tests, OpenSpiel, pictures) runs, unchanged, on Nim's specs
(tests/games/nim/conformance_specs.txt). What "Adding a game" in docs/api.md promises rests
on this: a game is its folder, two lines of the list and its docs."""

import json
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


def built(module):
    """Whether the test-game build holds the compiled module (its package files are
    copied when the build is configured, the modules only when they are built)."""
    return any((MODULE_DIR / "knightgym").glob(f"{module}.*.so"))


pytestmark = pytest.mark.skipif(not built("_knightgym"), reason="the test-game module is not built")


def run_in_the_test_game_module(*args, specs=NIM / "conformance_specs.txt"):
    env = dict(os.environ, PYTHONPATH=str(MODULE_DIR), KNIGHTGYM_CONFORMANCE_SPECS=str(specs))
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=240
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


NIM_TRAINING = {
    "blocks": 1,
    "channels": 8,
    "sims": 8,
    "match_seconds": 0,
    "snapshot_seconds": 0,
    "threads": 1,
}


@pytest.mark.needs_networks
@pytest.mark.skipif(
    not built("_knightgym_torch"), reason="the test-game training module is not built"
)
def test_nim_goes_through_the_batched_arena_the_teacher_and_the_python_training():
    """One registration line reaches every layer's typed code: games played in batches
    (balance, ladder), batched teaching and the trainer (the test-game training module)."""
    code = f"""
import json, tempfile, knightgym.balance, knightgym.ladder, knightgym.teacher, knightgym.training
out = tempfile.mkdtemp()
balance = knightgym.balance.run(
    "nim", agents="mcts:sims=50,random", games=20, batch=10, threads=2, progress=False)
print(json.dumps([agent["score"] for agent in balance["rule_sets"][0]["agents"]]))
ladder = knightgym.ladder.run("nim", agents=["random", "mcts:sims=50"], games=10, batch=10)
print(json.dumps([rating["score"] for rating in ladder["ratings"]]))
knightgym.teacher.generate("nim", out + "/teach", teacher="mcts:sims=20", games=8,
                           shard_games=8, batch=4)
print(len(knightgym.teacher.read_shard(out + "/teach/shard-000000.kgt")["games"]))
run = knightgym.training.train("nim", out + "/run", steps=10, settings={NIM_TRAINING!r},
                               verbose=False)
print(run["counters"]["steps"])
"""
    done = run_in_the_test_game_module("-c", code)
    assert done.returncode == 0, done.stderr[-3000:]
    balance_scores, ladder_scores, taught, steps = done.stdout.splitlines()[-4:]
    mcts, random = json.loads(balance_scores)
    assert mcts > random  # Nim has a known winning strategy that the search finds
    assert json.loads(ladder_scores)[1] > 0.5  # its share of the points
    assert int(taught) == 8
    assert int(steps) == 10


CLI = BUILD / "tests" / "games" / "knightgym"


@pytest.mark.skipif(not CLI.exists(), reason="the test-game program needs LibTorch")
def test_the_test_game_program_plays_teaches_and_trains_nim(tmp_path):
    def knightgym(*args):
        done = subprocess.run(
            [str(CLI), *args], cwd=tmp_path, capture_output=True, text=True, timeout=240
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    played = knightgym(
        "play", "nim", "--agents", "mcts:sims=50,random", "--games", "20", "--batch", "10"
    )
    row = next(line for line in played.splitlines() if line.startswith("| `mcts:sims=50` |"))
    assert int(row.split("|")[3]) >= 15, played  # its wins of 20
    knightgym(
        "teach",
        "nim",
        "--teacher",
        "mcts:sims=20",
        "--games",
        "8",
        "--batch",
        "4",
        "--shard-games",
        "8",
        "--out",
        "teach",
    )
    assert (tmp_path / "teach" / "shard-000000.kgt").stat().st_size > 0
    (tmp_path / "nim.txt").write_text("".join(f"{k}={v}\n" for k, v in NIM_TRAINING.items()))
    knightgym("train", "nim", "--out", "run", "--steps", "10", "--config", "nim.txt")
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["counters"]["steps"] == 10
