"""The package's command (issue 59): `python -m knightgym` and an installed wheel's
`knightgym` script run the command-line program in place of Python, whose version is the
package's (test_extras.py checks that the wheel's metadata reads the same)."""

import subprocess
import sys

import knightgym


def module(*args):
    return subprocess.run(
        [sys.executable, "-m", "knightgym", *args], capture_output=True, text=True, timeout=60
    )


def test_python_dash_m_runs_the_program_of_its_build():
    done = module("list", "--names")
    assert done.returncode == 0, done.stderr
    assert set(done.stdout.split()) >= {"knight_fight", "knightmate", "tailten"}
    assert module("--version").stdout == f"knightgym {knightgym.__version__}\n"


def test_exit_status_and_errors_pass_through():
    done = module("play", "no_such_game", "--agents", "random,random")
    assert done.returncode == 1
    assert done.stderr.startswith("knightgym play: ") and "no_such_game" in done.stderr
    assert module().returncode == 2
