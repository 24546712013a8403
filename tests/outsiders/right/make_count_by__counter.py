"""Count-by written with the standard library: ``function(v) = dict(collections.Counter(v))``.

Correct: ``Counter`` counts with the same dict key identity as the catalogue's ``CountBy``
(hash, then ``is`` or ``==``), every present key with its number of rows ``>= 1``, no absent
key; on the admitted keys (int, str, bool, exact types, no floats hence no NaN) this is the
histogram ``h_v``, an int map, and the map ``(d_in, d_in, d_in)`` is the catalogue's. Checked:
equal outputs on many seeded vectors of each carrier, equal maps.
"""

import collections
import random
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.make_count_by import build_count_by, make_count_by  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_count_by import count_by_obligations  # noqa: E402

CONSTRUCTOR = "make_count_by"


def counter_histogram(data):
    return dict(collections.Counter(data))


def build(carrier):
    return replace(build_count_by(carrier), function=counter_histogram)


make_count_by_counter = make_count_by.variant("make_count_by_counter", build)
MECHANISMS = [Entry("outsider_right_count_by_counter", make_count_by_counter,
                    count_by_obligations(make_count_by_counter, "outsider_right_count_by_counter"))]


def check() -> str:
    rng = random.Random(7)
    pools = {int: [0, 1, -1, 2, 10**30], str: ["", "a", "b", "0"], bool: [True, False]}
    n = 0
    for carrier, pool in pools.items():
        ours, theirs = make_count_by_counter(carrier), make_count_by(carrier)
        for _ in range(200):
            data = [rng.choice(pool) for _ in range(rng.randrange(8))]
            a, b = ours(data), theirs(data)
            assert a == b and ours.output_domain.member(a), (data, a, b)
            n += 1
        assert all(ours.map(d) == theirs.map(d) for d in range(30))
    return f"equal histograms on {n} vectors, equal maps"
