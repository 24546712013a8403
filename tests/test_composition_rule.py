"""The composition rule (``obligations/kernel/composition.py``): it proves the catalogue's basic and
approximate-DP compositions for every list of components they admit, and refuses each wrong twin
with the premise named; the gate passes a pipeline composed of proved measurements with no claim
of its author's."""

from __future__ import annotations

import importlib.util
import math
import random
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from checker.cli import main
from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement
from mechanisms.domains import ProductDomain
from mechanisms.make_approxDP_composition import make_approxDP_composition
from mechanisms.make_basic_composition import (COMPOSITION_PRECONDITIONS, build_basic_composition,
                                               make_basic_composition, validate_composition)
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_partition_map import partition_bound
from mechanisms.make_pureDP_to_approxDP import build_pure_to_approx, make_pureDP_to_approxDP
from obligations.kernel.composition import composition_for_every_argument
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, ObjectKind, standard_statements
from obligations.kernel.theorems import PremiseKind
from obligations.refuters.additive_noise import refute_constructor
from tests.helpers import load_module

OUTSIDERS = Path(__file__).parent / "outsiders" / "wrong"


@pytest.mark.parametrize("constructor, cited", [
    (make_basic_composition, {"Theorem 3.14", "Lemma 2.3"}),
    (make_approxDP_composition, {"Theorem 3.16"})])
def test_the_catalogue_compositions_are_proved_for_every_list_they_admit(constructor, cited):
    theorems = composition_for_every_argument(constructor)
    assert {t.statement.claim for t in theorems} == {Claim.OUTPUT_DOMAIN, Claim.COMPATIBILITY,
                                                     Claim.PRIVACY, Claim.RUNTIME_ERRORS}
    premises = theorems[0].premises
    texts = [p.text for p in premises if p.kind is PremiseKind.CITES]
    assert all(any(c in t for t in texts) for c in cited)
    [bounded] = [p.text for p in premises if p.kind is PremiseKind.BOUNDED]
    assert bounded.startswith("lists of at most 3 stand-in components read (or one alone)")


def _variant(name: str, build: Any, preconditions: Any = COMPOSITION_PRECONDITIONS,
             validate: Any = validate_composition) -> Constructor:
    return Constructor(name, build, preconditions, validate)


def _with(measurements: Any, **changes: Any) -> Measurement:
    built = build_basic_composition(measurements)
    fields = {name: getattr(built, name) for name in built.__dataclass_fields__}
    return Measurement(**{**fields, **changes})


def _max_map(measurements):
    return _with(measurements, privacy_map=Map(rule=partition_bound, params={
        "maps": tuple(m.privacy_map for m in measurements), "combine": ops.maximum}))


def _dedupe_map(measurements):
    distinct = tuple({id(m): m.privacy_map for m in measurements}.values())
    return _with(measurements, privacy_map=Map(rule=partition_bound, params={
        "maps": distinct, "combine": ops.add_up}))


def _nearest_sum(measurements):
    return _with(measurements, privacy_map=Map(rule=partition_bound, params={
        "maps": tuple(m.privacy_map for m in measurements), "combine": lambda a, b: a + b}))


def _capped(d_in, maps):
    if isinstance(d_in, float) and math.isinf(d_in):
        return 10.0 ** 9
    return partition_bound(d_in, maps, ops.add_up)


def _capped_map(measurements):
    return _with(measurements, privacy_map=Map(rule=_capped, params={
        "maps": tuple(m.privacy_map for m in measurements)}))


@dataclass(frozen=True)
class _Reversed:
    functions: tuple

    def __call__(self, x, rng=None):
        return tuple(f(x, rng) for f in reversed(self.functions))


@dataclass(frozen=True)
class _Reseeded:
    functions: tuple

    def __call__(self, x, rng=None):
        return tuple(f(x, random.Random(0)) for f in self.functions)


@dataclass(frozen=True)
class _Twice:
    functions: tuple

    def __call__(self, x, rng=None):
        self.functions[0](x, rng)
        return tuple(f(x, rng) for f in self.functions)


@dataclass(frozen=True)
class _LastRowDropped:
    functions: tuple

    def __call__(self, x, rng=None):
        return tuple(f(x[:-1], rng) for f in self.functions)


