"""Boolean randomized response on 0/1 ints: input and output domain
``AtomDomain(int, bounds=(0, 1))`` ("accept indicator columns"), the catalogue's function.

Correct: on an int ``x`` in ``{0, 1}``, ``x ^ flip`` (``flip`` a bool, i.e. 0 or 1) is
``1 - x`` when flipping and ``x`` otherwise, an int in ``{0, 1}``: the output domain holds, and
the law is the boolean one relabelled (``True -> 1``, ``False -> 0``), so the ratio is
``p/(1 - p)`` and the map holds; the discrete metric fits any atom domain. Checked: exact laws of
the real function on 0 and 1 equal the catalogue's on True and False relabelled, outputs are
ints in ``[0, 1]``, for many ``prob``.
"""

import random
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import coin_options, enumerate_law  # noqa: E402
from mechanisms.domains import AtomDomain  # noqa: E402
from mechanisms.make_randomized_response_bool import (build_randomized_response_bool,  # noqa: E402
                                                      make_randomized_response_bool)
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bool import randomized_response_bool_obligations  # noqa: E402

CONSTRUCTOR = "make_randomized_response_bool"

INDICATOR = AtomDomain(int, bounds=(0, 1))


def build(prob):
    return replace(build_randomized_response_bool(prob), input_domain=INDICATOR,
                   output_domain=INDICATOR)


make_rr_bool_01 = make_randomized_response_bool.variant(
    "make_randomized_response_bool_zero_one_ints", build)
MECHANISMS = [Entry("outsider_right_rr_bool_zero_one_ints", make_rr_bool_01,
                    randomized_response_bool_obligations(make_rr_bool_01,
                                                         "outsider_right_rr_bool_zero_one_ints"))]


def check() -> str:
    rng = random.Random(4)
    probs = [0.5, 0.6, 0.75, 0.999] + [rng.uniform(0.5, 1) for _ in range(20)]
    for prob in probs:
        ours, theirs = make_rr_bool_01(prob), make_randomized_response_bool(prob)
        assert not ours.input_domain.member(2) and not ours.input_domain.member(True)
        for x, b in ((0, False), (1, True)):
            a = enumerate_law(lambda r: ours(x, r), coin_options(prob))
            c = enumerate_law(lambda r: theirs(b, r), coin_options(prob))
            assert all(ours.output_domain.member(y) for y in a)
            assert a == {int(y): w for y, w in c.items()}, (prob, x, a, c)
        assert ours.map(1) == theirs.map(1)
    return f"exact laws equal to the catalogue's (relabelled) for {len(probs)} probs x 2 inputs"
