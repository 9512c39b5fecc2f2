"""The balance report's fresh tables put into docs/balance.md: each in place of the page's
table with the same columns, the words between them (written by hand) left as they are.
A table the page has no place for is reported, to be placed by hand once.
"""

from pathlib import Path


def splice(report, summary):
    """Replaces the tables of the file REPORT with those of SUMMARY (Markdown text) that
    have the same signature, writing REPORT whole; returns the headers of SUMMARY's tables
    it had no place for."""
    report = Path(report)
    text, unplaced = replace_tables(report.read_text(), summary)
    temporary = report.with_suffix(".tmp")
    temporary.write_text(text)
    temporary.replace(report)
    return unplaced


def table_signature(header):
    """What tells a report's tables apart: their header's cells up to the first player's
    (a sweep's keys and its first run), or the first four."""
    cells = [cell.strip() for cell in header.strip().strip("|").split("|")]
    first_player = next((i for i, cell in enumerate(cells) if "mcts" in cell), 3)
    return tuple(cells[: first_player + 1])


def tables_of(text):
    """The Markdown tables of TEXT: (first line, end line) of each run of "|" lines."""
    lines, tables, start = text.split("\n"), [], None
    for i, line in enumerate([*lines, ""]):
        if line.startswith("|") and start is None:
            start = i
        elif not line.startswith("|") and start is not None:
            tables.append((start, i))
            start = None
    return lines, tables


def replace_tables(report, summary):
    """REPORT with each of its tables that SUMMARY has a table of the same signature for
    replaced by that one; and the headers of SUMMARY's tables it has no place for."""
    new_lines, new_tables = tables_of(summary)
    fresh = {table_signature(new_lines[a]): new_lines[a:b] for a, b in new_tables}
    lines, tables = tables_of(report)
    placed = set()
    for a, b in reversed(tables):
        signature = table_signature(lines[a])
        if signature in fresh:
            lines[a:b] = fresh[signature]
            placed.add(signature)
    unplaced = [new_lines[a] for a, _ in new_tables if table_signature(new_lines[a]) not in placed]
    return "\n".join(lines), unplaced
