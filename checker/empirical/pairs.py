"""Default neighbouring pairs for a black-box audit, by the kind of dataset the target accepts;
each kind stands for one neighbouring relation.

* a number (|x - x'| <= 1): values one apart, at 0 and far from it;
* a query vector (every query moves by at most 1, the L-infinity relation of the sparse vector
  and report-noisy-max proofs, StatDP's "all differ"): the classic patterns of statistical DP
  testing (one above, one below, all above, all below, half-half, the x-shape, one above and the
  rest below) at 5 and 10 queries, support-gap pairs that push the other queries far away, and
  vectors drawn by Hypothesis;
* rows (a list of records, each a tuple of the keys it touches; add or remove one record, the
  unbounded relation of counts per key): one record added to the empty dataset and to small
  ones, the record touching one key or several, so that a per-key release whose map assumes one
  key per person is caught;
* a category (any two values): every pair among the categories the target answers with, and
  one value it never answers with (a non-member); a target probed with a number is audited this
  way only when it answers with few values that are not numbers and takes them as inputs
  (randomized response), else as a number.
"""

from __future__ import annotations

from typing import Any, Callable

from hypothesis import strategies as st

from checker.empirical.shapes import key
from checker.empirical.strategies import atoms, draw
from mechanisms.domains import AtomDomain

QUERIES = 5
"""The length of the probe vector and of the drawn vectors."""

PATTERN_LENGTHS = (5, 10)
"""The classic patterns are built at these lengths (a sparse vector leaks more over more
queries)."""

KEYS = 5
"""Record datasets use keys ``0 .. KEYS - 1``."""


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


def all_vector_patterns() -> list[tuple[list[float], list[float]]]:
    """The classic patterns at every length of :data:`PATTERN_LENGTHS`."""
    return [pair for k in PATTERN_LENGTHS for pair in vector_patterns(k)]


def row_pairs(keys: int = KEYS) -> list[tuple[list[tuple[int, ...]], list[tuple[int, ...]]]]:
    """Datasets of records (tuples of keys) and the dataset with one more record: a record on
    one key, on several, and on every key, added to the empty dataset and to small ones."""
    every = tuple(range(keys))
    bases: list[list[tuple[int, ...]]] = [[], [(0,)], [(0,), (1, 2), (keys - 1,)]]
    records = [(0,), (1, 2), every[:3], every]
    return [(base, base + [record]) for base in bases for record in records]


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


PROBES = (("number", 0), ("number", 0.0), ("vector", [0.0] * QUERIES),
          ("rows", [(0,), (1, 2)]), ("category", "a"))
"""Tried in order: the first dataset the target accepts tells its kind."""

FEW_OUTPUTS = 16
"""A target with at most this many distinct outputs on the probe is audited on categories."""


def _takes_its_answers(target: Callable[[Any], Any], answers: list[Any]) -> bool:
    """A number-probed target with few answers is a category mechanism (randomized response:
    any two values are neighbours) when its answers are not numbers and it takes them as inputs;
    a count or threshold that answers in few numbers or bools keeps the number relation."""
    values = [a for a in dict.fromkeys(answers) if not isinstance(a, (bool, int, float))]
    if not values:
        return False
    try:
        for value in values[:3]:
            target(value)
    except Exception:  # it refuses its own answers: not a category mechanism
        return False
    return True


def default_pairs(target: Callable[[Any], Any], seed: int, probe_runs: int = 200) -> list[tuple[Any, Any]]:
    """Neighbouring pairs for a target that gave none: probe which dataset it accepts (the probe,
    and both datasets of the kind's first pairs), then use the pairs for that kind; categories
    come from the target's own answers."""
    refusals = []
    for kind, example in PROBES:
        try:
            outputs = [target(example) for _ in range(probe_runs)]
            hashable = [key(o) for o in outputs]
            if kind == "category" or (kind == "number" and len(set(hashable)) <= FEW_OUTPUTS
                                      and _takes_its_answers(target, hashable)):
                return category_pairs([example, *hashable])
            pairs = {"number": lambda: number_pairs(type(example), seed),
                     "vector": lambda: all_vector_patterns() + drawn_vector_pairs(10, seed),
                     "rows": row_pairs,
                     "category": lambda: category_pairs([example, *hashable])}[kind]()
            for x, x_prime in pairs[:3]:
                target(x), target(x_prime)
        except Exception as error:  # the target refuses this kind of dataset; try the next
            refusals.append(f"{example!r}: {type(error).__name__}: {error}")
            continue
        return pairs
    raise TypeError("the target accepts none of a number, a list of numbers, a list of records "
                    "or a string; it raised on each probe (" + "; ".join(refusals) + "); fix "
                    "the target, or give neighbouring pairs it accepts with --pairs PAIRS.json")
