"""tools/reports/coverage_study.py at a small size: the confidence sequences of real balance runs
stopped by the sequential test cover the truth at least 94% of the time, so do runs
extended while undecided, and a sweep of equal rule sets calls a difference or a false
verdict in at most 5% of sweeps, where the uncorrected test of before does far more. The
table of docs/balance.md is the same study at 300 runs."""

import importlib.util
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "tools" / "reports"))
SPEC = importlib.util.spec_from_file_location(
    "coverage_study", ROOT / "tools" / "reports" / "coverage_study.py"
)
study = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(study)


def test_the_sequences_cover_the_truth_and_the_sweep_keeps_its_error():
    win, draw, loss, games = study.truth(200_000)
    assert games == 200_000 and abs(win + draw + loss - 1) < 1e-12
    advantage = win - loss
    fixed, sequence, early = study.stopped_runs(120, advantage)
    assert early > 0.5  # the test stops most runs early, where the fixed interval errs
    assert sequence >= 0.94
    assert sequence >= fixed
    fixed, sequence, extended = study.extended_runs(60, advantage)
    assert extended > 0.5
    assert sequence >= 0.94
    naive, corrected, false_verdict = study.sweep_runs(60, [win, draw, loss], advantage)
    assert naive > 0.2  # 15 uncorrected comparisons: a false difference most sweeps
    assert corrected <= 0.05
    assert false_verdict <= 0.05


def test_the_table_names_every_study():
    rows = [("the truth", "x", "y", ""), ("a", "b", "1.0%", "2.0%")]
    text = study.markdown(rows)
    assert text.splitlines()[0].startswith("| study | runs |")
    assert "| a | b | 1.0% | 2.0% |" in text
