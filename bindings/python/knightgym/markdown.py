"""Markdown tables, written one way for every report of the package and of tools/:

    from knightgym import markdown
    print(markdown.table(["agent", "games", "score"], [["`random`", 20, "45.0%"]], align="lrr"))

prints

    | agent | games | score |
    |---|--:|--:|
    | `random` | 20 | 45.0% |

A cell is any value, written with str(); a "|" inside it is escaped as "\\|", so that it
stays in its cell. A table that prints its rows as they are measured prints header() once
and row() for each.
"""

__all__ = ["header", "row", "table"]

# How a column's rule line aligns it: "l" is Markdown's default (left), "r" right (numbers),
# "c" centred.
RULES = {"l": "---", "r": "--:", "c": ":-:"}


def row(cells):
    """One line of a table: "| a | b |", each cell escaped."""
    return "|" + "".join(f" {_escaped(cell)} |" for cell in cells)


def header(names, align=None):
    """A table's first two lines, its column names and the rule under them. align: one
    letter per column ("l", "r" or "c"; see RULES), or None for every column left."""
    align = "l" * len(names) if align is None else align
    if len(align) != len(names) or any(letter not in RULES for letter in align):
        raise ValueError(
            f"align {align!r} must give one of {', '.join(RULES)} for each of the "
            f"{len(names)} columns {list(names)}"
        )
    return row(names) + "\n|" + "".join(f"{RULES[letter]}|" for letter in align)


def table(names, rows, align=None):
    """A whole table: header() and a row() per row, joined by newlines (none after the last
    line, as print() and "\\n".join() take it). A row whose length differs from the
    header's raises ValueError naming the row."""
    lines = [header(names, align)]
    for number, cells in enumerate(rows, 1):
        cells = list(cells)
        if len(cells) != len(names):
            raise ValueError(
                f"row {number} has {len(cells)} cells, the header {len(names)}: {cells!r}"
            )
        lines.append(row(cells))
    return "\n".join(lines)


def _escaped(cell):
    return str(cell).replace("|", "\\|")
