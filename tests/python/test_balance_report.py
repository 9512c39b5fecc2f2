"""The runs behind docs/balance.md (tools/reports/balance_report.py over balance_plan.py,
balance_runs.py, balance_replay.py and balance_splice.py) and its tables
(knightgym.balance_summary): a result played by a network shipped anew since is found
stale, set aside under superseded/ with why it was played again, and set beside its replay
in the report's "old against new" table; the progress of a run under way is committed
with the data and taken back into OUT by the next `run`; the fresh tables go in place of
the page's with the same columns."""

import argparse
import json
import pathlib
import sys

import knightgym.balance
import pytest
from knightgym import balance_summary

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "reports"))
import balance_plan  # noqa: E402
import balance_replay  # noqa: E402
import balance_runs  # noqa: E402
import balance_splice  # noqa: E402

pytestmark = pytest.mark.needs_networks  # the runs here are played by a shipped network


@pytest.fixture
def folders(tmp_path):
    """A plan of Knight Fight alone, playing few games, and its DATA and OUT."""
    levels = dict.fromkeys(balance_plan.LEVELS, 2)
    plan = balance_plan.Plan(
        {
            "knight_fight": {
                "ladder": {"name": "kf", "spec": "knight_fight", "games": 2},
                "games": levels,
            }
        }
    )
    args = argparse.Namespace(
        data=str(tmp_path / "data"),
        out=str(tmp_path / "out"),
        build=str(ROOT / "build"),
        threads=1,
        device=None,
        batch=None,
        only=None,
        reason="its network was shipped anew",
    )
    return plan, args


def play(plan, folder, name, sims=2):
    """Plays the plan's run NAME into FOLDER/NAME, in few games and simulations."""
    run = plan.runs[name]
    agents = run.agents.replace("sims=64", f"sims={sims}")
    return knightgym.balance.run(
        run.game,
        agents=agents,
        games=2,
        seed=1,
        out=pathlib.Path(folder) / name,
        progress=False,
        plots=False,
    )


def rewrite(path, **fields):
    result = json.loads(path.read_text())
    for key, value in fields.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = value
    path.write_text(json.dumps(result))


def test_a_result_is_stale_when_its_network_was_shipped_anew(folders):
    plan, args = folders
    play(plan, args.data, "knight_fight_net64")
    play(plan, args.data, "knight_fight_weak")
    assert balance_replay.stale(args.data, plan) == []

    net64 = pathlib.Path(args.data) / "knight_fight_net64" / "balance.json"
    weak = pathlib.Path(args.data) / "knight_fight_weak" / "balance.json"
    rewrite(net64, networks=[{"file": "knight_fight.pt", "fnv1a": "0" * 16}])
    assert balance_replay.stale(args.data, plan) == ["knight_fight_net64"]
    # From before results recorded their networks: stale where a network plays.
    rewrite(net64, networks=None)
    rewrite(weak, networks=None)
    assert balance_replay.stale(args.data, plan) == ["knight_fight_net64"]


def test_a_replaced_result_is_set_aside_with_why_and_shown_beside_its_replay(folders):
    plan, args = folders
    play(plan, args.data, "knight_fight_net64")
    play(plan, args.out, "knight_fight_net64")
    under_way = pathlib.Path(args.out) / "knight_fight_weak"
    under_way.mkdir(parents=True)
    (under_way / "balance.progress").write_text("progress")

    balance_replay.supersede(args, ["knight_fight_net64", "knight_fight_weak"], "a reason")
    data = pathlib.Path(args.data)
    old = data / "superseded" / "knight_fight_net64"
    assert (old / "balance.json").exists() and not (data / "knight_fight_net64").exists()
    assert json.loads((old / "replaced.json").read_text())["reason"] == "a reason"
    # The finished result in OUT goes, so that `run` plays it again; progress stays.
    assert not (pathlib.Path(args.out) / "knight_fight_net64" / "balance.json").exists()
    assert (under_way / "balance.progress").read_text() == "progress"

    contents = plan.contents(balance_replay.SUPERSEDED)
    waiting = balance_summary.old_against_new(args.data, contents).splitlines()
    assert len(waiting) == 3 and "| playing again |" in waiting[2]  # not played again yet
    play(plan, args.data, "knight_fight_net64", sims=4)
    table = balance_summary.old_against_new(args.data, contents).splitlines()
    assert len(table) == 3 and table[0].startswith("| run | rule set | old player |")
    cells = [cell.strip() for cell in table[2].split("|")[1:-1]]
    assert cells[0] == "knight_fight_net64" and cells[1] == "default rules"
    hash_ = knightgym.balance.networks("knight_fight", "az:model=pretrained")[0]["fnv1a"][:8]
    assert (cells[2], cells[6]) == (f"`az:sims=2 ({hash_})`", f"`az:sims=4 ({hash_})`")
    assert cells[3] == cells[7] == "2"
    assert float(cells[5]) >= 0 and float(cells[9]) >= 0  # each run's draws, in percent
    assert cells[-1] == "a reason"


