"""knightgym: vectorized reinforcement-learning environments for knight games.

Vector envs (Gymnasium-like, next-step auto-reset)::

    env = knightgym.make("knight_fight", num_envs=1024, num_threads=2, seed=0,
                         double_erase="forced")
    obs, info = env.reset()
    obs, rewards, terminated, truncated, info = env.step(env.sample_actions())

Single states (OpenSpiel-like)::

    game = knightgym.load_game("knight_fight(layout=identity)")
    state = game.new_initial_state(seed=0)
    state.apply_action(state.string_to_action("c1"))
"""

from knightgym._knightgym import Game, State, games, load_game
from knightgym import _knightgym
from knightgym.vector_env import VectorEnv, make, make_spec

__all__ = ["Game", "State", "VectorEnv", "games", "load_game", "make", "make_spec"]
