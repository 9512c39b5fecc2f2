"""knightgym.balance and `knightgym balance`: the files and every JSON field, the same
figures from Python and from the command line (at different thread counts), balance.md
rendered from balance.json alone (every section of a hand-made result; without
matplotlib), seats of 3- and 4-player games, sweeps mixing player counts, and bad input
refused by name with nothing written."""

import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import time

import knightgym
import knightgym.balance
import knightgym.statistics
import pytest
from checksums import fnv1a

CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"

RULE_SET_FIELDS = {
    "label",
    "spec",
    "values",
    "players",
    "games",
    "blocks",
    "block_games",
    "seconds",
    "seats",
    "first_seat_advantage",
    "balance",
    "decisive",
    "decisiveness",
    "natural_draws",
    "truncated",
    "truncated_draws",
    "length",
    "agents",
    "pentanomial",
    "sprt",
    "verdict",
    "vs_first",
    "same_games_as",
    "balance_low",
    "balance_high",
    "as_fair_p_value",
    "as_fair",
}
SEAT_FIELDS = {
    "seat",
    "wins",
    "draws",
    "losses",
    "win_rate",
    "win_low",
    "win_high",
    "win_share",
    "win_share_low",
    "win_share_high",
    "draw_rate",
    "draw_low",
    "draw_high",
    "loss_rate",
    "loss_low",
    "loss_high",
    "mean_return",
    "ranks",
}


def without_seconds(value):
    """The result with its timings left out: those are the only figures that vary."""
    if isinstance(value, dict):
        return {
            k: without_seconds(v)
            for k, v in value.items()
            if k not in ("seconds", "threads", "plots")
        }
    if isinstance(value, list):
        return [without_seconds(v) for v in value]
    return value


@pytest.fixture(scope="module")
def knight_fight_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("balance") / "kf"
    result = knightgym.balance.run(
        "knight_fight(max_turns=60)",
        agents=["mcts:sims=4", "random"],
        games=40,
        sweep={"double_erase": ["optional", "off"], "mirror_on_moves": [True]},
        sprt={"a1": 0.1},
        check_every=20,
        seed=5,
        out=out,
        progress=False,
    )
    return out, result


def test_files_and_json_fields(knight_fight_run):
    out, result = knight_fight_run
    for name in (
        "balance.json",
        "balance.md",
        "seat_win_rates.png",
        "first_seat_advantage.png",
        "game_lengths.png",
    ):
        assert (out / name).stat().st_size > 0, name
    assert sorted(pathlib.Path(p).name for p in result["plots"]) == [
        "first_seat_advantage.png",
        "game_lengths.png",
        "seat_win_rates.png",
    ]
    on_disk = json.loads((out / "balance.json").read_text())
    assert without_seconds(on_disk) == without_seconds(result)
    assert result["game"] == "knight_fight(max_turns=60)"
    assert result["agents"][1] == "random" and result["agents"][0].startswith("mcts:sims=4,")
    assert result["sweeps"] == [
        {"key": "double_erase", "values": ["optional", "off"]},
        {"key": "mirror_on_moves", "values": ["true"]},
    ]
    assert result["sprt"] == {"a0": 0, "a1": 0.1, "alpha": 0.05, "beta": 0.05}
    assert [r["label"] for r in result["rule_sets"]] == [
        "double_erase=optional, mirror_on_moves=true",
        "double_erase=off, mirror_on_moves=true",
    ]
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
            # Two seats share no first place: the share is the win rate, with its interval.
            share = (seat["win_share"], seat["win_share_low"], seat["win_share_high"])
            assert share == (seat["win_rate"], seat["win_low"], seat["win_high"])
            assert sum(seat["ranks"]) == rule_set["games"]
        a = rule_set["first_seat_advantage"]
        # The confidence sequence holds the fixed-sample interval.
        assert a["low"] < a["fixed_low"] <= a["mean"] <= a["fixed_high"] < a["high"]
        assert a["adjusted_p_value"] >= a["p_value"] and a["adjusted_p_even"] >= a["p_even"]
        assert rule_set["verdict"] in (
            "favours the first seat",
            "favours the other seats",
            "even",
            "undecided",
        )
        wins = [s["win_rate"] for s in rule_set["seats"]]
        assert rule_set["balance"] == pytest.approx(1 - (max(wins) - min(wins)))
        assert (
            rule_set["decisive"] + rule_set["natural_draws"] + rule_set["truncated"]
            == rule_set["games"]
        )
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
        - result["rule_sets"][0]["first_seat_advantage"]["mean"]
    )
    # One comparison: Holm leaves its p-value, and its interval leaves out 0 when it is
    # significant.
    assert versus["adjusted_p_value"] == versus["p_value"]
    assert versus["significant"] == (versus["low"] > 0 or versus["high"] < 0)
    assert result["statistics"] == {
        "intervals": "confidence sequences at 95%, valid however the run stopped",
        "tuned_blocks": result["games_per_rule_set"] // 2,
        "family_alpha": 0.05,
        "correction": "holm",
        "even_margin": 0.05,
    }
    fairest = result["rule_sets"][result["fairest"]]
    assert fairest["balance"] == max(r["balance"] for r in result["rule_sets"])
    assert fairest["as_fair"] and fairest["as_fair_p_value"] == 1
    for r in result["rule_sets"]:
        assert r["balance_low"] <= r["balance"] <= r["balance_high"] <= 1
        assert r["as_fair"] == (r["as_fair_p_value"] > 0.05)
    markdown = (out / "balance.md").read_text()
    assert markdown == knightgym.balance.markdown(on_disk)
    for heading in (
        "## Seats",
        "## Compared with",
        "## Sequential test",
        "## Game length",
        "## Agents",
    ):
        assert heading in markdown


