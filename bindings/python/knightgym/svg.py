"""SVG pictures of states, drawn from ``state.picture()`` (env/core/picture.h).

C++ says what is where and how each kind of piece and each mark looks; this module draws
it, knowing no game. One drawing serves every game: a grid of squares with coordinates,
pieces of up to four colours (glyphs, or rings), stacked pieces with their count, each
square's number and marks (each in its look: blank, shaded, terrain, number, star, frames,
halos), zones (camps) tinted in their side's colour, links (bridges), the pieces held off
the board (reserves) and notes.

    knightgym.svg.draw(state)                     # or state.svg()
    knightgym.svg.draw(state, last_move="e2e4", targets={"e4": 0.62}, value=0.31)

Every square is a ``<g class="square" data-square="c1">`` so that a page can find and
click it (knightgym.viewer does). The output is deterministic: the same state and
arguments give the same bytes (the golden files of tests/golden/svg/).
"""

import math
import re
from xml.sax.saxutils import escape

CELL = 44  # pixels per square
MARGIN = 22  # room for the coordinates
NOTE_HEIGHT = 18  # one line of notes
NOTE_CHAR = 7.2  # the width of a character of the notes' font, at most
RESERVE_HEIGHT = 30  # the row of pieces off the board
RESERVE_WIDTH = 150  # per side's reserve in that row

# Fill, outline and text colour of each side's pieces, by the side's name.
SIDE_COLOURS = {
    "white": ("#fafafa", "#202020"),
    "black": ("#262626", "#e8e8e8"),
    "red": ("#d7301f", "#4d0c05"),
    "blue": ("#2b6cc4", "#0b2547"),
    "yellow": ("#f0c419", "#5a4500"),
    "green": ("#2e9e44", "#0c3a16"),
}
FALLBACK_COLOURS = [
    ("#8e44ad", "#2c0f38"),
    ("#16a085", "#06352c"),
    ("#d35400", "#401900"),
    ("#7f8c8d", "#222a2b"),
]

STYLE = """
.coord{font:12px sans-serif;fill:#555;text-anchor:middle;dominant-baseline:central}
.number{font:600 15px sans-serif;fill:#333;text-anchor:middle;dominant-baseline:central}
.out .number{fill:#9a9a9a;text-decoration:line-through}
.piece{font:34px 'DejaVu Sans',sans-serif;text-anchor:middle;dominant-baseline:central;stroke-width:1.3px;paint-order:stroke}
.count{font:bold 11px sans-serif;fill:#fff;text-anchor:middle;dominant-baseline:central}
.share{font:bold 11px sans-serif;fill:#0b3d91;text-anchor:middle;dominant-baseline:central}
.note{font:13px sans-serif;fill:#222}
.reserve{font:24px 'DejaVu Sans',sans-serif;dominant-baseline:central;stroke-width:1px;paint-order:stroke}
.held{font:13px sans-serif;fill:#222;dominant-baseline:central}
.target{fill:#2f7d32;fill-opacity:.45}
.l{fill:#efe4cf}.d{fill:#c9b48f}.o{fill:#d6d3cc}.l,.d,.t,.o{stroke:#8a7a5c;stroke-width:.5px}
.n{fill:#fffdf8}.m{fill:#f6e05e;fill-opacity:.55}
""".strip()

_SQUARE_NAME = re.compile(r"[a-z][0-9]+")


def side_colours(picture):
    """(fill, outline) of each side of ``picture``, by its name."""
    return [
        SIDE_COLOURS.get(name.lower(), FALLBACK_COLOURS[i % len(FALLBACK_COLOURS)])
        for i, name in enumerate(picture["sides"])
    ]


def squares_of(text, picture):
    """The squares a move's text names, in order ("e2e4" -> ["e2", "e4"], "b2-c4",
    "pass" -> []), keeping only squares of the picture's board."""
    names = {cell["square"] for cell in picture["cells"]}
    return [name for name in _SQUARE_NAME.findall(text) if name in names]


