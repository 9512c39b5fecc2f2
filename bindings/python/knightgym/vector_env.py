"""The vector env: N environments of one game stepped in C++ (see docs/api.md)."""

from knightgym import _knightgym
from knightgym._checks import checked_integer, checked_seed, stepped
from knightgym._specs import spec_value

# The most environments make() takes: 2**24 of the smallest game are already gigabytes of
# observations. The threads' own limits are the C++ env's (kMaxThreads, num_envs).
MOST_ENVS = 1 << 24


def make_spec(spec, **params):
    """`spec` with `params` added; a keyword overrides the same key in the spec string."""
    name, pairs = _knightgym.parse_spec(spec)
    merged = dict(pairs)
    merged.update((key, spec_value(value)) for key, value in params.items())
    return _knightgym.format_spec(name, list(merged.items()))


class _EnvBatch:
    """What VectorEnv and OpponentEnv share: N environments of one game in C++, their
    outputs read-only numpy views of the C++ buffers.

    reset(seed=None, mask=None) -> (obs, info); step(actions) -> (obs, rewards,
    terminated, truncated, info), with obs = {"observation": float32 [N, C, H, W],
    "action_mask": bool [N, A]}, terminated and truncated bool [N].

    The arrays are views: no copy is made, and the next step() or reset() overwrites
    them. Copy what you need to keep (np.copy).

    An env pickles and deep-copies (SB3's SubprocVecEnv, Ray, copy.deepcopy): the copy
    holds the same states, random streams and last outputs and goes on exactly as the
    original would; an OpponentEnv's opponent is a new agent of its spec, seeded as a
    reset with the env's seed seeds it. snapshot() and restore(snapshot) are that copy
    as values, taken from one env and set on another of the same game and options.

    A seed, here and in make(), is an integer in [0, 2**64 - 1] (not a bool, a float or
    a string); anything else is a TypeError or ValueError naming `seed`.

    Auto-reset (autoreset_mode, Gymnasium's names):
      "next_step" (default): the step that ends an episode returns its final observation
        and its rewards; the next step ignores that environment's action and returns the
        first observation of a new episode.
      "same_step": the step that ends an episode returns its rewards and flags with the
        first observation of the next episode; the final observation and mask are in
        info["final_obs"] and the returns in info["final_info"]["returns"], each beside
        a bool mask (info["_final_obs"], ...) of the environments they belong to.
      "disabled": an ended episode stays ended until reset(mask=...) restarts it; a step
        is refused while one is ended.

    A finished episode's action mask is all True by default (finished_mask="all"), so
    that a masked softmax over it stays finite; "none" gives the all-False mask of the
    game's rules.
    """

    def __init__(self, env):
        self._env = env
        game = env.game
        self.game = game
        self.spec = game.spec
        self.num_envs = env.num_envs
        self.num_players = game.num_players()
        self.num_actions = game.num_actions
        self.observation_shape = game.observation_shape
        self.autoreset_mode = env.autoreset_mode
        self.finished_mask = env.finished_mask

    @property
    def seed(self):
        """The seed the environments' streams were last derived from (drawn from the
        operating system's entropy when the env was made with seed=None)."""
        return self._env.seed

    def reset(self, seed=None, mask=None):
        """Starts new episodes: everywhere, or where `mask` (bool [N]) is True, leaving
        the other environments as they are. A seed re-derives the streams of the
        environments it resets. The first reset after make() without a seed gives each
        stream its first episode (the one make() started)."""
        return self._env.reset(checked_seed(seed), mask)

    def step(self, actions):
        """Applies one integer action per environment (ignored where it auto-resets). An
        integer out of range, however wide, is a ValueError naming it; a float or bool
        dtype a TypeError."""
        return stepped(self._env.step, actions)

    def sample_actions(self):
        """A uniformly random legal action per environment, int32 [N] (seeded)."""
        return self._env.sample_actions()

    def state(self, index):
        """A copy of environment `index`'s current state, as a single State."""
        return self._env.state(index)

    def last_observations(self):
        """The observations the latest step or reset returned (the same views)."""
        return self._env.last_observations()

    def snapshot(self):
        """Everything the environments hold, as values (a dict: the seed, each state as
        the game's text, the random streams, the last outputs): what pickle and deepcopy
        carry."""
        return self._env.snapshot()

    def restore(self, snapshot):
        """Sets the environments to a snapshot of an env of the same game and options;
        ValueError naming what does not fit, and nothing changed, otherwise. An
        OpponentEnv's opponent is made anew, seeded as a reset with the snapshot's seed
        seeds it."""
        self._env.restore(snapshot)