RUNS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "balance" / "runs"
STRENGTH_RUNS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "strength" / "rules"


def test_every_committed_result_has_todays_shape():
    """The results written before balance.json held its statistics were converted once
    (issue 60), and no reader restates them any more: every committed one carries them."""
    paths = sorted(RUNS.glob("**/balance.json")) + sorted(STRENGTH_RUNS.glob("*.json"))
    results = {path: json.loads(path.read_text()) for path in paths}
    results = {path: r for path, r in results.items() if "games_per_rule_set" in r}  # not play's
    assert len(results) >= 79
    for path, result in results.items():
        assert "statistics" in result, path
        for rule_set in result["rule_sets"]:
            assert {"verdict", "same_games_as", "balance_low", "as_fair"} <= set(rule_set), path
            assert {"fixed_low", "p_even"} <= set(rule_set["first_seat_advantage"]), path


def test_a_result_of_the_old_shape_is_refused_by_name(tmp_path):
    """A balance.json written before it held its statistics (or the same games) is refused
    with its path and what to do, by the report, the summary and the command alike."""
    from knightgym import balance_summary
    from knightgym._result_files import RetiredFormat

    today = json.loads((RUNS / "tailten_first_player_net" / "balance.json").read_text())
    without_statistics = {k: v for k, v in today.items() if k != "statistics"}
    without_same_games = {
        **today,
        "rule_sets": [
            {k: v for k, v in r.items() if k != "same_games_as"} for r in today["rule_sets"]
        ],
    }
    for name, old in (("a", without_statistics), ("b", without_same_games)):
        (tmp_path / name).mkdir()
        path = tmp_path / name / "balance.json"
        path.write_text(json.dumps(old))
        named = re.escape(f"{path}: ")
        with pytest.raises(RetiredFormat, match=f"^{named}.*play the run again.*convert it"):
            knightgym.balance.report(tmp_path / name, tmp_path / name, plots=False)
        with pytest.raises(RetiredFormat, match=f"^{named}"):
            balance_summary.load(tmp_path, name)
        with pytest.raises(RetiredFormat, match="^the balance result given: "):
            knightgym.balance.report(old, tmp_path / name, plots=False)
        assert not (tmp_path / name / "balance.md").exists()
    done = subprocess.run(
        [sys.executable, "-m", "knightgym.balance", "report", str(tmp_path / "a")],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(pathlib.Path(knightgym.__file__).parent.parent)),
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(
        f"python -m knightgym.balance report: {tmp_path / 'a'}: {tmp_path / 'a' / 'balance.json'}: "
        "a balance result written before balance.json held its statistics"
    )
    assert done.stderr.count("\n") == 1


