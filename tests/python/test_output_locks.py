"""One writer per output, and refusals before the work (issue 58): while an output is
held, every command and Python call that writes it is refused at once, naming the holder's
pid, and changes nothing; a run beside a live one is refused and the live one loses
nothing; unwritable outputs and absurd thread counts are refused before the first game."""

import os
import pathlib
import re
import signal
import subprocess
import time

import knightgym
import knightgym.balance
import pytest
from knightgym import _knightgym

CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"
HELD = f"another writer holds it (pid {os.getpid()})"
TINY = "blocks=1\nchannels=8\ngames=8\nsims=4\nbatch=32\nmin_replay=64\nmatch_seconds=0\n"


def knightgym_cli(*arguments, timeout=120):
    return subprocess.run(
        [str(CLI), *map(str, arguments)], capture_output=True, text=True, timeout=timeout
    )


def contents(path):
    """Every file under `path` with its bytes: what a refused writer must leave as it was."""
    path = pathlib.Path(path)
    if path.is_file():
        return {path.name: path.read_bytes()}
    return {str(p.relative_to(path)): p.read_bytes() for p in path.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """A finished 4-step training run, to resume and to keep."""
    base = tmp_path_factory.mktemp("locks")
    (base / "tiny.cfg").write_text(TINY)
    out = base / "run"
    done = knightgym_cli(
        "train", "tailten", "--out", out, "--steps", 4, "--config", base / "tiny.cfg"
    )
    assert done.returncode == 0, done.stderr
    return out


# A short balance run, given its --out.
BALANCE = ("balance", "knight_fight", "--agents", "random", "--games", 4, "--out")

# Each command, given the output it writes (a folder or a file, `kind`).
WRITERS = {
    "balance": ("folder", lambda out, _: (*BALANCE, out)),
    "teach": (
        "folder",
        lambda out, _: ("teach", "tailten", "--teacher", "random", "--games", 2, "--out", out),
    ),
    "play --json": (
        "file",
        lambda out, _: (
            "play",
            "tailten",
            "--agents",
            "random,random",
            "--games",
            2,
            "--json",
            out,
        ),
    ),
    "play --record": (
        "file",
        lambda out, _: ("play", "tailten", "--agents", "random,random", "--record", out),
    ),
    "ladder --json": (
        "file",
        lambda out, _: (
            "ladder",
            "tailten",
            "--agents",
            "random,greedy",
            "--games",
            2,
            "--json",
            out,
        ),
    ),
    "train": ("folder", lambda out, _: ("train", "tailten", "--out", out, "--steps", 1)),
    "train --resume": (
        "run",
        lambda out, _: ("train", "tailten", "--out", out, "--steps", 8, "--resume"),
    ),
    "keep": ("folder", lambda out, run: ("keep", run, out)),
}
NEEDS_NETWORKS = {"train", "train --resume", "keep"}


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(c, marks=pytest.mark.needs_networks) if c in NEEDS_NETWORKS else c
        for c in WRITERS
    ],
)
def test_a_second_writer_is_refused_at_once_naming_the_holder(command, tmp_path, request):
    kind, arguments = WRITERS[command]
    run = request.getfixturevalue("tiny_run") if command in NEEDS_NETWORKS else None
    out = run if kind == "run" else tmp_path / ("out" if kind == "folder" else "out.json")
    lock = (_knightgym.OutputLock.file if kind == "file" else _knightgym.OutputLock.folder)(
        str(out)
    )
    with lock:
        before = contents(out)
        refused = knightgym_cli(*arguments(out, run))
        assert refused.returncode == 1
        assert f"cannot write '{out}': {HELD}" in refused.stderr
        assert contents(out) == before
        assert refused.stdout == ""  # no game was played, no score printed


