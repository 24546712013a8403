"""Every proved obligation has a wrong twin that the checker refutes with a counterexample the
real implementation confirms."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from mechanisms import ops
from mechanisms.arith import nearest_float

from checker.results import Verdict
from checker.runner import Task, check_obligation
from obligations.arith import linear_map_lemma, ln_up_lemma, round_up_lemma
from obligations.kernel.statements import Claim
from obligations.lemmas import row_transform_lemma, sized_path_lemma, unsized_path_lemma
from tests import twins, wrong_variants
from tests.helpers import statements_by_claim

ALL_VARIANTS = [*wrong_variants.MECHANISMS, *twins.MECHANISMS]
EXPECTED_REFUTATIONS = wrong_variants.EXPECTED_REFUTATIONS | twins.EXPECTED_REFUTATIONS
VARIANT_OBLIGATIONS = {o.id: (e.name, o) for e in ALL_VARIANTS for o in e.obligations}


def refuted(result):
    assert result.verdict is Verdict.REFUTED, (result.verdict, result.message)
    return [g for g in result.goals if g.verdict is Verdict.REFUTED]


def refuted_goals(mechanism, obligation):
    """A lemma's wrong version (built here, so checked in this process)."""
    return refuted(check_obligation(Task(mechanism, obligation), seconds=60))


SLOW = {"fgauss_nearest_map.map_rounding", "laplace_double_grid.privacy",
        "float_sum_nearest_map.map_rounding", "sized_float_sum_numbers_only_relaxation.map_rounding",
        "mean_nearest_map.map_rounding", "at_swapped_scales.privacy",
        "cn_half_range_clamp.distribution"}
"""Refutations of more than 2 s each: make test-slow checks them (make test has a 3-minute
budget on 2 cores)."""


@pytest.mark.parametrize("obligation_id", [
    pytest.param(i, id=i, marks=[pytest.mark.slow] if i in SLOW else [])
    for i in sorted(EXPECTED_REFUTATIONS)])
def test_wrong_variant_is_refuted_with_a_confirmed_counterexample(obligation_id, checked):
    goals = refuted(checked(obligation_id))
    confirmed = [g for g in goals if g.confirmed]
    assert confirmed, [g.report for g in goals]
    assert all(g.counterexample for g in confirmed)
    assert all("VIOLATION" in g.report for g in confirmed)


def test_clamp_half_map_counterexample_is_a_bug_report(checked):
    goal = next(g for g in refuted(checked("clamp_half_map.stability"))
                if g.confirmed)
    for part in ("make_clamp_half_map(", "d_in", "claimed  map(d_in) = 0.5",
                 "observed d_out     = 1", "reproduce:"):
        assert part in goal.report


def test_two_category_map_is_refuted_at_three_categories(checked):
    goals = refuted(checked("rr_two_category_map.privacy"))
    assert any(g.confirmed and g.counterexample["t"] == 3 for g in goals)


def test_nan_leak_counterexample_is_nan(checked):
    goals = refuted(checked("clamp_nan_leak.output_domain"))
    assert any(g.confirmed and "x" in g.counterexample
               and g.counterexample["x"] != g.counterexample["x"] for g in goals)


def test_seed_max_is_refuted_on_two_changed_partitions(checked):
    goal = next(g for g in refuted(checked("partition_map_seed_max.stability"))
                if g.confirmed)
    assert "make_count_capped(1)" in goal.report


def _taylor_with_large_cubic(x):
    """x^3 / 3 instead of x^3 / 6: no longer below e^x."""
    return 1 + x + x * x / 2 + x * x * x / 3


def _nearest_only(q):
    """Wrong: ``float(q)``, with no step up when it lies below ``q``."""
    return float(q)


def loose_at_or_above(x, q):
    """Wrong certificate: accepts ``x`` up to ``2^-50`` below ``q``."""
    return ops.le(q, ops.exact(x) + Fraction(1, 2 ** 50))


def _least_loose(q):
    candidate = nearest_float(q)
    while not loose_at_or_above(candidate, q):
        candidate = math.nextafter(candidate, math.inf)
    return candidate


def _nearest_product(d_in, c):
    """Wrong: ``d_in * c`` rounded to nearest, which may fall below the exact product."""
    return d_in * c


@pytest.mark.parametrize("lemma", [
    row_transform_lemma(bound=lambda d: d / 2),
    sized_path_lemma(steps=lambda d: d / 4),
    unsized_path_lemma("lemma", steps=lambda d: d / 2),
    ln_up_lemma(taylor=_taylor_with_large_cubic),
    round_up_lemma(least_above=_nearest_only),
    round_up_lemma(guard=loose_at_or_above, least_above=_least_loose),
    linear_map_lemma(value=_nearest_product),
], ids=["row_transform_half", "sized_path_quarter", "unsized_path_half", "ln_up_bad_taylor",
        "round_up_nearest", "round_up_loose_certificate", "linear_map_nearest_product"])
