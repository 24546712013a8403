"""The mutation tool (``python -m mutation``): operators, ids, classification, exit codes, and one
tiny end-to-end mutant of ``make_clamp`` checked in an isolated copy."""

from __future__ import annotations

import ast
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mutation.classification import (ClassificationError, Entry, decide, load_classification,
                                     parse_classification)
from mutation.operators import Mutant, find_mutants
from mutation.runner import KILLED, NOT_LOADED, SURVIVED, UNKNOWN, classify, prepare_base, run_mutant

ROOT = Path(__file__).resolve().parent.parent

SNIPPET = '''"""Doc string 1 + 2."""
from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Precondition

LIMIT: int = 2 ** -1074


def kernel(x: int, lower: float = 2.0) -> int:
    """Docstring with 3 numbers."""
    if x < 3 and not x == 4:
        raise ValueError(f"bad {x + 1}", x * 5)
    return ops.minimum(x + 1, div_up(lower, x))


PRECONDITIONS = (
    Precondition("a >= 0", lambda a: ops.le(0, a), lambda a: ValueError("a")),
    Precondition("b < 10", lambda b: ops.lt(b, -10), lambda b: ValueError("b")),
)
'''

EXPECTED = {
    # id: the mutated line (None for a dropped precondition, checked separately)
    "snippet:6:14:constant:2 ** -1074->0": "LIMIT: int = 0",
    "snippet:6:14:constant:2 ** -1074->2 ** -1073": "LIMIT: int = 2 ** -1073",
    "snippet:6:14:constant:2 ** -1074->2 ** -1075": "LIMIT: int = 2 ** -1075",
    "snippet:6:16:arith:**->*": "LIMIT: int = 2 * -1074",
    "snippet:9:35:constant:2.0->0.0": "def kernel(x: int, lower: float = 0.0) -> int:",
    "snippet:9:35:constant:2.0->1.0": "def kernel(x: int, lower: float = 1.0) -> int:",
    "snippet:9:35:constant:2.0->3.0": "def kernel(x: int, lower: float = 3.0) -> int:",
    "snippet:9:35:constant:2.0->4.0": "def kernel(x: int, lower: float = 4.0) -> int:",
    "snippet:11:10:compare:<-><=": "    if x <= 3 and not x == 4:",
    "snippet:11:10:compare:<->>=": "    if x >= 3 and not x == 4:",
    "snippet:11:12:constant:3->0": "    if x < 0 and not x == 4:",
    "snippet:11:12:constant:3->1": "    if x < 1 and not x == 4:",
    "snippet:11:12:constant:3->2": "    if x < 2 and not x == 4:",
    "snippet:11:12:constant:3->4": "    if x < 4 and not x == 4:",
    "snippet:11:12:constant:3->6": "    if x < 6 and not x == 4:",
    "snippet:11:14:boolean:and->or": "    if x < 3 or not x == 4:",
    "snippet:11:18:boolean:not->removed": "    if x < 3 and (x == 4):",
    "snippet:11:24:compare:==->!=": "    if x < 3 and not x != 4:",
    "snippet:11:27:constant:4->0": "    if x < 3 and not x == 0:",
    "snippet:11:27:constant:4->1": "    if x < 3 and not x == 1:",
    "snippet:11:27:constant:4->2": "    if x < 3 and not x == 2:",
    "snippet:11:27:constant:4->3": "    if x < 3 and not x == 3:",
    "snippet:11:27:constant:4->5": "    if x < 3 and not x == 5:",
    "snippet:11:27:constant:4->8": "    if x < 3 and not x == 8:",
    "snippet:13:12:minmax:ops.minimum->ops.maximum": "    return ops.maximum(x + 1, div_up(lower, x))",
    "snippet:13:26:arith:+->-": "    return ops.minimum(x - 1, div_up(lower, x))",
    "snippet:13:28:constant:1->0": "    return ops.minimum(x + 0, div_up(lower, x))",
    "snippet:13:28:constant:1->2": "    return ops.minimum(x + 2, div_up(lower, x))",
    "snippet:13:31:rounding:div_up->/": "    return ops.minimum(x + 1, ((lower) / (x)))",
    "snippet:17:5:drop_precondition:Precondition(a >= 0)->removed": None,
    "snippet:17:38:compare:ops.le->negated":
        '    Precondition("a >= 0", lambda a: ops.lt(a, 0), lambda a: ValueError("a")),',
    "snippet:17:38:compare:ops.le->ops.lt":
        '    Precondition("a >= 0", lambda a: ops.lt(0, a), lambda a: ValueError("a")),',
    "snippet:17:45:constant:0->-1":
        '    Precondition("a >= 0", lambda a: ops.le((-1), a), lambda a: ValueError("a")),',
    "snippet:17:45:constant:0->1":
        '    Precondition("a >= 0", lambda a: ops.le(1, a), lambda a: ValueError("a")),',
    "snippet:18:5:drop_precondition:Precondition(b < 10)->removed": None,
    "snippet:18:38:compare:ops.lt->negated":
        '    Precondition("b < 10", lambda b: ops.le(-10, b), lambda b: ValueError("b")),',
    "snippet:18:38:compare:ops.lt->ops.le":
        '    Precondition("b < 10", lambda b: ops.le(b, -10), lambda b: ValueError("b")),',
    **{f"snippet:18:48:constant:-10->{new}":
       f'    Precondition("b < 10", lambda b: ops.lt(b, {new}), lambda b: ValueError("b")),'
       for new in (-11, -20, -5, -9, 0, 1)},
}


