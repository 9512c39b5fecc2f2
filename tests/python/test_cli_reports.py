"""`knightgym play` and `knightgym ladder` write their results as JSON and print the
Markdown that the package renders from it (knightgym.play, knightgym.ladder): one
renderer for the command and for Python. Without --json the result goes through a
temporary file that is removed."""

import json
import os
import pathlib
import subprocess

import knightgym
import knightgym.ladder
import knightgym.play

CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"


def run(*arguments, tmp):
    done = subprocess.run(
        [str(CLI), *arguments],
        check=True,
        capture_output=True,
        text=True,
        env=dict(os.environ, TMPDIR=str(tmp)),
    )
    return done.stdout


def test_play_prints_its_json_as_markdown(tmp_path):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    result = tmp_path / "play.json"
    common = ["play", "knights_challenge", "--agents", "random,greedy", "--games", "4"]
    printed = run(*common, "--json", str(result), tmp=scratch)
    data = json.loads(result.read_text())
    assert data["players"] == 4 and data["games"] == 4 and data["records"] is None
    assert [a["name"] for a in data["agents"]] == ["random", "greedy"]
    assert all(
        a["firsts_low"] <= a["firsts"] / a["games"] <= a["firsts_high"] for a in data["agents"]
    )
    assert printed == knightgym.play.markdown(str(result))
    assert "| `greedy` | " in printed and "first places" in printed
    # Without --json: the same report, nothing left behind.
    assert run(*common, tmp=scratch) == printed
    assert list(scratch.iterdir()) == []


def test_ladder_prints_its_json_as_markdown(tmp_path):
    result = tmp_path / "ladder.json"
    common = ["ladder", "knight_fight", "--agents", "random,mcts:sims=8", "--games", "6"]
    printed = run(*common, "--json", str(result), tmp=tmp_path)
    assert printed == knightgym.ladder.markdown(str(result))
    assert "| agent | Elo | 95% | games | score |" in printed
    ratings = {r["name"]: r for r in json.loads(result.read_text())["ratings"]}
    assert ratings["random"]["elo"] == 0
