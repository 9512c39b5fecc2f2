"""Tailten from Python: the knightgym.tailten module (score). The rules and encodings:
docs/rules/tailten.md; the engine's own tests: tests/cpp/env/games/tailten/tailten_test.cc and
tailten_reference_test.cc."""

import knightgym
import knightgym.tailten
import pytest
from knightgym.tailten import score

# A finished game, ten ringforts each: Red's two kingdoms against Blue's one.
TWO_AGAINST_ONE = (
    "board=-rr.bb-/r.r.b.b/r.rrb.b/..r.bbb/..rr.b./......./-.....- to_move=r phase=over turns=30"
)


def test_the_submodule_is_importable_both_ways():
    assert knightgym.tailten.score is score
    assert knightgym.tailten.__name__ == "knightgym.tailten"


def test_the_empty_board_is_a_draw_so_far():
    state = knightgym.load_game("tailten").new_initial_state(seed=0)
    assert score(state) == {
        "kingdoms": [0, 0],
        "territory": [0, 0],
        "match_points": [0, 0],
        "winner": -1,
    }


def test_fewer_kingdoms_win_two_points_plus_the_difference():
    state = knightgym.load_game("tailten").deserialize_state(TWO_AGAINST_ONE)
    # Red: a6-a5 (a7 is a corner, b6 vacant) and b7 c7 c6 c5 d5 c4 c3 d3; Blue: e7 f7 e6 e5
    # e4 f4 f3 g4 g5 g6, all linked.
    assert score(state)["kingdoms"] == [2, 1]
    assert score(state)["winner"] == 1
    assert score(state)["match_points"] == [0, 3]
    assert state.returns() == [-1.0, 1.0]


def test_a_state_of_another_game_is_refused():
    state = knightgym.load_game("knightmate").new_initial_state(seed=0)
    with pytest.raises(ValueError, match="expected a tailten state"):
        score(state)