def test_rule_sets_that_played_the_same_games_are_one_sample():
    """Tailten's network plays a position alike from either seat, so first_player=1 plays
    first_player=0's games mirrored; MCTS at 1,600 simulations does not, though its counts
    happen to mirror too."""
    mirrored = json.loads((RUNS / "tailten_first_player_net" / "balance.json").read_text())
    assert [r["same_games_as"] for r in mirrored["rule_sets"]] == [
        None,
        {"rule_set": 0, "seats": [1, 0]},
    ]
    alike = json.loads((RUNS / "tailten_first_player_at_strength" / "balance.json").read_text())
    first, second = alike["rule_sets"]
    assert [s["wins"] for s in first["seats"]] == [s["wins"] for s in reversed(second["seats"])]
    assert second["same_games_as"] is None


def test_a_result_records_the_networks_that_played_it(knight_fight_run):
    # No network: none recorded.
    assert knight_fight_run[1]["networks"] == []
    assert knightgym.balance.networks("knight_fight", "mcts:sims=4,random") == []
    # The shipped network by its file name and the hash of its bytes, once however many
    # rule sets it plays (rules=any: the closest network's, here the one network's).
    shipped = pathlib.Path(knightgym.__file__).resolve().parents[3] / "models" / "knight_fight.pt"
    expected = [{"file": "knight_fight.pt", "fnv1a": f"{fnv1a(shipped.read_bytes()):016x}"}]
    agents = "az:model=pretrained,sims=2,rules=any"
    sweep = {"double_erase": ["optional", "off"]}
    assert knightgym.balance.networks("knight_fight", agents, sweep=sweep) == expected
    with pytest.raises(ValueError, match="unknown parameter 'bogus'"):
        knightgym.balance.networks("knight_fight", agents, sweep={"bogus": [1]})


@pytest.mark.needs_networks
def test_a_result_played_by_a_network_names_it():
    shipped = pathlib.Path(knightgym.__file__).resolve().parents[3] / "models" / "knight_fight.pt"
    expected = [{"file": "knight_fight.pt", "fnv1a": f"{fnv1a(shipped.read_bytes()):016x}"}]
    result = knightgym.balance.run(
        "knight_fight(max_turns=20)",
        agents="az:model=pretrained,sims=2,rules=any",
        games=2,
        sweep={"double_erase": ["optional", "off"]},
        progress=False,
    )
    assert result["networks"] == expected


