"""Bit-vector randomized response with OpenDP's map, ``2m ln((2 - f)/f)`` (no ``min`` with the
size), computed as ``mul_up(2m, ln_up((2 - f)/f))``.

Correct: ``2m >= min(size, 2m)``, and the rounded-up logarithm is ``>= 0`` (``f <= 1`` gives odds
``(2 - f)/f >= 1``), so this map is never below the catalogue's, which bounds the loss; a larger
epsilon is still a valid bound. Checked: on a grid of ``(m, f, size)`` this map is ``>=`` the
catalogue's at ``d_in = 0, 1, 2``, and both are 0 at ``d_in = 0``.
"""

import random
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_randomized_response import rr_privacy_map  # noqa: E402
from mechanisms.make_randomized_response_bitvec import (  # noqa: E402
    bit_odds, build_randomized_response_bitvec, make_randomized_response_bitvec)
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bitvec import (  # noqa: E402
    randomized_response_bitvec_obligations)

CONSTRUCTOR = "make_randomized_response_bitvec"


def build(m, f, size):
    epsilon = ops.mul_up(2 * m, ops.ln_up(bit_odds(f)))
    return replace(build_randomized_response_bitvec(m, f, size),
                   privacy_map=Map(rule=rr_privacy_map, params={"epsilon": epsilon}))


make_rr_bitvec_opendp_map = make_randomized_response_bitvec.variant(
    "make_randomized_response_bitvec_opendp_map", build)
MECHANISMS = [Entry("outsider_right_rr_bitvec_opendp_map", make_rr_bitvec_opendp_map,
                    randomized_response_bitvec_obligations(
                        make_rr_bitvec_opendp_map, "outsider_right_rr_bitvec_opendp_map"))]


def check() -> str:
    rng = random.Random(9)
    n = 0
    for _ in range(300):
        m, size = rng.randrange(1, 6), rng.randrange(1, 12)
        f = rng.choice([1.0, 0.5, 0.1, 2.0 ** -30, rng.uniform(1e-9, 1.0)])
        ours, theirs = make_rr_bitvec_opendp_map(m, f, size), make_randomized_response_bitvec(m, f, size)
        assert ours.map(0) == theirs.map(0) == 0
        for d in (1, 2):
            assert ours.map(d) >= theirs.map(d), (m, f, size, ours.map(d), theirs.map(d))
        n += 1
    return f"map >= the catalogue's on {n} seeded (m, f, size)"
