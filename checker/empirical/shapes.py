"""Events over tuple outputs of any shape: mixed types and variable length, such as a sparse
vector's answers followed by its noisy value, ``(False, False, True, 3.2)``.

An output is read as features: its length; at each position ``j`` (up to
:data:`MAX_POSITIONS`) its value as a category (a bool, a string, ``None``, NaN, or *missing*
when the output is shorter) or as a number. The events are the length, a category at a position,
a threshold on a number at a position, and a threshold on the number at a position among outputs
of one length (StatDP's ``k == 2 and v < c``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

MAX_POSITIONS = 8
"""Positions of an output read as features."""

QUANTILES = np.linspace(0.05, 0.95, 19)
"""Where thresholds on a number are placed, as quantiles of the pooled values."""


class _Missing:
    """The value at a position past an output's end."""

    def __repr__(self) -> str:
        return "missing"


MISSING = _Missing()


def is_number(v: Any) -> bool:
    """A number, not a bool (``True`` is an ``int`` to Python, a category here)."""
    return isinstance(v, (int, float, np.integer, np.floating)) \
        and not isinstance(v, (bool, np.bool_))


@dataclass(frozen=True)
class Features:
    lengths: np.ndarray
    categories: list[np.ndarray]
    """Per position: the value where it is not a number, else ``None`` (object arrays)."""
    numbers: list[np.ndarray]
    """Per position: the value where it is a finite or infinite number, else NaN (floats)."""


def features(keys: np.ndarray, positions: int) -> Features:
    """``keys``: outputs as hashable values (tuples, NaN as one key), see ``privacy._keys``."""
    items = keys.tolist()
    lengths = np.fromiter((len(v) if isinstance(v, tuple) else -1 for v in items), dtype=int,
                          count=len(items))
    categories, numbers = [], []
    for j in range(positions):
        column = [v[j] if isinstance(v, tuple) and j < len(v) else MISSING for v in items]
        category = np.empty(len(items), dtype=object)
        category[:] = [None if is_number(c) else c for c in column]
        categories.append(category)
        numbers.append(np.fromiter((float(c) if is_number(c) else np.nan for c in column),
                                   dtype=float, count=len(items)))
    return Features(lengths, categories, numbers)


Indicator = Callable[[Features], np.ndarray]


def shape_events(pooled: Features, max_categories: int) -> list[tuple[str, Indicator]]:
    """``(description, indicator on Features)`` for every event of the families above whose
    parameters come from the pooled selection outputs."""
    events: list[tuple[str, Indicator]] = []
    lengths = sorted(set(pooled.lengths.tolist()))
    if len(lengths) > 1:
        events += [(f"len(output) == {n}", lambda f, n=n: f.lengths == n) for n in lengths]
    for j, (category, number) in enumerate(zip(pooled.categories, pooled.numbers)):
        values = list(dict.fromkeys(v for v in category.tolist() if v is not None))
        if len(values) <= max_categories:
            events += [(f"output[{j}] == {v!r}",
                        lambda f, j=j, v=v: np.fromiter((c == v for c in f.categories[j]),
                                                        dtype=bool, count=len(f.lengths)))
                       for v in values]
        finite = number[np.isfinite(number)]
        if finite.size == 0:
            continue
        for c in np.unique(np.quantile(finite, QUANTILES)):
            events += [(f"output[{j}] <= {c:.6g}", lambda f, j=j, c=c: f.numbers[j] <= c),
                       (f"output[{j}] > {c:.6g}", lambda f, j=j, c=c: f.numbers[j] > c)]
            for n in lengths:
                if n > j and len(lengths) > 1:
                    events += [
                        (f"len(output) == {n} and output[{j}] <= {c:.6g}",
                         lambda f, j=j, c=c, n=n: (f.lengths == n) & (f.numbers[j] <= c)),
                        (f"len(output) == {n} and output[{j}] > {c:.6g}",
                         lambda f, j=j, c=c, n=n: (f.lengths == n) & (f.numbers[j] > c))]
    return events
