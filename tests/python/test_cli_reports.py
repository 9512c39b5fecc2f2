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
import sys

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
@pytest.mark.parametrize("chunk", [0, 6])  # 6: chunks of 6 games, 4 of them in play
def test_batches_on_any_threads_give_the_same_games(tmp_path, agents, chunk):
    common = ["--games", "10", "--batch", "4", "--seed", "5"]
    if chunk:
        common += ["--chunk", str(chunk)]

    def play(threads):
        result, games = tmp_path / "play.json", tmp_path / f"games{threads}.jsonl"
        args = ["--threads", str(threads), "--json", str(result), "--record", str(games)]
        run("play", "knight_fight", "--agents", agents, *common, *args, tmp=tmp_path)
        data = json.loads(result.read_text())
        assert data["batch"] == 4 and data["chunk"] == chunk
        del data["records"]  # the file's name
        return data, games.read_text()

    assert play(2) == play(1)

    def ladder(threads):
        result = tmp_path / "ladder.json"
        args = ["--threads", str(threads), "--json", str(result)]
        run("ladder", "knight_fight", "--agents", agents + ",greedy", *common, *args, tmp=tmp_path)
        data = json.loads(result.read_text())
        assert data["threads"] == threads and data["batch"] == 4 and data["chunk"] == chunk
        return {key: data[key] for key in ("ratings", "pairs")}

    assert ladder(2) == ladder(1)


@pytest.mark.parametrize(
    "command, args, message",
    [
        ("play", ["--batch", "0"], "--batch '0': expected an integer >= 1"),
        ("play", ["--threads", "0", "--batch", "4"], "--threads '0': expected an integer >= 1"),
        ("ladder", ["--batch", "-4"], "--batch '-4': expected an integer >= 1"),
        ("ladder", ["--threads", "0"], "--threads '0': expected an integer >= 1"),
        ("play", ["--chunk", "8"], "--chunk C needs --batch B"),
        ("play", ["--batch", "4", "--chunk", "3"], "chunk (3) must be 0 or at least the batch (4)"),
        ("ladder", ["--chunk", "8"], "ladder: chunk (8) needs a batch"),
        ("ladder", ["--batch", "4", "--chunk", "3"], "chunk (3) must be 0 or at least the batch"),
    ],
)
def test_bad_threads_and_batches_are_refused(tmp_path, command, args, message):
    written = [tmp_path / "result.json", tmp_path / "games.jsonl"]
    outputs = ["--json", str(written[0])]
    if command == "play":
        outputs += ["--record", str(written[1])]
    done = subprocess.run(
        [str(CLI), command, "knight_fight", "--agents", "random,greedy", *args, *outputs],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert message in done.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written, no lock left behind


@pytest.mark.parametrize(
    "args, message",
    [
        (["--chunk", "8"], "chunk (8) needs a batch"),
        (["--batch", "4", "--chunk", "2"], "chunk (2) must be 0 or at least the batch (4)"),
        (["--batch", "4", "--chunk", "9"], "and a multiple of the number of agents (2)"),
    ],
)
def test_a_balance_chunk_that_holds_no_batch_is_refused_before_any_file(tmp_path, args, message):
    out = tmp_path / "run"
    done = subprocess.run(
        [str(CLI), "balance", "knight_fight", "--agents", "random,greedy", *args, "--out", out],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert message in done.stderr
    assert not out.exists()


@pytest.mark.parametrize("module", ["play", "ladder", "training", "balance"])
@pytest.mark.parametrize(
    "content, problem",
    [
        ("{not json", "not JSON (Expecting property name"),
        ("[" * 100000 + "]" * 100000, "nested too deeply for a "),
        ("{}", "it has no field"),
        ('{"agents": 7, "game": 1, "games": 1, "seed": 1, "players": 2}', "not a "),
    ],
    ids=["not-json", "deep", "empty", "wrong-types"],
)
def test_a_report_of_a_file_that_is_no_result_names_the_file(tmp_path, module, content, problem):
    """`python -m knightgym.MODULE report` on a damaged file says which file and what is
    wrong with it in one line (exit status 1), not a traceback."""
    if module == "balance":  # a balance report reads DIR/balance.json
        (tmp_path / "balance.json").write_text(content)
        path = tmp_path
    else:
        path = tmp_path / "result.json"
        path.write_text(content)
    done = subprocess.run(
        [sys.executable, "-m", f"knightgym.{module}", "report", str(path)],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(pathlib.Path(knightgym.__file__).parent.parent)),
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(f"python -m knightgym.{module} report: {path}: ")
    assert problem in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1


def test_a_report_of_a_missing_file_says_so(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "knightgym.play", "report", str(tmp_path / "none.json")],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(pathlib.Path(knightgym.__file__).parent.parent)),
    )
    assert done.returncode == 1
    assert "none.json: No such file or directory" in done.stderr
