"""The kernel's rule of equality in value (obligations/kernel/equivalence.py): a variant that
computes its reference's values inherits the reference's theorems, bounded to where it was
compared; each premise has a wrong twin that the rule refuses, saying where."""

from __future__ import annotations

import math
import textwrap

import pytest

from checker.cli import main
from mechanisms.make_is_equal import make_is_equal
from obligations.kernel.equivalence import equal_in_value, same_value
from obligations.kernel.row_transform import row_transform_for_every_argument
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim
from obligations.kernel.theorems import PremiseKind

VARIANTS = textwrap.dedent('''
    from dataclasses import replace

    from mechanisms.core import Constructor, Map, RowTransform
    from mechanisms.domains import AtomDomain, VectorDomain
    from mechanisms.make_is_equal import build_is_equal, make_is_equal, validate_value
    from obligations.base import Entry


    def membership(x, value):
        """Right: ``x in {value}`` is ``x == value`` on every row (a set tests ``is``, then
        ``==``; NaN rows are never ``value``, which is not NaN)."""
        return x in {value}


    def none_on_nan(x, value):
        """Wrong: ``None`` for a NaN row, outside the output domain of bools."""
        return None if x != x else x == value


    def one_more_at_a_written_row(data, value):
        """Wrong at one row the code writes (an extra output: 2 apart at distance 1): the
        compared inputs include its constants."""
        return [x == value for x in data] + [True] * (123456.5 in data)


    def equal_but_at_a_computed_row(x, value):
        """Wrong at one row no compared input hits: only a search outside them can find it."""
        return (x == value) != (x == float("131072.25"))


    def kernel_variant(kernel, name):
        return make_is_equal.variant(name, lambda value: replace(
            build_is_equal(value), function=RowTransform(kernel, {"value": value})))


    def build_none_on_nan(value):
        return replace(build_is_equal(value), function=RowTransform(none_on_nan, {"value": value}))


    def build_one_more(value):
        return replace(build_is_equal(value),
                       function=lambda data: one_more_at_a_written_row(data, value))


    def half(d_in):
        return d_in / 2


    def two():
        return 2


    def map_variant(stated, name):
        return make_is_equal.variant(name, lambda value: replace(build_is_equal(value),
                                                                 stability_map=stated))


    def int_output(value):
        return replace(build_is_equal(value), output_domain=VectorDomain(AtomDomain(int)))


    class EqualToAll(VectorDomain):
        """A domain that says it equals any other."""

        def __eq__(self, other):
            return True

        __hash__ = VectorDomain.__hash__


    class MapEqualToAll(Map):
        """A map that says it equals any other."""

        def __eq__(self, other):
            return True

        __hash__ = Map.__hash__


    def int_output_equal_to_all(value):
        return replace(build_is_equal(value), output_domain=EqualToAll(AtomDomain(int)))


    def half_map_equal_to_all(value):
        return replace(build_is_equal(value), stability_map=MapEqualToAll(rule=half))


    def refusing(value):
        raise ValueError("this variant builds nothing")


    def coin_kernel(x, value):
        """Equal in value, but draws: a value the rule compares is not one the code always
        computes."""
        import random
        return x == value if random.random() < 2.0 else x != value


    RIGHT = [kernel_variant(membership, "make_is_in"), map_variant(Map(constant=two),
                                                                  "make_is_equal_2")]
    BOUNDED = [kernel_variant(equal_but_at_a_computed_row, "make_one_row")]
    WRONG = [make_is_equal.variant("make_none_on_nan", build_none_on_nan),
             map_variant(Map(rule=half), "make_half"),
             make_is_equal.variant("make_magic", build_one_more),
             make_is_equal.variant("make_int_out", int_output),
             make_is_equal.variant("make_all_out", int_output_equal_to_all),
             make_is_equal.variant("make_all_map", half_map_equal_to_all),
             Constructor("make_free", build_none_on_nan, make_is_equal.preconditions,
                         validate_value),
             Constructor("make_unchecked", build_none_on_nan, (), validate_value,
                         reference=make_is_equal)]
    PREMISE_ONLY = [make_is_equal.variant("make_nothing", refusing),
                    kernel_variant(coin_kernel, "make_coin")]
    MECHANISMS = [Entry(c.name, c) for c in WRONG]
    ''')
"""The variants of ``make_is_equal`` the tests compare, as a module (``python -m
mutation.untrusted`` checks its wrong ones under the adversary): the right ones, one wrong only
off the compared inputs (bounded: the rule's stated limit), a wrong twin of each premise (each
breaks a standard statement too), and two premise twins that break none."""


def variants(*groups: str) -> dict[str, object]:
    """The constructors of :data:`VARIANTS` in ``groups`` (all by default), by name."""
    namespace: dict = {}
    exec(VARIANTS, namespace)  # noqa: S102 - this module's own source text
    return {c.name: c for group in groups or ("RIGHT", "BOUNDED", "WRONG", "PREMISE_ONLY")
            for c in namespace[group]}


VARIANT = variants()
WHY = {"make_none_on_nan": "returns [None] on [nan], make_is_equal [False]",
       "make_half": "map(d_in) >= make_is_equal's map",
       "make_magic": "returns [False, True] on [123456.5], make_is_equal [False]",
       "make_int_out": "the output domain of make_int_out(value=0.0) is",
       "make_all_out": "the output domain of make_all_out(value=0.0) is",
       "make_all_map": "map(d_in) >= make_is_equal's map",
       "make_free": "is not a variant",
       "make_unchecked": "does not keep the preconditions",
       "make_nothing": "nothing was compared",
       "make_coin": "draws randomness"}
