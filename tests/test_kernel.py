"""The trusted kernel: statements derived from the object, theorems only its rules make, and a gate
that accepts a standard statement only with a theorem of exactly that statement."""

from __future__ import annotations

import dataclasses
import json
import textwrap

import pytest
import z3

from checker.cli import main
from checker.gate import certified_statements
from mechanisms.core import Constructor
from mechanisms.make_clamp import make_clamp
from mechanisms.make_resize import make_resize
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_laplace import make_laplace
from obligations.base import Entry, Kind, Z3Goal
from obligations.catalogue import builtin_catalogue
from obligations.kernel.certify import certify, entry_statements
from obligations.kernel.rules import (RuleRefused, by_reviewed_module,
                                      runtime_errors_from_output_domain)
from obligations.kernel.statements import Claim, ObjectKind, standard_statements
from obligations.kernel.theorems import Theorem, TheoremForgedError
from obligations.make_resize import resize_obligations
from obligations.make_laplace import laplace_obligations


def _proved(obligations):
    return [(o, True) for o in obligations]


T, M = ObjectKind.TRANSFORMATION, ObjectKind.MEASUREMENT


def test_statements_follow_the_kind_of_object():
    claims = {kind: [s.claim for s in standard_statements(make_clamp, kind)] for kind in ObjectKind}
    assert claims[T] == [Claim.OUTPUT_DOMAIN, Claim.COMPATIBILITY, Claim.STABILITY]
    assert claims[M] == [Claim.OUTPUT_DOMAIN, Claim.COMPATIBILITY, Claim.PRIVACY,
                         Claim.RUNTIME_ERRORS]
    privacy = standard_statements(make_discrete_laplace, M)[2].text
    assert "make_discrete_laplace(a).output_measure" in privacy
    assert "make_discrete_laplace(a).map(d_in)" in privacy


def test_two_constructors_of_one_name_are_two_subjects():
    twin = make_clamp.variant("make_clamp", make_clamp.build)
    assert standard_statements(twin, T) != standard_statements(make_clamp, T)


def test_the_kind_is_read_from_a_built_object_before_the_proof_module():
    noisy = Entry("noisy", make_discrete_laplace,
                  resize_obligations(make_discrete_laplace, "noisy"))  # a stability module
    assert {s.claim for s in entry_statements(noisy)} >= {Claim.STABILITY}
    built = make_discrete_laplace(1.0)
    assert {s.claim for s in entry_statements(noisy, built)} >= {Claim.PRIVACY,
                                                                   Claim.RUNTIME_ERRORS}
    assert entry_statements(Entry("lemmas", None, ())) == ()
    annotated = entry_statements(Entry("x", make_clamp, ()))  # build_clamp(...) -> Transformation
    assert [s.claim for s in annotated] == [s.claim for s in standard_statements(make_clamp, T)]

    def unannotated(lower, upper):
        return make_clamp.build(lower, upper)
    unknown = entry_statements(Entry("x", Constructor("make_x", unannotated), ()))
    assert {Claim.STABILITY, Claim.PRIVACY} <= {s.claim for s in unknown}
    sorted_ = entry_statements(Entry("x", make_clamp.variant("make_x", unannotated), ()))
    assert [s.claim for s in sorted_] == [s.claim for s in standard_statements(make_clamp, T)]


def test_only_the_rules_make_theorems():
    statement = standard_statements(make_clamp, T)[2]
    with pytest.raises(TheoremForgedError, match="outside the kernel's rules"):
        Theorem(object(), statement, "mine", ())
    theorem = by_reviewed_module(Claim.STABILITY, T, make_resize, _proved(resize_obligations()))
    with pytest.raises(TheoremForgedError, match="cannot be changed"):
        theorem.rule = "anything"


def test_a_reviewed_module_proves_the_statement_for_its_own_constructor_only():
    obligations = resize_obligations()
    theorem = by_reviewed_module(Claim.STABILITY, T, make_resize, _proved(obligations))
    assert theorem.statement == standard_statements(make_resize, T)[2]
    assert theorem.rests_on(theorem.premises[0].kind) == ["obligations.make_resize"]
    other = make_resize.variant("make_resize", make_resize.build)  # the same name, another subject
    with pytest.raises(RuleRefused, match="no obligation written for make_resize by a reviewed"):
        by_reviewed_module(Claim.STABILITY, T, other, _proved(obligations))
    with pytest.raises(RuleRefused, match="is not proved"):
        by_reviewed_module(Claim.STABILITY, T, make_resize,
                           [(o, o.kind is not Kind.STABILITY) for o in obligations])


