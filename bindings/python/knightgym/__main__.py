"""The `knightgym` command of an installed package, and `python -m knightgym`: the compiled
command-line program (knightgym/_bin/knightgym in a wheel; build/knightgym beside a
build's build/python) run in place of this process, told which interpreter runs the
commands that hand work back to Python (balance's report, --ray runs); `view`, the
viewer's own, runs here."""

import os
import sys


def _program():
    package = os.path.dirname(os.path.abspath(__file__))
    for candidate in (
        os.path.join(package, "_bin", "knightgym"),
        os.path.join(os.path.dirname(os.path.dirname(package)), "knightgym"),
    ):
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    sys.exit(
        f"knightgym: no command-line program beside the package at {package} "
        "(a wheel holds it in knightgym/_bin; a source build in build/knightgym)"
    )


def main():
    if sys.argv[1:2] == ["view"]:  # Python's own: no hop through the program and back
        from knightgym.viewer.__main__ import main as view

        sys.exit(view(sys.argv[2:]))
    program = _program()
    environment = dict(os.environ, KNIGHTGYM_PYTHON=sys.executable)
    sys.stdout.flush()
    os.execve(program, ["knightgym", *sys.argv[1:]], environment)


if __name__ == "__main__":
    main()
