"""What every Python face checks of what it is given: actions that are integers in range,
one call at a time on an object that keeps state between calls, and errors that quote
a value shortly, never whole."""

import functools
import operator
import threading

import numpy as np

SHOWN = 60  # characters of a refused value that an error quotes


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
        raise ValueError(f"action {value} is out of range [0, {num_actions})")
    return value


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
    a lock of their own instead of the original's, which no copy could share. Its
    __init__ calls no other base's: a subclass whose other base needs arguments calls
    that one itself."""

    def __init__(self):
        self._lock = threading.RLock()

    def __getstate__(self):
        with self._lock:
            state = self.__dict__.copy()
        del state["_lock"]
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.RLock()
