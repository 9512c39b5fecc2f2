"""The shell scripts of tools/ that CI or the docs depend on, run for real on small settings
(issue 60): a taught training run (tools/lib/taught_run.sh) with its settings, minutes and
processor seconds written and a stopped run resumed; an A/B comparison
(tools/lib/compare_arms.sh) trained, rated and tabled by tools/lib/compare_arms_report.py;
the two experiments that call it handing it their arms' folder; the strength reports
(tools/reports/strength_ladders.sh, strength_networks.sh) keeping what is there and playing
what is not; and the usage errors of each, which must fail and name what is missing.

Every script runs from the repository root with BUILD set to the build under test, on the
cheapest game with a network of one block, a few simulations and budgets of a few seconds.
Where a script's own arms are too costly to finish here (the experiments' arms train at the
game's defaults), it is started, checked once every run has its settings, and stopped."""

import csv
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import knightgym
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "tools" / "lib"))
import studies  # noqa: E402

CLI = BUILD / "knightgym"
ENV = {**os.environ, "BUILD": str(BUILD), "PYTHON": sys.executable}
GAME = "tailten"  # the cheapest game to train and to play
TEACHER_GAME = "double_duel"  # a game with arms in tools/experiments/teacher/
TAUGHT_RUN = "tools/lib/taught_run.sh"
COMPARE_ARMS = "tools/lib/compare_arms.sh"
SAMPLE_EFFICIENCY = "tools/experiments/sample_efficiency/run.sh"
TEACHER = "tools/experiments/teacher/run.sh"

# Training settings that make a run of a few seconds: a network of one block, four
# simulations, four games at once, training from the first sixteen decisions, a metrics
# row and a checkpoint every second, no match rounds.
TINY = """\
# A tiny run for the tests.
blocks=1
channels=8
sims=4
considered=4
games=4
batch=16
min_replay=16
match_games=0
threads=1
log_seconds=1
checkpoint_seconds=1
"""
# A teacher whose data takes a second, most of it loading: roll-out MCTS at 8 simulations
# plays four games.
TINY_TEACH = """\
# A tiny teacher for the tests.
--teacher mcts:sims=8 --games 4 --threads 1
teacher_steps=20
"""