def mutants_by_id(source: str = SNIPPET, module: str = "snippet") -> dict[str, Mutant]:
    return {m.id: m for m in find_mutants(module, source)}


def test_operators_produce_exactly_the_expected_mutants():
    mutants = mutants_by_id()
    assert sorted(mutants) == sorted(EXPECTED)
    for mutant_id, line in EXPECTED.items():
        mutant = mutants[mutant_id]
        mutated = mutant.apply(SNIPPET)
        ast.parse(mutated)
        if line is not None:
            assert mutated.splitlines()[mutant.line - 1] == line, mutant_id
            # only that line changed, the rest keeps its formatting
            others = [(a, b) for a, b in zip(SNIPPET.splitlines(), mutated.splitlines()) if a != b]
            assert len(others) == 1, mutant_id


def test_docstrings_annotations_raise_and_fstrings_are_not_mutated():
    positions = {(m.line, m.col) for m in find_mutants("snippet", SNIPPET)}
    lines = {line for line, _ in positions}
    # lines 1, 10 and 12 hold numbers and operators (a docstring's "1 + 2", "3 numbers", the raise's
    # x + 1 and x * 5), so this can fail; lines 11 and 13 hold the same kinds and are mutated
    assert {11, 13} <= lines
    assert 1 not in lines and 10 not in lines and 12 not in lines   # docstrings, raise
    line9 = SNIPPET.splitlines()[8]
    assert {col for line, col in positions if line == 9} == {line9.index("2.0") + 1}  # not `int`


def test_ids_are_stable_and_independent_of_discovery_order():
    first = [m.id for m in find_mutants("snippet", SNIPPET)]
    again = [m.id for m in find_mutants("snippet", SNIPPET)]
    assert first == again and len(set(first)) == len(first)
    # code appended after the module does not change the ids of the mutants before it
    extended = SNIPPET + "\n\ndef extra(y):\n    return y * 7 - 1\n"
    assert set(first) <= {m.id for m in find_mutants("snippet", extended)}
    # an id is a function of the mutant alone: rebuilding the list in another order changes nothing
    shuffled = find_mutants("snippet", SNIPPET)
    random.Random(0).shuffle(shuffled)
    assert sorted(m.id for m in shuffled) == sorted(first)


def _preconditions(source: str) -> list[str]:
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and node.targets[0].id == "PRECONDITIONS":
            assert isinstance(node.value, ast.Tuple)
            return [e.args[0].value for e in node.value.elts]
    raise AssertionError("no PRECONDITIONS")


