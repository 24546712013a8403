"""The kernel's row-transform rule (obligations/kernel/row_transform.py): a new row transformation,
built by hand, is proved from its own object, and each premise has a wrong twin that is not."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
import z3

from checker.cli import main

ROWS = textwrap.dedent("""
    import random

    from mechanisms import ops
    from mechanisms.core import Constructor, Map, RowTransform, Transformation
    from mechanisms.domains import AtomDomain, VectorDomain
    from mechanisms.metrics import SymmetricDistance
    from obligations.base import Entry, example


    def one():
        return 1


    def half(d_in):
        return d_in / 2


    def row(kernel, inp=AtomDomain(int), out=AtomDomain(int), rule=None):
        return Transformation(VectorDomain(inp), VectorDomain(out), SymmetricDistance(),
                              SymmetricDistance(), RowTransform(kernel),
                              Map(rule=rule) if rule else Map(constant=one))


    def shifted(x):
        return x + 1


    def no_nan(x):
        return ops.where(ops.is_nan(x), 0.0, x)


    def nan_kept(x):
        return ops.where(ops.lt(x, 0.0), 0.0, x)


    def reciprocal(x):
        return 1.0 / x


    def noisy(x):
        return x + random.randint(0, 1)


    def noisy_local_import(x):
        import random as coins
        return x + coins.randint(0, 1)


    def typed(x):
        if isinstance(x, int):
            return x + 1
        return x


    def hidden_case(x):
        if x == 12345:  # Z3's own bool of == compares expressions: False on a term
            return 11
        return ops.minimum(ops.maximum(x, 0), 10)


    shift = row(shifted)
    imputed = row(no_nan, AtomDomain(float, nan=True), AtomDomain(float))
    half_map = row(shifted, rule=half)
    bounded_output = row(shifted, out=AtomDomain(int, bounds=(0, 10)))
    nan_out = row(nan_kept, AtomDomain(float, nan=True), AtomDomain(float))
    random_kernel = row(noisy)
    locally_random_kernel = row(noisy_local_import)
    raises = row(reciprocal, AtomDomain(float), AtomDomain(float))
    two_bodies = row(typed)
    equality_branch = row(hidden_case, out=AtomDomain(int, bounds=(0, 10)))


    def build_shift(step: int) -> Transformation:
        return row(shifted)


    make_shift = Constructor("make_shift", build_shift)
    make_half = Constructor("make_half", lambda: row(shifted, rule=half))
    MECHANISMS = [
        Entry("shift", make_shift, examples=(example("make_shift(1)", "from rows import make_shift"),
                                             example("make_shift(5)", "from rows import make_shift"))),
        Entry("half", make_half, examples=(example("make_half()", "from rows import make_half"),)),
        Entry("no_example", Constructor("make_no_example", build_shift)),
    ]
    """)


@pytest.fixture
def rows(tmp_path):
    (tmp_path / "rows.py").write_text(ROWS)
    return tmp_path / "rows.py"


@pytest.mark.parametrize("name", ["shift", "imputed"])
def test_a_new_row_transformation_is_proved_from_its_object(rows, name, capsys):
    assert main(["check", f"{rows}:{name}"]) == 0
    assert "stability: proved by row transform" in capsys.readouterr().out


WHY = {"half_map": "map(d_in) >= d_in for every natural d_in: refuted",
       "bounded_output": "kernel(x) is in the output atom domain: refuted",
       "nan_out": "kernel(x) is in the output atom domain: refuted",
       "random_kernel": "the kernel's code draws randomness",
       "locally_random_kernel": "the kernel's code draws randomness",
       "two_bodies": "the kernel tests the type of a solver term",
       "raises": "the kernel raises on the admitted row 0.0 (ZeroDivisionError",
       "equality_branch": "a Python branch on the solver term x == 12345"}


@pytest.mark.parametrize("name", sorted(WHY))
def test_each_premise_of_the_rule_has_a_wrong_twin(rows, name, capsys):
    why = WHY[name]
    assert main(["check", f"{rows}:{name}"]) == 1
    out = capsys.readouterr().out
    assert "stability: NOT PROVED" in out or "output domain: NOT PROVED" in out
    assert why in out


def test_a_constructor_is_proved_at_its_examples_only_and_says_so(rows, tmp_path, capsys,
                                                                    monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["check", str(rows), "--json", str(tmp_path / "r.json")]) == 1
    out = capsys.readouterr().out
    unproved = {line.split(" ")[0] for line in out.splitlines() if ": not proved:" in line}
    assert unproved == {"half", "no_example"}
    import json
    document = json.loads((tmp_path / "r.json").read_text())
    [shift] = [m for m in document["mechanisms"] if m["name"] == "shift"]
    assert {s["rule"] for s in shift["statements"]} == {"proved at its examples"}
    assert {"kind": "bounded", "text": "make_shift: only at the arguments of its examples "
            "(make_shift(1), make_shift(5))"} in shift["statements"][0]["rests_on"]


def test_a_row_transform_into_longer_vectors_than_it_keeps_is_not_proved(tmp_path, capsys):
    """A row transform keeps the length: an output domain that demands more entries than the
    input domain guarantees is not met (``[]`` maps to ``[]``)."""
    (tmp_path / "longer.py").write_text(textwrap.dedent("""
        from mechanisms.core import Map, RowTransform, Transformation
        from mechanisms.domains import AtomDomain, VectorDomain
        from mechanisms.metrics import SymmetricDistance


        def shifted(x):
            return x + 1


        def one(d_in):
            return d_in


        longer = Transformation(VectorDomain(AtomDomain(int)),
                                VectorDomain(AtomDomain(int), min_size=1), SymmetricDistance(),
                                SymmetricDistance(), RowTransform(shifted), Map(rule=one))
        """))
    assert main(["check", f"{tmp_path / 'longer.py'}:longer"]) == 1
    out = capsys.readouterr().out
    assert "a row transform keeps the length" in out
    assert "output domain: REFUTED (confirmed on the running code)" in out


SORTED_ROWS = textwrap.dedent("""
    from dataclasses import replace

    from mechanisms import ops
    from mechanisms.core import Constructor, Map, Precondition, RowTransform
    from mechanisms.make_clamp import BOUND_PRECONDITIONS, build_clamp


    def clamp_no_nan_guard(x, lower, upper):
        return ops.maximum(ops.minimum(x, upper), lower)


    def with_kernel(kernel):
        def build(lower, upper):
            return replace(build_clamp(lower, upper),
                           function=RowTransform(kernel, {"lower": lower, "upper": upper}))
        return build


    def build_half_map(lower, upper):
        return replace(build_clamp(lower, upper), stability_map=Map(rule=lambda d_in: d_in / 2))


    def build_by_type(lower, upper):
        return build_clamp(lower, upper) if isinstance(lower, float) else build_clamp(upper, lower)


    def by_spelling(x, lower, upper):  # str() of a solver term is its name, of one letter
        clamped = ops.maximum(ops.minimum(x, upper), lower)
        return ops.where(ops.eq(len(str(x)), 3), lower, clamped)


    NEVER = (Precondition("never", lambda lower, upper: ops.lt(upper, lower),
                          lambda lower, upper: ValueError("never")),
             Precondition("ordered", lambda lower, upper: ops.le(lower, upper),
                          lambda lower, upper: ValueError("unordered")))
    FLOATS = {"lower": float, "upper": float}
    make_nan_through = Constructor("make_nan_through", with_kernel(clamp_no_nan_guard),
                                   BOUND_PRECONDITIONS, sorts=FLOATS)
    make_half_map = Constructor("make_half_map", build_half_map, BOUND_PRECONDITIONS, sorts=FLOATS)
    make_by_type = Constructor("make_by_type", build_by_type, BOUND_PRECONDITIONS, sorts=FLOATS)
    make_spelled = Constructor("make_spelled", with_kernel(by_spelling), BOUND_PRECONDITIONS,
                              sorts=FLOATS)
    make_vacuous = Constructor("make_vacuous", build_clamp, NEVER, sorts=FLOATS)
    """)


@pytest.fixture
def sorted_rows(tmp_path):
    from tests.helpers import load_module
    (tmp_path / "sorted_rows.py").write_text(SORTED_ROWS)
    return load_module(tmp_path / "sorted_rows.py", "sorted_rows")


@pytest.mark.parametrize("constructor", ["make_clamp", "make_is_equal", "make_impute_constant"])
def test_the_catalogue_row_transforms_are_proved_for_every_argument(constructor):
    """Their sorts are declared, so the build runs on solver arguments: no proof module, no
    bound."""
    import importlib
    from obligations.kernel.row_transform import ROW_RULE, row_transform_for_every_argument
    made = getattr(importlib.import_module(f"mechanisms.{constructor}"), constructor)
    theorems = row_transform_for_every_argument(made)
    assert [t.statement.claim.value for t in theorems] == [
        "output domain", "domain-metric compatibility", "stability"]
    assert all(t.rule == ROW_RULE and not t.statement.built for t in theorems)
    assert [p.text for t in theorems for p in t.premises] == [
        "lemma.row_transform (row-by-row stability)"] * 3


PARTLY = {"make_nan_through": ("output domain", "kernel(x) is in the output atom domain: refuted"),
          "make_half_map": ("stability", "map(d_in) >= d_in for every natural d_in: refuted")}


@pytest.mark.parametrize("name", sorted(PARTLY))
def test_a_wrong_goal_refuses_its_own_statement_only(sorted_rows, name):
    from obligations.kernel.row_transform import row_transform_for_every_argument
    from obligations.kernel.rules import PartlyProved
    with pytest.raises(PartlyProved) as info:
        row_transform_for_every_argument(getattr(sorted_rows, name))
    claim, why = PARTLY[name]
    assert [c.value for c in info.value.refused] == [claim] and why in str(info.value)
    assert claim not in {t.statement.claim.value for t in info.value.theorems}
    assert len(info.value.theorems) == 2


WHOLLY = {"make_by_type": "the build tests the type of a solver term",
          "make_spelled": "the kernel computes otherwise on solver terms than on nan: 0.0 when run",
          "make_vacuous": "make_vacuous admits none of 100 hard arguments of (lower: float, "
                          "upper: float)"}


@pytest.mark.parametrize("name", sorted(WHOLLY))
def test_a_premise_on_the_code_refuses_every_statement(sorted_rows, name):
    from obligations.kernel.row_transform import row_transform_for_every_argument
    from obligations.kernel.rules import PartlyProved, RuleRefused
    with pytest.raises(RuleRefused, match=re.escape(WHOLLY[name])) as info:
        row_transform_for_every_argument(getattr(sorted_rows, name))
    assert not isinstance(info.value, PartlyProved)


def test_sorts_may_list_alternatives():
    from mechanisms.errors import BoundTypeError, ParameterSortError
    from mechanisms.make_clamp import make_clamp
    from mechanisms.core import Constructor
    assert make_clamp(0, 3).input_domain.element.carrier is int
    with pytest.raises(BoundTypeError):  # the constructor's own typed error comes first
        make_clamp(0, 3.0)
    loose = Constructor("make_loose", make_clamp.build, make_clamp.preconditions,
                        sorts=make_clamp.signatures)
    with pytest.raises(ParameterSortError, match=r"takes \(lower: int, upper: int\) or "
                                                 r"\(lower: float, upper: float\); got lower=0 "
                                                 r"\(int\), upper=3.0 \(float\)"):
        loose(0, 3.0)


def test_a_validator_may_declare_the_sorts_it_admits():
    """A constructor built from the catalogue's ``validate_value`` with stricter preconditions
    (an outsider's right variant) declares the validator's sorts, and is proved for every
    argument; the sorts are enforced after the validator, so a mark can only refuse more."""
    from mechanisms import ops
    from mechanisms.core import Constructor, Precondition, declares
    from mechanisms.errors import ParameterSortError
    from mechanisms.make_is_equal import IS_EQUAL_PRECONDITIONS, build_is_equal, validate_value
    from obligations.kernel.row_transform import row_transform_for_every_argument
    finite = IS_EQUAL_PRECONDITIONS + (Precondition(
        "value is finite", lambda value: ops.is_finite(value), lambda value: ValueError(value)),)
    stricter = Constructor("make_is_equal_finite", build_is_equal, finite, validate_value)
    assert stricter.signatures == tuple({"value": t} for t in (float, int, str, bool))
    assert len(row_transform_for_every_argument(stricter)) == 3

    @declares({"value": int})
    def ints_only(value):
        """Refuses nothing itself."""
    narrowed = Constructor("make_narrowed", build_is_equal, IS_EQUAL_PRECONDITIONS, ints_only)
    with pytest.raises(ParameterSortError, match=r"takes \(value: int\)"):
        narrowed("a")


def test_a_sort_may_be_one_value():
    from mechanisms.core import Constructor, Exactly
    from mechanisms.errors import ParameterSortError
    from mechanisms.make_count import build_count, make_count
    assert make_count.signatures[0] == {"carrier": Exactly(int)}
    only_str = Constructor("make_str_count", build_count, sorts={"carrier": Exactly(str)})
    assert only_str(str).input_domain.element.carrier is str
    with pytest.raises(ParameterSortError, match=r"takes \(carrier=str\); got carrier=<class "
                                                 r"'int'> \(type\)"):
        only_str(int)


def test_the_catalogue_drop_null_is_proved_as_a_filter_for_every_argument():
    from mechanisms.make_drop_null import make_drop_null
    from obligations.kernel.row_transform import FILTER_RULE, row_filter_for_every_argument
    theorems = row_filter_for_every_argument(make_drop_null)
    assert [t.statement.claim.value for t in theorems] == [
        "output domain", "domain-metric compatibility", "stability"]
    assert {t.rule for t in theorems} == {FILTER_RULE}


FILTERS = textwrap.dedent("""
    from dataclasses import replace

    from mechanisms import ops
    from mechanisms.core import Constructor, Filter, Map
    from mechanisms.make_drop_null import build_drop_null, validate_drop_null


    def keep_all(x):
        return True


    def keep_positive(x):  # NaN is not > 0, so no kept row is NaN
        return ops.lt(0.0, x)


    def with_keep(keep):
        def build(carrier=float):
            return replace(build_drop_null(carrier), function=Filter(keep))
        return build


    make_keep_all = Constructor("make_keep_all", with_keep(keep_all), (), validate_drop_null)
    make_positive = Constructor("make_positive", with_keep(keep_positive), (),
                                validate_drop_null)
    """)


@pytest.mark.parametrize("name, proved, refused", [
    ("make_keep_all", {"domain-metric compatibility", "stability"}, "a kept row is in the "
                                                                     "output atom domain"),
    ("make_positive", {"output domain", "domain-metric compatibility", "stability"}, None),
])
def test_a_new_filter_is_proved_or_refused_goal_by_goal(tmp_path, name, proved, refused):
    from tests.helpers import load_module
    from obligations.kernel.row_transform import row_filter_for_every_argument
    from obligations.kernel.rules import PartlyProved
    (tmp_path / "filters.py").write_text(FILTERS)
    module = load_module(tmp_path / "filters.py", "filters")
    if refused is None:
        theorems = row_filter_for_every_argument(getattr(module, name))
    else:
        with pytest.raises(PartlyProved, match=refused) as info:
            row_filter_for_every_argument(getattr(module, name))
        theorems = info.value.theorems
    assert {t.statement.claim.value for t in theorems} == proved


@pytest.mark.slow  # over 2 s: make test-slow
def test_a_build_that_exits_on_solver_arguments_cannot_end_the_check(tmp_path, capsys):
    """The kind is read from the build on solver arguments, under the same guard as the rules:
    an exit there is the build's failure, not the checker's exit code."""
    (tmp_path / "exits.py").write_text(textwrap.dedent("""
        import sys
        from mechanisms.core import Constructor
        from mechanisms.make_clamp import BOUND_PRECONDITIONS, build_clamp
        from obligations.base import Entry


        def build(lower, upper):
            if not isinstance(lower, (int, float)):
                sys.exit(0)
            return build_clamp(lower, upper)


        make_exits = Constructor("make_exits", build, BOUND_PRECONDITIONS,
                                 sorts={"lower": float, "upper": float})
        MECHANISMS = [Entry("exits", make_exits)]
        """))
    assert main(["check", str(tmp_path / "exits.py")]) == 1
    out = capsys.readouterr().out
    assert "exits stability: not proved" in out and "exits privacy: not proved" in out


def test_casts_with_opaque_parsing_are_proved_and_checked_by_running_the_parser():
    """make_cast_default's 16 casts: parsing and formatting are uninterpreted functions in the
    goals, evaluated on hard rows by running the function their name stands for."""
    from mechanisms.make_cast_default import make_cast_default
    from obligations.kernel.every_argument import opaque_evaluated
    from obligations.kernel.row_transform import row_transform_for_every_argument
    assert len(make_cast_default.signatures) == 16
    assert len(row_transform_for_every_argument(make_cast_default)) == 3
    parsed = make_cast_default.build(str, float).function.scalar(z3.StringVal(" 1e400 "))
    assert opaque_evaluated(parsed).eq(z3.FPVal(float("inf"), z3.Float64()))


def test_two_functions_given_one_opaque_name_are_two_uninterpreted_functions():
    """A twin's narrower parser named ``parse_float`` like the catalogue's is another function
    on terms, so no goal can take one for the other."""
    from mechanisms import ops
    from mechanisms.make_cast_default import parse_float
    s = z3.String("s")
    ours = ops.opaque("parse_float", parse_float, s, float)
    theirs = ops.opaque("parse_float", lambda text: 0.0, s, float)
    assert ours.decl().name() != theirs.decl().name()
    assert ours.eq(ops.opaque("parse_float", parse_float, s, float))
    assert ops.OPAQUE[ours.decl().name()] is parse_float


def test_an_int_only_kernel_under_the_clamp_module_passes_by_the_rule(capsys):
    """The second round's decade bucket: an int-only row kernel whose author applied
    ``clamp_obligations``. Its constructor refuses float bounds, so the module's float goals are
    vacuous (unknown), not errors; the rule proves every statement for every argument, and the
    unknown obligations are not needed."""
    path = Path(__file__).parent / "outsiders_new" / "right" / "decade_bucket.py"
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "decade_bucket.stability unknown (unsupported)" in out
    assert "vacuous: make_decade_bucket(lower=0.0, upper=1.0) is refused" in out
    assert "3 standard statements: 3 proved by the kernel's rules" in out
