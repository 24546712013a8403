"""make_rr_next(categories, prob): randomized response over ``t >= 2`` categories: the true
category with probability ``prob``, otherwise "another category" chosen as the NEXT one in the
list (cyclically), with the catalogue's map ``ln(p (t - 1) / (1 - p))`` rounded up and the
catalogue's validation and preconditions (``validate_rr``, ``RR_PRECONDITIONS``).

MISTAKE: the lie must be uniform over the other ``t - 1`` categories; a fixed "next category"
lie makes some outputs impossible for some inputs. With ``t = 3``, ``M(c0)`` outputs ``c1`` with
probability ``1 - p`` while ``M(c2)`` never outputs ``c1``: the privacy loss is infinite.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement, length
from mechanisms.domains import AtomDomain
from mechanisms.make_randomized_response import (RR_PRECONDITIONS, odds, rr_privacy_map,
                                                  validate_rr)
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import DiscreteMetric
from mechanisms.samplers import sample_bernoulli_rational, system_rng
from obligations.base import Entry, example


@dataclass(frozen=True)
class NextCategoryResponse:
    categories: tuple
    prob: float

    def __call__(self, arg, rng=None):
        rng = system_rng(rng)
        honest = sample_bernoulli_rational(Fraction(self.prob), rng)
        if arg not in self.categories:
            return self.categories[0]
        i = self.categories.index(arg)
        return arg if honest else self.categories[(i + 1) % len(self.categories)]


def build_rr_next(categories, prob):
    t = length(categories)
    carrier = type(categories[0])
    return Measurement(
        input_domain=AtomDomain(carrier),
        output_domain=AtomDomain(carrier),
        input_metric=DiscreteMetric(),
        output_measure=MaxDivergence(),
        function=NextCategoryResponse(tuple(categories), prob),
        privacy_map=Map(rule=rr_privacy_map, params={"epsilon": ops.ln_up(odds(prob, t))}),
    )


make_rr_next = Constructor("make_rr_next", build_rr_next, RR_PRECONDITIONS, validate_rr)
MECHANISMS = [Entry("make_rr_next", make_rr_next,
                    examples=(example("make_rr_next(['a', 'b', 'c'], 0.75)",
                                      "from rr_next_category import make_rr_next"),))]


class FixedDraw:
    """``randrange`` returns a chosen value: the coin is ``randrange(den) < num``."""

    def __init__(self, value_of):
        self.value_of = value_of

    def randrange(self, n):
        return self.value_of(n)


def exact_law(m, x):
    """The two branches of the single coin, weighted by its exact probability."""
    p = Fraction(m.function.prob)
    honest = m(x, FixedDraw(lambda n: 0))          # 0 < numerator: honest
    liar = m(x, FixedDraw(lambda n: n - 1))        # n - 1 >= numerator: lie
    law = {}
    law[honest] = law.get(honest, 0) + p
    law[liar] = law.get(liar, 0) + (1 - p)
    return law


def witness() -> str:
    m = make_rr_next(["a", "b", "c"], 0.75)
    p_a, p_c = exact_law(m, "a"), exact_law(m, "c")
    assert p_a == {"a": Fraction(3, 4), "b": Fraction(1, 4)}, p_a
    assert p_c == {"c": Fraction(3, 4), "a": Fraction(1, 4)}, p_c
    ratio = MaxDivergence().max_ratio(p_a, p_c)
    claimed = m.map(1)
    assert ratio == float("inf") and claimed < float("inf"), (ratio, claimed)
    return f"inputs 'a' vs 'c': Pr[M('a')='b'] = 1/4, Pr[M('c')='b'] = 0: infinite loss > map(1) = {claimed}"
