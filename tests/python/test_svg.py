"""Pictures of states: state.picture() (env/core/picture.h) says what each game shows, and
knightgym.svg draws it.

Golden files: for every conformance spec, the SVG of each state of its
render golden file but the one after 5 decisions (tests/golden/render/: the start and the
seeded positions after 20 and 60 decisions, read back from their serialized lines) is
tests/golden/svg/<name>__<k>.svg, <name> the render file's name and <k> the state's index
there (0, 2, 3). With KNIGHTGYM_UPDATE_GOLDEN=1 the tests write those that differ and
remove stale ones, and fail (golden_files.py; tests/golden/README.md)."""

import pathlib
import random
import re
import sys
import xml.etree.ElementTree as ET

import knightgym
import pytest
from golden_files import assert_golden, assert_none_stale, golden_name
from knightgym import records, svg

GOLDEN = pathlib.Path(__file__).resolve().parent.parent / "golden"
SVG_NS = "{http://www.w3.org/2000/svg}"
GOLDEN_STATES = (0, 2, 3)  # of the render golden file's four: the start, after 20 and 60


def golden_states(spec):
    text = (GOLDEN / "render" / (golden_name(spec) + ".txt")).read_text()
    game = knightgym.load_game(spec)
    return [
        game.deserialize_state(line[len("serialized: ") :])
        for line in text.splitlines()
        if line.startswith("serialized: ")
    ]


def parse(svg_text):
    root = ET.fromstring(svg_text)
    assert root.tag == SVG_NS + "svg"
    return root


def squares(root, cls="square"):
    return {
        g.get("data-square"): g
        for g in root.iter(SVG_NS + "g")
        if g.get("class", "").split()[0] == cls
    }


def test_golden_svgs(conformance_spec):
    states = golden_states(conformance_spec)
    assert len(states) == 4
    drawn = {}
    for k in GOLDEN_STATES:
        text = states[k].svg()
        parse(text)
        drawn[GOLDEN / "svg" / f"{golden_name(conformance_spec)}__{k}.svg"] = text
    assert_golden(drawn)


def test_no_stale_golden_svgs(conformance_specs):
    expected = {
        f"{golden_name(spec)}__{k}.svg" for spec in conformance_specs for k in GOLDEN_STATES
    }
    assert_none_stale(sorted(p for p in (GOLDEN / "svg").glob("*.svg") if p.name not in expected))


def test_every_square_is_drawn_with_its_name(conformance_spec):
    state = knightgym.load_game(conformance_spec).new_initial_state(seed=3)
    picture = state.picture()
    root = parse(state.svg())
    drawn = squares(root)
    assert set(drawn) == {cell["square"] for cell in picture["cells"]}
    assert len(picture["cells"]) == picture["width"] * picture["height"]
    for cell in picture["cells"]:
        assert -1 <= cell["owner"] < len(picture["sides"])
        assert (cell["piece"] is None) == (cell["owner"] == -1) == (cell["count"] == 0)


def play(spec, moves, seed=0):
    state = knightgym.load_game(spec).new_initial_state(seed=seed)
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def cells(state):
    return {cell["square"]: cell for cell in state.picture()["cells"]}


def test_knight_fight_shows_numbers_knights_and_squares_out_of_play():
    state = play("knight_fight(layout=identity)", ["c1", "c10"])
    by_square = cells(state)
    assert by_square["d1"]["number"] == 3 and by_square["a10"]["number"] == 90
    assert by_square["c1"]["piece"] == "knight" and by_square["c1"]["owner"] == 0
    assert by_square["c10"]["owner"] == 1
    # Landing on 02 erased its mirror 20 (a3); landing on 92 erased 29 (j3).
    assert "out_of_play" in by_square["a3"]["marks"] and "out_of_play" in by_square["j3"]["marks"]
    assert "out_of_play" not in by_square["b3"]["marks"]
    assert "double" in by_square["b2"]["marks"] and "double" not in by_square["c2"]["marks"]
    root = parse(state.svg())
    assert "c1" in state.svg() and "out" in squares(root)["a3"].get("class")
    assert state.picture()["to_move"] == 0


