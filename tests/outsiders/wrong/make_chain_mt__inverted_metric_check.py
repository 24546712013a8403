"""Measurement chain whose metric precondition was inverted (``!=`` for ``==``).

Wrong both ways: well-formed chains (an int sum into discrete Laplace, absolute distance on both
sides) are refused, and a cast of int vectors (symmetric distance) into AboveThreshold (which
assumes LInf-close query vectors) is accepted. Then ``[]`` and ``[5]`` (``d_in = 1``) are query
vectors of different lengths: on ``[]`` the output is always ``0``, on ``[5]`` the output ``1`` has
positive probability (seen on a seeded run): an infinite loss against the finite ``map(1)``.
Hole classes: none listed (plain inverted metric equality check in a chain).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402
import random  # noqa: E402

from mechanisms.core import Constructor, Precondition  # noqa: E402
from mechanisms.errors import CombinatorError  # noqa: E402
from mechanisms.make_above_threshold import make_above_threshold  # noqa: E402
from mechanisms.make_bounded_int_sum import make_bounded_int_sum  # noqa: E402
from mechanisms.make_cast_default import make_cast_default  # noqa: E402
from mechanisms.make_chain_mt import build_chain_mt, validate_chain_mt  # noqa: E402
from mechanisms.make_chain_tt import domain_mismatch, domains_meet, metric_mismatch  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_chain_mt"
CLASSES = ()


def metrics_meet(outer, inner):
    return outer.input_metric != inner.output_metric


PRECONDITIONS = (
    Precondition("outer.input_domain == inner.output_domain", domains_meet, domain_mismatch),
    Precondition("outer.input_metric == inner.output_metric", metrics_meet, metric_mismatch),
)
make_chain_mt_neq = Constructor("make_chain_mt_inverted", build_chain_mt, PRECONDITIONS,
                                validate_chain_mt)
MECHANISMS = [Entry("outsider_chain_mt_inverted_metric_check", make_chain_mt_neq)]


def witness() -> str:
    try:
        make_chain_mt_neq(make_discrete_laplace(1.0), make_bounded_int_sum(0, 10))
    except CombinatorError:
        pass
    else:
        raise AssertionError("a well-formed chain was accepted")
    m = make_chain_mt_neq(make_above_threshold(1.0, 100), make_cast_default(int, int))
    assert m.input_metric.distance([], [5]) == 1
    rng = random.Random(0)
    on_empty = {m([], rng) for _ in range(20)}
    assert on_empty == {0}  # deterministic: no queries, output k = 0
    on_five = {m([5], rng) for _ in range(20)}
    assert 1 in on_five  # an output [] never gives: the loss is infinite
    assert math.isfinite(m.map(1))  # while the claim is finite
    return f"cast >> AboveThreshold accepted: Pr[1 | []] = 0 < Pr[1 | [5]] (seeded run), map(1) = {m.map(1)}"
