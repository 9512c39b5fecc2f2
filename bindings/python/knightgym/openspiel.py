"""knightgym's games as OpenSpiel games, for OpenSpiel's own algorithms and bots.

`import knightgym.openspiel` registers every game with pyspiel as "knightgym_<game>"
(knightgym_knight_fight, ..., knightgym_tailten), its parameters those of the game::

    import pyspiel, knightgym.openspiel
    game = pyspiel.load_game("knightgym_knights_challenge(mode=ffa4,max_turns=40)")
    state = game.new_initial_state()
    game = knightgym.openspiel.load_game("knight_fight(layout=identity)")   # from a spec

Knight Fight is SAMPLED_STOCHASTIC: each new_initial_state() draws a layout from a
stream seeded by its rng_seed parameter (default 0; an integer in [0, 2**31 - 1], the
seeds of knightgym.make that OpenSpiel's int parameter holds). Without pyspiel the import
registers nothing, and register() and load_game() raise ModuleNotFoundError naming the
extra that brings it (knightgym[openspiel]). See docs/api.md, "OpenSpiel".
"""

import importlib.util

import knightgym
from knightgym._optional import extra

PREFIX = "knightgym_"


def openspiel_name(name):
    """OpenSpiel's name for knightgym's game `name`."""
    return PREFIX + name


def load_game(spec, **openspiel_parameters):
    """pyspiel.load_game for a knightgym spec ("knight_fight(layout=identity)"), its
    parameters passed as a dict, so values that OpenSpiel's game strings cannot hold (a
    Knight Fight layout of 200 digits, a list of safe squares) pass too; extra keyword
    arguments are OpenSpiel parameters (rng_seed)."""
    pyspiel = _import_pyspiel()
    from knightgym import _openspiel_game

    game = knightgym.load_game(spec)
    params = _openspiel_game.typed_parameters(game.name, game.parameters)
    seed = _openspiel_game.SEED_PARAMETER
    if seed in openspiel_parameters:  # checked before pyspiel, which cannot name it
        openspiel_parameters[seed] = _openspiel_game.checked_rng_seed(openspiel_parameters[seed])
    return pyspiel.load_game(openspiel_name(game.name), {**params, **openspiel_parameters})


def register():
    """Registers every knightgym game with pyspiel (again, the same) and returns their
    OpenSpiel names."""
    pyspiel = _import_pyspiel()
    from knightgym import _openspiel_game

    names = []
    for name in knightgym.games():
        game_type = _openspiel_game.game_type(name, openspiel_name(name))
        pyspiel.register_game(game_type, _openspiel_game.game_class(name, game_type))
        names.append(game_type.short_name)
    return names


def _import_pyspiel():
    with extra("openspiel", __name__):
        import pyspiel
    return pyspiel


if importlib.util.find_spec("pyspiel") is not None:
    register()