def test_wrong_lemma_is_refuted(lemma):
    goals = refuted_goals("lemmas", lemma)
    assert any(g.confirmed for g in goals), [g.report for g in goals]


def test_rounding_down_that_rounds_up_is_refuted():
    lemma = ln_up_lemma(rounding=lambda q: (ops.floor(q * 2 ** 10) + 1) / 2 ** 10)
    result = check_obligation(Task("lemmas", lemma), seconds=60)
    assert result.verdict is Verdict.REFUTED
    assert any(g.name == "round_down(q) <= q" and g.verdict is Verdict.REFUTED for g in result.goals)


TWIN_OF = {
    "clamp.output_domain": "clamp_nan_leak.output_domain",
    "clamp.compatibility": "clamp_absolute_output.compatibility",
    "clamp.stability": "clamp_half_map.stability",
    "bounded_mean.output_domain": "bounded_mean_unbounded_rows.output_domain",
    "bounded_mean.compatibility": "bounded_mean_absolute_input.compatibility",
    "bounded_mean.stability": "bounded_mean_quarter.stability",
    "randomized_response.output_domain": "rr_draws_among_all.output_domain",
    "randomized_response.compatibility": "rr_symmetric_input.compatibility",
    "randomized_response.runtime_errors": "rr_draws_among_all.runtime_errors",
    "randomized_response.distribution": "rr_lies_without_skipping.distribution",
    "randomized_response.privacy": "rr_two_category_map.privacy",
    "partition_map.output_domain": "partition_map_reversed.output_domain",
    "partition_map.compatibility": "partition_map_flat_metric.compatibility",
    "partition_map.stability": "partition_map_seed_max.stability",
    **twins.TWIN_OF,
}
"""Each catalogue obligation and the wrong variant that must fail it (lemmas: tests above)."""


def test_every_catalogue_obligation_has_a_refuted_twin():
    from obligations.catalogue import builtin_catalogue
    mechanism_obligations = {o.id for e in builtin_catalogue() if e.constructor is not None
                             for o in e.obligations}
    assert set(TWIN_OF) == mechanism_obligations
    assert set(TWIN_OF.values()) <= EXPECTED_REFUTATIONS
    for original, twin in TWIN_OF.items():
        assert original.split(".")[1] == twin.split(".")[1]


UNSUPPORTED_OBLIGATIONS = [(e.name, o) for e in [*wrong_variants.UNSUPPORTED, *twins.UNSUPPORTED]
                           for o in e.obligations
                           if not o.id.endswith((".compatibility", ".map_rounding"))]
"""Their metrics and maps are the catalogue's (proved); only their function is outside."""


@pytest.mark.parametrize("mechanism, obligation", UNSUPPORTED_OBLIGATIONS,
                         ids=[o.id for _, o in UNSUPPORTED_OBLIGATIONS])
def test_code_outside_the_proof_methods_is_never_proved(mechanism, obligation, checked):
    result = checked(obligation.id)
    assert result.verdict in (Verdict.UNKNOWN, Verdict.REFUTED), result.message  # never an error
    if result.verdict is Verdict.UNKNOWN:
        assert any(g.message.startswith("unsupported:") for g in result.goals)


@pytest.mark.parametrize("obligation_id, draw", [("laplace_inverse_cdf.privacy", "random()")])
def test_float_samplers_are_flagged(obligation_id, draw, checked):
    result = checked(obligation_id)
    assert result.verdict is Verdict.UNKNOWN
    assert result.label == "unknown (unsupported: float sampler)"
    assert draw in result.message and "the proof assumes exact noise" in result.message


@pytest.mark.parametrize("name, draw", [("make_dl_rounded_continuous", "random"),
                                        ("make_gauss_rounded_continuous", "gauss")])
def test_float_samplers_leave_the_kernels_noise_rule(name, draw):
    """Integer noise drawn through a float (``round`` of a continuous sample) has no theorem: the
    noise rule refuses the rng used outside a known sampler, naming the draw."""
    entry = next(e for e in twins.UNSUPPORTED if e.name == name)
    privacy = statements_by_claim(entry)[Claim.PRIVACY]
    assert not privacy.proved
    assert f"the function used its rng ({draw}) outside a known sampler" in privacy.why


@pytest.mark.parametrize("obligation_id", ["sized_float_sum_naive_map.stability",
                                           "mean_seed_map.stability"])
def test_real_number_maps_of_float_aggregates_are_exceeded_by_the_code(obligation_id, checked):
    """The checker's counterexample, run again here through the real code: the float outputs of
    the two neighbours are farther apart than the real-number map claims."""
    goal = next(g for g in refuted(checked(obligation_id)) if g.confirmed)
    lines = goal.report.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "reproduce:")
    namespace: dict = {}
    exec("\n".join(line.strip() for line in lines[start + 1:-1]), namespace)  # builds t, v, w
    t, v, w = namespace["t"], namespace["v"], namespace["w"]
    d_in = t.input_metric.distance(v, w)
    assert Fraction(t.output_metric.distance(t(v), t(w))) > Fraction(t.map(d_in))
