"""Private quantile whose noisy max falls back to a *seeded* generator, ``random.Random(0)``,
when the caller passes no ``rng`` ("reproducible releases by default; pass your own rng in
production"), instead of the operating system's entropy source. Scores, noise scale, map and
domains are the catalogue's.

Wrong: with the default ``rng=None`` (how ``m(x)`` is called) the release is a deterministic
function of the data: the same proposals and the same coins every time, so two neighbours whose
releases differ have ``Pr[M(x) = i] = 1`` and ``Pr[M(x') = i] = 0``: infinite privacy loss,
above any ``map(1)``. With candidates ``[0, 5, 10]``, ``alpha = 0.5``, scale 1, the witness finds
such a pair among ``[0..10]^3`` and one more row, and checks that each release repeats on 20
calls.
Hole classes: none listed (a default seeded generator: the randomness is not fresh).
"""

import itertools
import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.make_chain_tt import ChainedFunction  # noqa: E402
from mechanisms.make_private_quantile import build_private_quantile, make_private_quantile  # noqa: E402
from mechanisms.make_report_noisy_max import NoisyMax  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_private_quantile import private_quantile_obligations  # noqa: E402

CONSTRUCTOR = "make_private_quantile"
CLASSES = ()

DEFAULT_SEED = 0


@dataclass(frozen=True)
class SeededNoisyMax(NoisyMax):
    def __call__(self, scores, rng=None):
        return NoisyMax.__call__(self, scores, rng if rng is not None else random.Random(DEFAULT_SEED))


def build(candidates, alpha, scale, atom_domain=None):
    m = build_private_quantile(candidates, alpha, scale, atom_domain)
    noisy = m.function.second
    return replace(m, function=ChainedFunction(m.function.first,
                                               SeededNoisyMax(noisy.scale, noisy.sign)))


make_pq_seeded = make_private_quantile.variant("make_private_quantile_seeded", build)
MECHANISMS = [Entry("outsider_pq_seeded_default_rng", make_pq_seeded,
                    private_quantile_obligations(make_pq_seeded, "outsider_pq_seeded_default_rng"))]


def witness() -> str:
    m = make_pq_seeded([0, 5, 10], 0.5, 1.0)
    for base in itertools.product(range(0, 11, 2), repeat=3):
        x = list(base)
        for extra in range(0, 11):
            y = x + [extra]
            if m(x) != m(y):
                assert m.input_metric.distance(x, y) == 1
                assert len({m(x) for _ in range(20)}) == 1 and len({m(y) for _ in range(20)}) == 1
                return (f"{x} -> {m(x)} always, {y} -> {m(y)} always: Pr ratio infinite, "
                        f"map(1) = {m.map(1)}")
    raise AssertionError("no differing pair")