def test_a_changed_or_dropped_obligation_is_no_premise():
    obligations = laplace_obligations()
    always = [Z3Goal("true", z3.BoolVal(True))]
    changed = [dataclasses.replace(o, goals=lambda: always) if o.kind is Kind.PRIVACY else o
               for o in obligations]
    with pytest.raises(RuleRefused, match="no obligation written"):
        by_reviewed_module(Claim.PRIVACY, M, make_laplace, _proved(changed))
    without_law = [o for o in obligations if o.kind is not Kind.DISTRIBUTION]
    with pytest.raises(RuleRefused, match="laplace.distribution, which obligations."
                                          "make_laplace wrote with the others, is not "
                                          "checked"):
        by_reviewed_module(Claim.PRIVACY, M, make_laplace, _proved(without_law))


def test_runtime_errors_follow_only_from_a_measurement_output_domain():
    laplace = laplace_obligations()
    domain = by_reviewed_module(Claim.OUTPUT_DOMAIN, M, make_laplace, _proved(laplace))
    errors = runtime_errors_from_output_domain(domain)
    assert errors.statement == standard_statements(make_laplace, M)[3]
    stability = by_reviewed_module(Claim.STABILITY, T, make_resize, _proved(resize_obligations()))
    with pytest.raises(RuleRefused, match="needs the output domain of a measurement"):
        runtime_errors_from_output_domain(stability)


def test_certify_takes_a_theorem_of_exactly_the_statement():
    wanted, other = standard_statements(make_resize, T)[2], standard_statements(make_resize, T)[0]
    theorem = by_reviewed_module(other.claim, T, make_resize, _proved(resize_obligations()))
    [certified] = certify([wanted], [theorem], {})
    assert not certified.proved and certified.why == "no theorem proposed"


@pytest.mark.slow  # over 4 s: make test-slow
def test_every_catalogue_statement_is_certified_once_its_obligations_are_proved():
    from checker.results import ObligationResult, Verdict
    entries = [e for e in builtin_catalogue() if e.constructor is not None]
    results = [ObligationResult(e.name, o.id, o.kind.value, "", "", Verdict.PROVED, 0.0)
               for e in entries for o in e.obligations]
    certified = certified_statements(entries, lambda name: results)
    assert len({name for name, _ in certified}) == len(entries)
    assert all(c.proved for _, c in certified), [c.why for _, c in certified if not c.proved]
    one_refuted = [dataclasses.replace(r, verdict=Verdict.REFUTED)
                   if r.id == "resize.stability" else r for r in results]
    failing = [c for _, c in certified_statements(entries, lambda name: one_refuted) if not c.proved]
    assert [(c.statement.subject, c.statement.claim) for c in failing] == [
        ("make_resize", Claim.STABILITY)]


AUTHORS_OWN_CLAIMS = textwrap.dedent("""
    import z3
    from mechanisms.core import Constructor
    from mechanisms.make_resize import make_resize
    from obligations.base import Entry, Kind, Obligation, Z3Goal

    def trivially():
        return [Z3Goal("true", z3.BoolVal(True))]

    MINE = Constructor("make_mine", make_resize.build, make_resize.preconditions,
                       make_resize.validate)  # not a variant: no reference to inherit from
    MECHANISMS = [Entry("mine", MINE,
                        tuple(Obligation(f"mine.{k.name.lower()}", k, "holds", "x", trivially)
                              for k in (Kind.OUTPUT_DOMAIN, Kind.COMPATIBILITY, Kind.STABILITY)))]
    """)

OTHER_CONSTRUCTORS_PROOF = textwrap.dedent("""
    from dataclasses import replace
    from mechanisms.core import Map
    from mechanisms.make_resize import build_resize, make_resize
    from obligations.base import Entry
    from obligations.make_resize import resize_obligations

    def half(d_in):
        return d_in / 2

    def build_resize_half(size, constant, atom_domain):
        return replace(build_resize(size, constant, atom_domain), stability_map=Map(rule=half))

    make_resize_half = make_resize.variant("make_resize_half", build_resize_half)
    MECHANISMS = [Entry("make_resize_half", make_resize_half,
                        resize_obligations(make_resize, "resize_half"))]
    """)