def draw(state, *, last_move=None, targets=None, value=None, flip=False, notes=True):
    """The SVG text of ``state`` (a knightgym.State, or the dict of its ``picture()``).

    last_move: the move to mark (its squares), by default ``state.last_move()``.
    targets:   squares to mark as where the mover may go, a collection of names, or a dict
               {square: share} whose shares (a search's visits) are printed as percents.
    value:     a search's value for the mover, added to the notes.
    flip:      draw the board from the other side (rank 1 at the top).
    notes:     print the picture's notes under the board.
    """
    picture = state if isinstance(state, dict) else state.picture()
    if last_move is None and not isinstance(state, dict):
        last_move = state.last_move()
    width, height = picture["width"], picture["height"]
    colours = side_colours(picture)
    note_lines = list(picture["notes"]) if notes else []
    if value is not None:
        note_lines.append(f"search value for the mover: {value:+.3f}")
    reserves = picture.get("reserves", [])
    reserve_h = RESERVE_HEIGHT if reserves else 0
    board_w, board_h = width * CELL, height * CELL
    longest_note = max((len(line) for line in note_lines), default=0)
    total_w = max(
        board_w + 2 * MARGIN,
        MARGIN + math.ceil(NOTE_CHAR * longest_note),
        MARGIN + RESERVE_WIDTH * len(reserves),
    )
    total_h = (
        board_h + 2 * MARGIN + reserve_h + NOTE_HEIGHT * len(note_lines) + (4 if note_lines else 0)
    )

    def origin(cell):
        file, rank = cell["file"], cell["rank"]
        if flip:
            file, rank = width - 1 - file, height - 1 - rank
        return MARGIN + file * CELL, MARGIN + (height - 1 - rank) * CELL

    def centre(name):
        cell = by_name[name]
        x, y = origin(cell)
        return x + CELL / 2, y + CELL / 2

    by_name = {cell["square"]: cell for cell in picture["cells"]}
    moved = set(squares_of(last_move, picture)) if last_move else set()
    shares = targets if isinstance(targets, dict) else {name: None for name in targets or ()}

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{total_h}" '
        f'viewBox="0 0 {total_w} {total_h}" class="knightgym-board">',
        f"<style>{STYLE}</style>",
        f'<rect width="{total_w}" height="{total_h}" fill="#fffdf8"/>',
    ]
    for cell in picture["cells"]:
        out.append(
            _square(
                cell,
                origin(cell),
                colours,
                picture["marks"],
                cell["square"] in moved,
                cell["square"] in shares,
                shares.get(cell["square"]),
            )
        )
    for a, b, side in picture["links"]:
        (x1, y1), (x2, y2) = centre(a), centre(b)
        out.append(
            f'<line class="link" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
            f'stroke="{colours[side][0]}" stroke-width="7" stroke-linecap="round"/>'
        )
    for cell in picture["cells"]:
        if cell["piece"]:
            out.append(_piece(cell, origin(cell), colours, picture))
    out.append(_coordinates(width, height, flip))
    out.append(
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{board_w}" height="{board_h}" '
        'fill="none" stroke="#555" stroke-width="1.5"/>'
    )
    for i, held in enumerate(reserves):
        x, y = MARGIN + RESERVE_WIDTH * i, 2 * MARGIN + board_h + reserve_h / 2 - 4
        fill, outline = colours[held["side"]]
        out.append(
            f'<g class="reserve-of" data-side="{held["side"]}">'
            f'<text class="reserve" x="{x}" y="{y:g}" fill="{fill}" stroke="{outline}">'
            f"{picture['pieces'][held['piece']]['glyph']}</text>"
            f'<text class="held" x="{x + 26}" y="{y:g}">'
            f"\u00d7 {held['count']} in reserve</text></g>"
        )
    for i, line in enumerate(note_lines):
        y = 2 * MARGIN + board_h + reserve_h + 4 + NOTE_HEIGHT * i
        out.append(f'<text class="note" x="{MARGIN}" y="{y}">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _looks(cell, styles):
    """{look: the styles of the cell's marks in that look}."""
    looks = {}
    for name in cell["marks"]:
        looks.setdefault(styles[name]["look"], []).append(styles[name])
    return looks


def _frame(x, y, colour, dashed=False, inset=2, width=3):
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    return (
        f'<rect x="{x + inset}" y="{y + inset}" width="{CELL - 2 * inset}" '
        f'height="{CELL - 2 * inset}" fill="none" stroke="{colour}" stroke-width="{width}"{dash}/>'
    )


def _square(cell, at, colours, styles, moved, target, share):
    x, y = at
    looks = _looks(cell, styles)
    classes = ["square"] + (["out"] if "shaded" in looks else [])
    parts = [f'<g class="{" ".join(classes)}" data-square="{cell["square"]}">']
    # The square's fill: blank (not a square of the board), shaded (out of play), a
    # terrain's colour, or light and dark.
    if "blank" in looks:
        fill = 'class="n"'
    elif "shaded" in looks:
        fill = 'class="o"'
    elif "terrain" in looks:
        fill = f'class="t" style="fill:{looks["terrain"][0]["colour"]}"'
    else:
        fill = 'class="d"' if (cell["file"] + cell["rank"]) % 2 == 0 else 'class="l"'
    parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" {fill}/>')
    if "blank" not in looks:
        if cell["zone"] >= 0:
            parts.append(
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
                f'fill="{colours[cell["zone"]][0]}" fill-opacity=".28"/>'
            )
        for terrain in looks.get("terrain", []):
            if terrain["accent"]:
                parts.append(
                    f'<ellipse cx="{x + CELL / 2:g}" cy="{y + CELL * 0.62:g}" '
                    f'rx="{CELL * 0.4:g}" ry="{CELL * 0.22:g}" fill="{terrain["accent"]}"/>'
                )
    if moved:
        parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" class="m"/>')
    if "star" in looks:  # in the corner when a piece stands on it
        parts.append(
            _star(x + CELL * 0.2, y + CELL * 0.2, CELL * 0.16)
            if cell["piece"]
            else _star(x + CELL / 2, y + CELL / 2, CELL * 0.36)
        )
    for style in looks.get("frame", []):
        parts.append(_frame(x, y, style["colour"]))
    for style in looks.get("dashed_frame", []):
        parts.append(_frame(x, y, style["colour"], dashed=True))
    if cell["number"] is not None and not cell["piece"]:
        colour = looks["number"][0]["colour"] if "number" in looks else None
        style = f' style="fill:{colour}"' if colour else ""
        parts.append(
            f'<text class="number" x="{x + CELL / 2:g}" y="{y + CELL / 2:g}"{style}>'
            f"{cell['number']:02d}</text>"
        )
    if target:
        parts.append(
            f'<circle class="target" cx="{x + CELL / 2:g}" cy="{y + CELL / 2:g}" '
            f'r="{CELL * 0.16:g}"/>'
        )
        if share is not None:
            parts.append(
                f'<text class="share" x="{x + CELL / 2:g}" y="{y + CELL - 8:g}">'
                f"{100 * share:.0f}%</text>"
            )
    parts.append("</g>")
    return "".join(parts)


def _piece(cell, at, colours, picture):
    x, y = at
    cx, cy = x + CELL / 2, y + CELL / 2
    fill, outline = colours[cell["owner"]]
    looks = _looks(cell, picture["marks"])
    style = picture["pieces"][cell["piece"]]
    parts = [f'<g class="piece-of" data-square="{cell["square"]}">']
    for halo in looks.get("halo", []):
        parts.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{CELL * 0.46:g}" fill="{halo["colour"]}" '
            'fill-opacity=".6"/>'
        )
    for halo in looks.get("dashed_halo", []):
        parts.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{CELL * 0.46:g}" fill="none" '
            f'stroke="{halo["colour"]}" stroke-width="3" stroke-dasharray="5 3"/>'
        )
    if not style["glyph"]:  # a ring
        parts.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{CELL * 0.3:g}" fill="{fill}" '
            f'stroke="{outline}" stroke-width="2"/>'
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{CELL * 0.14:g}" fill="#fffdf8" '
            f'stroke="{outline}" stroke-width="1.5"/>'
        )
    else:
        if style["halo"]:
            parts.append(
                f'<circle cx="{cx:g}" cy="{cy:g}" r="{CELL * 0.44:g}" fill="none" '
                f'stroke="{style["halo"]}" stroke-width="3"/>'
            )
        parts.append(
            f'<text class="piece" x="{cx:g}" y="{cy + 1:g}" fill="{fill}" '
            f'stroke="{outline}">{style["glyph"]}</text>'
        )
    if "side_frame" in looks:
        parts.append(_frame(x, y, outline, inset=3, width=2.5))
    if cell["count"] > 1:
        bx, by = x + CELL - 9, y + 9
        parts.append(
            f'<circle cx="{bx}" cy="{by}" r="7.5" fill="#6d4c41"/>'
            f'<text class="count" x="{bx}" y="{by}">{cell["count"]}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _star(cx, cy, r):
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        # Five points, the first straight up.
        angle = math.radians(i * 36)
        dx, dy = math.sin(angle), math.cos(angle)
        points.append(f"{cx + radius * dx:.1f},{cy - radius * dy:.1f}")
    return (
        f'<polygon class="star" points="{" ".join(points)}" fill="#ffffff" '
        'fill-opacity=".8" stroke="#6b6b6b" stroke-width="1"/>'
    )


def _coordinates(width, height, flip):
    parts = []
    for file in range(width):
        shown = width - 1 - file if flip else file
        x = MARGIN + file * CELL + CELL / 2
        for y in (MARGIN / 2, 1.5 * MARGIN + height * CELL):
            parts.append(f'<text class="coord" x="{x:g}" y="{y:g}">{chr(ord("a") + shown)}</text>')
    for rank in range(height):
        shown = rank if flip else height - 1 - rank
        y = MARGIN + rank * CELL + CELL / 2
        for x in (MARGIN / 2, 1.5 * MARGIN + width * CELL):
            parts.append(f'<text class="coord" x="{x:g}" y="{y:g}">{shown + 1}</text>')
    return "".join(parts)
