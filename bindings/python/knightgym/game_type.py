"""OpenSpiel's description of a game (pyspiel.GameType's fields, its enum values by name),
for knightgym's games: Game.get_type() returns a GameType."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class GameType:
    short_name: str
    long_name: str
    chance_mode: str  # "DETERMINISTIC", or "SAMPLED_STOCHASTIC": the start is drawn from a seed
    min_num_players: int
    max_num_players: int
    parameter_specification: dict = field(default_factory=dict)  # every parameter's default
    dynamics: str = "SEQUENTIAL"
    information: str = "PERFECT_INFORMATION"
    utility: str = "ZERO_SUM"
    reward_model: str = "TERMINAL"
    provides_information_state_string: bool = False
    provides_information_state_tensor: bool = False
    provides_observation_string: bool = True
    provides_observation_tensor: bool = True


def game_type(game):
    """The GameType of `game` (a knightgym.Game): its players over every choice of its
    parameters (Knights Challenge's modes), and whether its start depends on the seed
    (Knight Fight's random layout)."""
    from knightgym import describe_game, load_game
    from knightgym._knightgym import format_spec

    details = describe_game(game.name)
    players = {game.num_players()}
    for param in details["parameters"]:
        for choice in param["choices"]:
            players.add(load_game(format_spec(game.name, [(param["name"], choice)])).num_players())
    starts = {game.new_initial_state(seed=seed).serialize() for seed in range(4)}
    return GameType(
        short_name=game.name,
        long_name=details["summary"],
        chance_mode="SAMPLED_STOCHASTIC" if len(starts) > 1 else "DETERMINISTIC",
        min_num_players=min(players),
        max_num_players=max(players),
        parameter_specification={p["name"]: p["default"] for p in details["parameters"]},
    )
