"""Boolean randomized response on ``AtomDomain(int)`` in and out ("accept the 0/1 indicator
columns that ``make_is_equal`` followed by a cast to int produces"; ``arg ^ flip`` works on ints),
the bounds ``[0, 1]`` forgotten.

Wrong: an unbounded int domain admits ``0`` and ``2``, at discrete distance 1. ``2 ^ flip`` is
``2`` or ``3`` while ``0 ^ flip`` is ``0`` or ``1``: the two output laws have disjoint supports,
so the privacy loss is infinite against ``map(1) = ln(p / (1 - p))``.
Hole classes: none listed (plain domain bug: a missing bound).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

from _exact import coin_options, enumerate_law, max_ratio  # noqa: E402
from mechanisms.domains import AtomDomain  # noqa: E402
from mechanisms.make_randomized_response_bool import (build_randomized_response_bool,  # noqa: E402
                                                      make_randomized_response_bool)
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bool import randomized_response_bool_obligations  # noqa: E402

CONSTRUCTOR = "make_randomized_response_bool"
CLASSES = ()


def build(prob):
    return replace(build_randomized_response_bool(prob), input_domain=AtomDomain(int),
                   output_domain=AtomDomain(int))


make_rr_bool_int = make_randomized_response_bool.variant("make_randomized_response_bool_int_domain",
                                                         build)
MECHANISMS = [Entry("outsider_rr_bool_int_domain", make_rr_bool_int,
                    randomized_response_bool_obligations(make_rr_bool_int,
                                                         "outsider_rr_bool_int_domain"))]


def witness() -> str:
    prob = 0.75
    m = make_rr_bool_int(prob)
    assert m.input_domain.member(0) and m.input_domain.member(2)
    assert m.input_metric.distance(0, 2) == 1
    a = enumerate_law(lambda rng: m(0, rng), coin_options(prob))
    b = enumerate_law(lambda rng: m(2, rng), coin_options(prob))
    ratio = max_ratio(a, b)
    assert ratio == math.inf and m.map(1) < math.inf
    return f"prob 0.75: law of M(0) {a}, of M(2) {b}: disjoint, loss inf > map(1) = {m.map(1)!r}"
