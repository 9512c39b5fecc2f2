"""The fuzz targets' seed corpora (tests/fuzz/corpus/) are exactly what their generator,
tools/ci/fuzz_seeds.py, writes from the tests' own data: a new golden state, recipe or JSON
file of the project reaches the fuzzers, and no seed outlives what it was made from."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_committed_corpus_is_the_generators():
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "ci" / "fuzz_seeds.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_check_names_a_missing_and_a_stale_seed(tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT / "tools" / "ci"))
    import fuzz_seeds

    corpus = tmp_path / "corpus"
    (corpus / "json").mkdir(parents=True)
    (corpus / "json" / "seed-0000000000000000").write_bytes(b"[]")
    (corpus / "json" / "seed-1111111111111111").write_bytes(b"{}")
    monkeypatch.setattr(fuzz_seeds, "CORPUS", corpus)
    files = {"json": {"seed-0000000000000000": b"[1]", "seed-2222222222222222": b"null"}}
    assert fuzz_seeds.differences(files) == [
        "json/seed-2222222222222222: missing",
        "json/seed-1111111111111111: no longer a seed",
        "json/seed-0000000000000000: other bytes",
    ]
