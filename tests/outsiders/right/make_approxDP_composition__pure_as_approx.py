"""Approximate composition that also takes pure-DP components directly, reading a component's
``epsilon = m(d_in)`` as ``(epsilon, 0)``; the output measure is fixed to
``FixedSmoothedMaxDivergence``, components need only share the input domain and metric, and the
sums are rounded up (``add_up``).

Correct: an ``eps``-DP measurement is ``(eps, 0)``-DP (sum the pointwise bound over an event), so
every component is ``(eps_i, delta_i)``-DP with the pair this map reads, and basic composition
(Dwork-Roth Thm 3.16) gives ``(sum eps_i, sum delta_i)``; the rounded-up sums are never below
the exact ones. (Taking zCDP components the same way is wrong:
wrong/make_approxDP_composition__zcdp_as_eps.) Checked: on lists mixing
``make_pureDP_to_approxDP(M)`` and ``M`` itself, the map equals the catalogue's map of the
all-converted list, and the released tuples are the same under equal seeds.
"""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.core import Map, Measurement  # noqa: E402
from mechanisms.domains import ProductDomain  # noqa: E402
from mechanisms.errors import CombinatorError  # noqa: E402
from mechanisms.make_approxDP_composition import make_approxDP_composition  # noqa: E402
from mechanisms.make_basic_composition import (COMPOSITION_PRECONDITIONS,  # noqa: E402
                                               CompositionFunction)
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP  # noqa: E402
from mechanisms.measures import FixedSmoothedMaxDivergence, MaxDivergence  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_approxDP_composition import approx_composition_obligations  # noqa: E402

CONSTRUCTOR = "make_approxDP_composition"

ACCEPTED = (FixedSmoothedMaxDivergence, MaxDivergence)


def validate(measurements):
    if not isinstance(measurements, (list, tuple)) or not measurements:
        raise CombinatorError("needs a non-empty list of measurements", measurements=measurements)
    for position, m in enumerate(measurements):
        if not isinstance(m, Measurement) or not isinstance(m.output_measure, ACCEPTED):
            raise CombinatorError(f"component {position} cannot be composed", position=position)


def as_pair(value):
    return value if isinstance(value, tuple) else (value, 0)


def sum_pairs_up_map(d_in, maps):
    eps, delta = 0, 0
    for m in maps:
        e, d = as_pair(m(d_in))
        eps, delta = ops.add_up(eps, e), ops.add_up(delta, d)
    return eps, delta


def build(measurements):
    return Measurement(
        input_domain=measurements[0].input_domain,
        output_domain=ProductDomain(tuple(m.output_domain for m in measurements)),
        input_metric=measurements[0].input_metric,
        output_measure=FixedSmoothedMaxDivergence(),
        function=CompositionFunction(tuple(m.function for m in measurements)),
        privacy_map=Map(rule=sum_pairs_up_map, params={"maps": tuple(m.privacy_map for m in measurements)}),
    )


make_ac_pure = make_approxDP_composition.variant("make_approxDP_composition_pure_as_approx", build)
make_ac_pure.validate = validate
make_ac_pure.preconditions = COMPOSITION_PRECONDITIONS[:2]
MECHANISMS = [Entry("outsider_right_approx_composition_pure_as_approx", make_ac_pure,
                    approx_composition_obligations(make_ac_pure,
                                                   "outsider_right_approx_composition_pure_as_approx"))]


def check() -> str:
    rng = random.Random(11)
    n = 0
    for _ in range(40):
        scales = [rng.choice([0.5, 1.0, 3.0, 0.1, 7.25]) for _ in range(rng.randrange(1, 5))]
        pures = [make_discrete_laplace(s) for s in scales]
        mixed = [p if rng.random() < 0.5 else make_pureDP_to_approxDP(p) for p in pures]
        ours = make_ac_pure(mixed)
        theirs = make_approxDP_composition([make_pureDP_to_approxDP(p) for p in pures])
        for d in range(4):
            assert ours.map(d) == theirs.map(d), (scales, d, ours.map(d), theirs.map(d))
        assert ours(3, random.Random(n)) == theirs(3, random.Random(n))
        n += 1
    return f"maps and seeded releases equal to the catalogue's on {n} mixed lists"
