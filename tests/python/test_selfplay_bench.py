"""`knightgym selfplay-bench`: a row per game and thread count, as a table and as JSON,
whose time shares add up; bad counts and an output it could not write are refused before
any work."""

import json
import pathlib
import subprocess

import knightgym
import pytest

CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"


def bench(*args):
    return subprocess.run(
        [str(CLI), "selfplay-bench", *args], capture_output=True, text=True, timeout=240
    )


def tiny_bench(out, *args):
    """Tailten with a fresh 1 x 8 network, its rows as JSON in `out`; the run and the JSON."""
    done = bench(
        "tailten",
        "--model",
        "resnet",
        "--blocks",
        "1",
        "--channels",
        "8",
        "--json",
        str(out),
        *args,
    )
    assert done.returncode == 0, done.stderr
    return done, json.loads(out.read_text())


@pytest.mark.needs_networks
def test_rows_for_each_thread_count_with_shares_that_add_up(tmp_path):
    done, result = tiny_bench(
        tmp_path / "bench.json",
        *("--batch", "4", "--threads", "1,2", "--seconds", "0.1", "--repeat", "2"),
    )
    assert result["device"] == "cpu"
    assert result["precision"] == "float32"
    assert result["cuda_graphs"] == ""  # a CUDA device's only
    rows = result["rows"]
    assert [(r["game"], r["threads"], r["batch"]) for r in rows] == [
        ("tailten", 1, 4),
        ("tailten", 2, 4),
    ]
    for row in rows:
        assert row["network"] == "resnet 1x8"
        assert row["sims"] == 32  # Tailten's self-play default
        assert row["positions_per_s"] > 0
        # Each decision needs a root evaluation and at least one simulation's.
        assert row["evaluations_per_s"] > row["positions_per_s"]
        assert 1 <= row["mean_batch"] <= 4
        shares = [row[k] for k in ("search_share", "network_share", "game_share", "waiting_share")]
        assert all(0 <= s <= 1 for s in shares)
        assert sum(shares) == pytest.approx(1, abs=0.02)
        assert 0 < row["device_busy"] <= 1
    table = [line for line in done.stdout.splitlines() if line.startswith("| tailten")]
    assert len(table) == 2


@pytest.mark.parametrize(
    "args, message",
    [
        (["--threads", "0"], "--threads '0': expected counts from 1 to 4096"),
        (["--threads", "1,x"], "--threads '1,x': expected counts"),
        (["--batch", "0"], "--batch '0': expected an integer >= 1"),
        (["--json", "/no/such/folder/bench.json"], "cannot write '/no/such/folder/bench.json'"),
        (["--precision", "half"], "precision 'half': expected float32, bfloat16 or float16"),
        pytest.param(
            ["--model", "/no/such/model.pt"], "/no/such/model.pt", marks=pytest.mark.needs_networks
        ),
        pytest.param(
            ["--precision", "float16"],
            "precision float16 needs a CUDA device",
            marks=pytest.mark.needs_networks,
        ),
    ],
)
def test_bad_settings_are_refused_before_any_work(args, message):
    done = bench("tailten", "--seconds", "30", *args)
    assert done.returncode == 1
    assert message in done.stderr
    assert done.stdout == ""


def test_an_output_folder_is_refused(tmp_path):
    done = bench("tailten", "--seconds", "30", "--json", str(tmp_path))
    assert done.returncode == 1
    assert f"cannot write '{tmp_path}': it is a folder" in done.stderr
    assert done.stdout == ""


@pytest.mark.needs_networks
def test_bfloat16_rows_name_their_precision(tmp_path):
    done, result = tiny_bench(
        tmp_path / "bench.json",
        *("--batch", "2", "--threads", "1", "--seconds", "0.05", "--repeat", "1"),
        *("--precision", "bfloat16"),
    )
    assert result["precision"] == "bfloat16"
    assert "on cpu in bfloat16" in done.stdout
