"""Every confirmed refutation's ``reproduce:`` snippet, copied from its bug report, is a test of
the real code: run while the bug is present it fails with an ``AssertionError`` that states the
broken claim, and run against the correct constructor it passes.

The obligations of each wrong twin (tests/twins/*.py, tests/wrong_variants.py) are checked once
per test process, each in a fresh process (the ``checked`` fixture). The snippets run in a fresh
interpreter that imports the packages once and forks a child per snippet (:data:`SERVER`): each
snippet starts from freshly imported modules, so a bug that depends on state kept between calls
(a map memoised across chains) shows only if the snippet itself builds that state, as a reader's
copy would.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from checker.results import ObligationResult, Verdict
from mechanisms.domains import AtomDomain
from obligations.reports import constructor_report, literal, literal_imports, show
from tests import twins, wrong_variants

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = [*wrong_variants.MECHANISMS, *twins.MECHANISMS]
OBLIGATIONS = {o.id: (e, o) for e in ENTRIES for o in e.obligations}
REFUTED = sorted(wrong_variants.EXPECTED_REFUTATIONS | twins.EXPECTED_REFUTATIONS)

SERVER = textwrap.dedent('''
    import io, json, os, signal, sys
    import tests.twins, tests.wrong_variants, obligations.catalogue  # loaded once, then forked
    def run(snippet):
        sys.stdout = sys.stderr = io.StringIO()
        signal.alarm(120)
        try:
            exec(compile(snippet, "<reproducer>", "exec"), {"__name__": "__reproducer__"})
        except BaseException as error:
            return {"kind": type(error).__name__, "message": str(error)}
        return {"kind": "passed", "message": ""}
    for line in sys.stdin:
        read, write = os.pipe()
        child = os.fork()
        if child == 0:
            os.close(read)
            os.write(write, json.dumps(run(json.loads(line))).encode())
            os._exit(0)
        os.close(write)
        with os.fdopen(read) as pipe:
            outcome = pipe.read() or json.dumps({"kind": "crashed", "message": ""})
        os.waitpid(child, 0)
        print(outcome, flush=True)
''')
"""A fresh interpreter: one snippet per input line (JSON), each run in a forked child; one
outcome per output line: the exception's type name (or ``passed``) and its message."""


@dataclass(frozen=True)
class Outcome:
    kind: str
    message: str


@pytest.fixture(scope="module")
def run_snippet() -> Iterator[Callable[[str], Outcome]]:
    """Runs a snippet in :data:`SERVER` (started once per test process)."""
    server = subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def run(snippet: str) -> Outcome:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(json.dumps(snippet) + "\n")
        server.stdin.flush()
        return Outcome(**json.loads(server.stdout.readline()))

    yield run
    assert server.stdin is not None
    server.stdin.close()
    server.wait(timeout=30)


@pytest.fixture(scope="module")
def results(checked) -> Callable[[str], ObligationResult]:
    """The result of checking a twin's obligation, in a fresh process, once per test process."""
    return checked


def snippet_of(report: str) -> str | None:
    """The ``reproduce:`` block of a bug report, dedented: the lines after the ``reproduce:``
    line that are indented deeper than it (as copied from a log)."""
    lines = report.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == "reproduce:"), None)
    if start is None:
        return None
    depth = len(lines[start]) - len(lines[start].lstrip())
    body = []
    for line in lines[start + 1:]:
        if not line.strip() or len(line) - len(line.lstrip()) <= depth:
            break
        body.append(line)
    return textwrap.dedent("\n".join(body))


def confirmed_snippets(result: ObligationResult) -> list[tuple[str, str | None]]:
    """``(goal name, snippet)`` of each refuted goal whose replay confirmed the violation."""
    return [(g.name, snippet_of(g.report)) for g in result.goals
            if g.verdict is Verdict.REFUTED and g.confirmed]


def assert_reproducers_fail(obligation_id: str, result: ObligationResult,
                            run_snippet: Callable[[str], Outcome]) -> None:
    """Each confirmed refutation of ``result`` has a reproducer that compiles and fails with an
    ``AssertionError`` with a message (not another exception, not a pass)."""
    found = confirmed_snippets(result)
    assert found, f"{obligation_id}: no confirmed refutation; its goals: " + "; ".join(
        f"{g.name}: {g.verdict.value}, confirmed {g.confirmed}, {g.message} {g.report}"
        for g in result.goals if g.verdict is not Verdict.PROVED) + f"; {result.message}"
    for goal, snippet in found:
        assert snippet, f"{goal}: the bug report has no reproducer"
        compile(snippet, f"<reproducer of {obligation_id}>", "exec")
        outcome = run_snippet(snippet)
        assert outcome.kind == "AssertionError" and outcome.message, (goal, outcome, snippet)


@pytest.mark.slow
@pytest.mark.parametrize("obligation_id", REFUTED)
def test_reproducer_fails_with_an_assertion_while_the_bug_is_present(obligation_id, results,
                                                                     run_snippet):
    """Every wrong twin (the handful of :data:`CORRECT` also in ``make test``)."""
    assert_reproducers_fail(obligation_id, results(obligation_id), run_snippet)


