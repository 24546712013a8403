"""Private quantile whose noise scale ``scale * den`` is rounded *up* (``ops.mul_up``) instead of
to nearest before it is handed to ``make_report_noisy_max`` (so that the noise is never below
``scale`` rows, whatever ``den``), the rest the catalogue's chain.

Right: the measurement is still ``make_chain_mt(make_report_noisy_max(s, "min", int),
make_quantile_score_candidates(...))`` for a finite float ``s > 0`` (``mul_up`` of two finite
positives, checked finite by the noisy max's own precondition), and the chain's map divides by
that same ``s``; the privacy argument of the catalogue does not depend on which float ``s`` is.
Its map is never above the catalogue's (more noise). Checked: ``s >= scale * den`` exactly and
``s`` is the scale the running noisy max holds, on a grid of scales where ``scale * 10000``
rounds down (``0.1``, ``0.7``, ``1/3``...), and the map ``<=`` the catalogue's there.
"""

import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.make_chain_mt import make_chain_mt  # noqa: E402
from mechanisms.make_private_quantile import make_private_quantile  # noqa: E402
from mechanisms.make_quantile_score_candidates import make_quantile_score_candidates  # noqa: E402
from mechanisms.make_report_noisy_max import make_report_noisy_max  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_private_quantile import private_quantile_obligations  # noqa: E402

CONSTRUCTOR = "make_private_quantile"


def build(candidates, alpha, scale, atom_domain=None):
    scores = make_quantile_score_candidates(candidates, alpha, atom_domain)
    selection = make_report_noisy_max(ops.mul_up(scale, scores.function.den), optimize="min", T=int)
    return make_chain_mt(selection, scores)


make_pq_up = make_private_quantile.variant("make_private_quantile_noise_up", build)
MECHANISMS = [Entry("outsider_right_pq_noise_scale_up", make_pq_up,
                    private_quantile_obligations(make_pq_up, "outsider_right_pq_noise_scale_up"))]


def check() -> str:
    n = rounded = 0
    for scale in (0.1, 0.7, 1 / 3, 1.0, 2.5, 1e-3, 3):
        for alpha in (0.5, 0.3, 0.123456, 0.25):
            ours, theirs = make_pq_up([0, 1, 2], alpha, scale), make_private_quantile([0, 1, 2], alpha, scale)
            s = ours.function.second.scale
            den = ours.function.first.den
            assert Fraction(s) >= Fraction(scale) * den
            rounded += Fraction(theirs.function.second.scale) < Fraction(scale) * den
            for d in (1, 2, 5):
                assert ours.map(d) <= theirs.map(d)
                n += 1
    assert rounded > 0
    return f"noise >= scale * den exactly, map <= the catalogue's on {n} cases ({rounded} where opendp-style rounds down)"
