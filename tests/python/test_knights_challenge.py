"""Knights Challenge from Python: the knightgym.knights_challenge module (tallies, sides).
The rules and encodings: docs/rules/knights_challenge.md; the engine's own tests:
tests/cpp/env/games/knights_challenge/knights_challenge_test.cc and
knights_challenge_reference_test.cc."""

import knightgym
import knightgym.knights_challenge
import pytest
from knightgym.knights_challenge import sides, tallies

# Duel on 12x12: red's column of three on l10-l12 in yellow's camp (12 points), the rest
# of red at home; yellow's eight knights in its own camp beside them.
RED_COLUMN = (
    "board=........yyyr/........yyyr/........yy.r/............/............/"
    "............/............/............/............/............/"
    "r.........../rrrr........ to_move=r turns=40 captures=0,0,0,0"
)


def test_the_submodule_is_importable_both_ways():
    assert knightgym.knights_challenge.tallies is tallies
    assert knightgym.knights_challenge.__name__ == "knightgym.knights_challenge"


@pytest.mark.parametrize(
    "mode, player_sides",
    [
        ("ffa4", [0, 1, 2, 3]),
        ("ffa3", [0, 1, 2]),
        ("duel", [0, 1]),
        ("alliance2", [0, 1]),
        ("team4", [0, 1, 0, 1]),
    ],
)
def test_each_mode_starts_with_zero_points_for_each_side(mode, player_sides):
    state = knightgym.load_game(f"knights_challenge(mode={mode})").new_initial_state(seed=0)
    assert sides(state) == player_sides
    assert tallies(state) == [0] * (max(player_sides) + 1)


def test_a_column_of_three_in_the_opponents_camp_counts_twelve():
    game = knightgym.load_game("knights_challenge(mode=duel)")
    state = game.deserialize_state(RED_COLUMN)
    assert tallies(state) == [12, 0]
    assert not state.is_terminal()  # 12 is short of the 16-point target


def test_a_state_of_another_game_is_refused():
    state = knightgym.load_game("knightmate").new_initial_state(seed=0)
    with pytest.raises(ValueError, match="expected a knights_challenge state"):
        tallies(state)
