"""Measurement chain whose function passes the random source to the *inner* transformation,
``second(first(arg, *rest))``, after a refactor of the shared ``ChainedFunction``.

Wrong: transformations take one argument, so every call raises ``TypeError`` (the measurement
never returns). Domains and the map are the catalogue's.
Hole classes: 14 (the function raises on every input).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402
from typing import Any, Callable  # noqa: E402

from mechanisms.make_bounded_int_sum import make_bounded_int_sum  # noqa: E402
from mechanisms.make_chain_mt import build_chain_mt, make_chain_mt  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_chain_mt"
CLASSES = (14,)


@dataclass(frozen=True)
class ForwardingChain:
    first: Callable[..., Any]
    second: Callable[..., Any]

    def __call__(self, arg, *rest):
        return self.second(self.first(arg, *rest))


def build(outer, inner):
    m = build_chain_mt(outer, inner)
    return replace(m, function=ForwardingChain(inner.function, outer.function))


make_chain_fwd = make_chain_mt.variant("make_chain_mt_forwarding", build)
MECHANISMS = [Entry("outsider_chain_mt_rng_to_inner", make_chain_fwd)]


def witness() -> str:
    m = make_chain_fwd(make_discrete_laplace(1.0), make_bounded_int_sum(0, 10))
    raised = 0
    for v in ([], [1], [10, 3]):
        try:
            m(v, random.Random(0))
        except TypeError:
            raised += 1
    assert raised == 3
    return "sum >> DL: TypeError on all 3 inputs ([], [1], [10, 3])"
