"""The OpenSpiel-like single-state API on Knight Fight. With layout=identity square i
holds number i: a1 = 00, c1 = 02, a3 = 20, a10 = 90, j10 = 99. Actions are in the mover's
frame: square i for White, the square of rank 10 - i // 10 and file i % 10 for Black."""

import copy
import pickle
import random
import re

import knightgym
import numpy as np
import pytest

# Observation planes (env/games/knight_fight/knight_fight.h); [plane, rank, file],
# ranks flipped for Black.
OWN_KNIGHT, OPPONENT_KNIGHT, USABLE, NUMBER, DOUBLE = 0, 1, 2, 3, 4
OPPONENT_ATTACKS, OWN_ATTACKS, PENDING_ERASE, SCORE_DIFFERENCE, PROGRESS = 5, 6, 7, 8, 9
PASS = 100
DOUBLES = [11 * d for d in range(10)]


def identity_game(**params):
    return knightgym.load_game(knightgym.make_spec("knight_fight(layout=identity)", **params))


def play(state, *moves):
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


@pytest.fixture
def game():
    return identity_game()


@pytest.mark.parametrize(
    "name, action",
    [("a1", 0), ("c1", 2), ("j1", 9), ("a2", 10), ("a3", 20), ("j10", 99), ("pass", PASS)],
)
def test_actions_are_named_by_their_square_or_pass(game, name, action):
    state = game.new_initial_state()
    assert state.string_to_action(name) == action
    assert state.action_to_string(action) == name


def test_white_places_first_on_rank_1(game):
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert state.legal_actions() == list(range(10))
    assert not state.is_terminal()
    assert state.returns() == [0.0, 0.0]


def test_a_placement_scores_its_number_and_erases_its_mirror(game):
    state = play(game.new_initial_state(), "c1")
    white_view = state.observation_tensor(0)
    assert "scores=2,0" in state.serialize()
    assert white_view[SCORE_DIFFERENCE] == pytest.approx(np.full((10, 10), 0.02))
    assert white_view[USABLE, 0, 2] == 0  # c1, the knight's square
    assert white_view[USABLE, 2, 0] == 0  # a3 = 20, the mirror of 02
    assert white_view[USABLE].sum() == 98
    assert white_view[OWN_KNIGHT, 0, 2] == 1


def test_black_then_places_on_rank_10(game):
    state = play(game.new_initial_state(), "c1")
    assert state.current_player() == 1
    assert state.legal_actions() == list(range(10))  # row 0 of Black's view
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        f"{file}10" for file in "abcdefghij"
    ]


@pytest.mark.parametrize(
    "name, action", [("a10", 0), ("j10", 9), ("a9", 10), ("c1", 92), ("j1", 99), ("pass", PASS)]
)
def test_black_actions_mirror_the_ranks_and_strings_name_the_square(game, name, action):
    state = play(game.new_initial_state(), "c1")
    assert state.string_to_action(name) == action
    assert state.action_to_string(action) == name


def test_black_legal_leaps_are_the_observed_own_attacks_on_safe_usable_cells(game):
    state = play(game.new_initial_state(), "c1", "d10", "e2")
    assert state.current_player() == 1
    view = state.observation_tensor()
    safe = (view[OWN_ATTACKS] == 1) & (view[USABLE] == 1) & (view[OPPONENT_ATTACKS] == 0)
    assert state.legal_actions() == np.flatnonzero(safe).tolist()
    assert np.array_equal(state.legal_actions_mask()[:100], safe.ravel())
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["b9", "f9", "c8", "e8"]


def test_leaps_go_a_knights_move_to_usable_squares(game):
    state = play(game.new_initial_state(), "c1", "a10")
    assert state.current_player() == 0
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["a2", "e2", "b3", "d3"]


@pytest.mark.parametrize("mirror_on_moves, c4_usable", [(True, 0), (False, 1)])
def test_a_leap_erases_the_mirror_only_with_mirror_on_moves(mirror_on_moves, c4_usable):
    game = identity_game(mirror_on_moves=mirror_on_moves)
    state = play(game.new_initial_state(), "c1", "a10", "d3")
    white_view = state.observation_tensor(0)
    assert "scores=25,90" in state.serialize()  # 02 + 23
    assert white_view[OWN_KNIGHT, 2, 3] == 1
    assert white_view[USABLE, 2, 3] == 0
    assert white_view[USABLE, 3, 2] == c4_usable  # c4 = 32, the mirror of 23


@pytest.mark.parametrize(
    "double_erase, choices",
    [
        ("optional", DOUBLES[1:] + [PASS]),
        ("forced", DOUBLES[1:]),
    ],
)
def test_landing_on_a_double_asks_the_mover_which_double_to_erase(double_erase, choices):
    state = play(identity_game(double_erase=double_erase).new_initial_state(), "a1")
    assert state.current_player() == 0
    assert state.legal_actions() == choices
    assert "White to erase a double" in str(state)
    assert (state.observation_tensor(0)[PENDING_ERASE] == 1).all()


