"""Measurement chain whose function is a closure ``lambda x, rng=None: outer(inner(x), rng)``
over the two component functions, instead of the ``ChainedFunction`` object.

Correct: the same composition, the same draws from the same source; map and domains are the
catalogue's. Checked: equal outputs with equal seeded sources.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms.make_bounded_int_sum import make_bounded_int_sum  # noqa: E402
from mechanisms.make_chain_mt import build_chain_mt, make_chain_mt  # noqa: E402
from mechanisms.make_clamp import make_clamp  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_randomized_response import make_randomized_response  # noqa: E402
from mechanisms.make_count import make_count  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_chain_mt"


def build(outer, inner):
    first, second = inner.function, outer.function

    def chained(x, rng=None):
        return second(first(x), rng)
    return replace(build_chain_mt(outer, inner), function=chained)


make_chain_closure = make_chain_mt.variant("make_chain_mt_closure", build)
MECHANISMS = [Entry("outsider_right_chain_mt_closure_function", make_chain_closure)]


def check() -> str:
    pairs = [(make_discrete_laplace(2.0), make_bounded_int_sum(0, 5)),
             (make_discrete_laplace(0.5), make_count(float))]
    n = 0
    for outer, inner in pairs:
        ours, theirs = make_chain_closure(outer, inner), make_chain_mt(outer, inner)
        for seed in range(100):
            v = [seed % 6, 3] if inner.input_domain.member([1, 3]) else [0.5, float(seed)]
            assert ours(v, random.Random(seed)) == theirs(v, random.Random(seed))
            n += 1
        assert all(ours.map(d) == theirs.map(d) for d in range(5))
    return f"equal outputs to make_chain_mt on {n} seeded runs, equal maps"
