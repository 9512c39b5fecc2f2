"""docs/api.md's table of the files of a game against the repository: every committed file
whose path names a game of the registry is on a row of the table, and every game has the
files of every row marked needed. So the table lists exactly what a sixth game adds (the
needed rows, counted per game below) and what its studies may add."""

import pathlib
import re
import subprocess

import knightgym
import pytest
from golden_files import golden_name

ROOT = pathlib.Path(__file__).resolve().parents[2]
TABLE = re.compile(r"<!-- files of a game -->\n(.*?)<!-- end of the files of a game -->", re.S)
GOLDEN_SVG_STATES = ("0", "2", "3")


def committed_files():
    listing = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return [line for line in listing.stdout.splitlines() if (ROOT / line).is_file()]


def rows():
    """(patterns, needed) of each row of the table."""
    text = TABLE.search((ROOT / "docs" / "api.md").read_text()).group(1)
    table = []
    for line in text.strip().splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        table.append((re.findall(r"`([^`]+)`", cells[0]), cells[1].startswith("needed")))
    return table


def specs_of(game):
    path = ROOT / "tests" / "cpp" / "env" / "games" / game / "conformance_specs.txt"
    lines = path.read_text().splitlines() if path.exists() else []
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def expand(pattern, game):
    """A row's pattern for one game: the paths or globs it stands for."""
    paths = [pattern.replace("<name>", game)]
    if "<spec>" in pattern:
        paths = [p.replace("<spec>", golden_name(spec)) for p in paths for spec in specs_of(game)]
    if "<k>" in pattern:
        paths = [p.replace("<k>", k) for p in paths for k in GOLDEN_SVG_STATES]
    return paths


def matcher(path):
    """A glob as a regex: * stands within one folder, ** for any path."""
    parts = [re.escape(part).replace(r"\*", "[^/]*") for part in path.split("**")]
    return re.compile(".*".join(parts) + r"\Z")


def names(game, path):
    return re.search(rf"(?<![a-z0-9]){re.escape(game)}(?![a-z0-9])", path) is not None


@pytest.mark.parametrize("game", knightgym.games())
def test_every_file_that_names_a_game_is_in_the_table_and_the_needed_ones_are_there(game):
    files = committed_files()
    table = rows()
    globs = [
        (matcher(path), needed)
        for patterns, needed in table
        for p in patterns
        for path in expand(p, game)
    ]
    # Another game's name holding this one's (none now) would be the other game's file.
    others = [other for other in knightgym.games() if other != game and game in other]
    mine = [f for f in files if names(game, f) and not any(names(o, f) for o in others)]
    unlisted = [f for f in mine if not any(glob.match(f) for glob, _ in globs)]
    assert not unlisted, f"files of {game} on no row of docs/api.md's table: {unlisted}"
    needed = [
        (glob, path)
        for patterns, is_needed in table
        if is_needed
        for p in patterns
        for path in expand(p, game)
        for glob in [matcher(path)]
    ]
    missing = [path for glob, path in needed if not any(glob.match(f) for f in mine)]
    assert not missing, f"{game} lacks files the table says every game needs: {missing}"
    # What a game needs, counted: its rules, tests, docs and picture, and the golden files
    # of each of its specs.
    specs = len(specs_of(game))
    assert specs >= 1
    needed_files = [f for f in mine if any(glob.match(f) for glob, _ in needed)]
    assert len(needed_files) == 7 + specs * (1 + len(GOLDEN_SVG_STATES))


def test_the_list_names_each_game_in_two_lines():
    listing = (ROOT / "env" / "registry" / "game_list.h").read_text()
    for game in knightgym.games():
        title = "".join(part.title() for part in game.split("_"))
        include = f'#include "env/games/{game}/{game}.h"'
        assert listing.count(include) == 1, game
        assert re.search(rf"using Games = GameList<[^>]*\b{title}\b", listing), game
