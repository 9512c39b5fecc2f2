"""The JSON results the command line writes (play's and ladder's --json, a training run's
summary.json, a balance run's balance.json), read back for the report commands and the
functions that take a result's path: bounded in size, and, for a command, a file that
is no result of its kind named with the problem in one line instead of a traceback. A
balance.json of a retired shape is refused by name, with what to do (RetiredFormat)."""

import json
import os
import sys

MOST_BYTES = 256 << 20  # far above any result; a larger file is something else

# What RetiredFormat says to do with a balance.json written before it held its statistics.
# fd1993c is the last commit with the reader that restated such a file (the committed
# results were converted with it once, issue 60).
REPLAY_OR_CONVERT = (
    "play the run again (knightgym balance with its options; tools/reports/balance_report.py "
    "replay --only NAME for a run of docs/balance.md), or convert it once as the committed "
    "results were: restated() of bindings/python/knightgym/balance_statistics.py at commit "
    "fd1993c, written back"
)


class RetiredFormat(ValueError):
    """A result in a shape that no reader takes any more; its message names the file and
    what to do with it."""


def load(path):
    """The JSON value of ``path``; OSError or ValueError (json.JSONDecodeError too) if it
    cannot be read, is larger than MOST_BYTES or is no JSON."""
    size = os.path.getsize(path)
    if size > MOST_BYTES:
        raise ValueError(f"larger than {MOST_BYTES} bytes ({size})")
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def balance_result(result, source):
    """``result`` (the dict of a balance.json) if it has today's shape; RetiredFormat,
    naming ``source`` (its path), if it was written before balance.json held its
    statistics ("statistics", and each rule set's "same_games_as"). A result without
    "networks" (written before they were recorded) is read: its networks are unknown."""
    if isinstance(result, dict) and isinstance(result.get("rule_sets"), list):
        sets = result["rule_sets"]
        if "statistics" not in result or any(
            isinstance(r, dict) and "same_games_as" not in r for r in sets
        ):
            raise RetiredFormat(
                f"{source}: a balance result written before balance.json held its "
                f'statistics (no "statistics" or "same_games_as"); {REPLAY_OR_CONVERT}'
            )
    return result


def load_balance(path):
    """The result of the balance.json at ``path``, as load() reads it and balance_result()
    checks it."""
    return balance_result(load(path), path)


def why(error, kind):
    """What a report says of a file that ``render`` could not make a report of."""
    if isinstance(error, RetiredFormat):
        return str(error)
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