def script(*args, env=None, timeout=120):
    """A script's finished run, from the repository root, with BUILD and PYTHON set."""
    return subprocess.run(
        list(args),
        cwd=ROOT,
        env={**ENV, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def start(*args):
    """A script started in a session of its own, so that it and every run it starts can be
    stopped together."""
    return subprocess.Popen(
        list(args),
        cwd=ROOT,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def wait_for(condition, what, seconds=60):
    """Waits until condition() holds; fails, naming what, after so many seconds."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"no {what} after {seconds} s"
        time.sleep(0.1)


def stop(process, sig=signal.SIGTERM):
    """Sends sig to the process's session and waits until none of its processes is left
    (SIGKILL after 30 s)."""
    try:
        os.killpg(process.pid, sig)
    except ProcessLookupError:  # all of them have ended already
        pass
    process.wait(timeout=30)
    deadline = time.monotonic() + 30
    while True:
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            return
        if time.monotonic() > deadline:
            os.killpg(process.pid, signal.SIGKILL)
            return
        time.sleep(0.1)


def metrics(run):
    """A training run's metrics.csv, a dict a row."""
    with open(run / "metrics.csv", newline="") as f:
        return list(csv.DictReader(f))


def cpu_lines(run):
    """RUN.cpu's lines, each checked to be a session's user and system seconds."""
    lines = pathlib.Path(f"{run}.cpu").read_text().splitlines()
    for line in lines:
        user, system = (float(x) for x in line.split())
        assert user >= 0 and system >= 0, line
    return lines


def rows_of(key, *fields):
    """Every game's studies' rows at KEY (a list of objects), as tuples of FIELDS."""
    return [
        tuple(row.get(field, "") for field in fields)
        for game in studies.games(key)
        for row in studies.get(game, key)
    ]


@pytest.mark.needs_networks  # it trains or plays networks
def test_taught_run_writes_its_settings_and_seconds_and_a_stopped_run_goes_on(tmp_path):
    settings = tmp_path / "tiny.txt"
    settings.write_text(TINY)
    run = tmp_path / "run"
    process = start(TAUGHT_RUN, GAME, str(run), "0.05", str(settings), "", "7")
    try:
        wait_for(lambda: (run / "metrics.csv").exists() and metrics(run), "metrics row")
    finally:
        stop(process, signal.SIGINT)
    assert process.returncode == 128 + signal.SIGINT  # the run checkpoints and stops
    assert pathlib.Path(f"{run}.txt").read_text() == TINY + "seed=7\n"
    assert pathlib.Path(f"{run}.minutes").read_text() == "0.05\n"
    assert len(cpu_lines(run)) == 1
    stopped = metrics(run)

    # Run again, it resumes with the minutes it started with, not the 5 given now.
    again = script(TAUGHT_RUN, GAME, str(run), "5", str(settings), "", "7", timeout=60)
    assert again.returncode == 0, again.stderr
    assert pathlib.Path(f"{run}.txt").read_text() == TINY + "seed=7\n"
    assert len(cpu_lines(run)) == 2
    resumed = metrics(run)
    assert resumed[0] == stopped[0], "the resumed run started again"
    assert int(resumed[-1]["step"]) > int(stopped[-1]["step"])
    assert float(resumed[-1]["seconds"]) <= 0.05 * 60 + 3


@pytest.mark.needs_networks  # it trains or plays networks
def test_taught_run_makes_the_teachers_data_then_trains_for_what_is_left(tmp_path):
    settings = tmp_path / "tiny.txt"
    settings.write_text(TINY)
    teach = tmp_path / "tiny.teach"
    teach.write_text(TINY_TEACH)
    run = tmp_path / "run"
    done = script(TAUGHT_RUN, GAME, str(run), "0.1", str(settings), str(teach), "3")
    assert done.returncode == 0, done.stderr
    assert pathlib.Path(f"{run}.txt").read_text() == (
        TINY + f"seed=3\nteacher={run}.teach\nteacher_steps=20\n"
    )
    assert list(pathlib.Path(f"{run}.teach").glob("shard-*.kgt"))
    assert 0 < float(pathlib.Path(f"{run}.minutes").read_text()) < 0.1
    assert len(cpu_lines(run)) == 2  # the teacher's session and the training's
    config = json.loads((run / "config.json").read_text())["settings"]
    assert (config["teacher"], config["teacher_steps"], config["seed"]) == (f"{run}.teach", 20, 3)
    assert metrics(run)

    # A teacher that takes all of the minutes leaves none to train: a clear error.
    short = tmp_path / "short"
    refused = script(TAUGHT_RUN, GAME, str(short), "0.001", str(settings), str(teach), "3")
    assert refused.returncode == 1
    assert "the teacher's data took all of the 0.001 minutes" in refused.stderr
    assert not short.exists() and not pathlib.Path(f"{short}.minutes").exists()


def test_taught_run_refuses_what_is_missing_before_it_writes_anything(tmp_path):
    settings = tmp_path / "tiny.txt"
    settings.write_text(TINY)
    run = str(tmp_path / "run")
    usage = "usage: tools/lib/taught_run.sh GAME RUN MINUTES SETTINGS"
    for args, message in [
        ((), usage),
        ((GAME, run, "0.1"), usage),
        ((GAME, run, "soon", str(settings)), "MINUTES must be a number above 0, not 'soon'"),
        ((GAME, run, "0", str(settings)), "MINUTES must be a number above 0, not '0'"),
        ((GAME, run, "0.1", str(settings), str(tmp_path / "none.teach")), "no teacher file"),
    ]:
        refused = script(TAUGHT_RUN, *args)
        assert refused.returncode != 0 and message in refused.stderr, (args, refused.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.txt"]


@pytest.mark.needs_networks  # it trains or plays networks
def test_compare_arms_trains_rates_and_tables_every_arm_and_goes_on_when_run_again(tmp_path):
    arms = tmp_path / "arms"
    arms.mkdir()
    (arms / "selfplay.txt").write_text(TINY)
    (arms / "taught.txt").write_text(TINY)
    (arms / "taught.teach").write_text(TINY_TEACH)
    out = tmp_path / "out"
    field = {"FIELD": "random"}
    done = script(COMPARE_ARMS, str(arms), GAME, str(out), "0.1", "1", "1", env=field)
    assert done.returncode == 0, done.stderr
    runs = [out / f"{arm}-seed{seed}" for arm in ("selfplay", "taught") for seed in (1, 2)]
    agents = {f"az:model={run}/model.pt,sims=64" for run in runs}
    for run in runs:
        seed = run.name[-1]
        taught = run.name.startswith("taught")
        lines = pathlib.Path(f"{run}.txt").read_text().splitlines()
        assert f"seed={seed}" in lines
        assert (f"teacher={run}.teach" in lines) == taught
        assert pathlib.Path(f"{run}.teach").is_dir() == taught
        assert (run / "model.pt").exists()
        target = json.loads(pathlib.Path(f"{run}-target.json").read_text())["agents"]
        assert target[0]["name"] == f"az:model={run}/model.pt,sims=64"
        assert target[1]["name"] == "mcts:sims=800" and target[0]["games"] == 1
    ladder = json.loads((out / "ladder.json").read_text())
    assert {r["name"] for r in ladder["ratings"]} == agents | {"random"}

    report = script(sys.executable, "tools/lib/compare_arms_report.py", str(out))
    assert report.returncode == 0, report.stderr
    # The table's rows, each a list of its cells, without the header and its rule.
    table = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in report.stdout.splitlines()
        if line.startswith("|")
    ][2:]
    assert [row[:2] for row in table] == [
        ["selfplay", "1"],
        ["selfplay", "2"],
        ["taught", "1"],
        ["taught", "2"],
    ]
    for row, run in zip(table, runs):
        assert row[3] == metrics(run)[-1]["step"]
    for line in ("- selfplay: mean Elo ", "- taught: mean Elo ", "- fixed agents: "):
        assert line in report.stdout
    assert "`random` 0" in report.stdout  # the anchor

    # Run again, the runs resume and the matches already there are kept.
    kept = {p: p.stat().st_mtime_ns for p in [out / "ladder.json", *out.glob("*-target.json")]}
    first_rows = {run: metrics(run)[0] for run in runs}
    again = script(COMPARE_ARMS, str(arms), GAME, str(out), "0.1", "1", "1", env=field)
    assert again.returncode == 0, again.stderr
    assert {p: p.stat().st_mtime_ns for p in kept} == kept
    for run in runs:
        assert metrics(run)[0] == first_rows[run], f"{run} started again"
        assert len(cpu_lines(run)) == (3 if run.name.startswith("taught") else 2)


@pytest.mark.needs_networks  # it trains or plays networks
def test_compare_arms_names_what_is_missing_and_each_run_that_failed(tmp_path):
    usage = "usage: tools/lib/compare_arms.sh ARMS GAME OUT"
    refused = script(COMPARE_ARMS, str(tmp_path))
    assert refused.returncode != 0 and usage in refused.stderr
    out = tmp_path / "out"
    refused = script(COMPARE_ARMS, str(tmp_path / "none"), GAME, str(out))
    assert refused.returncode == 1 and f"no folder of arms {tmp_path / 'none'}" in refused.stderr
    arms = tmp_path / "arms"
    arms.mkdir()
    refused = script(COMPARE_ARMS, str(arms), GAME, str(out))
    assert refused.returncode == 1 and f"no arms (ARM.txt) in {arms}" in refused.stderr
    assert not out.exists()

    # Runs that fail are each named with the last line of their log, and nothing is played.
    (arms / "good.txt").write_text(TINY)
    failed = script(COMPARE_ARMS, str(arms), GAME, str(out), "soon", "2", "2")
    assert failed.returncode == 1
    for seed in (1, 2):
        assert (
            f"{out}/good-seed{seed}.log: MINUTES must be a number above 0, not 'soon'"
            in failed.stderr
        )
    (arms / "good.txt").unlink()
    (arms / "bad.txt").write_text(TINY + "no_such_setting=1\n")
    failed = script(COMPARE_ARMS, str(arms), GAME, str(out), "0.05", "2", "2")
    assert failed.returncode == 1
    assert failed.stderr.count("unknown parameter 'no_such_setting'") == 2, failed.stderr
    assert not (out / "ladder.json").exists()

    report = script(sys.executable, "tools/lib/compare_arms_report.py")
    assert report.returncode != 0 and "compare_arms_report.py OUT [LADDER]" in report.stderr


def started(run):
    """Whether a run of an experiment has its settings written: its minutes are (written
    before it trains), or its teacher's data has begun (after its settings)."""
    return (
        pathlib.Path(f"{run}.minutes").exists() or pathlib.Path(f"{run}.teach/teach.txt").exists()
    )


def started_arms(tmp_path, command, arms_folder):
    """Starts an experiment on OUT (tmp_path/out) with 0.1 minutes, waits until every arm
    of arms_folder has both seeds' runs started, stops it, checks each run's settings (its
    arm's with its seed) and returns OUT."""
    out = tmp_path / "out"
    arms = sorted(p.stem for p in arms_folder.glob("*.txt"))
    assert len(arms) >= 2, f"{arms_folder} has fewer than two arms"
    runs = [out / f"{arm}-seed{seed}" for arm in arms for seed in (1, 2)]
    process = start(*command, str(out), "0.1")
    try:
        wait_for(lambda: all(started(run) for run in runs), "start of every run")
    finally:
        stop(process)
    assert sorted(p.name for p in out.glob("*-seed*.txt")) == [f"{r.name}.txt" for r in runs]
    for run in runs:
        arm, seed = run.name.rsplit("-seed", 1)
        settings = pathlib.Path(f"{run}.txt").read_text()
        assert settings.startswith((arms_folder / f"{arm}.txt").read_text() + f"seed={seed}\n")
    return out


def test_sample_efficiency_trains_every_arm_of_its_folder(tmp_path):
    refused = script(SAMPLE_EFFICIENCY)
    assert refused.returncode != 0
    assert "usage: tools/experiments/sample_efficiency/run.sh GAME" in refused.stderr
    folder = ROOT / "tools" / "experiments" / "sample_efficiency"
    started_arms(tmp_path, [SAMPLE_EFFICIENCY, GAME], folder)


def test_teacher_experiment_takes_the_arms_named_after_the_games_spec(tmp_path):
    refused = script(TEACHER)
    assert refused.returncode != 0
    assert "usage: tools/experiments/teacher/run.sh GAME" in refused.stderr
    # The spec's parentheses, equals signs and commas become underscores, a last one dropped.
    refused = script(TEACHER, "knights_challenge(mode=ffa3)", str(tmp_path / "none"))
    assert refused.returncode == 1
    assert "no folder of arms tools/experiments/teacher/knights_challenge_mode_ffa3" in (
        refused.stderr
    )
    assert not (tmp_path / "none").exists()

    folder = ROOT / "tools" / "experiments" / "teacher" / TEACHER_GAME
    teachers = sorted(p.stem for p in folder.glob("*.teach"))
    assert teachers, f"{folder} has no arm with a teacher"

    out = started_arms(tmp_path, [TEACHER, TEACHER_GAME], folder)
    for arm in teachers:
        flags = [
            word
            for line in (folder / f"{arm}.teach").read_text().splitlines()
            if line.startswith("--")
            for word in line.split()
        ]
        teacher = flags[flags.index("--teacher") + 1]
        for seed in (1, 2):
            written = (out / f"{arm}-seed{seed}.teach" / "teach.txt").read_text().splitlines()
            assert f"seed={seed}" in written
            assert any(line.startswith(f"teacher={teacher},") for line in written), written


def tiny_ladder(path, *extra):
    """A real ladder of random and greedy, two games, into path."""
    made = subprocess.run(
        [str(CLI), "ladder", GAME, "--agents", "random,greedy", "--games", "2", "--seed", "1"]
        + list(extra)
        + ["--json", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    return path.read_text()


def test_strength_ladders_keeps_the_ladders_there_and_reports_each(tmp_path):
    names = [name for (name,) in rows_of("strength.ladders", "name")]
    assert names
    out = tmp_path / "out"
    out.mkdir()
    ladder = tiny_ladder(tmp_path / "ladder.json")
    for name in names:
        (out / f"{name}.json").write_text(ladder)
    kept = {p: p.stat().st_mtime_ns for p in out.iterdir()}
    done = script("tools/reports/strength_ladders.sh", str(out), "1")
    assert done.returncode == 0, done.stderr
    assert {p: p.stat().st_mtime_ns for p in out.iterdir()} == kept
    assert done.stdout.count("| agent | Elo | 95% | games | score |") == len(names)


def strength_networks_folder(tmp_path, skip_game_target):
    """OUT for strength_networks.sh with every target match and networks' gauntlet there
    (small real ones of GAME standing in for each), but GAME's target where
    skip_game_target; and the names of the networks' gauntlets."""
    out = tmp_path / "out"
    out.mkdir()
    played = subprocess.run(
        [str(CLI), "play", GAME, "--agents", "random,greedy", "--games", "2", "--seed", "1"]
        + ["--json", str(tmp_path / "play.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert played.returncode == 0, played.stderr
    for file, spec in rows_of("strength.targets", "file", "spec"):
        if not (skip_game_target and spec == GAME):
            (out / file).write_text((tmp_path / "play.json").read_text())
    gauntlet = tiny_ladder(tmp_path / "gauntlet.json", "--schedule", "gauntlet")
    names = [name for (name,) in rows_of("strength.networks", "name")]
    for name in names:
        (out / f"{name}-networks.json").write_text(gauntlet)
    return out, names


@pytest.mark.needs_networks  # it trains or plays networks
def test_strength_networks_plays_what_is_missing_and_needs_the_round_robins(tmp_path):
    out, names = strength_networks_folder(tmp_path, skip_game_target=True)
    (name,) = [name for name, spec in rows_of("strength.networks", "name", "spec") if spec == GAME]
    (target,) = [file for file, spec in rows_of("strength.targets", "file", "spec") if spec == GAME]
    # A run of GAME with a snapshot (the one at its start; the next would be a minute on),
    # for the gauntlet of its network over training time.
    runs = tmp_path / "runs"
    (tmp_path / "tiny.txt").write_text(TINY + "snapshot_seconds=60\n")
    trained = subprocess.run(
        [str(CLI), "train", GAME, "--out", str(runs / name), "--minutes", "0.025"]
        + ["--config", str(tmp_path / "tiny.txt")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert trained.returncode == 0, trained.stderr
    snapshots = sorted((runs / name / "snapshots").glob("*.pt"))
    assert snapshots

    # Without the round robins (strength_ladders.sh's), what is missing is played, then
    # the merge stops, naming the first round robin it lacks.
    args = ["tools/reports/strength_networks.sh", str(out), str(runs), "1", "2"]
    refused = script(*args)
    assert refused.returncode == 1
    assert any(
        f"no round robin {out}/{each}.json to merge it with" in refused.stderr for each in names
    ), refused.stderr
    played = json.loads((out / target).read_text())
    assert played["agents"][0]["name"].startswith("az:model=pretrained,")
    assert played["games"] == 1
    assert (out / target).with_suffix(".txt").exists()
    timed = json.loads((out / f"{name}-time.json").read_text())
    challengers = [r["name"] for r in timed["ratings"] if r["name"].startswith("az:")]
    assert sorted(challengers) == [f"az:model={s},sims=64" for s in snapshots]
    assert [p.name for p in out.glob("*-time.json")] == [f"{name}-time.json"]

    # With them, nothing is played again, and every gauntlet is merged and reported.
    round_robin = tiny_ladder(tmp_path / "round_robin.json")
    for each in names:
        (out / f"{each}.json").write_text(round_robin)
    kept = {p: p.stat().st_mtime_ns for p in out.glob("*.json")}
    done = script(*args)
    assert done.returncode == 0, done.stderr
    assert {p: p.stat().st_mtime_ns for p in kept} == kept
    merged = sorted(p.name for p in (out / "merged").iterdir())
    assert merged == sorted([f"{each}-networks.json" for each in names] + [f"{name}-time.json"])
    assert done.stdout.count("| agent | Elo | 95% | games | score |") == len(names)
    assert (out / "elo_over_time.png").stat().st_size > 0


def test_strength_networks_without_runs_merges_the_gauntlets_and_draws_no_plot(tmp_path):
    out, names = strength_networks_folder(tmp_path, skip_game_target=False)
    round_robin = tiny_ladder(tmp_path / "round_robin.json")
    for name in names:
        (out / f"{name}.json").write_text(round_robin)
    args = ["tools/reports/strength_networks.sh", str(out), str(tmp_path / "none"), "2", "2"]
    done = script(*args)
    assert done.returncode == 0, done.stderr
    merged = sorted(p.name for p in (out / "merged").iterdir())
    assert merged == sorted(f"{name}-networks.json" for name in names)
    assert done.stdout.count("| agent | Elo | 95% | games | score |") == len(names)
    assert not (out / "elo_over_time.png").exists()


def test_before_after_names_what_is_missing(tmp_path):
    out = tmp_path / "out"
    usage = "usage: tools/reports/before_after.sh BEFORE_BUILD AFTER_BUILD OUT [ROUNDS]"
    for args, message in [
        ((), usage),
        ((str(BUILD),), usage),
        ((str(BUILD), str(BUILD)), usage),
        ((str(BUILD), str(tmp_path), str(out)), f"no {tmp_path}/knightgym: give build folders"),
        ((str(BUILD), str(BUILD), str(out), "x"), "ROUNDS must be a whole number above 0"),
        ((str(BUILD), str(BUILD), str(out), "0"), "ROUNDS must be a whole number above 0"),
    ]:
        refused = script("tools/reports/before_after.sh", *args)
        assert refused.returncode != 0 and message in refused.stderr, (args, refused.stderr)
    assert not out.exists()