def test_a_run_beside_a_live_one_is_refused_and_the_live_one_loses_nothing(tmp_path):
    out = tmp_path / "sweep"
    first = subprocess.Popen(
        [str(CLI), "balance", "knight_fight", "--agents", "mcts:sims=200", "--games", "100000"]
        + ["--out", str(out), "--no-plots", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:  # until the first run holds its output
            try:
                _knightgym.OutputLock.folder(str(out)).release()
            except BlockingIOError:
                break
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        second = knightgym_cli(*BALANCE, out, "--seed", 2)
        assert second.returncode == 1
        assert f"another writer holds it (pid {first.pid})" in second.stderr
    finally:
        first.send_signal(signal.SIGTERM)
        _, stderr = first.communicate(timeout=60)
    assert first.returncode == 128 + signal.SIGTERM, stderr
    assert (out / "balance.progress").is_file()  # the first run's, whole: --resume goes on


def test_python_writers_raise_blocking_io_error_before_any_work(tmp_path):
    out = tmp_path / "sweep"
    with _knightgym.OutputLock.folder(str(out)) as lock:
        assert lock.path == str(out)
        with pytest.raises(BlockingIOError, match=re.escape(f"cannot write '{out}': {HELD}")):
            knightgym.balance.run("knight_fight", agents="random", games=4, out=out)
        with pytest.raises(BlockingIOError):
            knightgym.teacher.generate("tailten", str(out), teacher="random", games=2)
        with pytest.raises(BlockingIOError):
            knightgym.balance.report({"rule_sets": []}, out)
        assert list(out.iterdir()) == []
    # Released: the same call now writes, and the lock is free again after it.
    result = knightgym.balance.run(
        "knight_fight", agents="random", games=4, out=out, progress=False, plots=False
    )
    assert result["games_per_rule_set"] == 4 and (out / "balance.json").is_file()
    _knightgym.OutputLock.folder(str(out)).release()


@pytest.mark.needs_networks
def test_python_training_raises_blocking_io_error_on_a_held_run(tiny_run):
    import knightgym.training

    before = contents(tiny_run)
    with _knightgym.OutputLock.folder(str(tiny_run)):
        with pytest.raises(BlockingIOError, match=re.escape(HELD)):
            knightgym.training.train("tailten", tiny_run, steps=8, resume=True, verbose=False)
    assert contents(tiny_run) == before


def test_unwritable_outputs_are_refused_before_the_first_game(tmp_path):
    a_file = tmp_path / "file"
    a_file.write_text("mine")
    refused = knightgym_cli(
        "balance",
        "knight_fight",
        "--agents",
        "mcts:sims=400",
        "--games",
        100000,
        "--out",
        a_file / "sweep",
    )
    assert refused.returncode == 1 and f"cannot write '{a_file}/sweep'" in refused.stderr
    refused = knightgym_cli(
        "play",
        "tailten",
        "--agents",
        "mcts:sims=400,random",
        "--games",
        100000,
        "--record",
        tmp_path / "missing" / "games.jsonl",
    )
    assert refused.returncode == 1 and "No such file or directory" in refused.stderr
    assert refused.stdout == ""
    refused = knightgym_cli(
        "play", "tailten", "--agents", "random,random", "--json", tmp_path, "--games", 100000
    )
    assert (
        refused.returncode == 1 and f"cannot write '{tmp_path}': it is a folder" in refused.stderr
    )
    assert a_file.read_text() == "mine" and sorted(p.name for p in tmp_path.iterdir()) == ["file"]


@pytest.mark.parametrize(
    "arguments",
    [
        ("play", "tailten", "--agents", "random,random"),
        ("ladder", "tailten", "--agents", "random,greedy"),
        ("balance", "tailten", "--agents", "random", "--out", "{tmp}/sweep"),
        ("teach", "tailten", "--teacher", "random", "--games", 2, "--out", "{tmp}/teach"),
    ],
    ids=lambda a: a[0],
)
def test_thread_counts_past_the_limit_are_refused_naming_the_flag(arguments, tmp_path):
    arguments = [str(a).format(tmp=tmp_path) for a in arguments]
    for threads in ("100000", str(2**40)):
        refused = knightgym_cli(*arguments, "--threads", threads)
        assert refused.returncode == 1
        assert f"--threads '{threads}': at most 1024 threads" in refused.stderr
    assert list(tmp_path.iterdir()) == []
