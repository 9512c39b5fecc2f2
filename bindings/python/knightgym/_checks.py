"""What every Python face checks of what it is given: seeds and actions that are integers
in range, one call at a time on an object that keeps state between calls, nothing used
or copied once it is closed, and errors that quote a value shortly, never whole.

The quoting, integers, seeds and actions are C++'s rules (bindings/checks.cc), the ones
the vector env, states and agents apply to their own arguments, bound here for the faces:
shortened(value) quotes a value's repr() cut after 60 characters with the whole length
said; checked_integer(name, value, low, high), checked_seed(seed, name="seed",
most=2**64 - 1) and checked_action(action, num_actions) each return an int (or None for
no seed) or raise TypeError or ValueError naming the argument."""

import functools
import threading

from knightgym._knightgym import (
    MOST_SEED,
    checked_action,
    checked_integer,
    checked_seed,
    shortened,
)

__all__ = [
    "MOST_SEED",
    "Locked",
    "checked_action",
    "checked_integer",
    "checked_seed",
    "open_only",
    "serialised",
    "shortened",
]


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