def test_command_line_gives_the_same_figures_on_more_threads(knight_fight_run, tmp_path):
    _, result = knight_fight_run
    out = tmp_path / "cli"
    done = subprocess.run(
        [
            str(CLI),
            "balance",
            "knight_fight(max_turns=60)",
            "--agents",
            "mcts:sims=4,random",
            "--games",
            "40",
            "--sweep",
            "double_erase=optional,off",
            "--sweep",
            "mirror_on_moves=true",
            "--sprt",
            "a1=0.1",
            "--check-every",
            "20",
            "--seed",
            "5",
            "--threads",
            "2",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "## Seats" in done.stdout
    assert "rule set 2/2" in done.stderr  # the progress bar
    cli = json.loads((out / "balance.json").read_text())
    assert cli["threads"] == 2
    assert without_seconds(cli) == without_seconds(result)
    assert (out / "seat_win_rates.png").exists()


def _rule_set(label, players, wins, ranks, **figures):
    """A rule set of balance.json by hand: 12 games, no draws, two agents."""
    seats = [
        {
            "seat": s,
            "wins": w,
            "draws": 0,
            "losses": 12 - w,
            "win_rate": w / 12,
            "win_low": 0.25,
            "win_high": 0.75,
            "draw_rate": 0,
            "draw_low": 0,
            "draw_high": 0.2436,
            "loss_rate": 1 - w / 12,
            "loss_low": 0.25,
            "loss_high": 0.75,
            "mean_return": 0,
            "ranks": ranks[s],
        }
        for s, w in enumerate(wins)
    ]
    agent = {
        "spec": "mcts:sims=4",
        "games": 12,
        "wins": 7,
        "draws": 0,
        "losses": 5,
        "score": 0.625,
        "score_low": 0.4,
        "score_high": 0.85,
        "elo": 88.7,
        "elo_error": 50,
    }
    return {
        "label": label,
        "spec": f"knights_challenge({label})",
        "values": {},
        "players": players,
        "games": 12,
        "blocks": 6,
        "block_games": 2,
        "seconds": 1,
        "seats": seats,
        "first_seat_advantage": {
            "mean": 0.1667,
            "low": -0.05,
            "high": 0.38,
            "fixed_low": 0.01,
            "fixed_high": 0.32,
            "std_error": 0.11,
            "game_std_error": 0.1234,
            "block_sd": 0.27,
            "p_value": 0.2,
            "adjusted_p_value": 0.8,
            "p_even": 1,
            "adjusted_p_even": 1,
        },
        "verdict": "undecided",
        "balance_low": 0.5,
        "balance_high": 1,
        "as_fair_p_value": 1,
        "as_fair": True,
        "decisive": 11,
        "decisiveness": 11 / 12,
        "natural_draws": 0,
        "truncated": 1,
        "truncated_draws": 1,
        "length": {
            "mean": 40.26,
            "sd": 5.5,
            "min": 30,
            "max": 55,
            "percentiles": {"5": 31, "25": 36, "50": 40, "75": 44, "95": 52},
            "histogram": {"start": 30, "width": 1, "counts": [12]},
        },
        "agents": [agent, {**agent, "spec": "random", "elo": -88.7}],
        **figures,
    }


def test_markdown_has_every_section_from_the_json_alone():
    result = {
        "game": "knights_challenge",
        "agents": ["mcts:sims=4", "random"],
        "games_per_rule_set": 12,
        "threads": 1,
        "seed": 7,
        "check_every": 6,
        "sweeps": [{"key": "mode", "values": ["ffa3", "duel"]}],
        "sprt": {"a0": 0, "a1": 0.05, "alpha": 0.05, "beta": 0.1},
        "statistics": {
            "intervals": "confidence sequences at 95%, valid however the run stopped",
            "tuned_blocks": 6,
            "family_alpha": 0.05,
            "correction": "holm",
            "even_margin": 0.05,
        },
        "fairest": 1,
        "seconds": 2.6,
        "rule_sets": [
            _rule_set(
                "mode=ffa3",
                3,
                [6, 4, 2],
                [[6, 4, 2], [4, 4, 4], [2, 4, 6]],
                balance=0.6667,
                pentanomial=None,
                vs_first=None,
                sprt={
                    "decision": "undecided",
                    "llr": 1.234,
                    "lower": -2.89,
                    "upper": 2.944,
                    "games": 12,
                },
            ),
            _rule_set(
                "mode=duel",
                2,
                [7, 5],
                [[7, 5], [5, 7]],
                balance=0.8333,
                pentanomial=[1, 2, 3, 0, 0],
                vs_first={
                    "difference": -0.1,
                    "low": -0.3,
                    "high": -0.01,
                    "p_value": 0.0123,
                    "adjusted_p_value": 0.0123,
                    "significant": True,
                },
                sprt={"decision": "H1", "llr": 3.1, "lower": -2.89, "upper": 2.944, "games": 12},
            ),
        ],
    }
    # Shared first places in the first rule set, split; the second's shares unknown.
    for seat, share in zip(result["rule_sets"][0]["seats"], [0.45, 0.3, 0.25]):
        seat.update(win_share=share, win_share_low=share - 0.2, win_share_high=share + 0.2)
    result["rule_sets"][0]["same_games_as"] = None
    result["rule_sets"][1]["same_games_as"] = {"rule_set": 0, "seats": [1, 0]}
    lines = knightgym.balance.markdown(result).splitlines()

    def section(heading):
        """The lines under a heading, up to the next one."""
        start = lines.index(heading) + 1
        end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
        return [line for line in lines[start:end] if line]

    assert lines[:3] == ["# Balance: knights_challenge", "", "Agents: `mcts:sims=4` `random`"]
    assert lines[4] == (
        "At most 12 games per rule set, seed 7, 3 s. Sequential test of the first seat's "
        "advantage: H0 +0.000 against H1 +0.050, alpha 0.05, beta 0.1, a look every 6 games."
    )
    assert section("## Seats") == [
        "| rule set | games | seat 0 wins | seat 1 wins | seat 2 wins | draws "
        "| first-seat advantage | verdict | balance | decisive | truncated |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        "| mode=ffa3 | 12 | 50.0% (25.0-75.0) | 33.3% (25.0-75.0) | 16.7% (25.0-75.0) "
        "| 0.0% (0.0-24.4) | +0.167 (-0.050, +0.380) | undecided | 0.667 | 91.7% | 8.3% |",
        "| mode=duel | 12 | 58.3% (25.0-75.0) | 41.7% (25.0-75.0) | - "
        "| 0.0% (0.0-24.4) | +0.167 (-0.050, +0.380) | undecided | 0.833 | 91.7% | 8.3% |",
        "mode=duel played the games of mode=ffa3 again (seat 0 as seat 1, seat 1 as seat 0): "
        "one sample, not two, and its comparisons say nothing new.",
        "Fairest: **mode=duel** (balance 0.833, 0.500 to 1.000). As fair as far as the "
        "games tell (not shown less fair, Holm): mode=ffa3.",
    ]
    assert section("## Compared with mode=ffa3") == [
        "| rule set | advantage difference (95%) | p-value | Holm's p-value | significant |",
        "|---|---|---|---|---|",
        "| mode=duel | -0.100 (-0.300, -0.010) | 0.0123 | 0.0123 | yes |",
    ]
    assert section("## Sequential test") == [
        "| rule set | decision | LLR | bounds | games |",
        "|---|---|---|---|---|",
        "| mode=ffa3 | undecided | 1.23 | [-2.89, 2.94] | 12 |",
        "| mode=duel | H1 | 3.10 | [-2.89, 2.94] | 12 |",
    ]
    assert section("## Outcomes")[2:] == [
        "| mode=ffa3 | 0 | 1 (1) | 0.1100 / 0.1234 | - |",
        "| mode=duel | 0 | 1 (1) | 0.1100 / 0.1234 | 1 2 3 0 0 |",
    ]
    assert section("## Game length (decisions)") == [
        "| rule set | mean | sd | min | p5 | p25 | p50 | p75 | p95 | max |",
        "|---|---|---|---|---|---|---|---|---|---|",
        "| mode=ffa3 | 40.3 | 5.5 | 30 | 31 | 36 | 40 | 44 | 52 | 55 |",
        "| mode=duel | 40.3 | 5.5 | 30 | 31 | 36 | 40 | 44 | 52 | 55 |",
    ]
    assert section("## Ranks")[1:] == [
        "| rule set | seat | rank 1 | rank 2 | rank 3 |",
        "|---|---|---|---|---|",
        "| mode=ffa3 | 0 | 50.0% | 33.3% | 16.7% |",
        "| mode=ffa3 | 1 | 33.3% | 33.3% | 33.3% |",
        "| mode=ffa3 | 2 | 16.7% | 33.3% | 50.0% |",
        "| mode=duel | 0 | 58.3% | 41.7% | - |",
        "| mode=duel | 1 | 41.7% | 58.3% | - |",
    ]
    assert section("## Shares of the first places")[1:] == [
        "| rule set | seat 0 share | seat 1 share | seat 2 share |",
        "|---|---|---|---|",
        "| mode=ffa3 | 45.0% (25.0-65.0) | 30.0% (10.0-50.0) | 25.0% (5.0-45.0) |",
        "| mode=duel | - | - | - |",
    ]
    assert section("## Agents")[3:5] == [
        "| mode=ffa3 | `mcts:sims=4` | 12 | 7 | 0 | 5 | 62.5% (40.0-85.0) | +89 +- 98 |",
        "| mode=ffa3 | `random` | 12 | 7 | 0 | 5 | 62.5% (40.0-85.0) | -89 +- 98 |",
    ]
    assert section("## Rule sets in full") == [
        "- mode=ffa3: `knights_challenge(mode=ffa3)`",
        "- mode=duel: `knights_challenge(mode=duel)`",
    ]

    # One agent, default rules, no test: the sections that compare are left out.
    single = {
        **result,
        "agents": ["random"],
        "sprt": None,
        "rule_sets": [
            {**result["rule_sets"][1], "label": "default rules", "sprt": None, "vs_first": None}
        ],
        "fairest": 0,
    }
    headings = [
        line for line in knightgym.balance.markdown(single).splitlines() if line.startswith("## ")
    ]
    assert headings == [
        "## Seats",
        "## Outcomes",
        "## Game length (decisions)",
        "## Rule sets in full",
    ]


def test_command_line_without_plots_writes_balance_md(tmp_path):
    # A folder name with a quote and a space: no shell comes between the program and Python.
    out = tmp_path / "it's here"
    done = subprocess.run(
        [
            str(CLI),
            "balance",
            "knight_fight(max_turns=20)",
            "--agents",
            "random",
            "--games",
            "4",
            "--out",
            str(out),
            "--no-plots",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert sorted(p.name for p in out.iterdir()) == [
        "balance.json",
        "balance.md",
        "balance.progress",
    ]
    result = json.loads((out / "balance.json").read_text())
    markdown = (out / "balance.md").read_text()
    assert markdown == knightgym.balance.markdown(result)
    assert markdown in done.stdout
    assert f"wrote {out}/balance.md" in done.stdout

    # balance.md again from balance.json, with matplotlib not importable.
    (out / "balance.md").unlink()
    code = (
        "import runpy, sys\n"
        "sys.modules['matplotlib'] = None\n"
        f"sys.argv = ['balance', 'report', {str(out)!r}, '--no-plots']\n"
        "runpy.run_module('knightgym.balance', run_name='__main__')\n"
    )
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(knightgym.__file__).resolve().parent.parent))
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    assert (out / "balance.md").read_text() == markdown


def test_three_and_four_players_and_a_sweep_over_player_counts(tmp_path):
    result = knightgym.balance.run(
        "knights_challenge(max_turns=40)",
        agents="random,greedy,mcts:sims=2",
        games=6,
        sweep={"mode": ["ffa3", "ffa4", "duel"]},
        threads=2,
        out=tmp_path,
        progress=False,
    )
    players = [r["players"] for r in result["rule_sets"]]
    assert players == [3, 4, 2]
    for rule_set in result["rule_sets"]:
        assert len(rule_set["seats"]) == rule_set["players"]
        for seat in rule_set["seats"]:
            assert len(seat["ranks"]) == rule_set["players"]
            assert sum(seat["ranks"]) == 6
        # The shares of the first places split the shared ones: they add up to the games
        # with a winner.
        won = rule_set["games"] - rule_set["natural_draws"] - rule_set["truncated_draws"]
        shares = sum(seat["win_share"] for seat in rule_set["seats"])
        assert shares == pytest.approx(won / rule_set["games"])
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


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"sweep": {"colour": ["red"]}}, "colour"),
        ({"sweep": {"double_erase": ["sometimes"]}}, "sometimes"),
        ({"agents": "mcts:simz=3"}, "simz"),
        ({"agents": "random,greedy", "games": 3}, "multiple of the number of agents"),
        ({"sprt": "a0=0.2,a1=0.1"}, "a0 must be below a1"),
        ({"sprt": {"gamma": 1}}, "gamma"),
    ],
)
def test_bad_options_are_refused_by_name_and_write_nothing(tmp_path, kwargs, message):
    out = tmp_path / "never"
    options = {"agents": "random", "games": 4, "out": out, "progress": False, **kwargs}
    with pytest.raises(ValueError, match=message):
        knightgym.balance.run("knight_fight", **options)
    assert not out.exists()