class VectorEnv(_EnvBatch):
    """N environments of one game, stepped together by a pool of C++ threads, every
    seat played by the caller: rewards float32 [N, num_players], info =
    {"current_player": int32 [N]} (-4, OpenSpiel's terminal player id, where the episode
    has ended). A finished episode's observation is seen by the player who ended it.
    """

    def __init__(
        self,
        spec,
        num_envs=1,
        num_threads=1,
        seed=None,
        autoreset_mode="next_step",
        finished_mask="all",
    ):
        seed = checked_seed(seed)
        super().__init__(
            _knightgym.VectorEnv(spec, num_envs, num_threads, seed, autoreset_mode, finished_mask)
        )
        self.num_threads = self._env.num_threads

    def __repr__(self):
        return f"<knightgym.VectorEnv {self.spec} x{self.num_envs}, {self.num_threads} threads>"


class OpponentEnv(_EnvBatch):
    """N environments in which the learner plays one seat and a built-in C++ agent plays
    the others: a single-agent vector env. Environment i gives the learner seat
    i mod num_players (info["seat"]), so the seats are rotated across the batch, or
    `seat` in every environment.

    The observation and mask are from the learner's seat, rewards float32 [N] (the
    learner's return when its game ends, else 0). After each learner action the opponent
    moves until it is the learner's turn again; it decides for all environments together
    (one network batch per simulation round for az opponents). A reset of every
    environment with a seed also reseeds the opponent, so that the seed decides the
    whole trajectory.
    """

    def __init__(
        self,
        spec,
        num_envs=1,
        opponent="random",
        seed=None,
        autoreset_mode="next_step",
        finished_mask="all",
        seat=None,
    ):
        seed = checked_seed(seed)
        super().__init__(
            _knightgym.OpponentEnv(
                spec, num_envs, opponent, seed, autoreset_mode, finished_mask, seat
            )
        )
        self.opponent = opponent

    def __repr__(self):
        return f"<knightgym.OpponentEnv {self.spec} x{self.num_envs} against {self.opponent}>"


def make(
    spec,
    num_envs=1,
    num_threads=1,
    seed=None,
    opponent=None,
    autoreset_mode="next_step",
    finished_mask="all",
    seat=None,
    **params,
):
    """A VectorEnv of the game `spec` ("knight_fight(double_erase=forced)"), with keyword
    parameters added to (or overriding) those of the spec string. With an opponent (an
    agent spec: "random", "greedy", "mcts:sims=50", "az:model=PATH"), the single-agent
    OpponentEnv instead, whose other seats that agent plays in C++ (the learner's seat:
    `seat`, or rotated across the environments).

    seed=None draws a seed from the operating system's entropy (env.seed tells which), so
    that workers made without a seed play different episodes; pass a seed to replay."""
    num_envs = checked_integer("num_envs", num_envs, 1, MOST_ENVS)
    num_threads = checked_integer("num_threads", num_threads, 1, 2**31 - 1)
    seed = checked_seed(seed)
    if opponent is not None:
        if num_threads != 1:
            raise ValueError("num_threads: an OpponentEnv steps on one thread")
        return OpponentEnv(
            make_spec(spec, **params), num_envs, opponent, seed, autoreset_mode, finished_mask, seat
        )
    if seat is not None:
        raise ValueError("seat: only an OpponentEnv (with an opponent) has a learner's seat")
    return VectorEnv(
        make_spec(spec, **params), num_envs, num_threads, seed, autoreset_mode, finished_mask
    )
