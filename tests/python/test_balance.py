"""knightgym.balance and `knightgym balance`: the files and every JSON field, the same
figures from Python and from the command line (at different thread counts), seats of 3-
and 4-player games, sweeps mixing player counts, and bad input refused by name with
nothing written."""

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

import knightgym
import knightgym.balance

CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"

RULE_SET_FIELDS = {
    "label", "spec", "values", "players", "games", "blocks", "block_games", "seconds", "seats",
    "first_seat_advantage", "balance", "decisive", "decisiveness", "natural_draws", "truncated",
    "truncated_draws", "length", "agents", "pentanomial", "sprt", "vs_first"}
SEAT_FIELDS = {
    "seat", "wins", "draws", "losses", "win_rate", "win_low", "win_high", "draw_rate",
    "draw_low", "draw_high", "loss_rate", "loss_low", "loss_high", "mean_return", "ranks"}


def without_seconds(value):
    """The result with its timings left out: those are the only figures that vary."""
    if isinstance(value, dict):
        return {k: without_seconds(v) for k, v in value.items()
                if k not in ("seconds", "threads", "plots")}
    if isinstance(value, list):
        return [without_seconds(v) for v in value]
    return value


@pytest.fixture(scope="module")
def knight_fight_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("balance") / "kf"
    result = knightgym.balance.evaluate(
        "knight_fight(max_turns=60)", agents=["mcts:sims=4", "random"], games=40,
        sweep={"double_erase": ["optional", "off"], "mirror_on_moves": [True]},
        sprt={"a1": 0.1}, check_every=20, seed=5, out=out, progress=False)
    return out, result


def test_files_and_json_fields(knight_fight_run):
    out, result = knight_fight_run
    for name in ("balance.json", "balance.md", "seat_win_rates.png", "first_seat_advantage.png",
                 "game_lengths.png"):
        assert (out / name).stat().st_size > 0, name
    assert sorted(pathlib.Path(p).name for p in result["plots"]) == [
        "first_seat_advantage.png", "game_lengths.png", "seat_win_rates.png"]
    on_disk = json.loads((out / "balance.json").read_text())
    assert without_seconds(on_disk) == without_seconds(result)
    assert result["game"] == "knight_fight(max_turns=60)"
    assert result["agents"][1] == "random" and result["agents"][0].startswith("mcts:sims=4,")
    assert result["sweeps"] == [{"key": "double_erase", "values": ["optional", "off"]},
                                {"key": "mirror_on_moves", "values": ["true"]}]
    assert result["sprt"] == {"a0": 0, "a1": 0.1, "alpha": 0.05, "beta": 0.05}
    assert [r["label"] for r in result["rule_sets"]] == [
        "double_erase=optional, mirror_on_moves=true", "double_erase=off, mirror_on_moves=true"]
    for index, rule_set in enumerate(result["rule_sets"]):
        assert set(rule_set) == RULE_SET_FIELDS
        assert rule_set["values"]["double_erase"] == ["optional", "off"][index]
        assert rule_set["games"] % 20 == 0 and rule_set["blocks"] * 2 == rule_set["games"]
        assert rule_set["sprt"]["games"] == rule_set["games"]
        assert rule_set["sprt"]["decision"] in ("H0", "H1", "undecided")
        assert len(rule_set["pentanomial"]) == 5
        assert sum(rule_set["pentanomial"]) == rule_set["blocks"]
        for seat in rule_set["seats"]:
            assert set(seat) == SEAT_FIELDS
            assert seat["wins"] + seat["draws"] + seat["losses"] == rule_set["games"]
            assert seat["win_low"] <= seat["win_rate"] <= seat["win_high"]
            assert sum(seat["ranks"]) == rule_set["games"]
        a = rule_set["first_seat_advantage"]
        assert a["low"] <= a["mean"] <= a["high"]
        wins = [s["win_rate"] for s in rule_set["seats"]]
        assert rule_set["balance"] == pytest.approx(1 - (max(wins) - min(wins)))
        assert (rule_set["decisive"] + rule_set["natural_draws"] + rule_set["truncated"]
                == rule_set["games"])
        length = rule_set["length"]
        assert length["min"] <= length["percentiles"]["50"] <= length["max"]
        assert sum(length["histogram"]["counts"]) == rule_set["games"]
        agents = rule_set["agents"]
        assert [a["spec"] for a in agents] == result["agents"]
        assert agents[0]["score"] > 0.5 > agents[1]["score"]  # MCTS beats random
        assert agents[0]["elo"] == pytest.approx(-agents[1]["elo"])
    assert result["rule_sets"][0]["vs_first"] is None
    versus = result["rule_sets"][1]["vs_first"]
    assert versus["difference"] == pytest.approx(
        result["rule_sets"][1]["first_seat_advantage"]["mean"]
        - result["rule_sets"][0]["first_seat_advantage"]["mean"])
    assert versus["significant"] == (versus["low"] > 0 or versus["high"] < 0)
    fairest = result["rule_sets"][result["fairest"]]["balance"]
    assert fairest == max(r["balance"] for r in result["rule_sets"])
    markdown = (out / "balance.md").read_text()
    for heading in ("## Seats", "## Compared with", "## Sequential test", "## Game length",
                    "## Agents"):
        assert heading in markdown