@dataclass(frozen=True)
class _EmptyShortcut:
    functions: tuple

    def __call__(self, x, rng=None):
        if isinstance(x, list) and not x:
            return ()  # outside the product domain
        return tuple(f(x, rng) for f in self.functions)


def _function(cls):
    def build(measurements):
        return _with(measurements, function=cls(tuple(m.function for m in measurements)))
    return build


def _first_domain_only(measurements):
    return _with(measurements, output_domain=ProductDomain(
        (measurements[0].output_domain,) * len(measurements)))


WRONG = {name: (_variant(name, *made), why) for name, made, why in [
    ("max_map", (_max_map,), "map\\(d_in\\) >= the sum"),
    ("dedupe_by_id", (_dedupe_map,), "\\[0, 0\\].*map\\(d_in\\) >= the sum"),
    ("nearest_float_sum", (_nearest_sum,), "map\\(d_in\\) >= the sum"),
    ("finite_at_infinity", (_capped_map,), "map\\(\\+inf\\)"),
    ("reversed_outputs", (_function(_Reversed),), "outputs in order"),
    ("reseeded_rng", (_function(_Reseeded),), "draws randomness"),
    ("component_run_twice", (_function(_Twice),), "each component once"),
    ("input_changed", (_function(_LastRowDropped),), "reads the input"),
    ("empty_input_shortcut", (_function(_EmptyShortcut),), "once on its input \\[\\]"),
    ("first_output_domain", (_first_domain_only,), "product of the components'"),
    ("domains_and_metrics_unchecked", (build_basic_composition, COMPOSITION_PRECONDITIONS[2:]),
     "input domains differ"),
    ("domains_unchecked", (build_basic_composition, COMPOSITION_PRECONDITIONS[1:]),
     "input domains differ"),
    ("metrics_unchecked", (build_basic_composition, COMPOSITION_PRECONDITIONS[::2]),
     "input metrics differ"),
    ("measures_unchecked", (build_basic_composition, COMPOSITION_PRECONDITIONS[:2]),
     "MaxDivergence, ZeroConcentratedDivergence: the components are not all in a measure"),
    ("any_measure", (build_basic_composition, COMPOSITION_PRECONDITIONS,
                     lambda measurements: None),
     "FixedSmoothedMaxDivergence.*is not 2 number"),
]}


MODULE = (
    "from obligations.base import Entry\n"
    "from tests.test_composition_rule import WRONG\n"
    "MECHANISMS = [Entry(name, constructor) for name, (constructor, _) in sorted(WRONG.items())]\n")
"""The wrong twins as a module, for the gate: each is refused by the rule, and no other rule or
proposal may pass it (``python -m mutation.untrusted`` checks it under the adversary)."""


@pytest.mark.parametrize("name", sorted(WRONG))
def test_each_wrong_twin_is_refused_with_its_premise_named(name):
    constructor, why = WRONG[name]
    with pytest.raises(RuleRefused, match=why):
        composition_for_every_argument(constructor)


