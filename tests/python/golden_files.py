"""The golden files' names (tests/golden/README.md), for the tests that read or count them,
and their check: with KNIGHTGYM_UPDATE_GOLDEN=1 a golden test rewrites what differs and
fails, so that it never passes while rewriting (the rewrite is reviewed, then the tests
are run again without it)."""

import os

import pytest

UPDATING = os.environ.get("KNIGHTGYM_UPDATE_GOLDEN") == "1"


def golden_name(spec):
    """The render golden file's name of a spec (tests/cpp/env/registry/render_golden_test.cc)."""
    out = []
    for c in spec:
        if c.isascii() and (c.isalnum() or c in "_=.+-"):
            out.append(c)
        elif c in "(,":
            out.append("__")
        elif c not in ")[]":
            out.append("-")
    return "".join(out)


def fail_as_rewritten(paths):
    pytest.fail(
        f"golden files rewritten: {', '.join(map(str, paths))}: review the diff (git diff "
        "tests/golden/) and run the tests again without KNIGHTGYM_UPDATE_GOLDEN"
    )


def assert_golden(expected):
    """Each file of `expected` ({path: text}) holds its text. Updating, those that do not
    are written, and the test fails naming them."""
    differ = [
        path for path, text in expected.items() if not path.exists() or path.read_text() != text
    ]
    if UPDATING and differ:
        for path in differ:
            path.parent.mkdir(exist_ok=True)
            path.write_text(expected[path])
        fail_as_rewritten(differ)
    for path in differ:
        assert path.exists(), f"{path} is missing (run with KNIGHTGYM_UPDATE_GOLDEN=1 to write it)"
        assert path.read_text() == expected[path], (
            f"{path} differs from the test's output (if intended, rerun with "
            "KNIGHTGYM_UPDATE_GOLDEN=1 and review the diff)"
        )


def assert_none_stale(stale):
    """No file of `stale` (paths whose spec is no longer listed) is left. Updating, they
    are removed, and the test fails naming them."""
    if UPDATING and stale:
        for path in stale:
            path.unlink()
        fail_as_rewritten(stale)
    assert not stale, f"golden files of specs no longer listed: {[path.name for path in stale]}"
