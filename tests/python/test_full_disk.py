"""A write that fails mid-run (issue 58): a training run whose files stop growing (a file
size limit set on the live process, as a full disk would) stops with a message naming the
file, leaves every file whole (metrics.csv ends with a whole row), and a --resume once
there is room goes on."""

import pathlib
import resource
import signal
import subprocess
import time

import knightgym
import pytest

pytestmark = pytest.mark.needs_networks

CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"
TINY = "blocks=1\nchannels=8\ngames=8\nsims=4\nbatch=32\nmin_replay=64\nlog_seconds=1\n"


def ignore_file_size_signal():
    # As a process that handles it: a write past the limit fails (EFBIG) instead of
    # killing the process, which is what a full disk's ENOSPC does too.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def rows(path):
    return path.read_text().split("\n")


def test_a_run_whose_files_cannot_grow_stops_whole_and_resumes(tmp_path):
    config = tmp_path / "tiny.cfg"
    config.write_text(TINY + "checkpoint_seconds=1\n")
    run = tmp_path / "run"
    metrics = run / "metrics.csv"
    child = subprocess.Popen(
        [str(CLI), "train", "tailten", "--out", str(run), "--minutes", "10"]
        + ["--config", str(config)],
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ignore_file_size_signal,
    )
    try:
        deadline = time.monotonic() + 120
        while not (
            metrics.exists() and len(rows(metrics)) > 4 and list(run.glob("checkpoints/*.ckpt"))
        ):
            assert child.poll() is None and time.monotonic() < deadline, "the run did not start"
            time.sleep(0.1)
        # No file of the run may grow past metrics.csv's size now, and a row more: the
        # next checkpoint, model or row that does not fit fails.
        limit = metrics.stat().st_size + 60
        resource.prlimit(child.pid, resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
        _, stderr = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 1, stderr
    assert "File too large" in stderr and "cannot " in stderr
    # Every file whole: metrics.csv's rows all have the header's columns, and it ends
    # with a newline (no half row); no temporary is left.
    lines = rows(metrics)
    assert lines[-1] == ""
    assert {line.count(",") for line in lines[:-1]} == {lines[0].count(",")}
    assert not list(run.rglob("*.tmp*"))
    resumed = subprocess.run(
        [str(CLI), "train", "tailten", "--out", str(run), "--steps", "1000000", "--minutes", "0.2"]
        + ["--resume"],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert len(rows(metrics)) > len(lines)