@pytest.mark.slow  # over 2 s: make test-slow
def test_no_wrong_twin_passes_the_gate(tmp_path, capsys):
    (tmp_path / "compositions.py").write_text(MODULE)
    assert main(["check", str(tmp_path / "compositions.py")]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert f"{4 * len(WRONG)} standard statements: 0 proved by the kernel's rules" in out


def test_a_constructor_of_other_arguments_is_not_read():
    two = Constructor("two", lambda measurements, scale: None, ())
    with pytest.raises(RuleRefused, match="one argument, a list of measurements"):
        composition_for_every_argument(two)


def test_a_constructor_refusing_every_list_proves_nothing():
    def refuse(measurements):
        raise ValueError("never")
    with pytest.raises(RuleRefused, match="admits no list"):
        composition_for_every_argument(Constructor("none", build_basic_composition, (), refuse))


PIPELINE = '''
from mechanisms.core import Constructor
from mechanisms.make_basic_composition import make_basic_composition
from mechanisms.make_discrete_laplace import make_discrete_laplace
from obligations.base import Entry, example


def build_two_counts(scale):
    return make_basic_composition([make_discrete_laplace(scale), make_discrete_laplace(scale)])


make_two_counts = Constructor("make_two_counts", build_two_counts, ())
MECHANISMS = [Entry("make_two_counts", make_two_counts,
                    examples=(example("make_two_counts(2.0)",
                                      "from {module} import make_two_counts"),))]
'''


@pytest.mark.slow  # over 2 s: make test-slow
def test_a_composition_of_proved_measurements_passes_with_no_claim(tmp_path, capsys,
                                                                   monkeypatch):
    (tmp_path / "two_counts.py").write_text(PIPELINE.format(module="two_counts"))
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["check", str(tmp_path / "two_counts.py")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "basic composition read from code" in out or "0 resting on a reviewed" in out


def _outsider(path: str) -> Constructor:
    """The constructor of an outsiders' module (``tests/outsiders/...``)."""
    module_path = Path(__file__).resolve().parent / "outsiders" / path
    spec = importlib.util.spec_from_file_location(module_path.stem, module_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.MECHANISMS[0].constructor


@pytest.mark.parametrize("path, proved", [
    ("right/make_approxDP_composition__pure_as_approx.py", True),
    ("wrong/make_approxDP_composition__zcdp_as_eps.py", False)])
def test_pure_components_compose_as_approximate_with_a_zero_delta(path, proved):
    """An eps-DP component is (eps, 0)-DP: the outsiders' composition reading it so is proved; the
    one that reads a rho-zCDP component as eps is refused."""
    if not proved:
        with pytest.raises(RuleRefused):
            composition_for_every_argument(_outsider(path))
        return
    premises = composition_for_every_argument(_outsider(path))[0].premises
    assert any("(eps, 0)-DP" in p.text for p in premises if p.kind is PremiseKind.CITES)


def _any_to_approx(measurement):
    built = build_pure_to_approx(measurement)
    return Measurement(**{**{n: getattr(built, n) for n in built.__dataclass_fields__},
                          "privacy_map": Map(rule=_as_zero_delta, params={
                              "inner": measurement.privacy_map})})


def _as_zero_delta(d_in, inner):
    value = inner(d_in)
    return value if isinstance(value, tuple) else (value, 0)


def test_a_conversion_of_one_measurement_is_read_as_its_composition_alone():
    """``make_pureDP_to_approxDP`` releases its one component's output as it is: proved, citing
    that eps-DP is (eps, 0)-DP; one that also takes a zCDP component as (rho, 0) is refused."""
    premises = composition_for_every_argument(make_pureDP_to_approxDP)[0].premises
    assert any("(eps, 0)-DP" in p.text for p in premises if p.kind is PremiseKind.CITES)
    lax = Constructor("any_to_approx", _any_to_approx, (), lambda measurement: None)
    with pytest.raises(RuleRefused, match="ZeroConcentratedDivergence: the components are not all"):
        composition_for_every_argument(lax)


def test_a_map_summed_to_nearest_is_refuted_from_the_components_exact_losses():
    """``math.fsum`` rounds ``1 + 2^-60`` to 1: at components of scales 1 and 2^60 the loss at
    inputs 0 and 1 is exactly the sum of the two discrete Laplace losses, above the map."""
    def privacy(constructor):
        return next(s for s in standard_statements(constructor, ObjectKind.MEASUREMENT)
                    if s.claim is Claim.PRIVACY)
    wrong = load_module(OUTSIDERS / "make_approxDP_composition__fsum_map.py",
                        "fsum_map").make_ac_fsum
    parts = {"measurements": [make_pureDP_to_approxDP(make_discrete_laplace(s))
                              for s in (1.0, 2.0 ** 60)]}
    refutation = refute_constructor(privacy(wrong), wrong, parts, 0, 1, 1)
    assert refutation.loss == 1 + Fraction(1, 2 ** 60) and refutation.claimed == (1.0, 0.0)
    assert "the laws discrete Laplace of parameter 1, discrete Laplace of parameter" in \
        refutation.witness
    with pytest.raises(RuleRefused, match="does not exceed"):  # the catalogue adds rounding up
        refute_constructor(privacy(make_approxDP_composition), make_approxDP_composition, parts,
                           0, 1, 1)
