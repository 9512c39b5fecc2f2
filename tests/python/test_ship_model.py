"""tools/release/ship_model.py on a real run of a few steps from Tailten's shipped network
(init=pretrained, or its file), into a copy of models/: the entry continues the shipped
one's totals, the same run shipped again from a later step counts no step twice
(--counted-to), the processor minutes and generations recorded stay and what is given
adds, --best ships the network the gate promoted with the totals of its step, --snapshot
a snapshot with the totals logged by its time, and what cannot be shipped is refused by
name with models/ left as it was."""

import csv
import json
import pathlib
import shutil
import subprocess
import sys

import knightgym
import pytest

pytestmark = pytest.mark.needs_networks

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent
CLI = BUILD / "knightgym"
SHIP = ROOT / "tools" / "release" / "ship_model.py"
GAME = "tailten"
# From the shipped network, four simulations, a metrics row at every logging (each run
# here logs its last step), no match rounds.
SETTINGS = "init=pretrained\ngames=8\nsims=4\nbatch=32\nmin_replay=64\nmatch_games=0\n"


def train(run, steps, *flags):
    subprocess.run(
        [str(CLI), "train", GAME, "--out", str(run), "--steps", str(steps), *flags],
        check=True,
        capture_output=True,
        text=True,
    )


def ship(models, *args):
    return subprocess.run(
        [sys.executable, str(SHIP), GAME, *args, "--models", str(models), "--build", str(BUILD)],
        capture_output=True,
        text=True,
    )


def entry(models):
    return json.loads((models / "manifest.json").read_text())["networks"][GAME]


@pytest.fixture
def models(tmp_path):
    copy = tmp_path / "models"
    shutil.copytree(ROOT / "models", copy)
    return copy


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A run of 6 steps resumed to 12: metrics rows at both."""
    base = tmp_path_factory.mktemp("ship")
    (base / "settings.txt").write_text(SETTINGS)
    out = base / "run"
    train(out, 6, "--config", str(base / "settings.txt"))
    train(out, 12, "--resume")
    with open(out / "metrics.csv", newline="") as f:
        steps = [int(row["step"]) for row in csv.DictReader(f)]
    assert steps[0] == 6 and steps[-1] == 12
    return out


def test_a_run_shipped_twice_counts_each_step_once(models, run):
    shipped = entry(models)
    done = ship(models, str(run), "--cpu-minutes", "5")
    assert done.returncode == 0, done.stderr
    first = entry(models)
    assert int(first["steps"]) == int(shipped["steps"]) + 12
    assert int(first["sessions"]) == int(shipped["sessions"]) + 1
    # What the entry recorded stays, with what is given added.
    assert first["cpu_minutes"] == pytest.approx(shipped["cpu_minutes"] + 5)
    assert first["generations"] == shipped["generations"]
    assert first["strength"] == "not measured yet"
    assert (models / f"{GAME}.pt").read_bytes() == (run / "model.pt").read_bytes()

    # Shipped again from the same run: what the entry counted to step 6 is not added twice.
    (models / "manifest.json").write_text(
        json.dumps({"networks": {GAME: {**shipped, "steps": int(shipped["steps"]) + 6}}})
    )
    done = ship(models, str(run), "--counted-to", "6")
    assert done.returncode == 0, done.stderr
    again = entry(models)
    assert int(again["steps"]) == int(shipped["steps"]) + 12
    assert int(again["sessions"]) == int(shipped["sessions"])


def test_a_run_from_the_shipped_networks_file_continues_its_entry(models, run, tmp_path):
    # A generation of knightgym iterate starts from its parent's file: the shipped network's
    # bytes continue the entry, and another network's start an entry of their own.
    for init, continues in ((models / f"{GAME}.pt", True), (run / "model.pt", False)):
        settings = tmp_path / "settings.txt"
        settings.write_text(SETTINGS.replace("init=pretrained", f"init={init}"))
        out = tmp_path / f"from-{continues}"
        train(out, 6, "--config", str(settings))
        shipped = entry(models)
        done = ship(models, str(out))
        assert done.returncode == 0, done.stderr
        assert int(entry(models)["steps"]) == int(shipped["steps"]) * continues + 6


def copy_with_metrics(run, copy, change):
    """RUN copied to COPY, each metrics row (and whether it is the first) given to CHANGE,
    which returns the fields that replace its own."""
    shutil.copytree(run, copy)
    with open(copy / "metrics.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    with open(copy / "metrics.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows({**row, **change(row, row is rows[0])} for row in rows)
    return copy


def test_best_ships_the_promoted_network_with_the_totals_of_its_step(models, run, tmp_path):
    # As a gate that promoted at step 6 writes it: generation 1 from that row on.
    promoted = copy_with_metrics(run, tmp_path / "run", lambda row, first: {"generation": "1"})
    shipped = entry(models)
    done = ship(models, str(promoted), "--best")
    assert done.returncode == 0, done.stderr
    assert int(entry(models)["steps"]) == int(shipped["steps"]) + 6
    assert (models / f"{GAME}.pt").read_bytes() == (promoted / "best.pt").read_bytes()


def test_snapshot_ships_the_snapshot_with_the_totals_logged_by_then(models, run, tmp_path):
    # A snapshot after the first row's time and before the last's: rows logged at 10 s
    # (step 6) and 30 s (step 12), the snapshot at 20 s stands for step 6.
    snapshotted = copy_with_metrics(
        run, tmp_path / "run", lambda row, first: {"seconds": "10" if first else "30"}
    )
    (snapshotted / "snapshots").mkdir(exist_ok=True)
    network = snapshotted / "snapshots" / "seconds-0000020.pt"
    shutil.copyfile(ROOT / "models" / f"{GAME}.pt", network)  # other bytes than model.pt
    shipped = entry(models)
    done = ship(models, str(snapshotted), "--snapshot", "20")
    assert done.returncode == 0, done.stderr
    assert int(entry(models)["steps"]) == int(shipped["steps"]) + 6
    assert (models / f"{GAME}.pt").read_bytes() == network.read_bytes()


@pytest.mark.parametrize(
    "flags, named",
    [
        (["--best"], "never promoted"),
        (["--snapshot", "20"], "no snapshot seconds-0000020.pt"),
        (["--snapshot", "20", "--best"], "different networks"),
        (["--counted-to", "7"], "no row at step 7"),
        (["--counted-to", "12", "--best"], "never promoted"),
    ],
)
def test_what_cannot_be_shipped_is_refused_and_models_stay_as_they_were(models, run, flags, named):
    before = {path.name: path.read_bytes() for path in models.iterdir()}
    done = ship(models, str(run), *flags)
    assert done.returncode != 0 and named in done.stderr
    assert {path.name: path.read_bytes() for path in models.iterdir()} == before