def test_knightmate_shows_pieces_royal_knights_and_check():
    start = cells(knightgym.load_game("knightmate").new_initial_state(seed=0))
    assert start["e1"]["piece"] == "royal_knight" and start["e8"]["owner"] == 1
    assert start["b1"]["piece"] == "commoner" and start["d1"]["piece"] == "queen"
    assert sum(cell["piece"] == "pawn" for cell in start.values()) == 16
    assert not any(cell["marks"] for cell in start.values())


def test_knightmate_marks_the_royal_knight_in_check():
    state = knightgym.load_game("knightmate").deserialize_state(
        "fen=[4k3/8/8/8/8/8/8/4QK2 b - - 0 1] turns=0 keys= history="
    )
    by_square = cells(state)
    assert by_square["e8"]["marks"] == ["check"]
    assert by_square["f1"]["marks"] == [] and by_square["e1"]["piece"] == "queen"


def test_double_duel_shows_stacks_reserves_and_the_turns_marks():
    game = knightgym.load_game("double_duel")
    state = game.new_initial_state(seed=0)
    by_square = cells(state)
    assert by_square["c1"]["piece"] == "pawn" and by_square["c1"]["count"] == 2
    assert by_square["b1"]["piece"] == "knight"
    state.apply_action(state.legal_actions()[0])
    selected = [name for name, cell in cells(state).items() if "selected" in cell["marks"]]
    assert selected == [state.last_move()]
    assert "reserves White 0 Black 0" in state.picture()["notes"][0]
    assert 'class="count"' in state.svg()
    # A captured pawn goes to its owner's reserve, which is drawn under the board.
    captured = game.deserialize_state(
        "board=PNDPPD.........N.....n........dndppd reserve=1,0 rights=-,- turns=2 to_move=0 "
        "phase=knight selected=- vacated=- free_step=0 free_moves=0 winner=- end=running"
    )
    assert captured.picture()["reserves"] == [
        {"side": 0, "piece": "pawn", "count": 1},
        {"side": 1, "piece": "pawn", "count": 0},
    ]
    held = {
        g.get("data-side"): "".join(g.itertext())
        for g in parse(captured.svg()).iter(SVG_NS + "g")
        if g.get("class") == "reserve-of"
    }
    assert held == {"0": "\u265f\u00d7 1 in reserve", "1": "\u265f\u00d7 0 in reserve"}


def test_knights_challenge_shows_camps_safe_squares_and_captures():
    picture = (
        knightgym.load_game("knights_challenge(mode=ffa3)").new_initial_state(seed=0).picture()
    )
    zones = [cell["zone"] for cell in picture["cells"]]
    assert [zones.count(side) for side in range(4)] == [12, 12, 12, 0]  # green is not in play
    assert sum("safe" in cell["marks"] for cell in picture["cells"]) == 8
    assert picture["sides"] == ["red", "blue", "yellow", "green"]
    assert picture["notes"][-1] == "captures red 0, blue 0, yellow 0"
    assert sum(cell["piece"] == "knight" for cell in picture["cells"]) == 24


def test_tailten_shows_hills_ringforts_and_the_bridges_of_kingdoms():
    state = knightgym.load_game("tailten").new_initial_state(seed=0)
    rng = random.Random(5)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    picture = state.picture()
    by_square = {cell["square"]: cell for cell in picture["cells"]}
    assert by_square["a1"]["marks"] == ["off_board"] and by_square["b1"]["marks"] == ["hill"]
    forts = [cell for cell in picture["cells"] if cell["piece"] == "ringfort"]
    assert {cell["owner"] for cell in forts} == {0, 1} and len(picture["links"]) > 5
    # Bridges join orthogonal neighbours of one player only, each pair once.
    for a, b, side in picture["links"]:
        assert by_square[a]["owner"] == by_square[b]["owner"] == side
        (fa, ra), (fb, rb) = [(by_square[x]["file"], by_square[x]["rank"]) for x in (a, b)]
        assert abs(fa - fb) + abs(ra - rb) == 1
    owners = {name: cell["owner"] for name, cell in by_square.items() if cell["piece"]}
    expected = {
        tuple(sorted((a, b)))
        for a in owners
        for b in owners
        if a < b
        and owners[a] == owners[b]
        and abs(by_square[a]["file"] - by_square[b]["file"])
        + abs(by_square[a]["rank"] - by_square[b]["rank"])
        == 1
    }
    assert {tuple(sorted(link[:2])) for link in picture["links"]} == expected


