"""No two source files share a name for different things (issue 60): a reader who meets
`chunk_player.h` in two folders should not have to open both to learn that they differ.

The sources read are the C++ files (.h, .cc) under util, env, agents, training, programs
and bindings, and the Python files of the package (bindings/python/knightgym) and of
tools/. A name (a file's base name without its extension) may recur only
- as a header and its source in one folder (balance.h and balance.cc);
- across the games' folders env/games/<game>/, which share one vocabulary (board.h,
  picture.cc, text_face.cc in each game that has one);
- as a Python package's __init__ and __main__;
- where SAME_THING below says that the files are one thing, in the folders it names.
The tests (tests/) are not read: they mirror the code, each named after what it tests
(tests/cpp/training/balance/tally_test.cc, tests/python/test_balance.py)."""

import collections
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
CPP_FOLDERS = ("util", "env", "agents", "training", "programs", "bindings")
PYTHON_FOLDERS = ("bindings/python/knightgym", "tools")
GAMES = "env/games/*"  # the place of every file under env/games/<game>/

# Names that recur for one thing, each with the places that hold it (a folder, or GAMES
# for the games' folders). A new place for one of these names is a clash like any other.
SAME_THING = {
    # A balance run: played and measured in C++, run, reported and plotted from Python.
    "balance": {"training/balance", "bindings/python/knightgym"},
    # The rating ladder in C++ and its Python face.
    "ladder": {"training/ladder", "bindings/python/knightgym"},
    # The balance statistics in C++ and the same functions as Python sees them.
    "statistics": {"training/balance", "bindings/python/knightgym"},
    # The two ends of the Ray relay: the program's, and the Python child that speaks Ray.
    "ray_relay": {"programs/cli", "bindings/python/knightgym"},
    # The vector env in C++ and its Python face.
    "vector_env": {"env/vector", "bindings/python/knightgym"},
    # A game registered at run time, each layer adding its typed code to the layer's below.
    "game_registration": {"agents", "training"},
    # Optional capabilities: env/core declares each, and a game offers its own in its folder
    # (perft: env/core counts any game's tree, calling Knightmate's own count on bitboards).
    "extras": {"env/core", GAMES},
    "perft": {"env/core", GAMES},
    "picture": {"env/core", GAMES},
}


def source_files():
    """The sources read, as paths relative to the repository's root."""
    paths = []
    for folder in CPP_FOLDERS:
        paths += [p for p in (ROOT / folder).rglob("*") if p.suffix in {".h", ".cc"}]
    for folder in PYTHON_FOLDERS:
        paths += (ROOT / folder).rglob("*.py")
    return sorted(p.relative_to(ROOT).as_posix() for p in paths)


def place(path):
    """The folder of `path`, or GAMES for a file in a game's folder."""
    parts = pathlib.PurePosixPath(path).parts
    if parts[:2] == ("env", "games") and len(parts) > 3:
        return GAMES
    return "/".join(parts[:-1])


def places_by_name(paths):
    """Each name with the places of the files that bear it."""
    places = collections.defaultdict(set)
    for path in paths:
        name = pathlib.PurePosixPath(path).stem
        if not (name.startswith("__") and name.endswith("__")):
            places[name].add(place(path))
    return places


def clashes(paths):
    """The names borne in more than one place beyond what SAME_THING allows, each with
    its files."""
    wrong = []
    for name, places in sorted(places_by_name(paths).items()):
        if len(places) > 1 and not places <= SAME_THING.get(name, set()):
            files = [p for p in paths if pathlib.PurePosixPath(p).stem == name]
            wrong.append(f"{name}: " + ", ".join(files))
    return wrong


def test_no_two_source_files_share_a_name_for_different_things():
    wrong = clashes(source_files())
    assert not wrong, (
        "files that share a name in different places (rename one for what it does, or, if "
        "they are one thing, add the name to SAME_THING with a comment):\n" + "\n".join(wrong)
    )


def test_every_name_allowed_to_recur_still_recurs_in_those_places():
    places = places_by_name(source_files())
    stale = [name for name, allowed in SAME_THING.items() if places.get(name) != allowed]
    assert not stale, f"SAME_THING names what no longer recurs as listed: {stale}"


def test_a_name_new_in_another_folder_is_a_clash_and_the_exceptions_are_not():
    paths = source_files()
    assert "training/balance/balance_chunks.h" in paths
    assert clashes(paths + ["training/foo/balance_chunks.h"]) == [
        "balance_chunks: training/balance/balance_chunks.cc, "
        "training/balance/balance_chunks.h, training/foo/balance_chunks.h"
    ]
    assert clashes(["training/foo/chunk_player.h", "training/bar/chunk_player.cc"])
    # An allowed name in a place SAME_THING does not list, a game's word outside the games.
    assert clashes(paths + ["programs/cli/ladder.cc"])
    assert clashes(paths + ["util/board.h"])
    # A header with its source, the games' vocabulary, a package's __init__.
    assert not clashes(["training/foo/chunk_player.h", "training/foo/chunk_player.cc"])
    assert not clashes(["env/games/a/board.h", "env/games/b/board.h", "env/games/c/board.cc"])
    assert not clashes(["bindings/python/knightgym/__init__.py", "tools/lib/__init__.py"])
