"""The zCDP-to-approximate-DP conversion rule (``obligations/kernel/conversion.py``): it proves the
catalogue's conversion for every component and delta it admits, refuses each wrong twin and
outsider's wrong conversion with the premise named, and proves the outsider's right one."""

from __future__ import annotations


import pytest

from mechanisms.core import Constructor
from mechanisms.make_zCDP_to_approxDP import (ZCDP_TO_APPROX_PRECONDITIONS, build_zcdp_to_approx,
                                              make_zCDP_to_approxDP)
from obligations.kernel.conversion import conversion_for_every_argument, converted_kind
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, ObjectKind
from obligations.kernel.theorems import PremiseKind
from tests.helpers import outsider_constructors
from tests.twins import make_zCDP_to_approxDP as twins



def test_the_catalogue_conversion_is_proved_for_every_argument_it_admits():
    assert converted_kind(make_zCDP_to_approxDP) is ObjectKind.MEASUREMENT
    theorems = conversion_for_every_argument(make_zCDP_to_approxDP)
    assert {t.statement.claim for t in theorems} == {Claim.OUTPUT_DOMAIN, Claim.COMPATIBILITY,
                                                     Claim.PRIVACY, Claim.RUNTIME_ERRORS}
    assert any("Proposition 1.3" in c for c in theorems[0].rests_on(PremiseKind.CITES))
    [bounded] = theorems[0].rests_on(PremiseKind.BOUNDED)
    assert bounded.startswith("a stand-in zCDP component read, with a real delta")


@pytest.mark.parametrize("wrong, premise", [
    (twins.make_zcdp_input_domain_out, "not a measurement in FixedSmoothedMaxDivergence"),
    (twins.make_zcdp_symmetric_in, "on a stand-in on AtomDomain(int): not a measurement"),
    (twins.make_zcdp_half_root, "epsilon >= rho + 2 sqrt(rho ln(1/delta))"),
    (twins.make_zcdp_power_root, "map(d_in) raises (TypeError: float ** 0.5 is not modelled)"),
    (twins.make_zcdp_delta_1_1, "admits no stand-in zCDP component with delta = 0.5"),
    (twins.make_zcdp_delta_0_2, "admits deltas that are not floats: [1]"),
])
def test_each_wrong_twin_is_refused_with_the_premise_named(wrong, premise):
    with pytest.raises(RuleRefused, match="zCDP to approximate DP read from code") as refused:
        conversion_for_every_argument(wrong)
    assert premise in refused.value.why


@pytest.mark.parametrize("constructor", outsider_constructors("wrong", "make_zCDP_to_approxDP_"))
def test_the_outsiders_wrong_conversions_are_refused(constructor):
    with pytest.raises(RuleRefused):
        conversion_for_every_argument(constructor)


@pytest.mark.parametrize("constructor", outsider_constructors("right", "make_zCDP_to_approxDP_"))
def test_the_outsiders_right_conversion_is_proved(constructor):
    assert len(conversion_for_every_argument(constructor)) == 4


def test_a_conversion_that_admits_pure_dp_components_is_refused():
    lenient = Constructor("zcdp_lenient", build_zcdp_to_approx, ZCDP_TO_APPROX_PRECONDITIONS)
    with pytest.raises(RuleRefused, match="admits a component that is not a zCDP measurement"):
        conversion_for_every_argument(lenient)