@pytest.mark.parametrize("mutant_id, kept", [
    ("snippet:17:5:drop_precondition:Precondition(a >= 0)->removed", ["b < 10"]),
    ("snippet:18:5:drop_precondition:Precondition(b < 10)->removed", ["a >= 0"]),
])
def test_dropped_precondition_removes_exactly_one(mutant_id, kept):
    mutated = mutants_by_id()[mutant_id].apply(SNIPPET)
    assert _preconditions(SNIPPET) == ["a >= 0", "b < 10"]
    assert _preconditions(mutated) == kept
    # nothing else changed: removing the line from the original gives the mutated source
    assert len(mutated.splitlines()) == len(SNIPPET.splitlines()) - 1


def test_dropping_the_only_or_last_precondition_keeps_a_tuple():
    one = 'P = (Precondition("x", f, g),)\n'
    (mutant,) = [m for m in find_mutants("m", one) if m.operator == "drop_precondition"]
    assert mutant.apply(one) == "P = ()\n"
    two = 'P = (a, Precondition("x", f, g))\n'
    (mutant,) = [m for m in find_mutants("m", two) if m.operator == "drop_precondition"]
    assert isinstance(ast.parse(mutant.apply(two)).body[0].value, ast.Tuple)
    trailing = 'P = (a, Precondition("x", f, g),)\n'
    (mutant,) = [m for m in find_mutants("m", trailing) if m.operator == "drop_precondition"]
    value = ast.parse(mutant.apply(trailing)).body[0].value
    assert isinstance(value, ast.Tuple) and len(value.elts) == 1


def test_rounding_up_primitives_become_plain_or_nearest():
    source = ("x = ops.add_up(a, b)\ny = ops.mul_up(a, b)\nz = float_up(q)\nw = ops.ln_up(r)\n"
              "v = ops.sqrt_up(s)\n")
    mutated = {m.id: m.apply(source).splitlines()[m.line - 1] for m in find_mutants("m", source)}
    assert mutated == {
        "m:1:5:rounding:ops.add_up->+": "x = ((a) + (b))",
        "m:2:5:rounding:ops.mul_up->*": "y = ((a) * (b))",
        "m:3:5:rounding:float_up->float_nearest": "z = __import__('_mutation_nearest').float_nearest(q)",
        "m:4:5:rounding:ops.ln_up->ln_nearest": "w = __import__('_mutation_nearest').ln_nearest(r)",
        "m:5:5:rounding:ops.sqrt_up->sqrt_nearest":
            "v = __import__('_mutation_nearest').sqrt_nearest(s)",
    }


def test_nested_operators_get_distinct_ids():
    source = "x = a + b + c\ny = ops.maximum(ops.minimum(x, u), l)\n"
    ids = [m.id for m in find_mutants("m", source)]
    assert "m:1:7:arith:+->-" in ids and "m:1:11:arith:+->-" in ids
    assert "m:2:5:minmax:ops.maximum->ops.minimum" in ids
    assert "m:2:17:minmax:ops.minimum->ops.maximum" in ids


def test_every_catalogue_module_has_unique_ids_and_parsable_mutants():
    total = 0
    for path in sorted((ROOT / "mechanisms").glob("make_*.py")):
        source = path.read_text(encoding="utf-8")
        mutants = find_mutants(path.stem, source)   # raises on a repeated id
        for mutant in mutants:
            ast.parse(mutant.apply(source))
        total += len(mutants)
    assert total > 100


# -- classification --------------------------------------------------------------------------

def test_classification_loader_reads_entries():
    entries = parse_classification('''
[mutant."make_clamp:27:12:constant:1->2"]
class = "larger map"
argument = "2 d_in is still an upper bound"

[mutant."make_x:1:1:constant:1->0"]
class = "hole"
''')
    assert entries["make_clamp:27:12:constant:1->2"].cls == "larger map"
    assert entries["make_x:1:1:constant:1->0"].argument == ""


def test_classification_loader_rejects_an_unknown_class():
    with pytest.raises(ClassificationError, match=r"unknown class 'harmless'.*'equivalent'"):
        parse_classification('[mutant."m:1:1:constant:1->2"]\nclass = "harmless"\n'
                             'argument = "x"\n')


