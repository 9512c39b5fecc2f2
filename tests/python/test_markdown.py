"""knightgym.markdown, the one writer of the Markdown tables of the package's reports and
of tools/: the rule line aligns each column as asked, a "|" inside a cell is escaped so
that it stays in its cell, and a row of the wrong length or an alignment that does not fit
the columns is refused by name, before a broken table is written."""

import pytest
from knightgym import markdown


def test_a_table_is_its_header_its_rule_and_a_line_per_row():
    text = markdown.table(["agent", "games", "score"], [["`random`", 20, "45.0%"], ["b", 0, ""]])
    assert text.split("\n") == [
        "| agent | games | score |",
        "|---|---|---|",
        "| `random` | 20 | 45.0% |",
        "| b | 0 |  |",
    ]
    assert markdown.table(["a"], []) == "| a |\n|---|"  # no newline after the last line


def test_each_column_is_aligned_as_asked():
    assert markdown.header(["a", "b", "c"], align="lrc").split("\n")[1] == "|---|--:|:-:|"
    assert markdown.table(["a", "b"], [[1, 2]], align="rr").split("\n")[1] == "|--:|--:|"


def test_a_pipe_in_a_cell_stays_in_its_cell():
    assert markdown.row(["x|y", "`a|b`"]) == "| x\\|y | `a\\|b` |"
    assert markdown.header(["a|b"]).split("\n")[0] == "| a\\|b |"


def test_the_header_and_rows_printed_one_by_one_make_the_same_table():
    rows = [["random", 1], ["greedy", 2]]
    printed = [markdown.header(["agent", "n"], align="lr")] + [markdown.row(r) for r in rows]
    assert "\n".join(printed) == markdown.table(["agent", "n"], rows, align="lr")


def test_a_row_of_the_wrong_length_is_named():
    with pytest.raises(ValueError, match=r"row 2 has 3 cells, the header 2: \['b', 1, 'extra'\]"):
        markdown.table(["agent", "n"], [["a", 0], ["b", 1, "extra"]])
    with pytest.raises(ValueError, match="row 1 has 1 cells, the header 2"):
        markdown.table(["agent", "n"], [["a"]])


def test_an_alignment_that_does_not_fit_the_columns_is_refused():
    with pytest.raises(ValueError, match="align 'lr' must give one of l, r, c for each of the 3"):
        markdown.header(["a", "b", "c"], align="lr")
    with pytest.raises(ValueError, match="align 'lx'"):
        markdown.table(["a", "b"], [], align="lx")
