"""Knightmate from Python: the knightgym.knightmate module (perft, perft_divide,
legal_moves, START_FEN) and games started from a FEN. The rules and encodings:
docs/rules/knightmate.md; the engine's own tests:
tests/cpp/env/games/knightmate/knightmate_test.cc."""

import knightgym
import knightgym.knightmate
import pytest
from knightgym.knightmate import START_FEN, legal_moves, perft, perft_divide

# Castling both ways for both sides, en passant on d6, commoners developed.
CASTLING_FEN = "r3k2r/ppp1qppp/2m1bm2/3pP3/8/2M1BM2/PPP1QPPP/R3K2R w KQkq d6 0 9"
# Pawns one step from promotion on both sides, rooks to capture while promoting.
PROMOTION_FEN = "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1"


def knightmate_game(fen=None, **params):
    spec = knightgym.make_spec("knightmate", **params)
    if fen is not None:
        spec = knightgym.make_spec(spec, fen=fen)
    return knightgym.load_game(spec)


def test_the_submodule_is_importable_both_ways():
    assert knightgym.knightmate.perft is perft
    assert knightgym.knightmate.__name__ == "knightgym.knightmate"
    assert START_FEN == "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1"


@pytest.mark.parametrize("depth, nodes", [(1, 18), (2, 324), (3, 6765), (4, 139774)])
def test_perft_from_the_start_matches_the_reference_counts(depth, nodes):
    assert perft(START_FEN, depth) == nodes
    assert perft(depth=depth) == nodes  # fen defaults to "startpos"


def test_perft_of_depth_zero_is_one_node():
    assert perft(START_FEN, 0) == 1


@pytest.mark.parametrize("fen, depth", [(START_FEN, 3), (CASTLING_FEN, 2), (PROMOTION_FEN, 2)])
def test_divide_sums_to_perft_over_the_legal_moves(fen, depth):
    divided = perft_divide(fen, depth)
    assert sum(divided.values()) == perft(fen, depth)
    assert list(divided) == legal_moves(fen)  # both sorted by move text


def test_legal_moves_use_uci_with_castling_and_commoner_promotions():
    assert legal_moves() == [
        "a2a3",
        "a2a4",
        "b2b3",
        "b2b4",
        "c2c3",
        "c2c4",
        "d2d3",
        "d2d4",
        "e1d3",
        "e1f3",
        "e2e3",
        "e2e4",
        "f2f3",
        "f2f4",
        "g2g3",
        "g2g4",
        "h2h3",
        "h2h4",
    ]
    assert {"e1g1", "e1c1", "e5d6"} <= set(legal_moves(CASTLING_FEN))
    promotions = {m for m in legal_moves(PROMOTION_FEN) if m.startswith("b7")}
    assert promotions == {s + p for s in ("b7a8", "b7b8") for p in "qrbm"}


@pytest.mark.parametrize("call", [perft, perft_divide])
def test_a_fen_with_an_ordinary_knight_raises_value_error_naming_the_letter(call):
    with pytest.raises(ValueError, match="letter 'n' is not a Knightmate piece"):
        call("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1", 1)
    with pytest.raises(ValueError, match="letter 'N'"):
        legal_moves("rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    with pytest.raises(ValueError, match="letter 'n'"):
        knightmate_game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1")


def test_a_negative_depth_raises_value_error():
    with pytest.raises(ValueError, match="depth must be >= 0, got -1"):
        perft(START_FEN, -1)
    with pytest.raises(ValueError, match="depth must be >= 1, got 0"):
        perft_divide(START_FEN, 0)


@pytest.mark.parametrize("fen", [START_FEN, CASTLING_FEN, PROMOTION_FEN])
def test_load_game_with_a_fen_starts_from_it(fen):
    state = knightmate_game(fen).new_initial_state()
    assert f"FEN {fen}" in str(state)
    assert state.serialize().startswith(f"fen=[{fen}] turns=0 ")
    assert sorted(map(state.action_to_string, state.legal_actions())) == legal_moves(fen)


def test_a_fen_with_an_exhausted_halfmove_clock_is_over_at_once():
    state = knightmate_game("4k3/8/8/8/8/8/4P3/4K3 w - - 100 80").new_initial_state()
    assert state.is_terminal() and not state.is_truncated()
    assert "fifty-move rule, draw" in str(state)


@pytest.mark.parametrize("fen", [START_FEN, CASTLING_FEN, PROMOTION_FEN])
def test_action_strings_round_trip_for_both_sides(fen):
    state = knightmate_game(fen).new_initial_state()
    for _ in range(2):  # the position, then Black's reply to its first legal move
        for action in state.legal_actions():
            assert state.string_to_action(state.action_to_string(action)) == action
        state.apply_action(state.legal_actions()[0])


@pytest.mark.parametrize(
    "fen, moves",
    [
        (START_FEN, {"e2e4": 877, "d2d4": 804, "e1f3": 348, "e1d3": 355}),
        (CASTLING_FEN, {"e1g1": 307, "e1c1": 335}),
        (PROMOTION_FEN, {"b7b8q": 3577, "b7b8m": 3648, "b7a8r": 3641, "g7h8b": 4011}),
    ],
)
def test_the_worked_examples_of_the_rules_page(fen, moves):
    state = knightmate_game(fen).new_initial_state()
    assert {move: state.string_to_action(move) for move in moves} == moves


def test_black_moves_are_encoded_in_its_own_frame():
    state = knightmate_game().new_initial_state()
    state.apply_action(state.string_to_action("e2e4"))
    assert state.string_to_action("e7e5") == 877  # the same action as White's e2e4
    state = knightmate_game(CASTLING_FEN.replace(" w KQkq d6 ", " b KQkq - ")).new_initial_state()
    assert state.string_to_action("e8g8") == 307  # the same action as White's e1g1
    state = knightmate_game(PROMOTION_FEN.replace(" w ", " b ")).new_initial_state()
    assert state.string_to_action("b2b1m") == 3648  # ... as White's b7b8m


@pytest.mark.parametrize("history, planes", [(1, 22), (4, 14 * 4 + 8)])
def test_observation_shape(history, planes):
    game = knightmate_game(history=history)
    assert game.num_actions == 4672
    assert game.observation_shape == (planes, 8, 8)
    state = game.new_initial_state()
    assert state.observation_tensor().shape == (planes, 8, 8)
    state.apply_action(state.string_to_action("e2e4"))
    assert state.observation_tensor().shape == (planes, 8, 8)