def test_erasing_a_double_ends_the_turn(game):
    state = play(game.new_initial_state(), "a1", "e5")
    white_view = state.observation_tensor(0)
    assert state.current_player() == 1
    assert white_view[USABLE, 4, 4] == 0  # e5 = 44
    assert white_view[USABLE].sum() == 98  # a1 and e5; a double has no mirror to erase
    assert (white_view[PENDING_ERASE] == 0).all()


def test_declining_to_erase_a_double_erases_nothing(game):
    state = play(game.new_initial_state(), "a1", "pass")
    assert state.current_player() == 1
    assert state.observation_tensor(0)[USABLE].sum() == 99


def test_without_double_erase_a_double_ends_the_turn_at_once():
    state = play(identity_game(double_erase="off").new_initial_state(), "a1")
    assert state.current_player() == 1
    assert state.legal_actions() == list(range(10))  # rank 10, Black's row 0


def test_no_erase_decision_when_no_other_double_is_usable(game):
    text = game.new_initial_state().serialize()
    usable = "".join("0" if square in DOUBLES[1:] else "1" for square in range(100))
    state = game.deserialize_state(re.sub(r"usable=\S+", f"usable={usable}", text))
    play(state, "a1")
    assert state.current_player() == 1


def test_str_shows_the_scores_the_player_to_move_and_the_board(game):
    lines = str(play(game.new_initial_state(), "c1")).splitlines()
    assert lines[0] == "Knight Fight, turn 1 of 200: White 2, Black 0, Black to place"
    assert lines[1] == " 10  90 91 92 93 94 95 96 97 98 99"
    assert lines[8] == "  3   . 21 22 23 24 25 26 27 28 29"
    assert lines[10] == "  1  00 01  W 03 04 05 06 07 08 09"
    assert lines[11] == "     a  b  c  d  e  f  g  h  i  j"


def test_black_sees_the_board_with_ranks_flipped(game):
    state = play(game.new_initial_state(), "c1", "a10")
    white_view, black_view = state.observation_tensor(0), state.observation_tensor(1)
    assert white_view[OWN_KNIGHT, 0, 2] == 1 and white_view[OPPONENT_KNIGHT, 9, 0] == 1
    assert black_view[OWN_KNIGHT, 0, 0] == 1 and black_view[OPPONENT_KNIGHT, 9, 2] == 1
    assert black_view[NUMBER, 0, 0] == pytest.approx(90 / 99)
    assert white_view[NUMBER, 0, 0] == 0
    assert white_view[SCORE_DIFFERENCE, 0, 0] == pytest.approx(-0.88)
    assert black_view[SCORE_DIFFERENCE, 0, 0] == pytest.approx(0.88)
    assert np.array_equal(black_view[DOUBLE], white_view[DOUBLE][::-1])


def test_observation_shows_both_knights_attacks_and_the_progress(game):
    state = play(game.new_initial_state(), "c1", "a10")
    white_view = state.observation_tensor(0)
    own_attacks = set(zip(*np.nonzero(white_view[OWN_ATTACKS])))
    opponent_attacks = set(zip(*np.nonzero(white_view[OPPONENT_ATTACKS])))
    assert own_attacks == {(1, 0), (1, 4), (2, 1), (2, 3)}  # c1: a2, e2, b3, d3
    assert opponent_attacks == {(8, 2), (7, 1)}  # a10: c9, b8
    assert white_view[PROGRESS] == pytest.approx(np.full((10, 10), 2 / 200))


def test_max_turns_truncates_and_the_higher_score_wins():
    state = play(identity_game(max_turns=2).new_initial_state(), "c1", "a10")
    assert state.is_terminal()
    assert state.is_truncated()
    assert state.current_player() == -4
    assert state.legal_actions() == []
    assert state.returns() == [-1.0, 1.0]
    assert "Black wins (truncated)" in str(state)


def test_returns_follow_the_final_scores():
    game = knightgym.load_game("knight_fight")
    rng = random.Random(0)
    for seed in range(30):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        white, black = map(int, re.search(r"scores=(\d+),(\d+)", state.serialize()).groups())
        sign = float(np.sign(white - black))
        assert state.returns() == [sign, -sign]


def test_the_seed_draws_the_layout():
    game = knightgym.load_game("knight_fight")
    first = game.new_initial_state(seed=1).observation_tensor()[NUMBER]
    assert np.array_equal(game.new_initial_state(seed=1).observation_tensor()[NUMBER], first)
    assert not np.array_equal(game.new_initial_state(seed=2).observation_tensor()[NUMBER], first)
    assert sorted(np.rint(first.ravel() * 99).astype(int)) == list(range(100))


