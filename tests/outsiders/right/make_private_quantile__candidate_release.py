"""Private quantile that releases the candidate itself, as OpenDP 0.16 does, rather than its
index: the catalogue's chain followed by ``index -> candidates[index]``; output domain
``AtomDomain(T, bounds=(candidates[0], candidates[-1]))`` (``T`` the candidates' type); map
unchanged.

Right: ``index -> candidates[index]`` is a fixed function of the output (post-processing, free in
max-divergence); it is even injective (candidates strictly increasing), so the law of the release
is the index law relabelled and every ratio ``Pr[M(x) = c] / Pr[M(x') = c]`` is an index ratio.
The released value is one of the candidates, all within ``[candidates[0], candidates[-1]]`` and
of type ``T`` (non-NaN). Checked: on seeded runs every release is in the output domain and equals
``candidates[i]`` for the catalogue's index ``i`` under the same seed; map equal to the
catalogue's on a grid.
"""

import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.domains import AtomDomain  # noqa: E402
from mechanisms.make_chain_tt import ChainedFunction  # noqa: E402
from mechanisms.make_private_quantile import build_private_quantile, make_private_quantile  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_private_quantile import private_quantile_obligations  # noqa: E402

CONSTRUCTOR = "make_private_quantile"


@dataclass(frozen=True)
class Lookup:
    candidates: tuple

    def __call__(self, index: Any) -> Any:
        return self.candidates[index]


@dataclass(frozen=True)
class ThenLookup:
    release: Any
    lookup: Lookup

    def __call__(self, arg, rng=None):
        return self.lookup(self.release(arg, rng))


def build(candidates, alpha, scale, atom_domain=None):
    m = build_private_quantile(candidates, alpha, scale, atom_domain)
    carrier = type(candidates[0])
    return replace(m, output_domain=AtomDomain(carrier, bounds=(candidates[0], candidates[-1])),
                   function=ThenLookup(m.function, Lookup(tuple(candidates))))


make_pq_candidate = make_private_quantile.variant("make_private_quantile_candidate", build)
MECHANISMS = [Entry("outsider_right_pq_candidate_release", make_pq_candidate,
                    private_quantile_obligations(make_pq_candidate,
                                                 "outsider_right_pq_candidate_release"))]


def check() -> str:
    n = 0
    for cands in ([0, 5, 10, 20], [-1.5, 0.0, 2.25]):
        for alpha in (0.5, 0.25, 0.3):
            for scale in (0.5, 1.0, 4):
                ours = make_pq_candidate(cands, alpha, scale)
                theirs = make_private_quantile(cands, alpha, scale)
                assert ours.map(1) == theirs.map(1) and ours.map(3) == theirs.map(3)
                for seed in range(10):
                    data = [random.Random(seed).choice(cands) for _ in range(seed)]
                    c = ours(data, random.Random(seed))
                    i = theirs(data, random.Random(seed))
                    assert c == cands[i] and ours.output_domain.member(c)
                    n += 1
    return f"release = candidates[catalogue's index] and in the output domain on {n} seeded runs"
