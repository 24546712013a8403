"""The kernel's fold rule (obligations/kernel/fold.py): a new Fold transformation is proved from
its own object, for datasets of every size; each premise has a wrong twin that is not proved, and
a map below the fold's sensitivity is refuted by the exact distance of two outputs of the running
code."""

from __future__ import annotations

import json
import textwrap

import pytest

from checker.cli import main
from tests.helpers import load_module
from obligations.refuters.additive_noise import refute_object
from obligations.refuters.stability import refute_stability
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, ObjectKind, object_statements, standard_statements

FOLDS = textwrap.dedent("""
    import random

    from mechanisms import ops
    from mechanisms.core import Constructor, Fold, Map, Transformation
    from mechanisms.domains import AtomDomain, VectorDomain
    from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
    from obligations.base import Entry, example


    def fold(step, rule, bounds=(0, 3), finalize=None):
        return Transformation(VectorDomain(AtomDomain(int, bounds=bounds)), AtomDomain(int),
                              SymmetricDistance(), AbsoluteDistance(),
                              Fold(step, finalize or identity, 0), Map(rule=rule))


    def identity(total):
        return total


    def squares(total, x):
        return total + x * x


    def positives(total, x):
        return total + ops.where(ops.lt(0, x), 1, 0)


    def doubling(total, x):
        return 2 * total + x


    def halved(total):
        return total / 2


    def typed(total, x):
        if isinstance(x, int):
            return total + x
        return total


    def noisy(total, x):
        return total + x + random.randint(0, 1)


    def reciprocal(total, x):
        return total + 12 // (x + 1)


    def nine(d_in):
        return d_in * 9


    def three(d_in):
        return d_in * 3


    def one(d_in):
        return d_in


    sum_of_squares = fold(squares, nine)
    count_positive = fold(positives, one, bounds=(-5, 5))
    squares_under = fold(squares, three)
    order_matters = fold(doubling, nine)
    float_result = fold(squares, nine, finalize=halved)
    two_bodies = fold(typed, three)
    random_step = fold(noisy, nine)
    raises = fold(reciprocal, lambda d_in: d_in * 12, bounds=(-1, 3))


    def build_squares(lower: int, upper: int) -> Transformation:
        return fold(squares, lambda d_in: d_in * upper * upper, bounds=(lower, upper))


    make_squares = Constructor("make_squares", build_squares)
    MECHANISMS = [Entry("make_squares", make_squares,
                        examples=(example("make_squares(0, 3)", "from folds import make_squares"),))]

    """)


SORTED = textwrap.dedent("""
    from mechanisms import ops
    from mechanisms.core import Constructor, Fold, Map, Precondition, Transformation
    from mechanisms.domains import AtomDomain, VectorDomain
    from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
    from obligations.base import Entry, example


    def fold(step, rule, bounds):
        return Transformation(VectorDomain(AtomDomain(int, bounds=bounds)), AtomDomain(int),
                              SymmetricDistance(), AbsoluteDistance(),
                              Fold(step, lambda total: total, 0), Map(rule=rule))


    def build_bounded_sum(lower, upper):
        return fold(lambda total, x: total + x,
                    lambda d_in: d_in * ops.maximum(ops.absolute(lower), ops.absolute(upper)),
                    bounds=(lower, upper))


    def build_upper_sum(lower, upper):
        return fold(lambda total, x: total + x, lambda d_in: d_in * upper, bounds=(lower, upper))


    ORDERED = (Precondition("lower <= upper", lambda lower, upper: ops.le(lower, upper),
                            lambda lower, upper: ValueError("lower > upper")),)
    NONNEGATIVE = (*ORDERED, Precondition("0 <= lower", lambda lower, upper: ops.le(0, lower),
                                          lambda lower, upper: ValueError("lower < 0")))
    INTS = {"lower": int, "upper": int}
    make_bounded_sum = Constructor("make_bounded_sum", build_bounded_sum, ORDERED, sorts=INTS)
    make_upper_sum = Constructor("make_upper_sum", build_upper_sum, NONNEGATIVE, sorts=INTS)
    make_upper_sum_any = Constructor("make_upper_sum_any", build_upper_sum, ORDERED, sorts=INTS)
    make_unsorted_sum = Constructor("make_unsorted_sum", build_bounded_sum, ORDERED)
    MECHANISMS = [Entry(c.name, c, examples=(example(f"{c.name}(0, 3)",
                                                      f"from sorted_folds import {c.name}"),))
                  for c in (make_bounded_sum, make_upper_sum, make_upper_sum_any,
                            make_unsorted_sum)]
    """)


@pytest.fixture
def sorted_folds(tmp_path):
    (tmp_path / "sorted_folds.py").write_text(SORTED)
    return tmp_path / "sorted_folds.py"


def statements_of(path, tmp_path) -> dict:
    """Each mechanism's standard statements in ``dpcert check PATH --json``."""
    out = tmp_path / "report.json"
    main(["check", str(path), "--json", str(out)])
    return {m["name"]: m["statements"] for m in json.loads(out.read_text())["mechanisms"]}