CORRECT = {
    "clamp_half_map.stability": "mechanisms.make_clamp:make_clamp",
    "clamp_nan_leak.output_domain": "mechanisms.make_clamp:make_clamp",
    "bounded_mean_quarter.stability": "mechanisms.make_bounded_mean:make_bounded_mean",
    "mean_seed_map.stability": "mechanisms.make_bounded_mean:make_bounded_mean",
    "sized_float_sum_naive_map.stability":
        "mechanisms.make_sized_bounded_float_checked_sum:make_sized_bounded_float_checked_sum",
    "partition_map_seed_max.stability": "mechanisms.make_partition_map:make_partition_map",
    "rr_two_category_map.privacy": "mechanisms.make_randomized_response:make_randomized_response",
    "rr_flipped_prob.distribution": "mechanisms.make_randomized_response:make_randomized_response",
    "laplace_no_relaxation.privacy": "mechanisms.make_laplace:make_laplace",
    "rnm_half_map.privacy": "mechanisms.make_report_noisy_max:make_report_noisy_max",
    "rnm_nearest_map.map_rounding": "mechanisms.make_report_noisy_max:make_report_noisy_max",
    "at_query_noise.privacy": "mechanisms.make_above_threshold:make_above_threshold",
    "zcdp_half_root.privacy": "mechanisms.make_zCDP_to_approxDP:make_zCDP_to_approxDP",
    "pure_at_one.privacy": "mechanisms.make_pureDP_to_approxDP:make_pureDP_to_approxDP",
    "approx_max_epsilon.privacy":
        "mechanisms.make_approxDP_composition:make_approxDP_composition",
    "select_half_map.stability": "mechanisms.make_select_column:make_select_column",
    "select_next_column.specification": "mechanisms.make_select_column:make_select_column",
}
"""Twins whose reproducers name their constructor, and the catalogue constructor they mimic."""


def with_correct_constructor(snippet: str, twin: str, correct: str) -> str:
    """``snippet`` with its import of the twin ``twin`` replaced by the import of ``correct``
    (``module:name``) under the twin's name."""
    module, name = correct.split(":")
    lines = snippet.splitlines()
    index = next(i for i, line in enumerate(lines)
                 if line.startswith("from ") and f" import {twin}" in line
                 or f"import MECHANISMS; {twin} = " in line)
    lines[index] = f"from {module} import {name} as {twin}"
    return "\n".join(lines)


@pytest.mark.parametrize("obligation_id", sorted(CORRECT))
def test_reproducer_fails_on_the_twin_and_passes_on_the_correct_constructor(obligation_id,
                                                                             results, run_snippet):
    """A snippet that always fails would be a false alarm: with the import swapped to the
    catalogue constructor, the same snippet passes."""
    assert_reproducers_fail(obligation_id, results(obligation_id), run_snippet)
    twin = OBLIGATIONS[obligation_id][0].constructor.name
    for goal, snippet in confirmed_snippets(results(obligation_id)):
        assert snippet is not None
        fixed = with_correct_constructor(snippet, twin, CORRECT[obligation_id])
        assert fixed != snippet
        outcome = run_snippet(fixed)
        assert outcome.kind == "passed", (goal, outcome, fixed)


@pytest.mark.parametrize("value", [
    10 ** 5000, -(10 ** 400) - 7, 2 ** 1074, 3 ** 700, Fraction(1, 2 ** 1074),
    Fraction(-(10 ** 400), 3), float("nan"), float("-inf"), -0.0, [1.5, (2,), {"a": 10 ** 999}],
    float, AtomDomain(float, bounds=(0.0, 1.0))], ids=lambda value: type(value).__name__)
def test_literal_is_source_that_evaluates_back(value):
    """Huge ints stay valid source (``repr`` of an int past 4300 digits raises), and short."""
    source = literal(value)
    assert "\n" not in source and len(source) < 400, source
    namespace: dict[str, Any] = {}
    exec("\n".join(["from fractions import Fraction", *literal_imports(value)]), namespace)
    back = eval(source, namespace)
    assert repr(back) == repr(value) if isinstance(value, float) else back == value


def test_reproducer_with_a_huge_value_is_valid_and_fails(run_snippet):
    """A stability report on a value far past Python's int-to-string limit (``repr`` raises):
    its snippet is valid Python, short, and fails on the violation it reports."""
    t = wrong_variants.make_clamp_half_map(lower=0, upper=10 ** 5000)
    v, w = [10 ** 5000], []
    replay = constructor_report(wrong_variants.make_clamp_half_map,
                                {"lower": 0, "upper": 10 ** 5000}, v, w, 1, t.map(1),
                                t.output_metric.distance(t(v), t(w)), True)
    snippet = snippet_of(replay.report)
    assert snippet is not None and "10 ** 5000" in snippet
    assert max(len(line) for line in snippet.splitlines()) < 200
    outcome = run_snippet(snippet)
    assert outcome.kind == "AssertionError", outcome
    assert outcome.message.startswith("d_out = 1 > map(1) = 0.5"), outcome


def test_a_counterexample_beyond_the_floats_is_shown_not_raised():
    """A model's rational past the largest float (Z3 gives such models) is written exactly, with
    a few digits beside it, where a float would overflow."""
    assert show(Fraction(1, 16)) == "1/16 (= 0.0625)"
    huge = show(Fraction(10 ** 400, 3))
    assert huge.startswith("1" + "0" * 400 + "/3") and huge.endswith("(~ 3.333e+399)")
