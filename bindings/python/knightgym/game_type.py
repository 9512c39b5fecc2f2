"""OpenSpiel's description of a game (pyspiel.GameType's fields, its enum values by name),
for knightgym's games: Game.get_type() returns a GameType."""

from dataclasses import dataclass, field


class EnumName(str):
    """An OpenSpiel enum value by name ("TERMINAL"). Compared with pyspiel's enum itself,
    which happens when a knightgym.Game is handed to OpenSpiel's algorithms, it says what
    to use instead of letting them fail on a mismatch ("Game must have terminal
    rewards")."""

    __hash__ = str.__hash__

    def __eq__(self, other):
        if type(other).__module__ == "pyspiel":
            raise TypeError(
                "this is a knightgym.Game, not an OpenSpiel game: OpenSpiel's algorithms "
                "take knightgym.openspiel.load_game(name) (docs/api.md, OpenSpiel)"
            )
        return str.__eq__(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)


@dataclass(frozen=True)
class GameType:
    short_name: str
    long_name: str
    chance_mode: str  # "DETERMINISTIC", or "SAMPLED_STOCHASTIC": the start is drawn from a seed
    min_num_players: int
    max_num_players: int
    parameter_specification: dict = field(default_factory=dict)  # every parameter's default
    dynamics: str = EnumName("SEQUENTIAL")
    information: str = EnumName("PERFECT_INFORMATION")
    utility: str = EnumName("ZERO_SUM")
    reward_model: str = EnumName("TERMINAL")
    provides_information_state_string: bool = False
    provides_information_state_tensor: bool = False
    provides_observation_string: bool = True
    provides_observation_tensor: bool = True


def game_type(game):
    """The GameType of `game` (a knightgym.Game): its players over every choice of its
    parameters (Knights Challenge's modes), and whether its start depends on the seed
    (Knight Fight's random layout)."""
    from knightgym import describe_game, load_game

    details = describe_game(game.name)
    players = {game.num_players()}
    for param in details["parameters"]:
        for choice in param["choices"]:
            players.add(load_game(game.name, [(param["name"], choice)]).num_players())
    starts = {game.new_initial_state(seed=seed).serialize() for seed in range(4)}
    return GameType(
        short_name=game.name,
        long_name=details["summary"],
        chance_mode=EnumName("SAMPLED_STOCHASTIC" if len(starts) > 1 else "DETERMINISTIC"),
        min_num_players=min(players),
        max_num_players=max(players),
        parameter_specification={p["name"]: p["default"] for p in details["parameters"]},
    )
