"""knightgym: vectorized reinforcement-learning environments for knight games.

Vector envs (Gymnasium-like, next-step auto-reset)::

    env = knightgym.make("knight_fight", num_envs=1024, num_threads=2, seed=0,
                         double_erase="forced")
    obs, info = env.reset()
    obs, rewards, terminated, truncated, info = env.step(env.sample_actions())

A single-agent view whose other seats a C++ agent plays (seats rotated across envs)::

    env = knightgym.make("tailten", num_envs=64, opponent="mcts:sims=50", seed=0)
    obs, info = env.reset()                     # info["seat"]: the learner's seat per env
    obs, rewards, terminated, truncated, info = env.step(actions)   # rewards [N]

Single states (OpenSpiel-like)::

    game = knightgym.load_game("knight_fight(layout=identity)")
    state = game.new_initial_state(seed=0)
    state.apply_action(state.string_to_action("c1"))

Knightmate's move generator from a FEN (perft, perft_divide, legal_moves)::

    knightgym.knightmate.perft(knightgym.knightmate.START_FEN, depth=4)   # 139774

Knights Challenge's tallies (the returns only rank them)::

    knightgym.knights_challenge.tallies(state)   # [points of each side]

Tailten's score (kingdoms, territory, match points)::

    knightgym.tailten.score(state)   # {'kingdoms': [2, 3], ..., 'winner': 0}

Pictures: an SVG of any state, drawn inline in notebooks (knightgym.svg)::

    state.svg()                      # the board, pieces, marks and the last move
    state.picture()                  # what the drawing shows, as data

Agents (random, greedy, mcts, az, and uci for Knightmate) on any game; searches release
the GIL::

    agent = knightgym.agents.make("mcts:sims=400", game, seed=0)
    action = agent.act(state, sims=None, time_limit=None)
    actions = agent.act_batch([state, other])   # int32, equal to act() on each
    agent.last_report                             # {'sims': 400, 'value': ..., 'depth': ...}

Teacher data: a strong player's games, each decision with its policy and value, for a
network to learn from before self-play (the trainer's teacher= setting)::

    knightgym.teacher.generate("tailten", "out/teach", teacher="mcts:sims=1600", games=400)
    knightgym.teacher.read_shard("out/teach/shard-000000.kgt")

The networks shipped for every game (models/), played without a path::

    agent = knightgym.agents.make("az:model=pretrained,sims=64", "tailten")
    knightgym.agents.pretrained()                 # [{name, game, minutes, strength, ...}]
"""

import os
import sys

from knightgym import _knightgym, svg
from knightgym._knightgym import (
    Game,
    State,
    agents,
    describe_game,
    games,
    load_game,
    registered_names,
    teacher,
)
from knightgym._version import __version__
from knightgym.vector_env import OpponentEnv, VectorEnv, make, make_spec

# Pictures of states (knightgym/svg.py): state.svg(), and drawn inline in notebooks.
State.svg = svg.draw
State._repr_svg_ = svg.draw

# The compiled submodules under their public names, so that `import knightgym.knightmate`
# and `from knightgym.knightmate import perft` work as for a file of the package: agents,
# and each game's extras (knightgym.knightmate, knightgym.tailten, ...: what its rules
# declare in env/core/extras.h's form, made functions by bindings/game_extras.cc).
for _name in ["agents", "teacher", *_knightgym.game_extras]:
    _submodule = getattr(_knightgym, _name)
    _submodule.__name__ = __name__ + "." + _name
    sys.modules[_submodule.__name__] = _submodule
    globals()[_name] = _submodule

# An installed package carries its own copy of the shipped networks (the wheel's
# knightgym/models); a build tree's module reads the source tree's models/
# (agents/pretrained.h).
_models = os.path.join(os.path.dirname(__file__), "models")
if any(os.path.isfile(os.path.join(_models, name)) for name in ("manifest.json", "manifest.txt")):
    agents.set_models_directory(_models)

# Gymnasium's ids (knightgym/Tailten-v0, ...), registered where Gymnasium is installed,
# so that gymnasium.make and SB3's make_vec_env find them after `import knightgym`
# (Gymnasium 1.x loads no plugins by itself). A Gymnasium older than the gymnasium extra's
# leaves them unregistered, with a warning, and the rest of knightgym as it is.
try:
    import gymnasium  # noqa: F401 (only whether it is there)
except ModuleNotFoundError:
    pass
else:
    from knightgym._optional import supported_gymnasium as _supported_gymnasium

    if _supported_gymnasium():
        from knightgym.gymnasium import register_envs as _register_envs

        _register_envs()

__all__ = [
    "__version__",
    "Game",
    "OpponentEnv",
    "State",
    "VectorEnv",
    "agents",
    "describe_game",
    "games",
    "load_game",
    "make",
    "make_spec",
    "registered_names",
    "svg",
    "teacher",
    *_knightgym.game_extras,
]