@pytest.mark.parametrize(("source", "stability", "proved"), [
    (AUTHORS_OWN_CLAIMS, "stability: not proved", 0),
    # the halved map is refuted at the arguments of the catalogue's make_resize example; the
    # variant's reference, make_resize, is checked with it, and only its 3 statements are proved
    (OTHER_CONSTRUCTORS_PROOF, "stability: refuted (confirmed on the running code)", 3)],
    ids=["goals that are True", "the catalogue's proof of another constructor"])
def test_claims_that_prove_nothing_about_the_entry_fail_the_gate(source, stability, proved,
                                                                 tmp_path, capsys):
    module = tmp_path / "claims.py"
    module.write_text(source)
    assert main(["check", str(module)]) == 1
    out = capsys.readouterr().out
    assert stability in out and f" {proved} proved by the kernel's rules" in out


PIPELINES = textwrap.dedent("""
    from dataclasses import replace

    from mechanisms.core import Map, Measurement
    from mechanisms.make_bounded_int_sum import make_bounded_int_sum
    from mechanisms.make_discrete_laplace import make_discrete_laplace


    def make_right():
        return make_bounded_int_sum(0, 10) >> make_discrete_laplace(10.0)


    def hundredth(d_in):
        return d_in / 1000


    def make_replaced_map():
        noise = make_discrete_laplace(10.0)
        return make_bounded_int_sum(0, 10) >> replace(noise, privacy_map=Map(rule=hundredth))


    def make_hand_built():
        noise = make_discrete_laplace(10.0)
        return Measurement(noise.input_domain, noise.output_domain, noise.input_metric,
                           noise.output_measure, noise.function, noise.privacy_map)


    NOT_AN_OBJECT = 3
    """)


@pytest.fixture
def pipelines(tmp_path):
    (tmp_path / "pipelines.py").write_text(PIPELINES)
    return tmp_path / "pipelines.py"


@pytest.mark.slow  # over 2 s: make test-slow
def test_a_pipeline_of_catalogue_constructors_gets_a_certificate(pipelines, capsys):
    assert main(["check", f"{pipelines}:make_right"]) == 0
    out = capsys.readouterr().out
    assert f"certificate of {pipelines}:make_right (measurement):" in out
    assert "  privacy: proved by instance of a proved constructor" in out
    assert ("from the theorems of make_chain_mt, make_discrete_laplace, make_bounded_int_sum, "
            "for every argument each admits") in out


@pytest.mark.parametrize("name, why, privacy", [
    ("make_replaced_map", "was not returned by a Constructor (or was changed since", "REFUTED"),
    ("make_hand_built", "was not returned by a Constructor", "NOT PROVED")])
def test_a_pipeline_with_a_part_not_built_by_a_proved_constructor_fails(pipelines, name, why,
                                                                        privacy, capsys):
    """The replaced map is also wrong (a hundredth of the noise's): the kernel refutes it with
    the exact loss of the running code."""
    assert main(["check", f"{pipelines}:{name}"]) == 1
    out = capsys.readouterr().out
    assert f"privacy: {privacy}" in out and why in out


def test_an_object_target_that_is_not_a_mechanism_is_a_usage_error(pipelines, capsys):
    assert main(["check", f"{pipelines}:NOT_AN_OBJECT"]) == 2
    assert "is of type int, not a transformation or measurement" in capsys.readouterr().err


def test_an_instance_is_rebuilt_from_its_record_before_it_inherits_a_theorem():
    from mechanisms.core import PROVENANCE, Provenance
    from obligations.kernel.rules import instance
    decided = _proved(laplace_obligations())
    theorems = [by_reviewed_module(claim, M, make_laplace, decided)
                for claim in (Claim.OUTPUT_DOMAIN, Claim.COMPATIBILITY, Claim.PRIVACY)]
    theorems.append(runtime_errors_from_output_domain(theorems[0]))
    built = make_laplace(1.0)
    assert [t.statement.claim for t in instance("m", built, theorems, ())] == [
        s.claim for s in standard_statements(make_laplace, M)]
    with pytest.raises(RuleRefused, match="compatibility, privacy are not proved"):
        instance("m", built, [theorems[0], theorems[3]], ())
    forged = make_laplace(5.0)
    object.__setattr__(forged, PROVENANCE, Provenance(make_laplace, make_laplace.arguments(1.0)))
    with pytest.raises(RuleRefused, match="rebuilt from the arguments m records is another"):
        instance("m", forged, theorems, ())


