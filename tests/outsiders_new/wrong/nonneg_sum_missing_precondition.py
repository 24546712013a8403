"""make_noisy_nonneg_sum(lower, upper, scale): a bounded int sum plus discrete Laplace noise as one
hand-written Measurement, for non-negative data (counts of items, amounts), with map
``d_in * upper / scale`` rounded up: "one row adds at most ``upper``".

MISTAKE: a missing precondition. The sensitivity ``upper`` is right only when ``lower >= 0``; the
preconditions check ``scale`` and ``lower <= upper`` but not ``0 <= lower``, so
``make_noisy_nonneg_sum(-100, 1, 1.0)`` is admitted: a row of ``-100`` moves the sum by 100 while
the map claims ``1 / scale``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_bounded_int_sum import INT_SUM_PRECONDITIONS, validate_int_bounds
from mechanisms.make_discrete_laplace import SCALE_PRECONDITIONS, validate_scale
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import sample_discrete_laplace, system_rng
from obligations.base import Entry, example


@dataclass(frozen=True)
class NoisySum:
    scale: Any
    sampler: Callable[[Any, Any], int]

    def __call__(self, arg, rng=None):
        total = 0
        for x in arg:
            total = total + x
        scale = Fraction(self.scale)
        noise = self.sampler(scale, system_rng(rng)) if scale > 0 else 0
        return total + noise


def nonneg_sum_map(d_in, upper, scale):
    return ops.where(ops.eq(d_in, 0), 0, div_up(d_in * upper, scale))


def validate_noisy_sum(lower, upper, scale):
    validate_int_bounds(lower, upper)
    validate_scale(scale)


def build_noisy_nonneg_sum(lower, upper, scale):
    return Measurement(
        input_domain=VectorDomain(AtomDomain(int, bounds=(lower, upper))),
        output_domain=AtomDomain(int),
        input_metric=SymmetricDistance(),
        output_measure=MaxDivergence(),
        function=NoisySum(scale, sample_discrete_laplace),
        privacy_map=Map(rule=nonneg_sum_map, params={"upper": upper, "scale": scale}),
    )


make_noisy_nonneg_sum = Constructor("make_noisy_nonneg_sum", build_noisy_nonneg_sum,
                                    (*SCALE_PRECONDITIONS, *INT_SUM_PRECONDITIONS),
                                    validate_noisy_sum)
MECHANISMS = [Entry("make_noisy_nonneg_sum", make_noisy_nonneg_sum,
                    examples=(example("make_noisy_nonneg_sum(0, 10, 2.0)",
                                      "from nonneg_sum_missing_precondition import make_noisy_nonneg_sum"),))]


def witness() -> str:
    m = make_noisy_nonneg_sum(-100, 1, 1.0)  # admitted: no precondition refuses lower < 0
    v, w = [], [-100]
    assert m.input_domain.member(w) and m.input_metric.distance(v, w) == 1
    for seed in range(50):  # the output is sum + DL(1): the catalogue's draw
        assert m(w, random.Random(seed)) == -100 + sample_discrete_laplace(Fraction(1), random.Random(seed))
        assert m(v, random.Random(seed)) == sample_discrete_laplace(Fraction(1), random.Random(seed))
    # exact law: ln(Pr[M(v)=0] / Pr[M(w)=0]) = (|0 + 100| - |0|) / 1
    loss = Fraction(100)
    claimed = m.map(1)
    assert loss > Fraction(claimed), (loss, claimed)
    return f"make_noisy_nonneg_sum(-100, 1, 1.0) admitted; [] vs [-100] (d_in=1): exact loss at 0 = {loss} > map(1) = {claimed}"
