"""What every Python face checks of what it is given: seeds and actions that are integers
in range, one call at a time on an object that keeps state between calls, nothing used
or copied once it is closed, and errors that quote a value shortly, never whole."""

import functools
import operator
import re
import threading

import numpy as np

SHOWN = 60  # characters of a refused value that an error quotes

# The largest seed: the C++ envs and states take 64-bit unsigned seeds.
MOST_SEED = 2**64 - 1

_INT64 = np.iinfo(np.int64)


def shortened(value, most=SHOWN):
    """``value`` as an error quotes it: its repr(), cut after ``most`` characters with the
    whole length said."""
    text = repr(value)
    if len(text) <= most:
        return text
    return f"{text[:most]}... ({len(text)} characters)"


def checked_integer(name, value, low, high):
    """``value`` as an int if it is an integer (a Python int or a numpy integer; not a
    bool) in [low, high]; otherwise TypeError or ValueError naming ``name`` and the value."""
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {shortened(value)}")
    value = operator.index(value)
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {shortened(value)}")
    if value > high:
        raise ValueError(f"{name} must be at most {high}, got {shortened(value)}")
    return value


def checked_seed(seed, name="seed", most=MOST_SEED):
    """``seed`` as an int, or None for None (no seed): the one rule of every interface that
    takes a seed (make, the envs' reset, PettingZoo, SB3's seed(), OpenSpiel's rng_seed
    with its own ``most``). An integer (a Python int or a numpy integer; not a bool, a
    float or a string) in [0, most]; otherwise TypeError or ValueError naming ``name``."""
    if seed is None:
        return None
    return checked_integer(name, seed, 0, most)


def checked_action(action, num_actions):
    """``action`` as an int if it is an integer (a Python int, a numpy integer or a 0-d
    integer array; not a bool) in [0, num_actions). Otherwise TypeError or ValueError
    naming the action as given: nothing is rounded, parsed or wrapped around."""
    integer = isinstance(action, (int, np.integer)) or (
        isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu"
    )
    if not integer or isinstance(action, (bool, np.bool_)):
        kind = type(action)
        name = kind.__qualname__
        if kind.__module__ != "builtins":
            name = f"{kind.__module__}.{name}"
        raise TypeError(f"action must be an integer, got {name} {shortened(action)}")
    value = operator.index(action)
    if not 0 <= value < num_actions:
        raise ValueError(f"action {shortened(value)} is out of range [0, {num_actions})")
    return value


def stepped(step, actions):
    """``step(actions)`` (a native batch's step), where integers too wide for 64 bits
    ([2**70] * n, which numpy holds as objects, or [2**63, 0], which it makes floats:
    dtypes the batch refuses) are out of range like any other: each goes to the batch as
    the nearest 64-bit integer, itself out of every action range, so that the batch
    checks them in its order, ignores them where it ignores any action (an auto-reset),
    and refuses the first with a ValueError that names it as given. Anything else that is
    not integers stays the batch's TypeError."""
    try:
        return step(actions)
    except TypeError:
        given = _wide_integers(actions)
        if given is None:
            raise
    nearest = np.array(
        [min(max(operator.index(a), _INT64.min), _INT64.max) for a in given.flat], np.int64
    ).reshape(given.shape)
    try:
        return step(nearest)
    except ValueError as error:
        found = re.match(r"env (\d+): action -?\d+ is out of range (\[0, \d+\))", str(error))
        if found is None or given.ndim != 1:
            raise
        index = int(found[1])
        value = operator.index(given[index])
        if value == int(nearest[index]):
            raise
        raise ValueError(
            f"env {index}: action {shortened(value)} is out of range {found[2]}"
        ) from None


def _wide_integers(actions):
    """``actions`` as an array of objects if they are integers only (not bools), which
    numpy made objects or floats because some are too wide for 64 bits; else None."""
    if isinstance(actions, np.ndarray) and actions.dtype != object:
        return None
    try:
        given = np.array(actions, dtype=object)
    except (TypeError, ValueError):
        return None
    for a in given.flat:
        if not isinstance(a, (int, np.integer)) or isinstance(a, (bool, np.bool_)):
            return None
    return given


def open_only(method):
    """Raises RuntimeError naming the class and the method once the object's close() has
    run (it sets ``_closed``): nothing is stepped, reset or read on what close released."""

    @functools.wraps(method)
    def checked(self, *args, **kwargs):
        if getattr(self, "_closed", False):
            name = f"{type(self).__name__}.{method.__name__}"
            raise RuntimeError(f"{name}: the environment is closed; make a new one")
        return method(self, *args, **kwargs)

    return checked


def serialised(method):
    """Runs ``method`` holding the object's ``_lock`` (a threading.RLock made in its
    __init__): calls from several threads take turns instead of interleaving the state
    the object keeps between calls; a call from within a call on the same thread goes
    through."""

    @functools.wraps(method)
    def locked(self, *args, **kwargs):
        with self._lock:
            return method(self, *args, **kwargs)

    return locked


class Locked:
    """The base of objects whose methods are @serialised: makes their ``_lock`` and lets
    them pickle and deep-copy (SB3's SubprocVecEnv, Ray and copy.deepcopy do both) with
    a lock of their own instead of the original's, which no copy could share. A closed
    object (``_closed`` set) refuses pickle, copy.copy and copy.deepcopy alike with a
    RuntimeError naming its class: what close released cannot be copied. Its __init__
    calls no other base's: a subclass whose other base needs arguments calls that one
    itself."""

    def __init__(self):
        self._lock = threading.RLock()

    def __getstate__(self):
        if getattr(self, "_closed", False):
            raise RuntimeError(
                f"{type(self).__name__}: the environment is closed, so it cannot be "
                "copied or pickled; make a new one"
            )
        with self._lock:
            state = self.__dict__.copy()
        del state["_lock"]
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.RLock()
