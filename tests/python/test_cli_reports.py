"""`knightgym play` and `knightgym ladder` write their results as JSON and print the
Markdown that the package renders from it (knightgym.play, knightgym.ladder): one
renderer for the command and for Python. Without --json the result goes through a
temporary file that is removed. With --batch, the chunks of games played together are
shared by --threads threads: the results and the games' records are the same on 1 and 2
threads, for a network and for MCTS; a bad --threads or --batch is refused."""

import json
import os
import pathlib
import subprocess

import knightgym
import knightgym.ladder
import knightgym.play
import pytest

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


@pytest.mark.parametrize(
    "agents",
    [
        "mcts:sims=16,random",
        pytest.param("az:model=pretrained,sims=8,mcts:sims=16", marks=pytest.mark.needs_networks),
    ],
)
def test_batches_on_any_threads_give_the_same_games(tmp_path, agents):
    common = ["--games", "10", "--batch", "4", "--seed", "5"]

    def play(threads):
        result, games = tmp_path / "play.json", tmp_path / f"games{threads}.jsonl"
        args = ["--threads", str(threads), "--json", str(result), "--record", str(games)]
        run("play", "knight_fight", "--agents", agents, *common, *args, tmp=tmp_path)
        data = json.loads(result.read_text())
        del data["records"]  # the file's name
        return data, games.read_text()

    assert play(2) == play(1)

    def ladder(threads):
        result = tmp_path / "ladder.json"
        args = ["--threads", str(threads), "--json", str(result)]
        run("ladder", "knight_fight", "--agents", agents + ",greedy", *common, *args, tmp=tmp_path)
        data = json.loads(result.read_text())
        assert data["threads"] == threads and data["batch"] == 4
        return {key: data[key] for key in ("ratings", "pairs")}

    assert ladder(2) == ladder(1)


@pytest.mark.parametrize(
    "command, args, message",
    [
        ("play", ["--batch", "0"], "--batch '0': expected an integer >= 1"),
        ("play", ["--threads", "0", "--batch", "4"], "--threads '0': expected an integer >= 1"),
        ("ladder", ["--batch", "-4"], "--batch '-4': expected an integer >= 1"),
        ("ladder", ["--threads", "0"], "--threads '0': expected an integer >= 1"),
    ],
)
def test_bad_threads_and_batches_are_refused(command, args, message):
    done = subprocess.run(
        [str(CLI), command, "knight_fight", "--agents", "random,greedy", *args],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert message in done.stderr
