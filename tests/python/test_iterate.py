"""knightgym iterate, the generation loop, run for real at a tiny size: a generation
teaches, trains and stops before its gate when told to, then a resumed run gates it and
the table says the verdict; a run stopped by SIGTERM in its training goes on with
--resume; bad input is refused by name before anything is written, and a resumed run
with other options or a damaged state is refused."""

import csv
import json
import pathlib
import signal
import subprocess
import time

import knightgym
import pytest

# The loop trains networks: a build without LibTorch has no iterate command.
pytestmark = pytest.mark.needs_networks
CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"
# A generation in seconds: a few teacher games at 8 simulations, a small replay.
TINY_SETTINGS = "sims=8\ngames=8\nmin_replay=64\nbatch=32\nmatch_games=0\nthreads=1\nwindow=2000\n"
TINY = [
    "--parent", "pretrained", "--steps", "30", "--teacher-sims", "8", "--teacher-steps", "10",
    "--teach-games", "8", "--shard-games", "4", "--batch", "4", "--gate-batch", "8",
    "--gate-sims", "8",
]  # fmt: skip


def iterate(*args, timeout=240):
    return subprocess.run(
        [str(CLI), "iterate", "tailten", *args], capture_output=True, text=True, timeout=timeout
    )


def rows(out):
    with open(out / "generations.csv", newline="") as file:
        return list(csv.DictReader(file))


@pytest.fixture
def settings(tmp_path):
    path = tmp_path / "tiny.txt"
    path.write_text(TINY_SETTINGS)
    return path


