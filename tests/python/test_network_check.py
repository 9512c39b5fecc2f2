"""`knightgym network-check`: the shipped networks in another precision against float32 on
the CPU, a row each, exit status 0 within rounding; bad settings refused before any work.
(A network beyond rounding is tests/cpp/agents/network_test.cc's case.)"""

import pathlib
import subprocess

import knightgym
import pytest

CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"


def check(*args):
    return subprocess.run(
        [str(CLI), "network-check", *args], capture_output=True, text=True, timeout=240
    )


@pytest.mark.needs_networks
def test_bfloat16_answers_within_rounding_a_row_per_network():
    done = check("tailten", "knightmate", "--precision", "bfloat16", "--positions", "40")
    assert done.returncode == 0, done.stderr
    assert "on cpu in bfloat16 against float32 on the CPU, 40 positions" in done.stdout
    rows = [line.split(" | ") for line in done.stdout.splitlines() if line.startswith("| ")][1:]
    assert [row[0] for row in rows] == ["| tailten", "| knightmate"]
    for row in rows:
        assert float(row[1]) > 0  # bfloat16 did round
        assert row[4] != "0 of 40" and row[5] == "0" and row[6] == "yes |"


@pytest.mark.parametrize(
    "args, message",
    [
        (["nope"], "network 'nope': not shipped"),
        (["--positions", "0"], "--positions"),
        (["--precision", "half"], "precision 'half': expected float32, bfloat16 or float16"),
        pytest.param(
            ["tailten", "--precision", "float16"],
            "precision float16 needs a CUDA device",
            marks=pytest.mark.needs_networks,
        ),
    ],
)
def test_bad_settings_are_refused_before_any_work(args, message):
    done = check(*args)
    assert done.returncode == 1
    assert message in done.stderr
    assert done.stdout == ""
