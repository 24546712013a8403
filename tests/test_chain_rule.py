"""The chain rule (``obligations/kernel/chain.py``): it proves the catalogue's chains for every pair
of components they admit, refuses each wrong twin and each outsider's wrong chain with the premise
named, and proves the outsiders' right ones."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from checker.cli import main
from mechanisms.core import Constructor, Measurement, make_chain
from mechanisms.make_chain_mt import make_chain_mt
from mechanisms.make_chain_tt import ChainedFunction, make_chain_tt
from obligations.kernel.chain import chain_for_every_argument, chained_kind
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, ObjectKind
from obligations.kernel.theorems import PremiseKind
from tests.helpers import outsider_constructors
from tests.twins import make_chain_mt as mt_twins
from tests.twins import make_chain_tt as tt_twins



@pytest.mark.parametrize("constructor, kind, claims", [
    (make_chain_tt, ObjectKind.TRANSFORMATION, {Claim.STABILITY}),
    (make_chain_mt, ObjectKind.MEASUREMENT, {Claim.PRIVACY, Claim.RUNTIME_ERRORS})])
def test_the_catalogue_chains_are_proved_for_every_pair_they_admit(constructor, kind, claims):
    assert chained_kind(constructor) is kind
    theorems = chain_for_every_argument(constructor)
    assert {t.statement.claim for t in theorems} == {Claim.OUTPUT_DOMAIN,
                                                     Claim.COMPATIBILITY, *claims}
    assert all(t.statement.kind is kind for t in theorems)
    [bounded] = theorems[0].rests_on(PremiseKind.BOUNDED)
    assert bounded.startswith("pairs of stand-in components read")


@pytest.mark.parametrize("wrong, premise", [
    (tt_twins.make_chain_tt_outer_skipped, "does not call the first component on its input"),
    (tt_twins.make_chain_tt_input_metric_out, "not a Transformation from the first component's"),
    (tt_twins.make_chain_tt_outer_map, "map(d_in) >= the second component's map at the first's"),
    (tt_twins.make_chain_tt_by_identity, "on the stand-in 10 then 10: map(d_in) >="),
    (tt_twins.make_chain_tt_domain_unchecked, "meeting domains or metrics differ"),
    (tt_twins.make_chain_tt_metric_unchecked, "meeting domains or metrics differ"),
    (tt_twins.make_chain_tt_inverted, "not a Transformation from the first component's"),
    (tt_twins.make_chain_tt_outer_first, "does not call the first component on its input"),
    (tt_twins.make_chain_tt_memo_first, "does not call the first component on its input"),
    (mt_twins.make_chain_mt_outer_skipped, "does not call the first component on its input"),
    (mt_twins.make_chain_mt_outer_metric_in, "not a Measurement from the first component's"),
    (mt_twins.make_chain_mt_inner_map, "map(d_in) >= the second component's map at the first's"),
    (mt_twins.make_chain_mt_domain_unchecked, "meeting domains or metrics differ"),
    (mt_twins.make_chain_mt_metric_unchecked, "meeting domains or metrics differ"),
    (mt_twins.make_chain_mt_rng_to_inner, "the function raises on the input (TypeError"),
    (mt_twins.make_chain_mt_memoised,
     "tests for solver terms (tests.twins.make_chain_mt.memoised_map: is_symbolic)"),
    (mt_twins.make_chain_mt_typed_branch, "the function raises on []"),
])
def test_each_wrong_twin_is_refused_with_the_premise_named(wrong, premise):
    with pytest.raises(RuleRefused, match="chain read from code") as refused:
        chain_for_every_argument(wrong)
    assert premise in refused.value.why


@pytest.mark.parametrize("constructor", outsider_constructors("wrong", "make_chain_"))
def test_the_outsiders_wrong_chains_are_refused(constructor):
    with pytest.raises(RuleRefused):
        chain_for_every_argument(constructor)


@pytest.mark.parametrize("constructor", outsider_constructors("right", "make_chain_"))
def test_the_outsiders_right_chains_are_proved(constructor):
    assert len(chain_for_every_argument(constructor)) >= 3


def test_right_closures_are_proved():
    for right in (tt_twins.make_chain_tt_closure, tt_twins.make_chain_tt_overridden):
        assert len(chain_for_every_argument(right)) == 3


def test_a_chain_that_builds_both_kinds_owes_no_one_kind():
    either = Constructor("chain_either", lambda outer, inner: make_chain(outer, inner))
    assert chained_kind(either) is None
    with pytest.raises(RuleRefused, match="builds both transformations and measurements"):
        chain_for_every_argument(either)


def test_a_measurement_first_is_refused():
    def build(outer, inner):
        if isinstance(inner, Measurement):  # post-processing: another rule's shape
            if inner.output_domain != outer.input_domain:
                raise ValueError("the domains do not meet")
            return replace(inner, output_domain=outer.output_domain,
                           function=ChainedFunction(inner.function, outer.function))
        return make_chain_mt(outer, inner)
    lenient = Constructor("chain_lenient", build)
    with pytest.raises(RuleRefused, match="admits a measurement as the first component"):
        chain_for_every_argument(lenient)


NOISY_SUM = '''
from mechanisms.core import Constructor
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_discrete_laplace import make_discrete_laplace
from obligations.base import Entry


def build_noisy_sum(lower, upper, scale):
    return make_bounded_int_sum(lower, upper) >> make_discrete_laplace(
        scale * max(abs(lower), abs(upper)))


make_noisy_sum = Constructor("make_noisy_sum", build_noisy_sum)
MECHANISMS = [Entry("noisy_sum", make_noisy_sum)]
'''


@pytest.mark.slow  # a report over the pipeline and the catalogue entries it calls: make test-slow
def test_a_chained_pipeline_of_kernel_proved_parts_rests_on_no_reviewed_module(tmp_path):
    module = tmp_path / "noisy_sum.py"
    module.write_text(NOISY_SUM)
    assert main(["report", "--out", str(tmp_path / "r"), str(module)]) == 0
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    [noisy_sum] = [m for m in report["mechanisms"] if m["name"] == "noisy_sum"]
    assert {s["claim"] for s in noisy_sum["statements"] if s["proved"]} == {
        "output domain", "domain-metric compatibility", "privacy",
        "data-independent runtime errors"}
    rests = [r for s in noisy_sum["statements"] for r in s["rests_on"]]
    assert any("of make_chain_mt" in r["text"] for r in rests)
    assert not any(r["kind"] == "reviewed proof module" for r in rests)


ZERO_CLAIM_WRONG = '''
from obligations.base import Entry
from tests.twins import make_chain_mt as mt, make_chain_tt as tt, make_geometric as geometric
from tests.twins import make_zCDP_to_approxDP as zcdp

WRONG = {tt: ("outer_skipped", "input_metric_out", "outer_map", "by_identity", "domain_unchecked",
              "metric_unchecked", "inverted", "outer_first", "memo_first"),
         mt: ("outer_skipped", "outer_metric_in", "inner_map", "domain_unchecked",
              "metric_unchecked", "inverted", "rng_to_inner", "memoised", "typed_branch",
              "outer_first", "memo_first", "closure_rng_to_inner"),
         zcdp: ("input_domain_out", "symmetric_in", "half_root", "power_root", "delta_1_1",
                "delta_0_2"),
         geometric: ("unclamped_output", "symmetric_in", "at_one", "nearest")}
PREFIX = {tt: "make_chain_tt_", mt: "make_chain_mt_", zcdp: "make_zcdp_",
          geometric: "make_geometric_"}
MECHANISMS = [Entry(PREFIX[m] + name, getattr(m, PREFIX[m] + name))
              for m, names in WRONG.items() for name in names]
'''
"""The wrong twins of the chains, the conversion and the bounded geometric as entries with no
obligation at all: only the kernel's rules speak for them (``python -m mutation.untrusted`` runs
them under the adversary too)."""


def zero_claim_entries() -> list:
    """The entries :data:`ZERO_CLAIM_WRONG` declares."""
    namespace: dict = {}
    exec(ZERO_CLAIM_WRONG, namespace)  # noqa: S102 - this module's own source text
    return namespace["MECHANISMS"]


@pytest.mark.slow  # 31 entries and their refutation searches: make test-slow
def test_the_wrong_twins_with_no_claims_fail_the_gate(tmp_path):
    module = tmp_path / "zero_claim_wrong.py"
    module.write_text(ZERO_CLAIM_WRONG)
    assert main(["report", "--out", str(tmp_path / "r"), str(module)]) == 1
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    wrong = [m for m in report["mechanisms"] if m["name"].startswith(
        ("make_chain_tt_", "make_chain_mt_", "make_zcdp_", "make_geometric_"))]
    assert len(wrong) == len(zero_claim_entries()) == 31
    assert all(not all(s["proved"] for s in m["statements"]) for m in wrong)
