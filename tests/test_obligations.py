"""The shape of the built-in catalogue's obligations: ids, kinds, labels, rounding lemmas. That
each is proved, goal by goal, is ``make check --strict``'s work (CI runs it)."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import z3

from checker.results import Verdict
from obligations.catalogue import builtin_catalogue
from obligations.kernel.certify import entry_statements

OBLIGATIONS = [(entry.name, o) for entry in builtin_catalogue() for o in entry.obligations]


def test_every_catalogue_mechanism_has_the_three_properties():
    """Its obligations state them, or it states none and the kernel's statements are all."""
    for entry in builtin_catalogue():
        if entry.constructor is None:
            continue
        kinds = {o.kind.name for o in entry.obligations} or {
            s.claim.name for s in entry_statements(entry)}
        guarantee = "PRIVACY" if "PRIVACY" in kinds else "STABILITY"
        assert {"OUTPUT_DOMAIN", "COMPATIBILITY", guarantee} <= kinds, entry.name


def test_obligation_ids_are_unique_and_lemmas_exist():
    ids = [o.id for _, o in OBLIGATIONS]
    assert len(ids) == len(set(ids))
    for _, o in OBLIGATIONS:
        assert set(o.uses) <= set(ids), o.id


def test_labels_state_their_assumptions():
    labels = {o.id: (o.bound, o.arithmetic) for _, o in OBLIGATIONS}
    assert labels["partition_map.stability"][1] is None  # linear maps rounded up (issue 7)
    assert labels["bounded_mean.stability"][1] is None  # proved under IEEE-754 (issue 7)
    assert labels["partition_map.output_domain"][0] is not None
    assert labels["clamp.output_domain"] == (None, None)


FLOAT_MAPS = ("laplace", "report_noisy_max", "above_threshold", "randomized_response",
              "zCDP_to_approxDP", "partition_map", "sized_bounded_float_checked_sum",
              "bounded_mean")


def test_every_float_map_has_a_rounding_obligation_its_guarantee_uses():
    by_id = {o.id: o for _, o in OBLIGATIONS}
    for prefix in FLOAT_MAPS:
        assert by_id[f"{prefix}.map_rounding"].kind.name == "ROUNDING"
        guarantees = [o for i, o in by_id.items() if i.startswith(prefix + ".")
                      and o.kind.name in ("PRIVACY", "STABILITY")]
        assert guarantees and all(f"{prefix}.map_rounding" in o.uses for o in guarantees), prefix


def test_code_that_raises_on_solver_terms_gives_one_unknown_goal_not_an_error():
    from checker.computed_backend import decide
    from obligations.base import on_solver_terms

    def numeric_only() -> list:
        return [math.isclose(z3.Real("x"), 1.0)]

    goals = on_solver_terms("output domain (float64)", numeric_only)
    assert len(goals) == 1
    result = decide(goals[0])
    assert result.verdict is Verdict.UNKNOWN
    assert "TypeError" in result.message and "solver proof does not apply" in result.message
    kept = [object()]
    assert on_solver_terms("anything", lambda: kept) is kept


def test_a_witness_input_the_built_domain_refuses_is_unknown_not_an_error():
    """The specification's input (a bool) outside the built domain (ints only): the proof is
    about another domain, so the witness is unknown; it was a checker error before."""
    from dataclasses import replace

    from checker.computed_backend import decide
    from mechanisms.domains import AtomDomain
    from mechanisms.make_randomized_response_bool import (build_randomized_response_bool,
                                                          make_randomized_response_bool)
    from obligations.witnesses import witness_goal

    ints_only = make_randomized_response_bool.variant(
        "make_rrb_ints_only",
        lambda prob: replace(build_randomized_response_bool(prob), input_domain=AtomDomain(int)))
    result = decide(witness_goal(ints_only, {"prob": 0.75}, inputs=[True]))
    assert result.verdict is Verdict.UNKNOWN
    assert "True" in result.message and "not in the built input domain" in result.message


def test_no_constructor_proof_module_imports_another():
    """Reasoning several constructors' proofs share lives in a shared module, never in one
    constructor's: a change to one proof module cannot change what another's obligations say."""
    modules = sorted((Path(__file__).parent.parent / "obligations").rglob("*.py"))
    imports = {(path.stem, node.module) for path in modules
               for node in ast.walk(ast.parse(path.read_text()))
               if isinstance(node, ast.ImportFrom) and node.module
               and node.module.startswith("obligations.make_")}
    assert len(modules) > 50 and not imports, sorted(imports)

