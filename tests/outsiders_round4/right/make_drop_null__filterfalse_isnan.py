"""make_drop_null refactored with ``itertools.filterfalse(math.isnan, data)``.

Why it is correct: ``math.isnan`` is true exactly on the NaN floats (either sign, any payload),
the same predicate as the catalogue's ``not ops.is_nan(x)`` negated; ``filterfalse`` keeps the
rows for which it is false, in order, as the same objects (``-0.0`` keeps its sign, ``+-inf``
stay), and ``list(...)`` materialises them. The input domain holds only floats, so ``math.isnan``
never raises. The output list equals the catalogue's ``Filter`` bit for bit.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import itertools
import math
import random
import struct
from dataclasses import replace

from mechanisms.make_drop_null import build_drop_null, make_drop_null
from obligations.base import Entry

CONSTRUCTOR = "make_drop_null"


def drop_nan_rows(data):
    return list(itertools.filterfalse(math.isnan, data))


def build_drop_null_filterfalse(carrier=float):
    return replace(build_drop_null(carrier), function=drop_nan_rows)


make_drop_null_filterfalse = make_drop_null.variant("make_drop_null_filterfalse",
                                                    build_drop_null_filterfalse)
MECHANISMS = [Entry("make_drop_null_filterfalse", make_drop_null_filterfalse)]

FLOATS = [0.0, -0.0, 1.0, -1.0, 5e-324, 1.7976931348623157e308, math.inf, -math.inf,
          math.nan, -math.nan, float("nan")]


def check() -> str:
    rng = random.Random(11)
    new, ref = make_drop_null_filterfalse(float), make_drop_null(float)
    assert make_drop_null_filterfalse().output_domain == make_drop_null().output_domain
    assert (new.input_domain, new.output_domain, new.input_metric, new.output_metric) == \
        (ref.input_domain, ref.output_domain, ref.input_metric, ref.output_metric)
    vectors = [list(p) for n in range(5) for p in itertools.product(FLOATS, repeat=n)]
    vectors += [[rng.choice(FLOATS) for _ in range(rng.randrange(50))] for _ in range(500)]
    for v in vectors:
        a, b = new(v), ref(v)
        assert type(a) is list and [struct.pack("<d", x) for x in a] == \
            [struct.pack("<d", x) for x in b], v
        assert all(x is y for x, y in zip(a, b))
    for d in range(0, 30):
        assert new.map(d) == ref.map(d)
    return f"equal to make_drop_null (same row objects, in order) on {len(vectors)} vectors"
