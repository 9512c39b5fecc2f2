"""tools/reports/compute_curves.py: docs/strength/compute.csv reads and draws, with a panel for
every shipped network (models/manifest.json), and a damaged table is refused by name with
nothing written."""

import json
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "reports"))
import compute_curves  # noqa: E402

TABLE = ROOT / "docs" / "strength" / "compute.csv"


def test_the_committed_table_draws_every_shipped_network(tmp_path):
    rows = compute_curves.read_table(TABLE)
    shipped = json.loads((ROOT / "models" / "manifest.json").read_text())["networks"]
    assert {row["game"] for row in rows} == set(shipped)
    png = tmp_path / "compute.png"
    assert compute_curves.main([str(TABLE), str(png)]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda t: t.replace(",target,", ",goal,"), "the header must be"),
        (lambda t: t.replace(",cpu,14.8,", ",gpu,14.8,", 1), "time must be cpu or wall"),
        (lambda t: t.replace(",400,0.602,0.554,", ",400,0.602,0.654,", 1), "low <= score"),
        (lambda t: t.replace(",0.602,", ",zero,", 1), "could not convert"),
        (lambda t: t.replace(",issue 32 taught\n", ",issue 99\n", 1), "continues 'issue 99'"),
        (lambda t: t + "knight_fight,short row\n", "12 cells expected"),
        (lambda t: t + "#" * (1 << 20), "larger than"),
    ],
)
def test_a_damaged_table_is_refused_by_name(tmp_path, capsys, change, message):
    table = tmp_path / "compute.csv"
    table.write_text(change(TABLE.read_text()))
    png = tmp_path / "compute.png"
    assert compute_curves.main([str(table), str(png)]) == 1
    error = capsys.readouterr().err
    assert message in error and str(table) in error
    assert list(tmp_path.iterdir()) == [table]