COMPOSED = textwrap.dedent("""
    from mechanisms.core import Constructor
    from mechanisms.make_bounded_int_sum import make_bounded_int_sum
    from mechanisms.make_clamp import make_clamp
    from mechanisms.make_discrete_laplace import make_discrete_laplace
    from obligations.base import Entry


    def build_noisy_sum(lower, upper, scale):
        return make_bounded_int_sum(lower, upper) >> make_discrete_laplace(
            scale * max(abs(lower), abs(upper)))


    def build_branching(lower, upper, scale):
        if scale > 1:
            return make_bounded_int_sum(lower, upper) >> make_discrete_laplace(scale)
        return make_bounded_int_sum(lower, upper) >> make_discrete_laplace(scale / 100)


    def build_indexed(lower, upper, scale):
        return [make_discrete_laplace(scale), make_clamp(lower, upper)][isinstance(scale, float)]


    def build_proved_part(lower, upper, scale):
        return make_clamp(lower, upper) >> make_noisy_sum(lower, upper, scale)


    def build_unproved_part(lower, upper, scale):
        return make_clamp(lower, upper) >> make_unlisted(lower, upper, scale)


    make_noisy_sum = Constructor("make_noisy_sum", build_noisy_sum)
    make_unlisted = Constructor("make_unlisted", build_noisy_sum)
    MECHANISMS = [Entry("noisy_sum", make_noisy_sum)] + [
        Entry(build.__name__, Constructor(build.__name__.replace("build", "make"), build))
        for build in (build_branching, build_indexed, build_proved_part, build_unproved_part)]
    """)


COMPOSED_WRONG = {"build_branching", "build_indexed", "build_unproved_part"}
"""The entries of :data:`COMPOSED` that must not pass."""


@pytest.mark.slow  # over 2 s: make test-slow
def test_a_constructor_composing_proved_constructors_needs_no_claim(tmp_path, capsys):
    module = tmp_path / "composed.py"
    module.write_text(COMPOSED)
    assert main(["check", str(module)]) == 1
    out = capsys.readouterr().out
    unproved = {line.split(" ")[0] for line in out.splitlines() if ": not proved:" in line}
    assert unproved == COMPOSED_WRONG
    for reason in ("make_branching's build is not straight-line: COMPARE_OP at line 15",
                   "make_indexed's build uses the builtin isinstance",
                   "make_unproved_part's build calls make_unlisted, which has no proved"):
        assert reason in out


@pytest.mark.parametrize("leave", ["os._exit(0)", "raise SystemExit(0)"])
def test_an_example_that_ends_the_process_ends_nothing_but_itself(leave, tmp_path, capsys):
    """The gate builds examples in its own process (for the kind, and the proofs at examples):
    an example that exits is a failed example, never the checker's exit code."""
    (tmp_path / "leaves.py").write_text(textwrap.dedent(f"""
        import os
        from mechanisms.core import Constructor
        from mechanisms.make_clamp import build_clamp
        from obligations.base import Entry, Example

        def leave():
            {leave}

        MECHANISMS = [Entry("x", Constructor("make_x", build_clamp), (),
                            examples=(Example("leave()", leave),))]
        """))
    assert main(["check", str(tmp_path / "leaves.py")]) == 1
    assert "3 not proved" in capsys.readouterr().out


PROPOSALS = textwrap.dedent("""
    import z3
    from mechanisms.core import Constructor
    from mechanisms.make_discrete_laplace import make_discrete_laplace
    from mechanisms.make_resize import make_resize
    from obligations.base import ComputedGoal, Decision, Entry, Kind, Obligation, Z3Goal

    def undecided():
        return [ComputedGoal("outside", "structure", lambda: Decision(False, unsupported=True))]

    def false():
        x = z3.Int("x")
        return [Z3Goal("x is 0", x == 0)]

    def proposal(name, goals):
        return (Obligation(f"{name}.privacy", Kind.PRIVACY, "private", "x", goals),)

    MINE = make_discrete_laplace.variant("make_mine", make_discrete_laplace.build)
    RESIZED = Constructor("make_resized", make_resize.build, make_resize.preconditions,
                          make_resize.validate)  # not a variant: no reference to inherit from
    MECHANISMS = [Entry("unknown", MINE, proposal("unknown", undecided)),
                  Entry("refuted", MINE, proposal("refuted", false)),
                  Entry("resized", RESIZED, proposal("resized", undecided))]
    """)