def saved_progress(note, device=None):
    """A run's progress as balance.progress begins: its players (a network's with its
    device), and a note to tell one from another."""
    network = f"az:model=pretrained,sims=2,device={device}" if device else "mcts:sims=16"
    return json.dumps({"run": {"agents": [network]}, "note": note})


def test_progress_under_way_is_committed_and_taken_back(folders):
    plan, args = folders
    out, data = pathlib.Path(args.out), pathlib.Path(args.data)
    progress = out / "knight_fight_weak" / "balance.progress"
    progress.parent.mkdir(parents=True)
    progress.write_text(saved_progress("first"))
    balance_runs.archive(args.out, args.data, plan)
    assert (data / "knight_fight_weak" / "balance.progress").read_text() == saved_progress("first")

    # A fresh clone: OUT is empty, and the run goes on from the committed progress.
    progress.unlink()
    balance_runs.restore_progress(args, "knight_fight_weak")
    assert progress.read_text() == saved_progress("first")
    # OUT's own progress is newer and stays.
    progress.write_text(saved_progress("newer"))
    balance_runs.restore_progress(args, "knight_fight_weak")
    assert progress.read_text() == saved_progress("newer")

    # Finished: the result replaces the progress in DATA.
    progress.unlink()
    play(plan, args.out, "knight_fight_weak")
    balance_runs.archive(args.out, args.data, plan)
    assert (data / "knight_fight_weak" / "balance.json").exists()
    assert not (data / "knight_fight_weak" / "balance.progress").exists()


def test_progress_of_networks_on_another_device_is_not_taken_back(folders, capsys):
    _, args = folders
    saved = pathlib.Path(args.data) / "knight_fight_net64" / "balance.progress"
    saved.parent.mkdir(parents=True)
    saved.write_text(saved_progress("on the CPU", device="cpu"))
    target = pathlib.Path(args.out) / "knight_fight_net64" / "balance.progress"
    args.device = "cuda"
    balance_runs.restore_progress(args, "knight_fight_net64")
    assert not target.exists()
    assert "played with networks on cpu; it starts afresh on cuda" in capsys.readouterr().out
    args.device = None
    balance_runs.restore_progress(args, "knight_fight_net64")
    assert target.read_text() == saved_progress("on the CPU", device="cpu")


def test_device_and_batch_reach_the_networks_alone(folders):
    plan, args = folders
    args.device, args.batch = "cuda", 250
    command = balance_runs.command_of(args, "knight_fight_net64", plan.runs["knight_fight_net64"])
    agents = command[command.index("--agents") + 1]
    assert agents == "az:model=pretrained,sims=64,device=cuda"
    assert command[command.index("--batch") + 1] == "250"
    command = balance_runs.command_of(args, "knight_fight_weak", plan.runs["knight_fight_weak"])
    assert command[command.index("--agents") + 1] == "mcts:sims=16" and "--batch" not in command
    mixed = "random,mcts:sims=400,az:model=pretrained,sims=64,rules=any,uci:nodes=10"
    assert balance_runs.on_device(mixed, "cuda") == (
        "random,mcts:sims=400,az:model=pretrained,sims=64,rules=any,device=cuda,uci:nodes=10"
    )


def test_a_sweeps_network_run_keeps_its_batch_refilled_within_its_chunks(folders):
    _, args = folders
    network = {"run": "net", "games": 400, "batch": 32, "chunk": 200}
    sweep = {"title": "t", "run": "weak", "sweep": ["mirror_on_moves=false,true"], "games": 2}
    ladder = {"name": "kf", "spec": "knight_fight", "games": 2}

    def plan_of(with_network):
        study = {"ladder": ladder, "sweeps": [{**sweep, "with_network": with_network}]}
        return balance_plan.Plan({"knight_fight": study})

    run = plan_of(network).runs["knight_fight_net"]
    command = balance_runs.command_of(args, "knight_fight_net", run)
    assert command[command.index("--batch") + 1 :][:3] == ["32", "--chunk", "200"]
    # A GPU's batch larger than the chunk: the batch's games start together.
    args.batch = 400
    command = balance_runs.command_of(args, "knight_fight_net", run)
    assert command[command.index("--batch") + 1] == "400" and "--chunk" not in command
    run = plan_of({"run": "net", "games": 4}).runs["knight_fight_net"]
    assert (run.batch, run.chunk) == (20, 0)


