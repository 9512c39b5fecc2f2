"""The vector env: N environments of one game stepped in C++ (see docs/api.md)."""

from knightgym import _knightgym
from knightgym._specs import spec_value


def make_spec(spec, **params):
    """`spec` with `params` added; a keyword overrides the same key in the spec string."""
    name, pairs = _knightgym.parse_spec(spec)
    merged = dict(pairs)
    merged.update((key, spec_value(value)) for key, value in params.items())
    return _knightgym.format_spec(name, list(merged.items()))


class _EnvBatch:
    """What VectorEnv and OpponentEnv share: N environments of one game in C++, their
    outputs read-only numpy views of the C++ buffers.

    reset(seed=None) -> (obs, info); step(actions) -> (obs, rewards, terminated,
    truncated, info), with obs = {"observation": float32 [N, C, H, W], "action_mask":
    bool [N, A]}, terminated and truncated bool [N].

    The arrays are views: no copy is made, and the next step() or reset() overwrites
    them. Copy what you need to keep (np.copy).

    Auto-reset, next-step: the step that ends an episode returns its final observation
    and its rewards; the next step ignores that environment's action and returns the
    first observation of a new episode.
    """

    def __init__(self, env):
        self._env = env
        game = env.game
        self.game = game
        self.spec = game.spec
        self.num_envs = env.num_envs
        self.num_players = game.num_players
        self.num_actions = game.num_actions
        self.observation_shape = game.observation_shape

    def reset(self, seed=None):
        """Starts new episodes everywhere; a seed re-derives every random stream."""
        return self._env.reset(seed)

    def step(self, actions):
        """Applies one integer action per environment (ignored where it auto-resets)."""
        return self._env.step(actions)

    def sample_actions(self):
        """A uniformly random legal action per environment, int32 [N] (seeded)."""
        return self._env.sample_actions()


class VectorEnv(_EnvBatch):
    """N environments of one game, stepped together by a pool of C++ threads, every
    seat played by the caller: rewards float32 [N, num_players], info =
    {"current_player": int32 [N]} (-1 where the episode has just ended). A finished
    episode's observation is seen by the player who ended it.
    """

    def __init__(self, spec, num_envs=1, num_threads=1, seed=0):
        super().__init__(_knightgym.VectorEnv(spec, num_envs, num_threads, seed))
        self.num_threads = self._env.num_threads

    def state(self, index):
        """A copy of environment `index`'s current state, as a single State."""
        return self._env.state(index)

    def __repr__(self):
        return f"<knightgym.VectorEnv {self.spec} x{self.num_envs}, {self.num_threads} threads>"


class OpponentEnv(_EnvBatch):
    """N environments in which the learner plays one seat and a built-in C++ agent plays
    the others: a single-agent vector env. Environment i gives the learner seat
    i mod num_players (info["seat"]), so the seats are rotated across the batch.

    The observation and mask are from the learner's seat, rewards float32 [N] (the
    learner's return when its game ends, else 0). After each learner action the opponent
    moves until it is the learner's turn again; it decides for all environments together
    (one network batch per simulation round for az opponents).
    """

    def __init__(self, spec, num_envs=1, opponent="random", seed=0):
        super().__init__(_knightgym.OpponentEnv(spec, num_envs, opponent, seed))
        self.opponent = opponent

    def __repr__(self):
        return f"<knightgym.OpponentEnv {self.spec} x{self.num_envs} against {self.opponent}>"


def make(spec, num_envs=1, num_threads=1, seed=0, opponent=None, **params):
    """A VectorEnv of the game `spec` ("knight_fight(double_erase=forced)"), with keyword
    parameters added to (or overriding) those of the spec string. With an opponent (an
    agent spec: "random", "greedy", "mcts:sims=50", "az:model=PATH"), the single-agent
    OpponentEnv instead, whose other seats that agent plays in C++."""
    if opponent is not None:
        if num_threads != 1:
            raise ValueError("num_threads: an OpponentEnv steps on one thread")
        return OpponentEnv(make_spec(spec, **params), num_envs, opponent, seed)
    return VectorEnv(make_spec(spec, **params), num_envs, num_threads, seed)
