"""Wrong twins of ``make_private_quantile``: each obligation has one the checker must refute with a
counterexample the real (wrong) code confirms. Slips a port of OpenDP's ``make_private_quantile``
could make."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mechanisms.make_chain_mt import make_chain_mt
from mechanisms.make_private_quantile import build_private_quantile, make_private_quantile
from mechanisms.make_quantile_score_candidates import make_quantile_score_candidates
from mechanisms.make_report_noisy_max import make_report_noisy_max
from mechanisms.metrics import AbsoluteDistance
from obligations.base import Entry
from obligations.make_private_quantile import private_quantile_obligations


@dataclass(frozen=True)
class ReleaseCandidate:
    """``(v, rng) -> candidates[chain(v, rng)]``: OpenDP's post-processing moved into the
    function."""

    chain: Any
    candidates: tuple

    def __call__(self, data: Any, rng: Any = None) -> Any:
        return self.candidates[self.chain(data, rng)]


def build_candidate_release(candidates: Any, alpha: Any, scale: Any, atom_domain: Any = None):
    """Wrong: releases ``candidates[index]`` as OpenDP does, but keeps the index's output domain
    ``AtomDomain(int)`` (a float candidate is not a member)."""
    m = build_private_quantile(candidates, alpha, scale, atom_domain)
    return replace(m, function=ReleaseCandidate(m.function, tuple(candidates)))


def build_absolute_input(candidates: Any, alpha: Any, scale: Any, atom_domain: Any = None):
    """Wrong: absolute distance as the input metric of a vector of rows."""
    return replace(build_private_quantile(candidates, alpha, scale, atom_domain),
                   input_metric=AbsoluteDistance())


def build_unscaled_noise(candidates: Any, alpha: Any, scale: Any, atom_domain: Any = None):
    """Wrong: the noise at ``scale`` on the integer scores (``* den`` forgotten) while the map is
    OpenDP's, over ``scale * den``: den times too little noise for the claimed epsilon."""
    scores = make_quantile_score_candidates(candidates, alpha, atom_domain)
    claimed = make_chain_mt(make_report_noisy_max(scale * scores.function.den, "min", int), scores)
    return replace(make_chain_mt(make_report_noisy_max(scale, "min", int), scores),
                   privacy_map=claimed.privacy_map)


make_pq_candidate_release = make_private_quantile.variant("make_pq_candidate_release",
                                                          build_candidate_release)
make_pq_absolute_input = make_private_quantile.variant("make_pq_absolute_input",
                                                       build_absolute_input)
make_pq_unscaled_noise = make_private_quantile.variant("make_pq_unscaled_noise",
                                                       build_unscaled_noise)

MECHANISMS = [
    Entry("make_pq_candidate_release", make_pq_candidate_release,
          private_quantile_obligations(make_pq_candidate_release, "pq_candidate_release")),
    Entry("make_pq_absolute_input", make_pq_absolute_input,
          private_quantile_obligations(make_pq_absolute_input, "pq_absolute_input")),
    Entry("make_pq_unscaled_noise", make_pq_unscaled_noise,
          private_quantile_obligations(make_pq_unscaled_noise, "pq_unscaled_noise")),
]

EXPECTED_REFUTATIONS = {
    "pq_candidate_release.output_domain",
    "pq_absolute_input.compatibility",
    "pq_unscaled_noise.privacy",
}

TWIN_OF = {
    "private_quantile.output_domain": "pq_candidate_release.output_domain",
    "private_quantile.compatibility": "pq_absolute_input.compatibility",
    "private_quantile.privacy": "pq_unscaled_noise.privacy",
}