def test_a_player_on_a_gpu_is_rated_as_on_the_cpu():
    on_gpu = "az:model=pretrained,sims=64,device=cuda,threads=0"
    assert balance_summary.same_player(on_gpu) == "az:model=pretrained,sims=64,threads=0"
    assert balance_summary.same_player(on_gpu.replace("cuda", "cpu")) == (
        balance_summary.same_player(on_gpu)
    )
    assert balance_summary.same_player("random") == "random"
    assert balance_summary.same_player("az:model=[a,b.pt],device=cuda,sims=8") == (
        "az:model=[a,b.pt],sims=8"
    )


def test_a_damaged_progress_is_named(tmp_path):
    progress = tmp_path / "balance.progress"
    progress.write_text('{"run": ')
    with pytest.raises(SystemExit, match="balance.progress: not a run's progress"):
        balance_runs.network_device(progress)


def test_summarize_into_replaces_the_tables_with_the_same_columns(tmp_path):
    report = "\n".join(
        [
            "# Report",
            "| game | agent | Elo (95%) | games | old |",
            "|---|---|---|---|---|",
            "| kf | random | 0 | 10 | x |",
            "",
            "Words stay.",
            "| mode | mcts:sims=16: advantage (95%) | balance |",
            "|---|---|---|",
            "| ffa4 | +0.1 | 0.9 |",
            "| duel | +0.2 | 0.8 |",
        ]
    )
    summary = "\n".join(
        [
            "## Across strength",
            "",
            "| game | agent | Elo (95%) | games | new | more |",
            "|---|---|---|---|---|---|",
            "| kf | random | 0 | 20 | y | z |",
            "",
            "| mode | mcts:sims=16: advantage (95%) | balance | az:sims=64: advantage (95%) |",
            "|---|---|---|---|",
            "| ffa4 | +0.1 | 0.9 | -0.1 |",
            "",
            "| run | rule set | old player | games |",
            "|---|---|---|---|",
        ]
    )
    page = tmp_path / "report.md"
    page.write_text(report)
    unplaced = balance_splice.splice(page, summary)
    assert page.read_text().split("\n") == [
        "# Report",
        "| game | agent | Elo (95%) | games | new | more |",
        "|---|---|---|---|---|---|",
        "| kf | random | 0 | 20 | y | z |",
        "",
        "Words stay.",
        "| mode | mcts:sims=16: advantage (95%) | balance | az:sims=64: advantage (95%) |",
        "|---|---|---|---|",
        "| ffa4 | +0.1 | 0.9 | -0.1 |",
    ]
    assert unplaced == ["| run | rule set | old player | games |"]


def test_the_trend_counts_both_errors_and_the_misfit():
    import numpy as np

    x = np.array([0.0, 300.0, 600.0, 900.0])
    se_x = np.array([1e-9, 60.0, 70.0, 80.0])
    se_y = np.array([0.02, 0.02, 0.02, 0.02])
    # Points on a line: that slope, no misfit to scale by.
    y = 0.1 - 0.0005 * x
    slope, intercept, slope_se, misfit, dof = balance_summary.weighted_trend(x, y, se_x, se_y)
    assert slope == pytest.approx(-0.0005) and intercept == pytest.approx(0.1)
    assert misfit == pytest.approx(0, abs=1e-12) and dof == 2
    # The Elo's errors widen the slope's: weights 1 / (se_y² + slope² se_x²).
    _, _, without_x, _, _ = balance_summary.weighted_trend(x, y, np.full(4, 1e-9), se_y)
    assert slope_se > without_x
    # Points that scatter beyond their errors: the error grows by sqrt(chi²/dof).
    scattered = y + np.array([0.1, -0.1, 0.1, -0.1])
    s = balance_summary.weighted_trend(x, scattered, se_x, se_y)
    assert s[3] > 1
    w = 1 / (se_y**2 + s[0] ** 2 * se_x**2)
    mean_x = np.sum(w * x) / np.sum(w)
    assert s[2] == pytest.approx(np.sqrt(s[3] / np.sum(w * (x - mean_x) ** 2)))


def test_a_player_who_won_every_game_is_a_floor(tmp_path):
    ladders = tmp_path / "ladders"
    ladders.mkdir()
    ratings = [
        {"spec": "random", "elo": 0, "half_width": 0, "score": 0.1},
        {"spec": "az:model=pretrained,sims=64", "elo": 1032, "half_width": 240, "score": 1.0},
    ]
    (ladders / "kf.json").write_text(json.dumps({"ratings": ratings}))
    table = balance_summary.elo_table(tmp_path, ["kf"])["kf"]
    assert table["random"] == (0, 0, False)
    assert table["az:model=pretrained,sims=64"] == (1032, 240, True)
