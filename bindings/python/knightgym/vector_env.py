"""The vector env: N environments of one game stepped in C++ (see docs/api.md).

VectorEnv and OpponentEnv are the bound classes themselves (bindings/vector_env_bindings.cc):
their arguments, seeds and actions are checked there, once, and their outputs are
read-only numpy views of the C++ buffers. make() picks one and hands it the keywords as
spec parameters, so that each call crosses into C++ once."""

from knightgym import _knightgym
from knightgym._checks import checked_integer
from knightgym._knightgym import MOST_ENVS, OpponentEnv, VectorEnv
from knightgym._specs import spec_params

__all__ = ["MOST_ENVS", "OpponentEnv", "VectorEnv", "make", "make_spec"]


def make_spec(spec, **params):
    """`spec` with `params` added; a keyword overrides the same key in the spec string."""
    return _knightgym.make_spec(spec, spec_params(params))


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
    params = spec_params(params)
    if opponent is None:
        if seat is not None:
            raise ValueError("seat: only an OpponentEnv (with an opponent) has a learner's seat")
        return VectorEnv(
            spec, num_envs, num_threads, seed, autoreset_mode, finished_mask, params=params
        )
    if checked_integer("num_threads", num_threads, 1, 2**31 - 1) != 1:
        raise ValueError("num_threads: an OpponentEnv steps on one thread")
    return OpponentEnv(
        spec, num_envs, opponent, seed, autoreset_mode, finished_mask, seat, params=params
    )