def test_the_last_move_targets_shares_and_value_are_drawn():
    state = play("knightmate", ["e2e4"])
    root = parse(state.svg())
    marked = {
        name
        for name, g in squares(root).items()
        if any(r.get("class") == "m" for r in g.iter(SVG_NS + "rect"))
    }
    assert marked == {"e2", "e4"}
    text = svg.draw(state, last_move="", targets={"e5": 0.625, "d5": 0.375}, value=-0.25)
    root = parse(text)
    shares = {t.text for t in root.iter(SVG_NS + "text") if t.get("class") == "share"}
    assert shares == {"62%", "38%"}
    assert "search value for the mover: -0.250" in text
    assert 'class="m"' not in text
    assert len([c for c in root.iter(SVG_NS + "circle") if c.get("class") == "target"]) == 2


def test_flipped_boards_put_rank_one_at_the_top():
    state = knightgym.load_game("double_duel").new_initial_state(seed=0)
    normal, flipped = squares(parse(svg.draw(state))), squares(parse(svg.draw(state, flip=True)))

    def y(g):
        return float(g.find(SVG_NS + "rect").get("y"))

    assert y(normal["a1"]) > y(normal["a6"])
    assert y(flipped["a1"]) < y(flipped["a6"])


def test_move_squares_are_read_from_the_board():
    picture = knightgym.load_game("knights_challenge").new_initial_state(seed=0).picture()
    assert svg.squares_of("b2-c4", picture) == ["b2", "c4"]
    assert svg.squares_of("l12-off", picture) == ["l12"]
    assert svg.squares_of("pass", picture) == []
    assert svg.squares_of("z9", picture) == []


def test_notebooks_get_the_svg():
    state = knightgym.load_game("tailten").new_initial_state(seed=0)
    assert state._repr_svg_() == state.svg() == svg.draw(state)
    assert re.match(r'<svg xmlns="http://www.w3.org/2000/svg"', state.svg())


# ---- The docs' pictures ----

ROOT = GOLDEN.parent.parent
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")


def test_every_picture_the_docs_show_is_there_and_svgs_parse():
    shown = 0
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for target in IMAGE.findall(page.read_text()):
            path = page.parent / target
            assert path.is_file(), f"{page.relative_to(ROOT)} shows {target}, which is missing"
            if path.suffix == ".svg":
                parse(path.read_text())
            shown += 1
    assert shown >= 20


def test_the_rules_show_each_start_as_drawn_now():
    # Every picture tools/reports/doc_pictures.py rules draws: each game's start and the further
    # starts its studies name.
    sys.path.insert(0, str(ROOT / "tools" / "reports"))
    import doc_pictures

    pictures = ROOT / "docs" / "rules" / "pictures"
    drawn_now = 0
    for specs in doc_pictures.RULE_PICTURES.values():
        for spec in specs:
            path = pictures / f"{doc_pictures.file_name(spec)}_start.svg"
            drawn = knightgym.load_game(spec).new_initial_state(seed=0).svg()
            assert path.is_file() and path.read_text() == drawn, (
                f"{path.relative_to(ROOT)} is stale: tools/reports/doc_pictures.py rules"
            )
            drawn_now += 1
    assert drawn_now > len(knightgym.games())


@pytest.mark.parametrize(
    "record_file,picture",
    [
        *[
            (f"docs/training/games/{p.stem}.jsonl", f"docs/training/{p.stem}_example_final.svg")
            for p in sorted((ROOT / "docs" / "training" / "games").glob("*.jsonl"))
        ],
        *[
            (
                f"docs/balance/runs/{run.name}/records.jsonl",
                f"docs/balance/{run.name}_final.svg",
            )
            for run in sorted((ROOT / "docs" / "balance" / "runs").glob("*_example"))
        ],
    ],
)
def test_the_example_games_replay_to_the_final_positions_shown(record_file, picture):
    game = records.read(ROOT / record_file)[0]
    assert game.final_state().svg() == (ROOT / picture).read_text()
