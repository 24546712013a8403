"""Count-by that also accepts float keys (OpenDP refuses them), with the catalogue's
``AtomDomain(float)``, which admits no NaN: the carrier check widened to ``float``, nothing else
changed.

Correct: on non-NaN floats, dict key identity and multiset identity agree: ``==`` is an
equivalence relation there (``-0.0 == 0.0`` and ``hash(-0.0) == hash(0.0)``, so both are one
key, as they are one element for the symmetric distance; ``inf == inf``), so the ``CountBy``
dict is exactly the histogram ``h_v`` and the catalogue's argument applies: at most ``d_in``
keys change, by at most ``d_in`` in total. Checked: the histogram is ``Counter``'s under
``multiset_key`` on many seeded vectors (with ``-0.0``, ``0.0``, ``inf``, ``-inf``, subnormals),
and on every pair of them the distance is within the map at the symmetric distance.
"""

import itertools
import math
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.errors import CarrierError  # noqa: E402
from mechanisms.make_count_by import COUNT_BY_CARRIERS, build_count_by, make_count_by  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_count_by import count_by_obligations  # noqa: E402

CONSTRUCTOR = "make_count_by"

CARRIERS = COUNT_BY_CARRIERS + (float,)


def validate(carrier):
    if carrier not in CARRIERS:
        raise CarrierError(carrier, CARRIERS)


make_count_by_float_keys = make_count_by.variant("make_count_by_float_keys", build_count_by)
make_count_by_float_keys.validate = validate
MECHANISMS = [Entry("outsider_right_count_by_float_keys", make_count_by_float_keys,
                    count_by_obligations(make_count_by_float_keys,
                                         "outsider_right_count_by_float_keys"))]


def check() -> str:
    t = make_count_by_float_keys(float)
    assert not t.input_domain.member([math.nan])
    rng = random.Random(8)
    pool = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, 5e-324, 0.1 + 0.2, 0.3]
    vectors = [[rng.choice(pool) for _ in range(rng.randrange(5))] for _ in range(60)]
    for v in vectors:
        assert t(v) == dict(Counter(v)) and sum(t(v).values()) == len(v)
    pairs = 0
    for v, w in itertools.product(vectors, repeat=2):
        d = t.input_metric.distance(v, w)
        assert t.output_metric.within(t.output_metric.distance(t(v), t(w)), t.map(d)), (v, w)
        pairs += 1
    return f"histograms equal Counter's on {len(vectors)} float vectors; {pairs} pairs within the map"
