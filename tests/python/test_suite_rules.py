"""The rules the Python suite keeps, shown to fail where they must: a skip that
conftest.py's EXPECTED_SKIPS does not allow fails the session (with pytest-xdist too), a
test past its time limit fails, and a golden test never passes while rewriting its files.
The sessions checked run in a folder of their own, with a copy of conftest.py."""

import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import golden_files
import knightgym
import pytest
from conftest import EXPECTED_SKIPS

HERE = pathlib.Path(__file__).resolve().parent
ALLOWED = next(skip for skip in EXPECTED_SKIPS if skip.expected)
NOT_NOW = next(skip for skip in EXPECTED_SKIPS if not skip.expected)


def session(tmp_path, tests, *options):
    """pytest's run of the test file `tests` beside a copy of conftest.py."""
    shutil.copy(HERE / "conftest.py", tmp_path)
    (tmp_path / "test_it.py").write_text(textwrap.dedent(tests))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *options, "test_it.py"],
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(pathlib.Path(knightgym.__file__).parents[1])),
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("workers", [[], ["-n", "1"]], ids=["alone", "xdist"])
def test_a_skip_not_declared_fails_the_session_naming_test_and_reason(tmp_path, workers):
    done = session(
        tmp_path,
        """
        import pytest

        def test_passes():
            pass

        def test_skips():
            pytest.skip("for no declared reason")
        """,
        *workers,
    )
    assert done.returncode == 1, done.stdout
    assert "1 passed, 1 skipped" in done.stdout
    assert "test_it.py::test_skips: for no declared reason" in done.stdout


def test_a_module_skipped_for_a_reason_not_declared_fails_the_session(tmp_path):
    done = session(
        tmp_path,
        """
        import pytest

        pytest.skip("for no declared reason", allow_module_level=True)
        """,
    )
    assert done.returncode == 1, done.stdout
    assert "test_it.py: for no declared reason" in done.stdout


def test_a_declared_skip_passes_only_in_the_runs_that_expect_it(tmp_path):
    tests = """
        import pytest

        def test_skips():
            pytest.skip({reason!r})
        """
    allowed = session(tmp_path, tests.format(reason=ALLOWED.reason + ": details"))
    assert allowed.returncode == 0, allowed.stdout
    not_now = session(tmp_path, tests.format(reason=NOT_NOW.reason))
    assert not_now.returncode == 1, not_now.stdout
    assert f"test_it.py::test_skips: {NOT_NOW.reason}" in not_now.stdout


def test_every_test_has_a_time_limit(pytestconfig):
    assert float(pytestconfig.getini("timeout")) > 0
    assert pytestconfig.getini("timeout_method") == "thread"


def test_a_test_past_its_time_limit_fails_and_the_others_run(tmp_path, pytestconfig):
    done = session(
        tmp_path,
        """
        import time

        import pytest

        @pytest.mark.timeout(1)
        def test_hangs():
            time.sleep(60)

        def test_passes():
            pass
        """,
        "-n",
        "1",
        "-o",
        f"timeout_method={pytestconfig.getini('timeout_method')}",
    )
    assert done.returncode == 1, done.stdout
    assert "crashed while running 'test_it.py::test_hangs'" in done.stdout
    assert "1 failed, 1 passed" in done.stdout


def test_a_golden_test_fails_when_it_rewrites_and_passes_when_it_matches(tmp_path, monkeypatch):
    monkeypatch.setattr(golden_files, "UPDATING", True)
    same, changed, missing = (tmp_path / name for name in ("same", "changed", "missing"))
    same.write_text("a")
    changed.write_text("old")
    with pytest.raises(pytest.fail.Exception, match="golden files rewritten: .*changed.*missing"):
        golden_files.assert_golden({same: "a", changed: "new", missing: "b"})
    assert [path.read_text() for path in (same, changed, missing)] == ["a", "new", "b"]
    golden_files.assert_golden({same: "a", changed: "new", missing: "b"})  # all as expected
    with pytest.raises(pytest.fail.Exception, match="golden files rewritten: .*same"):
        golden_files.assert_none_stale([same])
    assert not same.exists()
    golden_files.assert_none_stale([])


def test_outside_update_mode_a_golden_test_fails_on_a_difference_and_writes_nothing(tmp_path):
    changed = tmp_path / "changed"
    changed.write_text("old")
    with pytest.raises(AssertionError, match="differs"):
        golden_files.assert_golden({changed: "new"})
    with pytest.raises(AssertionError, match="no longer listed"):
        golden_files.assert_none_stale([changed])
    assert changed.read_text() == "old"
