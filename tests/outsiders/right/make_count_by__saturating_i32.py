"""Count-by with OpenDP's saturating counter: ``increment(c) = min(c + 1, 2^31 - 1)`` (OpenDP
0.16's default count type is a saturating ``i32``).

Correct: every released count is ``sat(h) = min(h, 2^31 - 1)`` of the true count ``h``, an int.
``sat`` is 1-Lipschitz and ``sat(0) = 0`` is never stored (present keys have ``h >= 1``, so
``sat(h) >= 1``), so for every key ``|sat(h_v) - sat(h_w)| <= |h_v - h_w|``: the per-key
differences, hence ``l1``, ``linf`` and the number of differing keys ``l0``, are at most the
true histogram's, which the catalogue bounds by ``(d_in, d_in, d_in)``. (It is not the exact
histogram past ``2^31 - 1`` rows of one key, like OpenDP's.) Checked: the increment is the
catalogue's below the cap and saturates at it; histograms equal the catalogue's on seeded
vectors; ``|sat(a) - sat(b)| <= |a - b|`` around the cap.
"""

import random
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.make_count_by import CountBy, build_count_by, make_count_by  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_count_by import count_by_obligations  # noqa: E402

CONSTRUCTOR = "make_count_by"

I32_MAX = 2 ** 31 - 1


def saturating_increment(count):
    return ops.minimum(count + 1, I32_MAX)


def build(carrier):
    return replace(build_count_by(carrier), function=CountBy(saturating_increment, 0))


make_count_by_sat = make_count_by.variant("make_count_by_saturating_i32", build)
MECHANISMS = [Entry("outsider_right_count_by_saturating_i32", make_count_by_sat,
                    count_by_obligations(make_count_by_sat, "outsider_right_count_by_saturating_i32"))]


def check() -> str:
    sat = lambda h: min(h, I32_MAX)  # noqa: E731
    for c in list(range(0, 100)) + list(range(I32_MAX - 5, I32_MAX + 1)):
        assert saturating_increment(c) == min(c + 1, I32_MAX)
    for a in range(I32_MAX - 4, I32_MAX + 4):
        for b in range(I32_MAX - 4, I32_MAX + 4):
            assert abs(sat(a) - sat(b)) <= abs(a - b)
    rng = random.Random(12)
    ours, theirs = make_count_by_sat(str), make_count_by(str)
    for _ in range(300):
        v = [rng.choice("abcd") for _ in range(rng.randrange(10))]
        assert ours(v) == theirs(v)
    return "below the cap equal to the catalogue's; saturation 1-Lipschitz around 2^31 - 1"
