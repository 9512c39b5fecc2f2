"""The seeds that every interface taking one refuses as knightgym.make does (the one rule
of knightgym._checks.checked_seed): out of [0, 2**64 - 1], or not an integer (a float, a
string, a bool, a numpy float)."""

import re

import knightgym
import numpy as np
import pytest

BAD_SEEDS = [-1, 2**64, 10**30, 1.5, "7", True, np.float64(1)]


def assert_refused_as_make_refuses(call, seed):
    """call(seed) raises the error that knightgym.make(seed=seed) raises, which names
    `seed`."""
    with pytest.raises((TypeError, ValueError)) as refused:
        knightgym.make("knight_fight", seed=seed)
    message = str(refused.value)
    assert "seed" in message
    with pytest.raises(type(refused.value), match=f"^{re.escape(message)}$"):
        call(seed)
