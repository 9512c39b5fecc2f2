"""tools/reports/rule_strength.py: a row per rule set of a balance run with the network's record,
score and interval, the target met or not, another run's score beside it by spec, and a
run that is not a finished balance run refused by name."""

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
TOOL = ROOT / "tools" / "reports" / "rule_strength.py"


def agent(wins, draws, losses, low, high):
    games = wins + draws + losses
    score = (wins + draws / 2) / games
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": score,
        "score_low": low,
        "score_high": high,
    }


def write_run(folder, rows):
    folder.mkdir()
    rule_sets = [
        {"spec": spec, "label": label, "values": dict([label.split("=")]), "agents": [a]}
        for spec, label, a in rows
    ]
    (folder / "balance.json").write_text(json.dumps({"rule_sets": rule_sets}))
    return folder


def run(*args):
    return subprocess.run(
        [sys.executable, str(TOOL), *map(str, args)], capture_output=True, text=True, timeout=60
    )


def test_a_row_per_rule_set_with_the_other_runs_score_beside(tmp_path):
    new = write_run(
        tmp_path / "new",
        [
            ("g(a=0)", "a=0", agent(80, 0, 20, 0.71, 0.87)),
            ("g(a=1)", "a=1", agent(70, 2, 28, 0.61, 0.79)),
        ],
    )
    old = write_run(tmp_path / "old", [("g(a=1)", "a=1", agent(40, 0, 60, 0.31, 0.50))])
    done = run(new, "--beside", old)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[2] == "| a=0 | 100 | 80-0-20 | 80.0% (71.0, 87.0) | yes | - |"
    assert lines[3] == "| a=1 | 100 | 70-2-28 | 71.0% (61.0, 79.0) | no | 40.0% (31.0, 50.0) |"
    assert lines[-1] == "1 of 2 rule sets reach 75%."
    assert run(new, "--target", 0.7).stdout.splitlines()[-1] == "2 of 2 rule sets reach 70%."
    assert run(new / "balance.json").stdout == run(new).stdout  # the file, or its folder


def test_a_run_that_is_no_finished_balance_run_is_named(tmp_path):
    (tmp_path / "half").mkdir()
    (tmp_path / "half" / "balance.json").write_text('{"rule_sets": [{}]}')
    done = run(tmp_path / "half")
    assert done.returncode != 0 and "half/balance.json: not a finished balance run" in done.stderr
    assert "balance.json: not a finished" in run(tmp_path / "none").stderr
