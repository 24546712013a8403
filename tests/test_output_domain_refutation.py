"""The refutation of an output-domain statement (obligations/refuters/output_domain.py): an
admitted input on which the running function returns a value outside its output domain, or
raises; and a plan that builds a domain as data (obligations/kernel/plans.py)."""

from __future__ import annotations

import textwrap

import pytest

from checker.cli import main
from tests.helpers import load_module
from obligations.refuters.output_domain import refute_object
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, ObjectKind, object_statements, standard_statements

OUTPUTS = textwrap.dedent("""
    from mechanisms import ops
    from mechanisms.core import Constructor, Map, RowTransform, Transformation
    from mechanisms.domains import AtomDomain, VectorDomain
    from mechanisms.make_bounded_int_sum import make_bounded_int_sum
    from mechanisms.make_clamp import make_clamp
    from mechanisms.make_discrete_laplace import make_discrete_laplace
    from mechanisms.make_resize import make_resize
    from mechanisms.make_sized_bounded_int_sum import make_sized_bounded_int_sum
    from mechanisms.metrics import SymmetricDistance
    from obligations.base import Entry, example


    def build_buckets(upper: int, width: int) -> Transformation:
        def bucket(x):
            return ops.floor_div(x, width) * width + width // 2
        return Transformation(VectorDomain(AtomDomain(int, bounds=(0, upper))),
                              VectorDomain(AtomDomain(int, bounds=(0, upper))),
                              SymmetricDistance(), SymmetricDistance(), RowTransform(bucket),
                              Map(rule=lambda d_in: d_in))


    def build_reciprocals(upper: int) -> Transformation:
        return Transformation(VectorDomain(AtomDomain(int, bounds=(0, upper))),
                              VectorDomain(AtomDomain(int)), SymmetricDistance(),
                              SymmetricDistance(), RowTransform(lambda x: 100 // x),
                              Map(rule=lambda d_in: d_in))


    def build_resized_sum(size, lower, upper, scale):
        return (make_clamp(lower, upper)
                >> make_resize(size, lower, AtomDomain(int, bounds=(lower, upper)))
                >> make_sized_bounded_int_sum(size, lower, upper) >> make_discrete_laplace(scale))


    make_buckets = Constructor("make_buckets", build_buckets)
    make_reciprocals = Constructor("make_reciprocals", build_reciprocals)
    make_resized_sum = Constructor("make_resized_sum", build_resized_sum)
    reciprocals = make_reciprocals(9)
    MECHANISMS = [
        Entry("make_buckets", make_buckets,
              examples=(example("make_buckets(99, 10)", "from outputs import make_buckets"),)),
        Entry("make_resized_sum", make_resized_sum),
    ]
    """)


@pytest.fixture
def outputs(tmp_path):
    (tmp_path / "outputs.py").write_text(OUTPUTS)
    return tmp_path / "outputs.py"


@pytest.mark.slow  # over 2 s: make test-slow
def test_an_output_outside_the_domain_at_another_argument_is_refuted(outputs, capsys):
    """Buckets of width 10 fit [0, 99]; at another argument the constructor admits, the last
    bucket's midpoint lies above the bound: the running kernel's output, checked by the domain."""
    assert main(["check", f"{outputs}"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "make_buckets output domain: refuted (confirmed on the running code)" in out
    assert "which VectorDomain(AtomDomain(int, bounds=" in out


def test_a_raise_on_an_admitted_input_is_refuted(outputs, capsys):
    assert main(["check", f"{outputs}:reciprocals"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "output domain: REFUTED (confirmed on the running code)" in out
    assert "the function raises ZeroDivisionError" in out


@pytest.mark.slow  # over 2 s: make test-slow
def test_a_plan_may_build_a_domain(outputs, capsys):
    assert main(["check", f"{outputs}"]) == 1  # make_buckets fails; make_resized_sum passes
    out = capsys.readouterr().out
    assert "make_resized_sum output domain: not proved" not in out
    assert "make_resized_sum privacy: not proved" not in out


def test_only_a_statement_about_the_object_is_refuted(outputs):
    module = load_module(outputs, "outputs_for_refutation")
    owed = [s for s in object_statements("r", module.reciprocals)
            if s.claim is Claim.OUTPUT_DOMAIN][0]
    assert "raises ZeroDivisionError" in refute_object(owed, module.reciprocals, [0]).witness
    about_constructor = [s for s in standard_statements(module.make_reciprocals,
                                                        ObjectKind.TRANSFORMATION)
                         if s.claim is Claim.OUTPUT_DOMAIN][0]
    with pytest.raises(RuleRefused, match="not about"):
        refute_object(about_constructor, module.reciprocals, [0])
    with pytest.raises(RuleRefused, match="returns a member of its output domain"):
        refute_object(owed, module.reciprocals, [5])


def test_a_run_stopped_by_its_time_limit_refutes_nothing(monkeypatch):
    """A function still running at the limit has not raised: the limit's expiry passes through
    the function's own ``except Exception`` and through the rule's, and nothing is refuted."""
    from mechanisms.core import Map, Transformation
    from mechanisms.domains import AtomDomain, VectorDomain
    from mechanisms.metrics import SymmetricDistance
    from obligations.refuters import output_domain

    def stalls(rows):
        try:
            n = 0
            while True:
                n += 1
        except Exception:  # noqa: BLE001 - what a careless kernel would write
            return "caught"

    rows = VectorDomain(AtomDomain(int))
    stalling = Transformation(rows, rows, SymmetricDistance(), SymmetricDistance(), stalls,
                              Map(rule=lambda d_in: d_in))
    owed = [s for s in object_statements("s", stalling) if s.claim is Claim.OUTPUT_DOMAIN][0]
    monkeypatch.setattr(output_domain, "RUN_SECONDS", 0.2)
    with pytest.raises(RuleRefused, match="does not return within 0.2 s on \\[1\\]: nothing is "
                                          "refuted"):
        refute_object(owed, stalling, [1])
