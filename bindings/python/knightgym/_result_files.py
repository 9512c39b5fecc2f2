"""The JSON results the command line writes (play's and ladder's --json, a training run's
summary.json, a balance run's balance.json), read back for the report commands and the
functions that take a result's path: bounded in size, and, for a command, a file that
is no result of its kind named with the problem in one line instead of a traceback."""

import json
import os
import sys

MOST_BYTES = 256 << 20  # far above any result; a larger file is something else


def load(path):
    """The JSON value of ``path``; OSError or ValueError (json.JSONDecodeError too) if it
    cannot be read, is larger than MOST_BYTES or is no JSON."""
    size = os.path.getsize(path)
    if size > MOST_BYTES:
        raise ValueError(f"larger than {MOST_BYTES} bytes ({size})")
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def why(error, kind):
    """What a report says of a file that ``render`` could not make a report of."""
    if isinstance(error, json.JSONDecodeError):
        return f"not JSON ({error})"
    if isinstance(error, RecursionError):
        return f"nested too deeply for {kind}"
    if isinstance(error, KeyError):
        return f"not {kind}: it has no field {error}"
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return f"not {kind} ({type(error).__name__}: {error})"


def report(command, kind, paths, render, separator=""):
    """Prints render(path) for each of ``paths``, ``separator`` between them; returns 0,
    or 1 after naming on stderr the first file that could not be read or is not ``kind``
    ("a play result")."""
    texts = []
    for path in paths:
        try:
            texts.append(render(path))
        except (
            OSError,
            UnicodeDecodeError,
            ValueError,
            RecursionError,
            KeyError,
            TypeError,
            IndexError,
            AttributeError,
        ) as error:
            print(f"{command}: {path}: {why(error, kind)}", file=sys.stderr)
            return 1
    print(separator.join(texts), end="")
    return 0