def test_bad_sweep_types_are_refused():
    with pytest.raises(TypeError, match="list of values"):
        knightgym.balance.run("knight_fight", sweep={"max_turns": 5}, progress=False)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--agents", "random", "--games", "4"], "--out DIR is required"),
        (["--out", "X", "--games", "4"], "--agents"),
        (
            ["--agents", "random", "--games", "4", "--games", "5", "--out", "X"],
            "--games is given twice",
        ),
        (["--agents", "random", "--sweep", "max_turns", "--out", "X"], "KEY=V1,V2"),
        (["--agents", "random", "--sprt", "a1=x", "--out", "X"], "a1"),
        (["--agents", "random", "--seeds", "3", "--out", "X"], "unknown flag --seeds"),
    ],
)
def test_command_line_errors(tmp_path, args, message):
    args = [str(tmp_path / "X") if a == "X" else a for a in args]
    done = subprocess.run(
        [str(CLI), "balance", "knight_fight", *args], capture_output=True, text=True
    )
    assert done.returncode == 1
    assert message in done.stderr
    assert not (tmp_path / "X").exists()


def test_ctrl_c_stops_a_run_with_its_progress_saved(tmp_path):
    # A run of a million short games (a minute on two threads), interrupted after a second.
    # The child installs Python's own SIGINT handler: a shell that starts make in the
    # background ignores SIGINT, and its children inherit that.
    out = tmp_path / "stopped"
    code = (
        "import signal\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "import knightgym.balance\n"
        "print('ready', flush=True)\n"
        "knightgym.balance.run('knight_fight', agents='mcts:sims=8', games=10**6, "
        f"threads=2, out={str(out)!r}, progress=False)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(knightgym.__file__).resolve().parent.parent))
    child = subprocess.Popen(
        [sys.executable, "-X", "faulthandler", "-c", code],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline() == "ready\n"
    time.sleep(1)  # inside the C++ run
    child.send_signal(signal.SIGINT)
    try:
        _, stderr = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGABRT)  # faulthandler prints where it is
        pytest.fail("still running a minute after Ctrl-C:\n" + child.communicate()[1])
    assert child.returncode != 0
    assert "KeyboardInterrupt" in stderr and "in run\n" in stderr
    assert (out / "balance.progress").exists() and not (out / "balance.json").exists()


def test_sigterm_stops_the_command_with_its_progress_saved(tmp_path):
    # The command stops on SIGTERM (as `timeout` sends it), saves the games folded so far,
    # and a resumed run finishes.
    out = tmp_path / "stopped"
    args = [str(CLI), "balance", "knight_fight", "--agents", "mcts:sims=8", "--games", "1000000"]
    args += ["--threads", "2", "--out", str(out), "--resume", "--no-plots"]
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert child.stderr.read(1) == "["  # the progress bar: the run (and its handler) began
    time.sleep(0.5)
    child.send_signal(signal.SIGTERM)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 128 + signal.SIGTERM
    assert "holds them, and --resume goes on (signal 15)" in stderr
    progress = json.loads((out / "balance.progress").read_text())
    assert progress["rule_sets"][0]["tally"]["games"] > 0
    assert not (out / "balance.json").exists()


def test_a_killed_run_resumes_where_it_stopped(tmp_path):
    # Two rule sets: the run is killed (SIGKILL, no chance to tidy up) once the first one
    # is saved, then resumed; balance.json equals an unbroken run's but for timings.
    args = [
        "knight_fight",
        "--agents",
        "mcts:sims=16",
        "--games",
        "3000",
        "--seed",
        "4",
        "--sweep",
        "mirror_on_moves=true,false",
        "--no-plots",
    ]
    stopped = tmp_path / "stopped"
    progress = stopped / "balance.progress"
    child = subprocess.Popen(
        [str(CLI), "balance", *args, "--out", str(stopped)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    while not progress.exists() and child.poll() is None:
        time.sleep(0.005)
    child.kill()
    child.wait()
    assert progress.exists() and not (stopped / "balance.json").exists()
    saved = progress.read_text()
    refused = subprocess.run(
        [str(CLI), "balance", *args, "--out", str(stopped)], capture_output=True, text=True
    )
    assert refused.returncode == 1
    assert "holds a run's progress: --resume goes on with it" in refused.stderr
    assert progress.read_text() == saved

    subprocess.run(
        [str(CLI), "balance", *args, "--out", str(stopped), "--resume"],
        check=True,
        capture_output=True,
    )
    assert progress.exists()  # the run finished, its progress kept to extend it
    unbroken = knightgym.balance.run(
        "knight_fight",
        agents="mcts:sims=16",
        games=3000,
        seed=4,
        sweep={"mirror_on_moves": [True, False]},
        out=tmp_path / "unbroken",
        progress=False,
        plots=False,
        resume=True,
    )  # resume with no progress file: a fresh run
    resumed = json.loads((stopped / "balance.json").read_text())

    def without_timings(result):
        result = {k: v for k, v in result.items() if k != "seconds"}
        result["rule_sets"] = [
            {k: v for k, v in s.items() if k != "seconds"} for s in result["rule_sets"]
        ]
        return result

    assert without_timings(resumed) == without_timings(unbroken)
    # Other options do not resume another run's progress.
    progress.write_text(saved)
    with pytest.raises(ValueError, match="a run with other options"):
        knightgym.balance.run(
            "knight_fight",
            agents="mcts:sims=16",
            games=3000,
            seed=5,
            sweep={"mirror_on_moves": [True, False]},
            out=stopped,
            progress=False,
            resume=True,
        )


def test_a_finished_run_is_extended_with_more_games_never_written_over(tmp_path):
    out = tmp_path / "done"
    first = knightgym.balance.run(
        "knight_fight", agents="random", games=200, out=out, plots=False, progress=False
    )
    before = (out / "balance.json").read_bytes()
    # Its progress stays beside it: a new run there is refused, the file left as it is.
    assert (out / "balance.progress").exists()
    with pytest.raises(ValueError, match="holds a run's progress: --resume goes on"):
        knightgym.balance.run("knight_fight", agents="random", games=400, out=out, progress=False)
    assert (out / "balance.json").read_bytes() == before
    # --resume with more games extends it: the first 200 games, then 200 more, the
    # sequences tuned as at its start.
    extended = subprocess.run(
        [str(CLI), "balance", "knight_fight", "--agents", "random", "--games", "400"]
        + ["--out", str(out), "--resume", "--no-plots"],
        capture_output=True,
        text=True,
    )
    assert extended.returncode == 0, extended.stderr
    result = json.loads((out / "balance.json").read_text())
    unbroken = knightgym.balance.run("knight_fight", agents="random", games=400, progress=False)
    assert result["rule_sets"][0]["games"] == 400
    assert (
        result["rule_sets"][0]["seats"][0]["wins"] == unbroken["rule_sets"][0]["seats"][0]["wins"]
    )
    assert result["statistics"]["tuned_blocks"] == first["statistics"]["tuned_blocks"] == 200
    assert unbroken["statistics"]["tuned_blocks"] == 400

    # A finished run without its progress (as runs were written before) is refused.
    (out / "balance.progress").unlink()
    again = subprocess.run(
        [str(CLI), "balance", "knight_fight", "--agents", "random", "--out", str(out), "--resume"],
        capture_output=True,
        text=True,
    )
    assert again.returncode == 1
    assert "a finished run is there, without the progress to extend it" in again.stderr
    assert json.loads((out / "balance.json").read_text()) == result


def test_agents_are_labelled_by_kind_and_budget():
    label = knightgym.balance.agent_label
    assert label("az:model=pretrained,sims=64,device=cuda,rules=any") == "az:sims=64"
    assert label("uci:engine=fairy-stockfish,nodes=1000,movetime=0") == "uci:nodes=1000"
    assert label("mcts:sims=400,c=1.4") == "mcts:sims=400"
    assert label("random") == "random"
    # read by the command line's parser: a bracketed value may hold commas
    assert label("az:model=[nets/a,b.pt],sims=8") == "az:sims=8"
    with pytest.raises(ValueError):
        label("az:sims")


def test_ctrl_c_stops_a_run_with_a_runner_and_saves_its_progress(tmp_path):
    # A runner of our own (as the Ray one is): the chunks it hands back before Ctrl-C are
    # kept, and the run resumed without it equals an unbroken one.
    from knightgym import _knightgym

    options = dict(
        game="knight_fight",
        sweeps=[],
        agents=["mcts:sims=4"],
        games=400,
        threads=1,
        seed=2,
        sprt=None,
        check_every=100,
        batch=0,
        chunk=0,
        opening_plies=0,
    )
    player = _knightgym.BalanceChunkPlayer(**options)
    handed = []

    def runner(rule_set, first, count, consume):
        for tally in player.play(rule_set, first, count):
            consume(tally)
            handed.append(tally)
            if len(handed) == 3:
                signal.raise_signal(signal.SIGINT)

    out = tmp_path / "stopped"
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            _knightgym.run_balance(
                **options, out=str(out), resume=False, progress=False, runner=runner
            )
    finally:
        signal.signal(signal.SIGINT, previous)
    progress = json.loads((out / "balance.progress").read_text())
    assert progress["rule_sets"][0]["chunks_done"] == 3
    resumed = json.loads(
        _knightgym.run_balance(**options, out=str(out), resume=True, progress=False)
    )
    unbroken = json.loads(_knightgym.run_balance(**options, out=None, resume=False, progress=False))
    assert resumed["rule_sets"][0]["seats"] == unbroken["rule_sets"][0]["seats"]