def test_help_names_the_loop_and_its_flags():
    result = subprocess.run([str(CLI), "iterate", "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    for flag in ("--parent", "--generations", "--gate-games", "--gate-sprt", "--resume"):
        assert flag in result.stdout
    assert "expert iteration" in result.stdout


def test_a_generation_trained_here_is_gated_by_a_resumed_run(tmp_path, settings):
    out = tmp_path / "loop"
    first = iterate("--out", str(out), "--config", str(settings), *TINY, "--gate-games", "0")
    assert first.returncode == 0, first.stderr
    assert "its gate is left to a run with gate games" in first.stderr
    [row] = rows(out)
    assert (row["generation"], row["parent"], row["phase"]) == ("1", "pretrained", "gate")
    assert row["gate_games"] == "0" and row["decision"] == "undecided"
    assert len(list((out / "gen-1" / "teach").glob("shard-*.kgt"))) == 2
    config = json.loads((out / "gen-1" / "train" / "config.json").read_text())["settings"]
    assert config["init"] == "pretrained" and config["teacher_steps"] == 10
    assert config["teacher"] == f"{out}/gen-1/teach" and config["seed"] == 1

    # The devices, the gate's games and the recipe's comments and spacing may change
    # between sessions, the rest may not.
    settings.write_text("# the same recipe, annotated\n\n" + TINY_SETTINGS.replace("=", " = "))
    second = iterate("--out", str(out), "--config", str(settings), *TINY, "--gate-games", "16",
                     "--resume")  # fmt: skip
    assert second.returncode == 0, second.stderr
    [row] = rows(out)
    assert row["phase"] == "done" and row["decision"] in ("keep", "discard")
    assert int(row["wins"]) + int(row["draws"]) + int(row["losses"]) == int(row["gate_games"])
    assert row["gate_games"] == "16"  # the test needs 16 games to decide: it stops at them
    assert (out / "best.pt").exists() == (row["decision"] == "keep")
    assert f"generation 1: {float(row['score']) * 100:.1f}%" in second.stderr

    other = iterate("--out", str(out), "--config", str(settings), *TINY, "--seed", "5", "--resume")
    assert other.returncode != 0
    assert "a run of other options (seed)" in other.stderr


def test_a_loop_stopped_in_training_goes_on_with_resume(tmp_path, settings):
    out = tmp_path / "loop"
    args = ["--out", str(out), "--config", str(settings), *TINY, "--gate-games", "0"]
    args[args.index("--steps") + 1] = "400"
    child = subprocess.Popen(
        [str(CLI), "iterate", "tailten", *args], stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 120
    while not (out / "gen-1" / "train" / "metrics.csv").exists():
        assert child.poll() is None and time.monotonic() < deadline
        time.sleep(0.2)
    child.send_signal(signal.SIGTERM)
    _, stderr = child.communicate(timeout=120)
    assert child.returncode == 128 + signal.SIGTERM, stderr
    assert "--resume continues" in stderr
    assert rows(out)[0]["phase"] == "train"

    args[args.index("--steps") + 1] = "40"  # what is left is short: the budget is the run's
    resumed = iterate(*args, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert rows(out)[0]["phase"] == "gate"
    assert float(rows(out)[0]["train_seconds"]) > 0


def test_children_of_a_rule_grid_are_taught_on_every_rule_set(tmp_path):
    settings = tmp_path / "rules.txt"
    settings.write_text(TINY_SETTINGS + "rules=first_player=0,1\n")
    out = tmp_path / "loop"
    # The shipped network covers only the game's own rules: its file teaches them all.
    model = CLI.parent.parent / "models" / "tailten.pt"
    args = [*TINY, "--gate-games", "0"]
    args[args.index("pretrained")] = str(model)
    result = iterate("--out", str(out), "--config", str(settings), *args)
    assert result.returncode == 0, result.stderr
    assert "8 games of each rule set" in result.stderr
    for rules in ("rules-000", "rules-001"):
        teach = (out / "gen-1" / "teach" / rules / "teach.txt").read_text()
        assert "first_player=" + rules[-1] in teach
        assert len(list((out / "gen-1" / "teach" / rules).glob("shard-*.kgt"))) == 2
    assert rows(out)[0]["phase"] == "gate"
    # The gate's two batches play the two rule sets, the networks made for the first.
    args[args.index("--gate-games") + 1] = "16"
    gated = iterate("--out", str(out), "--config", str(settings), *args, "--resume")
    assert gated.returncode == 0, gated.stderr
    assert rows(out)[0]["phase"] == "done" and rows(out)[0]["gate_games"] == "16"


@pytest.mark.parametrize(
    "args, words",
    [
        (["--steps", "5"], "--parent MODEL is required"),
        (["--parent", "pretrained"], "--minutes M or --steps S"),
        (["--parent", "pretrained", "--steps", "5", "--minutes", "1"], "one of them"),
        (["--parent", "pretrained", "--steps", "5", "--gate-batch", "7"], "not an even number"),
        (["--parent", "missing.pt", "--steps", "5"], "missing.pt"),
        (["--parent", "pretrained", "--steps", "5", "--resume"], "no iteration run to resume"),
        (["--parent", "pretrained", "--steps", "5", "--device", "tpu"], "device 'tpu'"),
    ],
)
def test_bad_input_is_refused_by_name_and_writes_nothing(tmp_path, args, words):
    out = tmp_path / "loop"
    result = iterate("--out", str(out), *args, timeout=60)
    assert result.returncode != 0
    assert words in result.stderr
    assert not out.exists()


def test_bad_settings_or_a_used_folder_are_refused_before_any_work(tmp_path, settings):
    out = tmp_path / "loop"
    bad = tmp_path / "bad.txt"
    bad.write_text("sims=8\nno_such_setting=1\n")
    result = iterate("--out", str(out), "--config", str(bad), *TINY, timeout=60)
    assert result.returncode != 0 and "no_such_setting" in result.stderr
    assert not out.exists()

    out.mkdir()
    (out / "notes.txt").write_text("mine")
    used = iterate("--out", str(out), "--config", str(settings), *TINY, timeout=60)
    assert used.returncode != 0 and "is not empty" in used.stderr
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_a_damaged_state_is_refused(tmp_path, settings):
    out = tmp_path / "loop"
    out.mkdir()
    state = out / "iterate.json"
    state.write_text('{"fnv1a":"0000000000000000","state":{}}\n')
    result = iterate("--out", str(out), "--config", str(settings), *TINY, "--resume", timeout=60)
    assert result.returncode != 0
    assert "iterate.json: damaged" in result.stderr
