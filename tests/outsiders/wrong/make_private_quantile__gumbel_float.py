"""Private quantile selected by the Gumbel-max trick, as OpenDP samples its exponential mechanism:
release ``argmax_i (-score_i / (scale den) + G_i)`` with ``G_i = -ln(-ln U_i)`` and ``U_i =
rng.random()`` (a float inverse CDF), over the catalogue's scores; map and domains unchanged.

Wrong: ``random()`` returns ``0.0`` (with probability ``2^-53`` per draw), and ``ln(0.0)`` raises
``ValueError``: a data-independent but real crash on an admitted input; and the draw is a float,
so the law is not the exponential mechanism's (only ``2^53`` values of ``U``, rounded logarithms:
Mironov 2012). Witness: a ``random.Random`` whose next ``random()`` is ``0.0`` makes the real
function raise on ``[1, 2, 3]``.
Hole classes: 5 (a float sampler).
"""

import math
import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.make_chain_tt import ChainedFunction  # noqa: E402
from mechanisms.make_private_quantile import build_private_quantile, make_private_quantile  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_private_quantile import private_quantile_obligations  # noqa: E402

CONSTRUCTOR = "make_private_quantile"
CLASSES = (5,)


@dataclass(frozen=True)
class GumbelMin:
    scale: Any

    def __call__(self, scores, rng=None):
        rng = rng if rng is not None else random.SystemRandom()
        keys = [-s / self.scale - math.log(-math.log(rng.random())) for s in scores]
        return max(range(len(scores)), key=keys.__getitem__)


def build(candidates, alpha, scale, atom_domain=None):
    m = build_private_quantile(candidates, alpha, scale, atom_domain)
    noisy = m.function.second
    return replace(m, function=ChainedFunction(m.function.first, GumbelMin(noisy.scale)))


make_pq_gumbel = make_private_quantile.variant("make_private_quantile_gumbel", build)
MECHANISMS = [Entry("outsider_pq_gumbel_float", make_pq_gumbel,
                    private_quantile_obligations(make_pq_gumbel, "outsider_pq_gumbel_float"))]


class ZeroFirst(random.Random):
    """A Mersenne Twister whose first ``random()`` is ``0.0``, a value ``random()`` can return."""

    def __init__(self):
        super().__init__(0)
        self.first = True

    def random(self):
        if self.first:
            self.first = False
            return 0.0
        return super().random()


def witness() -> str:
    m = make_pq_gumbel([0, 2, 4], 0.5, 1.0)
    x = [1, 2, 3]
    assert m.input_domain.member(x)
    assert isinstance(m(x, random.Random(1)), int)
    try:
        m(x, ZeroFirst())
    except ValueError as error:
        return f"random() = 0.0 (probability 2^-53 per draw) makes the release raise: {error}"
    raise AssertionError("no raise")