@pytest.fixture
def folds(tmp_path):
    (tmp_path / "folds.py").write_text(FOLDS)
    return tmp_path / "folds.py"


@pytest.mark.parametrize("name", ["sum_of_squares", "count_positive"])
def test_a_new_fold_is_proved_from_its_object(folds, name, capsys):
    assert main(["check", f"{folds}:{name}"]) == 0
    out = capsys.readouterr().out
    assert "stability: proved by fold of a right-commutative step" in out
    assert "(0 resting on a reviewed proof module, 0 bounded)" in out  # every size of dataset


WHY = {"order_matters": "the step is right-commutative: refuted",
       "float_result": "on terms is an integer: refuted",
       "two_bodies": "tests the type of a solver term",
       "random_step": "draws randomness",
       "raises": "raises on accumulator 0 and row -1 (ZeroDivisionError"}


@pytest.mark.parametrize("name", sorted(WHY))
def test_each_premise_of_the_rule_has_a_wrong_twin(folds, name, capsys):
    assert main(["check", f"{folds}:{name}"]) == 1
    out = capsys.readouterr().out
    assert "stability: NOT PROVED" in out or "stability: REFUTED" in out
    assert WHY[name] in out


def test_a_map_below_the_sensitivity_is_refuted_exactly(folds, capsys):
    assert main(["check", f"{folds}:squares_under"]) == 1
    out = capsys.readouterr().out
    assert "stability: REFUTED (confirmed on the running code)" in out
    assert "[] and [3] at distance 1 <= d_in = 1; outputs 0 and 9 at distance 9 > map(1) = 3" in out


