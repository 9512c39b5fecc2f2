"""tools/ci/run_test_shards.sh, which the sanitizers' make targets and make torch2 run
their C++ tests with: every shard runs once with the spec, a failed shard's output is
printed under its number, and the exit status says whether all passed."""

import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "ci" / "run_test_shards.sh"

# A test binary's stand-in: records its arguments, and fails shard FAIL of N.
STUB = """#!/bin/sh
echo "$@" >> "{calls}"
echo "cases of shard $2"
[ "$2" != "{fail}" ]
"""


def run(tmp_path, fail):
    calls = tmp_path / "calls.txt"
    stub = tmp_path / "stub"
    stub.write_text(STUB.format(calls=calls, fail=fail))
    stub.chmod(0o755)
    result = subprocess.run(
        [str(SCRIPT), str(stub), "2", "[tag]~[slow]"], capture_output=True, text=True
    )
    return result, sorted(calls.read_text().splitlines())


def test_every_shard_runs_once_with_the_spec(tmp_path):
    result, calls = run(tmp_path, fail="none")
    assert result.returncode == 0, result.stderr
    assert calls == sorted(f"--shard {i}/8 [tag]~[slow]" for i in range(1, 9))
    assert result.stdout.strip().endswith("all 8 shards passed")


def test_a_failed_shard_is_printed_and_fails_the_run(tmp_path):
    result, calls = run(tmp_path, fail="3/8")
    assert result.returncode == 1
    assert len(calls) == 8
    assert f"--- {tmp_path / 'stub'}, shard 3/8:\ncases of shard 3/8" in result.stdout
    assert "shard 2/8" not in result.stdout
    assert "1 of 8 shards failed" in result.stderr
