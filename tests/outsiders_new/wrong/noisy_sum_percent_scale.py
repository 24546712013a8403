"""make_noisy_sum_pct(lower, upper, scale): a bounded int sum with discrete Laplace noise as one
hand-written Measurement (as ``right/noisy_bounded_sum.py``), map
``d_in * max(|L|, |U|) / scale`` rounded up.

MISTAKE: noise 100 times too small. The function divides the scale by 100 (the author's
configuration gave the noise "in percent" in an earlier version and the conversion stayed), so
the released sum carries discrete Laplace noise of scale ``scale / 100`` while the map claims
``scale``: the true loss is 100 times the claim.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Callable

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Constructor, Map, Measurement
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_bounded_int_sum import (INT_SUM_PRECONDITIONS, int_sum_constant,
                                              validate_int_bounds)
from mechanisms.make_discrete_laplace import SCALE_PRECONDITIONS, validate_scale
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import sample_discrete_laplace, system_rng
from obligations.base import Entry, example


@dataclass(frozen=True)
class NoisySumPct:
    scale: Any
    sampler: Callable[[Any, Any], int]

    def __call__(self, arg, rng=None):
        total = 0
        for x in arg:
            total = total + x
        scale = Fraction(self.scale) / 100
        noise = self.sampler(scale, system_rng(rng)) if scale > 0 else 0
        return total + noise


def noisy_sum_map(d_in, lower, upper, scale):
    return ops.where(ops.eq(d_in, 0), 0, div_up(d_in * int_sum_constant(lower, upper), scale))


def validate_noisy_sum(lower, upper, scale):
    validate_int_bounds(lower, upper)
    validate_scale(scale)


def build_noisy_sum_pct(lower, upper, scale):
    return Measurement(
        input_domain=VectorDomain(AtomDomain(int, bounds=(lower, upper))),
        output_domain=AtomDomain(int),
        input_metric=SymmetricDistance(),
        output_measure=MaxDivergence(),
        function=NoisySumPct(scale, sample_discrete_laplace),
        privacy_map=Map(rule=noisy_sum_map,
                        params={"lower": lower, "upper": upper, "scale": scale}),
    )


make_noisy_sum_pct = Constructor("make_noisy_sum_pct", build_noisy_sum_pct,
                                 (*SCALE_PRECONDITIONS, *INT_SUM_PRECONDITIONS), validate_noisy_sum)
MECHANISMS = [Entry("make_noisy_sum_pct", make_noisy_sum_pct,
                    examples=(example("make_noisy_sum_pct(0, 1, 10.0)",
                                      "from noisy_sum_percent_scale import make_noisy_sum_pct"),))]


def witness() -> str:
    m = make_noisy_sum_pct(0, 1, 10.0)
    v, w = [], [1]
    assert m.input_metric.distance(v, w) == 1
    # run the real function with a recording sampler in the sampler's place: which scale does
    # the released noise really have?
    used = []

    def recording(scale, rng):
        used.append(scale)
        return 0

    assert replace(m.function, sampler=recording)(w) == 1
    noise_scale = used[0]
    assert noise_scale == Fraction(1, 10)
    for seed in range(50):  # and with the real sampler the output is sum + DL(noise_scale)
        assert m(w, random.Random(seed)) == 1 + sample_discrete_laplace(noise_scale, random.Random(seed))
    # exact law: ln(Pr[M(v)=0] / Pr[M(w)=0]) = (|0 - 1| - |0 - 0|) / noise_scale
    loss = Fraction(1) / noise_scale
    claimed = m.map(1)
    assert loss > Fraction(claimed), (loss, claimed)
    return f"[] vs [1] (d_in=1): noise scale used = {noise_scale}, exact loss at output 0 = {loss} > map(1) = {claimed}"