def test_a_constructor_is_refuted_at_another_argument_it_admits(folds, capsys):
    """make_squares's map is upper^2 per row: right for lower >= 0 (proved at its example,
    bounded), wrong once lower^2 > upper^2, which the refutation search finds."""
    assert main(["check", str(folds)]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "make_squares stability: refuted (confirmed on the running code)" in out
    assert "make_squares(lower=-3, upper=3)" not in out  # -3 with upper 3 is not wrong
    assert "at distance 1 <= d_in = 1; outputs 0 and" in out


def test_a_refutation_is_only_of_the_object_it_was_computed_on(folds):
    """The refuting functions for one object refuse a statement about a constructor (a caller
    could otherwise refute a constructor with another object) or about another object."""
    module = load_module(folds, "folds_for_refutation")
    about_constructor = standard_statements(module.make_squares, ObjectKind.TRANSFORMATION)
    stability = [s for s in about_constructor if s.claim is Claim.STABILITY][0]
    with pytest.raises(RuleRefused, match="not about"):
        refute_stability(stability, module.squares_under, [], [3], 1)
    other = [s for s in object_statements("sum_of_squares", module.sum_of_squares)
             if s.claim is Claim.STABILITY][0]
    with pytest.raises(RuleRefused, match="not about"):
        refute_stability(other, module.squares_under, [], [3], 1)
    with pytest.raises(RuleRefused, match="not about"):
        refute_object(stability, module.squares_under, [], [3], 1)


@pytest.mark.parametrize("name", ["make_bounded_sum", "make_upper_sum"])
def test_a_fold_constructor_with_declared_sorts_is_proved_for_every_argument(
        sorted_folds, tmp_path, name):
    """Every argument is declared an int, so the build runs once on Z3 integers and the goals
    hold under the preconditions for all of them: no bound, not even the examples'."""
    statements = statements_of(sorted_folds, tmp_path)[name]
    assert [s["rule"] for s in statements] == ["fold of a right-commutative step"] * 3
    assert not any(s["rests_on"] for s in statements)


@pytest.mark.parametrize("name", ["make_upper_sum_any", "make_unsorted_sum"])
def test_without_sorts_or_with_a_missing_precondition_it_is_not(sorted_folds, tmp_path, name):
    """Without the precondition ``0 <= lower`` the universal goal fails (a row of -100 moves
    the sum by 100 > upper), the example's bounded theorem is refuted outside its bound; without
    declared sorts the constructor is proved at its example only, and says so."""
    stability = [s for s in statements_of(sorted_folds, tmp_path)[name]
                 if s["claim"] == "stability"][0]
    if name == "make_upper_sum_any":
        assert not stability["proved"] and "rests on bounded: " in stability["why"]
        assert "lower=" in stability["refuted"]["witness"]
    else:
        assert stability["proved"] and any(p["kind"] == "bounded" for p in stability["rests_on"])


def test_a_declared_sort_is_enforced_before_the_preconditions(sorted_folds):
    from mechanisms.errors import ParameterSortError
    module = load_module(sorted_folds, "sorted_folds_for_sorts")
    with pytest.raises(ParameterSortError, match=r"takes \(lower: int, upper: int\); got "
                                                 r"lower=0.0 \(float\), upper=3 \(int\)"):
        module.make_bounded_sum(0.0, 3)
    with pytest.raises(ParameterSortError, match=r"lower=True \(bool\)"):
        module.make_bounded_sum(True, 3)


@pytest.mark.parametrize("constructor", ["make_count", "make_sized_bounded_int_sum"])
def test_a_count_of_any_row_type_and_a_sized_sum_are_proved_for_every_argument(constructor):
    """make_count takes a type (its sorts are the four types themselves, ``Exactly``), so rows
    are solver floats, ints, bools or strs; make_sized_bounded_int_sum's datasets have one size,
    so its map is ``floor(d_in / 2)`` replaced rows, each moving the sum by at most ``U - L``."""
    import importlib
    from obligations.kernel.fold import FOLD_RULE, fold_for_every_argument
    made = getattr(importlib.import_module(f"mechanisms.{constructor}"), constructor)
    theorems = fold_for_every_argument(made)
    assert [t.statement.claim.value for t in theorems] == [
        "output domain", "domain-metric compatibility", "stability"]
    assert {t.rule for t in theorems} == {FOLD_RULE} and not any(t.premises for t in theorems)


def test_a_sized_sum_with_an_unsized_map_of_the_upper_bound_is_refused():
    from dataclasses import replace
    from mechanisms.core import Map
    from mechanisms.make_sized_bounded_int_sum import (build_sized_bounded_int_sum,
                                                       make_sized_bounded_int_sum)
    from obligations.kernel.fold import fold_for_every_argument
    from obligations.kernel.rules import PartlyProved

    def build_upper(size, lower, upper):
        return replace(build_sized_bounded_int_sum(size, lower, upper),
                       stability_map=Map(rule=lambda d_in: (d_in // 2) * upper))
    with pytest.raises(PartlyProved, match="min\\(floor\\(d_in / 2\\), size\\) times the move of "
                                           "the result when a row is replaced"):
        fold_for_every_argument(make_sized_bounded_int_sum.variant("make_upper", build_upper))


def test_the_catalogue_int_sum_is_proved_for_every_argument():
    """make_bounded_int_sum declares both bounds ints: the fold rule proves it with no proof
    module and no bound, and a map copied without the absolute value refuses stability only."""
    from dataclasses import replace
    from mechanisms.core import Map
    from mechanisms.make_bounded_int_sum import build_bounded_int_sum, make_bounded_int_sum
    from obligations.kernel.fold import FOLD_RULE, fold_for_every_argument
    from obligations.kernel.rules import PartlyProved
    theorems = fold_for_every_argument(make_bounded_int_sum)
    assert {t.rule for t in theorems} == {FOLD_RULE} and not any(t.premises for t in theorems)

    def build_upper_map(lower, upper):
        return replace(build_bounded_int_sum(lower, upper),
                       stability_map=Map(rule=lambda d_in: d_in * upper))
    with pytest.raises(PartlyProved, match="stability: .*map\\(d_in\\) >= d_in times the move"):
        fold_for_every_argument(make_bounded_int_sum.variant("make_upper_map", build_upper_map))


def test_len_as_the_function_is_read_as_the_fold_of_one_more_per_row_citing_its_documentation():
    """A count whose function is the builtin ``len`` itself is proved for every argument,
    citing Python's documentation of ``len``; its twins (a map of ``d_in // 2``, a float output
    domain) are not, and a lambda around ``len`` is not ``len``."""
    from tests.twins.make_count import (make_count_len_float_output, make_count_len_half_map,
                                        make_count_len_wrapper)
    from mechanisms.make_count import build_count, make_count
    from obligations.kernel.fold import FOLD_RULE, LEN_CITED, fold_for_every_argument
    from obligations.kernel.rules import PartlyProved
    from dataclasses import replace

    def build_len(carrier):
        return replace(build_count(carrier), function=len)
    theorems = fold_for_every_argument(make_count.variant("make_count_len", build_len))
    assert [t.statement.claim for t in theorems] == [
        Claim.OUTPUT_DOMAIN, Claim.COMPATIBILITY, Claim.STABILITY]
    assert all(t.rule == FOLD_RULE and t.premises == (LEN_CITED,) for t in theorems)
    with pytest.raises(PartlyProved, match="stability: .*map\\(d_in\\) >= d_in times the move"):
        fold_for_every_argument(make_count_len_half_map)
    with pytest.raises(RuleRefused, match="not an AtomDomain of int"):
        fold_for_every_argument(make_count_len_float_output)
    with pytest.raises(RuleRefused, match="is not a Transformation whose function is a Fold"):
        fold_for_every_argument(make_count_len_wrapper)


@pytest.mark.slow  # over 2 s (its search runs to its end): make test-slow
def test_a_count_map_rounded_below_d_in_past_2_53_is_not_proved():
    """``d_in * 1.0`` is ``2^53`` at ``d_in = 2^53 + 1``: the rule's map goal, with the float
    product rounded, fails; no pair of datasets the running code can hold is that far apart, so
    no refutation is confirmed and the statement stays without a theorem (the gate fails)."""
    from tests.twins.make_count import make_count_float_map
    from obligations.base import Entry
    from tests.helpers import statements_by_claim
    stability = statements_by_claim(Entry("float_map", make_count_float_map))[Claim.STABILITY]
    assert not stability.proved and stability.refutation is None
    assert "map(d_in) >= d_in times the move of the result when a row is added" in stability.why
