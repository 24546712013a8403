"""Input checks shared by the corpus: each mechanism accepts one kind of dataset only.

A mechanism that silently accepted another kind (numpy broadcasting a list through ``x + noise``)
would be audited on pairs it was never meant for, so each one refuses the others with TypeError.
"""

from __future__ import annotations

import numbers

import numpy as np

KEYS = 5  # record datasets: each record is a tuple of keys 0..4


def number(x):
    """A count-like number (int or float, not bool)."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise TypeError(f"expected a number, got {type(x).__name__}")
    return x


def vector(v):
    """A non-empty vector of query answers, as a float array."""
    if isinstance(v, (str, bytes)) or not isinstance(v, (list, tuple, np.ndarray)):
        raise TypeError(f"expected a vector of numbers, got {type(v).__name__}")
    if len(v) == 0 or any(isinstance(q, bool) or not isinstance(q, numbers.Real) for q in v):
        raise TypeError("expected a non-empty vector of numbers")
    return np.asarray(v, dtype=float)


def values01(d):
    """A (possibly empty) list of values in [0, 1], one per person."""
    if not isinstance(d, (list, tuple)):
        raise TypeError(f"expected a list of values, got {type(d).__name__}")
    for q in d:
        if isinstance(q, bool) or not isinstance(q, numbers.Real) or not 0.0 <= q <= 1.0:
            raise TypeError("expected values in [0, 1]")
    return d


def records(d):
    """A list of records, each a tuple (or list) of keys in 0..4."""
    if not isinstance(d, (list, tuple)):
        raise TypeError(f"expected a list of records, got {type(d).__name__}")
    for r in d:
        if not isinstance(r, (list, tuple)):
            raise TypeError("expected each record to be a tuple of keys")
        for k in r:
            if isinstance(k, bool) or not isinstance(k, numbers.Integral) or not 0 <= k < KEYS:
                raise TypeError("expected keys in 0..4")
    return d


def key_counts(d):
    """Per key, the number of records that contain it (a record counts once per key)."""
    counts = np.zeros(KEYS)
    for r in d:
        for k in set(r):
            counts[k] += 1
    return counts
