"""Bit-vector randomized response whose shape preconditions are ``m >= 0`` and ``size >= 0``
(an empty vector, or a zero weight bound, is accepted instead of refused).

Correct: with ``m = 0`` the domain holds one vector (all bits False), with ``size = 0`` one
vector (the empty one): there are no two different members, so the only pairs at any distance
are equal inputs with equal laws, loss 0. The map is ``mul_up(min(size, 2m), ...) = 0`` then,
and at least 0 is all that is needed. For ``m, size >= 1`` nothing changed. Checked: for
``m = 0`` or ``size = 0`` and several ``f`` the domain's members (enumerated over every bit
vector of the size) number exactly one, and the map is ``>= 0``; the release of the empty
vector is the empty tuple.
"""

import random
import sys
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.core import Precondition  # noqa: E402
from mechanisms.errors import BitVectorShapeError  # noqa: E402
from mechanisms.make_randomized_response_bitvec import (  # noqa: E402
    RR_BITVEC_PRECONDITIONS, build_randomized_response_bitvec, make_randomized_response_bitvec)
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bitvec import (  # noqa: E402
    randomized_response_bitvec_obligations)

CONSTRUCTOR = "make_randomized_response_bitvec"

ALLOW_EMPTY = (
    Precondition("m >= 0", lambda m, f, size: ops.le(0, m),
                 lambda m, f, size: BitVectorShapeError("m", m)),
    Precondition("size >= 0", lambda m, f, size: ops.le(0, size),
                 lambda m, f, size: BitVectorShapeError("size", size)),
) + RR_BITVEC_PRECONDITIONS[2:]

make_rr_bitvec_empty = make_randomized_response_bitvec.variant(
    "make_randomized_response_bitvec_allow_empty", build_randomized_response_bitvec)
make_rr_bitvec_empty.preconditions = ALLOW_EMPTY
MECHANISMS = [Entry("outsider_right_rr_bitvec_allow_empty", make_rr_bitvec_empty,
                    randomized_response_bitvec_obligations(
                        make_rr_bitvec_empty, "outsider_right_rr_bitvec_allow_empty"))]


def check() -> str:
    cases = 0
    for m, size in [(0, 0), (0, 1), (0, 4), (3, 0), (1, 0)]:
        for f in (1.0, 0.5, 0.1):
            meas = make_rr_bitvec_empty(m, f, size)
            members = [x for x in product((False, True), repeat=size) if meas.input_domain.member(x)]
            assert len(members) == 1, (m, size, members)
            assert meas.map(0) == 0 and meas.map(1) >= 0 and meas.map(5) >= 0
            out = meas(members[0], random.Random(0))
            assert meas.output_domain.member(out)
            cases += 1
    for m, size in [(1, 1), (2, 5)]:
        assert make_rr_bitvec_empty(m, 0.5, size).map(1) == make_randomized_response_bitvec(m, 0.5, size).map(1)
    return f"{cases} empty-shape cases: one member each, map >= 0"
