"""make_sized_bounded_float_checked_sum refactored without slicing: index-range recursion for the
pairwise order and an in-place ``+=`` loop for the sequential order.

The pairwise sum recurses on ``(lo, hi)`` index ranges of the input (no list copies): an empty
range is ``0.0``, one row is that row, otherwise ``rec(lo, lo + (hi - lo) // 2) + rec(mid, hi)``.
The sequential sum is ``total = 0.0; for x in data: total += x``.

Why it is correct: the catalogue's ``PairwiseSum`` splits a block of ``n`` rows at ``n // 2``,
sums the first ``n // 2`` rows and the rest recursively and adds the two with one float addition;
``data[lo:hi]`` split at ``(hi - lo) // 2`` is exactly the index range ``[lo, lo + (hi - lo) // 2)``
and ``[mid, hi)``, so the same additions happen on the same operands in the same tree; a one-row
block returns the row itself (``-0.0`` stays ``-0.0``, as in the catalogue). The sequential loop is
the catalogue's left ``Fold`` of ``total + x`` from ``0.0``. IEEE-754 addition is deterministic,
so the results agree bit for bit; the map is the reference's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import itertools
import random
import struct
from dataclasses import dataclass, replace

from mechanisms.make_sized_bounded_float_checked_sum import (
    build_sized_bounded_float_checked_sum, make_sized_bounded_float_checked_sum)
from obligations.base import Entry

CONSTRUCTOR = "make_sized_bounded_float_checked_sum"


@dataclass(frozen=True)
class IndexSum:
    summation: str

    def __call__(self, data):
        if self.summation == "sequential":
            total = 0.0
            for x in data:
                total += x
            return total

        def rec(lo, hi):
            if hi - lo <= 1:
                return data[lo] if hi > lo else 0.0
            mid = lo + (hi - lo) // 2
            return rec(lo, mid) + rec(mid, hi)

        return rec(0, len(data))


def build_sum_index(size, lower, upper, summation="pairwise"):
    return replace(build_sized_bounded_float_checked_sum(size, lower, upper, summation),
                   function=IndexSum(summation))


make_sum_index = make_sized_bounded_float_checked_sum.variant("make_sum_index", build_sum_index)
MECHANISMS = [Entry("make_sum_index", make_sum_index)]


def _bits(x):
    return struct.pack("<d", x)


BOUNDS = [(0.0, 1.0), (-1.0, 1.0), (-0.0, 0.0), (-1e300, 1e300), (1.0, 1.0000000000000002),
          (-5e-324, 5e-324)]


def check() -> str:
    rng = random.Random(17)
    compared = 0
    for lower, upper in BOUNDS:
        rows = sorted({lower, upper, max(lower, min(upper, 0.0)), max(lower, min(upper, -0.0)),
                       (lower + upper) / 2, max(lower, min(upper, 0.1)),
                       max(lower, min(upper, 1 / 3))}, key=repr)
        for size in (1, 2, 3, 4, 5, 7, 16):
            for summation in ("pairwise", "sequential"):
                new = make_sum_index(size, lower, upper, summation)
                ref = make_sized_bounded_float_checked_sum(size, lower, upper, summation)
                assert (new.input_domain, new.output_domain, new.input_metric,
                        new.output_metric) == (ref.input_domain, ref.output_domain,
                                               ref.input_metric, ref.output_metric)
                if size <= 3:
                    vectors = [list(p) for p in itertools.product(rows, repeat=size)]
                else:
                    vectors = [[rng.choice(rows + [rng.uniform(lower, upper)]) for _ in
                                range(size)] for _ in range(150)]
                for v in vectors:
                    a, b = new(v), ref(v)
                    assert type(a) is float and _bits(a) == _bits(b), (size, summation, v)
                    compared += 1
                for d in range(0, 12):
                    assert new.map(d) == ref.map(d)
        assert make_sum_index(3, lower, upper).map(2) == \
            make_sized_bounded_float_checked_sum(3, lower, upper).map(2)  # default "pairwise"
    return f"bit-for-bit equal float sums on {compared} (arguments, vector) cases, equal maps"