def test_clone_and_copies_are_independent(game):
    state = play(game.new_initial_state(), "c1")
    before = state.serialize()
    for duplicate in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        assert duplicate.serialize() == before
        play(duplicate, "a10")
        assert state.serialize() == before


@pytest.mark.parametrize(
    "spec", ["knight_fight(layout=identity)", "knight_fight(double_erase=forced,max_turns=50)"]
)
def test_pickling_round_trips_the_state_and_its_game(spec):
    state = knightgym.load_game(spec).new_initial_state(seed=4)
    state.apply_action(state.legal_actions()[3])
    restored = pickle.loads(pickle.dumps(state))
    assert restored.serialize() == state.serialize()
    assert restored.game().spec == state.game().spec
    assert np.array_equal(restored.observation_tensor(1), state.observation_tensor(1))


def test_a_state_knows_its_game(game):
    assert game.new_initial_state().game().spec == game.spec


def test_the_game_describes_itself(game):
    assert game.name == "knight_fight"
    assert game.spec == (
        "knight_fight(double_erase=optional,mirror_on_moves=true,max_turns=200,layout=identity)"
    )
    assert game.num_players() == 2
    assert game.num_actions == 101
    assert game.observation_shape == (14, 10, 10)
    assert game.max_game_length() == 400
    assert game.parameters == {
        "double_erase": "optional",
        "mirror_on_moves": "true",
        "max_turns": "200",
        "layout": "identity",
    }


def test_max_game_length_is_two_decisions_per_ply():
    assert knightgym.load_game("knight_fight(max_turns=12)").max_game_length() == 24


def test_describe_game_gives_knight_fights_four_parameters():
    entry = knightgym.describe_game("knight_fight")
    assert entry["name"] == "knight_fight"
    assert entry["summary"]
    params = {p["name"]: p for p in entry["parameters"]}
    assert list(params) == ["double_erase", "mirror_on_moves", "max_turns", "layout"]
    assert [params[name]["default"] for name in params] == ["optional", "true", "200", "random"]
    assert [params[name]["type"] for name in params] == ["choice", "bool", "int", "string"]
    assert params["double_erase"]["choices"] == ["optional", "forced", "off"]
    assert all(p["doc"] for p in params.values())


class Index:
    """An integer type of its own: anything with __index__ is an action."""

    def __index__(self):
        return 2


@pytest.mark.parametrize("action", [2, np.int64(2), np.int32(2), np.uint8(2), Index()])
def test_actions_are_python_or_numpy_integers(game, action):
    state = game.new_initial_state()
    assert state.action_to_string(action) == "c1"
    assert state.action_to_string(0, action) == "c1"
    state.apply_action(action)
    assert state.serialize() == play(game.new_initial_state(), "c1").serialize()


@pytest.mark.parametrize(
    "action, named",
    [
        (True, "bool True"),
        (False, "bool False"),
        (np.bool_(True), "numpy.bool_ True"),
        (1.0, "float 1.0"),
        (np.float32(1), "numpy.float32 1.0"),
        ("0", "str '0'"),
        (None, "NoneType None"),
        ("x" * 1000, "str '" + "x" * 59 + "..."),
    ],
)
def test_bools_floats_and_strings_are_not_actions(game, action, named):
    state = game.new_initial_state()
    before = state.serialize()
    message = re.escape(f"action must be an integer, got {named}")
    with pytest.raises(TypeError, match=message):
        state.apply_action(action)
    with pytest.raises(TypeError, match=message):
        state.action_to_string(action)
    with pytest.raises(TypeError, match=message):
        state.action_to_string(0, action)
    assert state.serialize() == before


@pytest.mark.parametrize(
    "action",
    [
        2**31,
        2**32 + 2,
        2**64,
        2**64 + 2,
        -1,
        -(2**63),
        PASS + 1,
        np.int64(-1),
        np.int64(2**40),
        np.uint64(2**64 - 1),
    ],
)
def test_out_of_range_actions_are_named_as_given_never_wrapped(game, action):
    state = game.new_initial_state()
    before = state.serialize()
    message = re.escape(f"action {int(action)} is out of range [0, {game.num_actions})")
    with pytest.raises(ValueError, match=message):
        state.apply_action(action)
    with pytest.raises(ValueError, match=message):
        state.action_to_string(action)
    with pytest.raises(ValueError, match=message):
        state.action_to_string(0, action)
    assert state.serialize() == before


def test_an_action_too_long_to_write_is_still_refused(game):
    with pytest.raises(ValueError, match=r"action .* is out of range"):
        game.new_initial_state().apply_action(10**5000)
