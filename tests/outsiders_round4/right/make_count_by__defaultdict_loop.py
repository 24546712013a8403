"""make_count_by refactored as an explicit loop over a ``collections.defaultdict(int)``.

The histogram is accumulated in a ``defaultdict(int)`` by a plain ``for`` loop in a small
callable class, then copied into a plain ``dict``.

Why it is correct: ``defaultdict(int)`` starts a missing key at ``int() == 0`` and ``+= 1`` adds
one per row, exactly the catalogue's ``counts[x] = counts.get(x, 0) + 1``; the first row of each
multiset element inserts the key, so keys are rows (same type), values are ints ``>= 1``, and no
key with count 0 is ever created (the default factory runs only on ``counts[row]`` for a row that
is present). ``dict(...)`` drops the factory so the result is a plain ``dict`` equal to the
catalogue's. Domains, metrics and map are the reference's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import itertools
import random
from collections import defaultdict
from dataclasses import replace

from mechanisms.make_count_by import build_count_by, make_count_by
from obligations.base import Entry

CONSTRUCTOR = "make_count_by"


class DefaultdictHistogram:
    """``v -> {z: h_v(z)}`` with a defaultdict."""

    def __call__(self, data):
        counts = defaultdict(int)
        for row in data:
            counts[row] += 1
        return dict(counts)

    def __eq__(self, other):
        return type(other) is DefaultdictHistogram

    def __hash__(self):
        return hash(DefaultdictHistogram)


def build_count_by_defaultdict(carrier):
    return replace(build_count_by(carrier), function=DefaultdictHistogram())


make_count_by_defaultdict = make_count_by.variant("make_count_by_defaultdict",
                                                  build_count_by_defaultdict)
MECHANISMS = [Entry("make_count_by_defaultdict", make_count_by_defaultdict)]


def _typed_items(histogram):
    return sorted(((type(k).__name__, repr(k), type(v).__name__, v) for k, v in histogram.items()))


HARD = {
    int: [0, 1, -1, 2 ** 31, 2 ** 63, 2 ** 64 + 1, 10 ** 400],
    str: ["", " ", "a", "a\x00b", "\u00e9", "e\u0301"],
    bool: [False, True],
}


def check() -> str:
    rng = random.Random(7)
    compared = 0
    for carrier, values in HARD.items():
        new, ref = make_count_by_defaultdict(carrier), make_count_by(carrier)
        assert (new.input_domain, new.output_domain, new.input_metric, new.output_metric) == \
            (ref.input_domain, ref.output_domain, ref.input_metric, ref.output_metric)
        vectors = [list(p) for n in range(4) for p in itertools.product(values, repeat=n)]
        vectors += [[rng.choice(values) for _ in range(rng.randrange(40))] for _ in range(300)]
        for v in vectors:
            a, b = new(v), ref(v)
            assert type(a) is dict and a == b and _typed_items(a) == _typed_items(b), v
            assert new.output_domain.member(a)
            compared += 1
        for d in range(0, 60):
            assert new.map(d) == ref.map(d)
    return f"equal histograms to make_count_by on {compared} vectors (int, str, bool), equal maps"
