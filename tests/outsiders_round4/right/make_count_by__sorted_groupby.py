"""make_count_by refactored as sort + itertools.groupby.

The histogram is built by sorting the rows and counting each run of equal rows with
``itertools.groupby``, instead of the catalogue's ``CountBy`` dict fold.

Why it is correct: the carriers ``make_count_by`` admits are ``int``, ``str`` and ``bool``, each
totally ordered by ``<`` with ``==`` as its only equality (no NaN), so after ``sorted`` every
multiset element occupies exactly one run, ``groupby`` yields that run once with a key equal to
(and of the same type as) its rows, and the run's length is the row count ``h_v(z) >= 1``. The
result is the same dict as the catalogue's (dict equality ignores insertion order), with the same
key and value types, so domains, metrics and the map ``(d_in, d_in, d_in)`` are the reference's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import itertools
import random
from dataclasses import replace

from mechanisms.make_count_by import build_count_by, make_count_by
from obligations.base import Entry

CONSTRUCTOR = "make_count_by"


def sorted_groupby_histogram(data):
    """``{row: number of rows equal to it}`` from the runs of the sorted rows."""
    histogram = {}
    for key, run in itertools.groupby(sorted(data)):
        histogram[key] = sum(1 for _ in run)
    return histogram


def build_count_by_sorted_groupby(carrier):
    return replace(build_count_by(carrier), function=sorted_groupby_histogram)


make_count_by_sorted_groupby = make_count_by.variant("make_count_by_sorted_groupby",
                                                     build_count_by_sorted_groupby)
MECHANISMS = [Entry("make_count_by_sorted_groupby", make_count_by_sorted_groupby)]


def _typed_items(histogram):
    return sorted(((type(k).__name__, repr(k), type(v).__name__, v) for k, v in histogram.items()))


HARD = {
    int: [0, 1, -1, 2 ** 53 + 1, 2 ** 64, -(2 ** 63), 10 ** 400, -(10 ** 400)],
    str: ["", "a", "A", "a,b", "\n", "\u00e9", "0"],
    bool: [True, False],
}


def check() -> str:
    rng = random.Random(4)
    compared = 0
    for carrier, values in HARD.items():
        new, ref = make_count_by_sorted_groupby(carrier), make_count_by(carrier)
        assert (new.input_domain, new.output_domain, new.input_metric, new.output_metric) == \
            (ref.input_domain, ref.output_domain, ref.input_metric, ref.output_metric)
        vectors = [list(p) for n in range(4) for p in itertools.product(values, repeat=n)]
        vectors += [[rng.choice(values) for _ in range(rng.randrange(30))] for _ in range(300)]
        for v in vectors:
            # rows as fresh objects, as read from a file
            v = [type(x)(x) if not isinstance(x, bool) else x for x in v]
            a, b = new(v), ref(v)
            assert type(a) is type(b) is dict and a == b and _typed_items(a) == _typed_items(b), v
            compared += 1
        for d in range(0, 60):
            assert new.map(d) == ref.map(d)
    return f"equal histograms to make_count_by on {compared} vectors (int, str, bool), equal maps"