def test_command_line_gives_the_same_figures_on_more_threads(knight_fight_run, tmp_path):
    _, result = knight_fight_run
    out = tmp_path / "cli"
    done = subprocess.run(
        [str(CLI), "balance", "knight_fight(max_turns=60)", "--agents", "mcts:sims=4,random",
         "--games", "40", "--sweep", "double_erase=optional,off", "--sweep", "mirror_on_moves=true",
         "--sprt", "a1=0.1", "--check-every", "20", "--seed", "5", "--threads", "2", "--out",
         str(out)], capture_output=True, text=True, check=True)
    assert "## Seats" in done.stdout
    assert "rule set 2/2" in done.stderr  # the progress bar
    cli = json.loads((out / "balance.json").read_text())
    assert cli["threads"] == 2
    assert without_seconds(cli) == without_seconds(result)
    assert (out / "seat_win_rates.png").exists()


def test_three_and_four_players_and_a_sweep_over_player_counts(tmp_path):
    result = knightgym.balance.evaluate(
        "knights_challenge(max_turns=40)", agents="random,greedy,mcts:sims=2", games=6,
        sweep={"mode": ["ffa3", "ffa4", "duel"]}, threads=2, out=tmp_path, progress=False)
    players = [r["players"] for r in result["rule_sets"]]
    assert players == [3, 4, 2]
    for rule_set in result["rule_sets"]:
        assert len(rule_set["seats"]) == rule_set["players"]
        for seat in rule_set["seats"]:
            assert len(seat["ranks"]) == rule_set["players"]
            assert sum(seat["ranks"]) == 6
        # Every agent sits every seat twice in 6 games: with 3 or 4 seats it plays all 6,
        # with 2 seats 4 of them.
        expected = 6 if rule_set["players"] >= 3 else 4
        assert [a["games"] for a in rule_set["agents"]] == [expected] * 3
        assert rule_set["pentanomial"] is None
    markdown = (tmp_path / "balance.md").read_text()
    assert "## Ranks" in markdown
    assert "| mode=ffa4 | 3 |" in markdown and "| mode=duel | 1 |" in markdown
    assert "| mode=duel | 2 |" not in markdown  # a duel has seats 0 and 1 only
    assert (tmp_path / "seat_win_rates.png").exists()


@pytest.mark.parametrize("kwargs, message", [
    ({"sweep": {"colour": ["red"]}}, "colour"),
    ({"sweep": {"double_erase": ["sometimes"]}}, "sometimes"),
    ({"agents": "mcts:simz=3"}, "simz"),
    ({"agents": "random,greedy", "games": 3}, "multiple of the number of agents"),
    ({"sprt": "a0=0.2,a1=0.1"}, "a0 must be below a1"),
    ({"sprt": {"gamma": 1}}, "gamma"),
])
def test_bad_options_are_refused_by_name_and_write_nothing(tmp_path, kwargs, message):
    out = tmp_path / "never"
    options = {"agents": "random", "games": 4, "out": out, "progress": False, **kwargs}
    with pytest.raises(ValueError, match=message):
        knightgym.balance.evaluate("knight_fight", **options)
    assert not out.exists()


def test_bad_sweep_types_are_refused():
    with pytest.raises(TypeError, match="list of values"):
        knightgym.balance.evaluate("knight_fight", sweep={"max_turns": 5}, progress=False)


@pytest.mark.parametrize("args, message", [
    (["--agents", "random", "--games", "4"], "--out DIR is required"),
    (["--out", "X", "--games", "4"], "--agents"),
    (["--agents", "random", "--games", "4", "--games", "5", "--out", "X"],
     "--games is given twice"),
    (["--agents", "random", "--sweep", "max_turns", "--out", "X"], "KEY=V1,V2"),
    (["--agents", "random", "--sprt", "a1=x", "--out", "X"], "a1"),
    (["--agents", "random", "--seeds", "3", "--out", "X"], "unknown flag --seeds"),
])
def test_command_line_errors(tmp_path, args, message):
    args = [str(tmp_path / "X") if a == "X" else a for a in args]
    done = subprocess.run([str(CLI), "balance", "knight_fight", *args], capture_output=True,
                          text=True)
    assert done.returncode == 1
    assert message in done.stderr
    assert not (tmp_path / "X").exists()


def test_ctrl_c_stops_a_run_and_writes_nothing(tmp_path):
    # A run of a million short games (a minute on two threads), interrupted after a second.
    # The child installs Python's own SIGINT handler: a shell that starts make in the
    # background ignores SIGINT, and its children inherit that.
    out = tmp_path / "stopped"
    code = ("import signal\n"
            "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "import knightgym.balance\n"
            "print('ready', flush=True)\n"
            "knightgym.balance.evaluate('knight_fight', agents='mcts:sims=8', games=10**6, "
            f"threads=2, out={str(out)!r}, progress=False)\n")
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(knightgym.__file__).resolve().parent.parent))
    child = subprocess.Popen([sys.executable, "-X", "faulthandler", "-c", code], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "ready\n"
    time.sleep(1)  # inside the C++ run
    child.send_signal(signal.SIGINT)
    try:
        _, stderr = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGABRT)  # faulthandler prints where it is
        pytest.fail("still running a minute after Ctrl-C:\n" + child.communicate()[1])
    assert child.returncode != 0
    assert "KeyboardInterrupt" in stderr and "in evaluate" in stderr
    assert not out.exists()
