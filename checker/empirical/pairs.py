"""Default neighbouring pairs for a black-box audit, by the kind of dataset the target accepts.

* a number: values one apart, at 0 and far from it;
* a query vector (each query changes by at most 1 between neighbours): the classic patterns of
  statistical DP testing (one above, one below, all above, all below, half-half, the x-shape,
  one above and the rest below) and support-gap pairs that push the other queries far away, plus
  vectors drawn by Hypothesis;
* a category: every pair among the categories the target answers with, and one value it never
  answers with (a non-member).
"""

from __future__ import annotations

from typing import Any, Callable

from hypothesis import strategies as st

from checker.empirical.strategies import atoms, draw
from mechanisms.domains import AtomDomain

QUERIES = 5


def number_pairs(kind: type = float, seed: int = 0, drawn: int = 3) -> list[tuple[Any, Any]]:
    """Values one apart, of the type the target accepts: fixed ones, and values drawn by the atom
    strategy (edges, signed zeros, magnitudes near 2**50) each paired with its successor."""
    fixed = [(kind(a), kind(b)) for a, b in ((0, 1), (0, -1), (1000, 1001))]
    values = draw(atoms(AtomDomain(kind, bounds=(kind(-2 ** 51), kind(2 ** 51)))), drawn, seed)
    return fixed + [(x, x + kind(1)) for x in values if (x, x + kind(1)) not in fixed]


def vector_patterns(k: int = QUERIES) -> list[tuple[list[float], list[float]]]:
    """The classic query-vector patterns; each entry moves by at most 1."""
    ones = [1.0] * k
    half = k // 2
    return [
        (ones, [2.0] + [1.0] * (k - 1)),                      # one above
        (ones, [0.0] + [1.0] * (k - 1)),                      # one below
        (ones, [2.0] + [0.0] * (k - 1)),                      # one above, rest below
        (ones, [0.0] + [2.0] * (k - 1)),                      # one below, rest above
        (ones, [2.0] * half + [0.0] * (k - half)),            # half-half
        (ones, [2.0] * k),                                     # all above
        (ones, [0.0] * k),                                     # all below
        ([1.0] * half + [0.0] * (k - half), [0.0] * half + [1.0] * (k - half)),  # x-shape
        ([0.0] + [-100.0] * (k - 1), [1.0] + [-100.0] * (k - 1)),  # support gap, one query
        ([0.0] + [100.0] * (k - 1), [1.0] + [100.0] * (k - 1)),    # support gap, far above
    ]


def drawn_vector_pairs(count: int, seed: int, k: int = QUERIES) -> list[tuple[list[float], list[float]]]:
    """Query vectors and a neighbour (each entry moved by -1, 0 or +1), drawn by Hypothesis."""
    entries = st.lists(st.integers(-3, 3).map(float), min_size=k, max_size=k)
    moves = st.lists(st.sampled_from([-1.0, 0.0, 1.0]), min_size=k, max_size=k).filter(any)
    return [(base, [b + m for b, m in zip(base, move)])
            for base, move in draw(st.tuples(entries, moves), count, seed)]


def category_pairs(observed: list[Any]) -> list[tuple[Any, Any]]:
    """Every ordered pair among the categories seen, plus each against a value never seen."""
    categories = list(dict.fromkeys(observed))[:6]
    outsider = _outsider(categories)
    values = categories + [outsider]
    return [(a, b) for i, a in enumerate(values) for b in values[i + 1:]]


def _outsider(categories: list[Any]) -> Any:
    if all(isinstance(c, str) for c in categories):
        return "\u2205not-a-category"
    if all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in categories):
        return max(categories, default=0) + 1000
    return None


PROBES = (("number", 0), ("number", 0.0), ("vector", [0.0] * QUERIES), ("category", "a"))
"""Tried in order: the first dataset the target accepts tells its kind."""

FEW_OUTPUTS = 16
"""A target with at most this many distinct outputs on the probe is audited on categories."""


def default_pairs(target: Callable[[Any], Any], seed: int, probe_runs: int = 200) -> list[tuple[Any, Any]]:
    """Neighbouring pairs for a target that gave none: probe which dataset it accepts, then use the
    pairs for that kind; categories come from the target's own answers."""
    refusals = []
    for kind, example in PROBES:
        try:
            outputs = [target(example) for _ in range(probe_runs)]
        except Exception as error:  # the target refuses this kind of dataset; try the next
            refusals.append(f"{example!r}: {type(error).__name__}: {error}")
            continue
        hashable = [tuple(o) if isinstance(o, list) else o for o in outputs]
        if kind != "vector" and len(set(hashable)) <= FEW_OUTPUTS:
            return category_pairs([example, *hashable])
        if kind == "number":
            return number_pairs(type(example), seed)
        if kind == "vector":
            return vector_patterns() + drawn_vector_pairs(10, seed)
        return category_pairs([example, *hashable])
    raise TypeError("the target accepts none of a number, a list of numbers or a string; it "
                    "raised on each probe (" + "; ".join(refusals) + "); fix the target, or "
                    "give neighbouring pairs it accepts with --pairs PAIRS.json")