@pytest.mark.parametrize("name, passes", [("unknown", True), ("refuted", False),
                                          ("resized", False)])
def test_an_unknown_proposal_is_not_needed_only_when_the_kernel_proved_every_statement(
        name, passes, tmp_path, capsys):
    """A scalar noise variant that the kernel proves for every argument passes with its proposal
    unknown (not needed); a refuted proposal still fails; an entry whose statements the kernel
    does not prove (no rule for a resize constructor that is not a variant) needs its
    obligations."""
    module = tmp_path / "proposals.py"
    module.write_text(PROPOSALS.replace("MECHANISMS = [", "ALL = [") +
                      f"MECHANISMS = [e for e in ALL if e.name == {name!r}]\n")
    assert main(["check", str(module)]) == (0 if passes else 1)
    out = " ".join(capsys.readouterr().out.split())
    assert (f"not needed: {name}.privacy is unknown" in out) is passes


def test_a_proposal_not_needed_is_skipped_in_junit_with_its_reason(tmp_path, capsys):
    """JUnit agrees with the gate: the unknown proposal that the gate passes over is skipped, not
    failed; a refuted one is a failure."""
    import json

    from checker.report.junit import junit_xml
    module = tmp_path / "proposals.py"
    module.write_text(PROPOSALS.replace("MECHANISMS = [", "ALL = [") +
                      "MECHANISMS = [e for e in ALL if e.name in ('unknown', 'refuted')]\n")
    assert main(["check", str(module), "--json", str(tmp_path / "report.json")]) == 1
    document = json.loads((tmp_path / "report.json").read_text())
    assert document["gate"]["not_needed"] == ["unknown.privacy"]
    xml = junit_xml(document)
    assert 'type="not needed"' in xml and xml.count("<skipped") == 1
    assert 'type="refuted"' in xml



ZERO_ONE_RR = textwrap.dedent("""
    import dataclasses
    from mechanisms.domains import AtomDomain
    from mechanisms.make_randomized_response_bool import (build_randomized_response_bool,
                                                          make_randomized_response_bool)
    from obligations.base import Entry, example
    from obligations.make_randomized_response_bool import randomized_response_bool_obligations

    def build(prob):
        return dataclasses.replace(build_randomized_response_bool(prob),
                                   input_domain=AtomDomain(int, bounds=(0, 1)),
                                   output_domain=AtomDomain(int, bounds=(0, UPPER)))

    make_rr01 = make_randomized_response_bool.variant("make_rr01", build)
    MECHANISMS = [Entry("rr01", make_rr01, randomized_response_bool_obligations(make_rr01, "rr01"),
                        examples=(example("make_rr01(0.75)", "from variant import make_rr01"),))]
    """)
"""Boolean randomized response relabelled to 0/1 ints, with the boolean module's obligations; the
output domain's upper bound ``UPPER`` (1 right; 0 wrong: a released 1 lies outside)."""


@pytest.mark.parametrize("upper, passes", [(1, True), (0, False)])
def test_a_reviewed_module_that_does_not_fit_a_variant_leaves_it_to_the_rules(
        upper, passes, tmp_path, capsys, monkeypatch):
    """A variant that carries its reference's reviewed module, whose goals do not fit it
    (unknown), is proved by the rules at its own examples, bounded: its proposals are not
    needed. The wrong twin is refuted."""
    (tmp_path / "variant.py").write_text(ZERO_ONE_RR.replace("UPPER", str(upper)))
    monkeypatch.syspath_prepend(str(tmp_path))
    report = tmp_path / "report.json"
    assert main(["check", str(tmp_path / "variant.py"), "--json", str(report)]) == \
        (0 if passes else 1)
    out = " ".join(capsys.readouterr().out.split())
    assert ("not needed: rr01.distribution is unknown" in out) is passes
    statements = json.loads(report.read_text())["mechanisms"][0]["statements"]
    if passes:
        assert {s["rule"] for s in statements} == {"proved at its examples"}
        assert all(any(p["text"].endswith("its examples (make_rr01(0.75))") for p in s["rests_on"])
                   for s in statements)
    else:
        assert any(s["refuted"] for s in statements)