"""Each twin of a premise in :data:`VARIANTS` and why the rule refuses it: the wrong ones, and
two that break no statement (one builds nothing, one draws but always computes the same)."""


@pytest.fixture(scope="module")
def reference_theorems():
    return row_transform_for_every_argument(make_is_equal)


def test_a_variant_computing_the_same_values_inherits_every_statement_bounded(
        reference_theorems):
    theorems = equal_in_value(VARIANT["make_is_in"], reference_theorems, [])
    assert {t.statement.claim for t in theorems} == {Claim.OUTPUT_DOMAIN, Claim.COMPATIBILITY,
                                                    Claim.STABILITY}
    assert all(t.statement.subject == "make_is_in" for t in theorems)
    bound, = theorems[0].rests_on(PremiseKind.BOUNDED)
    # the hard values of float (but NaN), int, str and bool that make_is_equal admits
    assert "equal in value to make_is_equal only at 22 arguments" in bound
    assert "stability of make_is_equal" in theorems[0].rests_on(PremiseKind.THEOREM)


def test_a_looser_map_is_proved_at_least_the_reference_s(reference_theorems):
    """A linear map of a larger constant (``mul_up(d, c)`` grows with ``c``)."""
    assert len(equal_in_value(VARIANT["make_is_equal_2"], reference_theorems, [])) == 3


def test_a_variant_wrong_only_off_the_compared_inputs_is_bounded_not_proved_for_all(
        reference_theorems):
    """The limit of the rule, which its premise states: the refutation search owns the rest."""
    theorems = equal_in_value(VARIANT["make_one_row"], reference_theorems, [])
    assert all(t.rests_on(PremiseKind.BOUNDED) for t in theorems)


@pytest.mark.parametrize("name", sorted(WHY))
def test_each_premise_refuses_its_wrong_twin(name, reference_theorems):
    with pytest.raises(RuleRefused) as refused:
        equal_in_value(VARIANT[name], reference_theorems, [])
    assert WHY[name] in str(refused.value)


def test_every_wrong_variant_is_a_twin_with_its_reason():
    namespace: dict = {}
    exec(VARIANTS, namespace)  # noqa: S102 - this module's own source text
    assert [e.name for e in namespace["MECHANISMS"]] == list(variants("WRONG"))
    assert set(WHY) == set(variants("WRONG", "PREMISE_ONLY"))


def test_a_reference_not_proved_in_the_run_gives_nothing():
    with pytest.raises(RuleRefused, match="not every standard statement of make_is_equal"):
        equal_in_value(VARIANT["make_is_in"], [], [])


def test_a_combinator_is_refused_whose_components_no_hard_value_stands_for():
    from mechanisms.make_chain_tt import make_chain_tt
    is_zero = make_is_equal(0.0)
    variant = make_chain_tt.variant("make_chain_again", make_chain_tt.build)
    with pytest.raises(RuleRefused, match="takes transformations or measurements"):
        equal_in_value(variant, [], [{"outer": is_zero, "inner": is_zero}])


@pytest.mark.parametrize("a, b, same", [
    (0.0, -0.0, False), (math.nan, float("nan"), True), (1, True, False), (1, 1, True),
    ({True: 1}, {1: 1}, False), ({"a": 1, "b": 2}, {"b": 2, "a": 1}, True),
    ([1.5, 2], [1.5, 2.0], False), ((1,), [1], False)])
def test_same_value_is_the_same_value_of_the_same_type(a, b, same):
    assert same_value(a, b) is same


COUNTER = textwrap.dedent("""
    import collections
    from dataclasses import replace

    from mechanisms.make_count_by import build_count_by, make_count_by
    from obligations.base import Entry


    def histogram(data):
        return dict(collections.Counter(data))


    make_counter = make_count_by.variant(
        "make_counter", lambda carrier: replace(build_count_by(carrier), function=histogram))
    MECHANISMS = [Entry("make_counter", make_counter)]
    """)


def test_the_gate_checks_a_variant_with_its_reference(tmp_path, capsys):
    """A zero-claim variant passes once its reference (the catalogue's make_count_by, checked in
    the same run) is proved, with its statements bounded."""
    (tmp_path / "counter.py").write_text(COUNTER)
    assert main(["check", str(tmp_path / "counter.py")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "6 proved by the kernel's rules" in out and "3 bounded" in out


@pytest.mark.parametrize("reference, twin", [("make_drop_null", "make_drop_null_listed"),
                                             ("make_count", "make_count_len_wrapper")])
def test_right_twins_no_object_rule_reads_inherit_their_reference_s_theorems(reference, twin):
    """A replaced ``__call__`` computing the same filter, a lambda around ``len``: the gate,
    given the twin and its reference's catalogue entry, proves each statement by equality."""
    from checker import gate
    from checker.loading import catalogue_entry
    from obligations.base import Entry
    from obligations.kernel.equivalence import EQUAL_RULE
    from tests.twins import make_clamp as clamp_twins, make_count as count_twins
    constructor = getattr(clamp_twins if "drop_null" in twin else count_twins, twin)
    certified = [c for name, c in gate.certified_statements(
        [catalogue_entry(reference), Entry(twin, constructor)], lambda _: ()) if name == twin]
    assert len(certified) == 3 and all(c.proved and c.theorem.rule == EQUAL_RULE
                                       for c in certified)
