"""Perft for every registered game, from Python (State.perft, State.perft_divide) and from
the command line (knightgym perft GAME), against a count made here from legal_actions and
apply_action alone; and every command's --help. No game is named: a new game is covered
by registering it. Each game's known counts, checked against its independent reference,
are in its C++ reference test (tests/cpp/env/games/<game>/*_reference_test.cc)."""

import pathlib
import re
import subprocess

import knightgym
import pytest

CLI = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent / "knightgym"
DEPTH = 3


def counted_here(state, depth):
    if depth == 0:
        return 1
    leaves = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        leaves += counted_here(child, depth - 1)
    return leaves


def cli(*args):
    return subprocess.run([str(CLI), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", knightgym.games())
def test_perft_of_every_game_is_the_count_of_its_legal_action_tree(name):
    state = knightgym.load_game(name).new_initial_state(seed=3)
    expected = [counted_here(state, depth) for depth in range(DEPTH + 1)]
    assert [state.perft(depth) for depth in range(DEPTH + 1)] == expected
    assert expected[1] == len(state.legal_actions()) > 0
    divided = state.perft_divide(DEPTH)
    assert list(divided) == sorted(map(state.action_to_string, state.legal_actions()))
    assert sum(divided.values()) == expected[DEPTH]


@pytest.mark.parametrize("name", knightgym.games())
def test_the_command_line_counts_what_python_counts(name):
    state = knightgym.load_game(name).new_initial_state(seed=3)
    done = cli("perft", name, "--seed", "3", "--depth", str(DEPTH), "--divide")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == f"nodes {state.perft(DEPTH)}"
    divided = {text: int(count) for text, count in (line.rsplit(": ", 1) for line in lines[:-1])}
    assert divided == state.perft_divide(DEPTH)


def test_a_finished_game_has_no_leaves_below_it():
    name = knightgym.games()[0]
    state = knightgym.load_game(f"{name}(max_turns=1)").new_initial_state(seed=0)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.perft(0) == 1
    assert [state.perft(depth) for depth in (1, 2)] == [0, 0]
    assert state.perft_divide(1) == {}


def test_bad_depths_raise_value_error_and_the_cli_names_them():
    state = knightgym.load_game(knightgym.games()[0]).new_initial_state()
    with pytest.raises(ValueError, match="perft depth must be >= 0, got -1"):
        state.perft(-1)
    with pytest.raises(ValueError, match="perft depth must be >= 1, got 0"):
        state.perft_divide(0)
    done = cli("perft", knightgym.games()[0], "--depth", "-1")
    assert done.returncode == 1
    assert "--depth '-1': expected an integer >= 0" in done.stderr
    done = cli("perft", "--depth", "1")
    assert done.returncode == 1
    assert "usage: knightgym perft GAME" in done.stderr


def test_a_game_a_uci_engine_plays_reads_and_writes_fens():
    uci_games = [name for name in knightgym.games() if knightgym.load_game(name).uci_variant]
    assert uci_games
    for name in uci_games:
        game = knightgym.load_game(name)
        start = game.new_initial_state()
        assert game.state_from_fen(start.fen()).serialize() == start.serialize()
        module = getattr(knightgym, name)
        assert start.fen() == module.START_FEN
        assert module.perft(start.fen(), 2) == start.perft(2)
        with pytest.raises(ValueError):
            game.state_from_fen("not a fen")


def test_a_fen_is_refused_by_name_for_a_game_without_one():
    for name in knightgym.games():
        game = knightgym.load_game(name)
        if game.uci_variant is not None:
            continue
        with pytest.raises(ValueError, match=f"{name} has no FEN"):
            game.state_from_fen("8/8/8/8/8/8/8/8 w - - 0 1")
        with pytest.raises(ValueError, match=f"{name} has no FEN"):
            game.new_initial_state().fen()
        done = cli("perft", name, "--fen", "x", "--depth", "1")
        assert done.returncode == 1
        assert f"{name} has no FEN" in done.stderr


def test_every_command_answers_help_with_its_usage():
    listing = cli("--help")
    assert listing.returncode == 0
    commands = re.findall(r"^  (\S+)", listing.stdout, re.MULTILINE)
    assert {"list", "perft", "play", "train", "view"} <= set(commands)
    for command in commands:
        done = cli(command, "--help")
        assert done.returncode == 0, (command, done.stderr)
        assert done.stdout.startswith(f"usage: knightgym {command} "), done.stdout
        if command != "view":  # view's is the viewer's parser's (test_cli_flags.py)
            assert done.stdout.count("\n\n") == 1  # the usage, a blank line, what it does
    unknown = cli("frobnicate")
    assert unknown.returncode == 2
    assert "unknown command 'frobnicate'" in unknown.stderr