def test_classification_loader_requires_an_argument_for_harmless_classes():
    with pytest.raises(ClassificationError, match="without an argument"):
        parse_classification('[mutant."m:1:1:constant:1->2"]\nclass = "equivalent"\n')


def test_committed_classification_loads():
    load_classification(ROOT / "mutation" / "classification.toml")


def test_exit_code_logic():
    table = {"a": Entry("a", "equivalent", "same"), "h": Entry("h", "hole", ""),
             "gone": Entry("gone", "message", "")}
    assert decide(["a"], table, ["a", "b"]).exit_code == 0
    unclassified = decide(["a", "b"], table, ["a", "b"])
    assert unclassified.exit_code == 1 and unclassified.unclassified == ("b",)
    hole = decide(["h"], table, ["h"])
    assert hole.exit_code == 1 and hole.holes == ("h",)
    stale = decide([], table, ["a", "h"])
    assert stale.exit_code == 0 and stale.stale == ("gone",)


def test_outcomes_from_checker_runs():
    def report(*verdicts: str, problem: str = "") -> dict:
        return {"mechanisms": [{"name": "make_c", "structure_problem": problem, "obligations": [
            {"id": f"c.{i}", "verdict": v} for i, v in enumerate(verdicts)]}]}
    assert classify(0, report("proved"), "make_c", "")[0] == SURVIVED
    assert classify(1, report("proved", "refuted"), "make_c", "")[0] == KILLED
    assert classify(1, report("unknown"), "make_c", "")[0] == UNKNOWN
    assert classify(1, report("error", problem="raised"), "make_c", "")[0] == NOT_LOADED
    assert classify(0, report("proved", problem="raised"), "make_c", "")[0] == NOT_LOADED
    assert classify(1, None, "make_c", "Traceback ...\nSyntaxError: x")[0] == NOT_LOADED
    assert classify(2, None, "make_c", "")[0] == NOT_LOADED
    assert classify(None, None, "make_c", "")[0] == UNKNOWN


def test_a_refuted_statement_kills_a_mutant_of_a_constructor_without_obligations():
    def report(*statements: tuple[bool, object]) -> dict:
        return {"mechanisms": [{"name": "make_c", "obligations": [], "statements": [
            {"claim": f"claim {i}", "proved": proved, "refuted": refuted}
            for i, (proved, refuted) in enumerate(statements)]}]}
    killed = classify(1, report((True, None), (False, {"witness": "w"})), "make_c", "")
    assert killed[:2] == (KILLED, "refuted: make_c: claim 1")
    unknown = classify(1, report((True, None), (False, None)), "make_c", "")
    assert unknown[:2] == (UNKNOWN, "make_c: claim 1 not proved")
    assert classify(0, report((True, None)), "make_c", "")[0] == SURVIVED


def test_usage_errors_exit_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[mutant."x"]\nclass = "nope"\n')
    command = [sys.executable, "-m", "mutation", "--list", "--classification", str(bad)]
    assert subprocess.run(command, cwd=ROOT, capture_output=True).returncode == 2
    command = [sys.executable, "-m", "mutation", "--list", "--only", "make_nothing"]
    assert subprocess.run(command, cwd=ROOT, capture_output=True).returncode == 2


# -- one end-to-end mutant ---------------------------------------------------------------------

@pytest.mark.slow  # over 2 s: make test-slow
def test_a_clamp_map_mutant_is_killed_in_an_isolated_copy(tmp_path):
    """``unit_constant`` returning 0 claims clamping is 0-stable: refuted, in the copy's code."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs the git repository")
    base = prepare_base(ROOT, tmp_path / "base", "HEAD")
    source = (base / "mechanisms" / "make_clamp.py").read_text(encoding="utf-8")
    mutant = next(m for m in find_mutants("make_clamp", source)
                  if m.operator == "constant" and m.replacement == "0"
                  and "return 1" in source.splitlines()[m.line - 1])
    result = run_mutant(mutant, source, base, tmp_path, sys.executable, timeout=30, wall=120)
    assert result.outcome == KILLED, result
    assert "clamp.stability" in result.detail
