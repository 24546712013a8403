"""The runner: verdicts, time limits, errors and lemma dependencies. Nothing unfinished passes."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
import z3

from checker.results import Verdict
from checker.runner import RunningTasks, Task, apply_dependencies, check_obligation, run_tasks
from obligations.base import ComputedGoal, Decision, Kind, Obligation, Z3Goal


def obligation(goals, id="test.obligation", uses=()):
    return Obligation(id, Kind.LEMMA, "a test obligation", "x", goals, uses=uses)


def sleeping_goal():
    def decide():
        time.sleep(60)
        return Decision(True)
    return ComputedGoal("sleeps for a minute", "sympy", decide)


@pytest.mark.slow  # over 2 s: make test-slow
def test_a_process_past_its_time_limit_is_stopped_and_unknown():
    start = time.monotonic()
    [result] = run_tasks([Task("m", obligation(lambda: [sleeping_goal()]))], seconds=0.5)
    assert result.verdict is Verdict.UNKNOWN
    assert result.message.startswith("time-out")
    assert result.label == "unknown (time-out)"
    assert time.monotonic() - start < 30


def test_a_solver_time_out_is_unknown_not_proved():
    x, y, z = z3.Ints("x y z")
    hard = Z3Goal("no positive cubes add up (Fermat n = 3)", x ** 3 + y ** 3 != z ** 3,
                  [x > 0, y > 0, z > 0], {"x": x})
    result = check_obligation(Task("m", obligation(lambda: [hard])), seconds=0.5)
    assert result.verdict is Verdict.UNKNOWN


def test_goals_that_raise_are_errors():
    def broken():
        raise RuntimeError("cannot build")
    result = check_obligation(Task("m", obligation(broken)), seconds=5)
    assert result.verdict is Verdict.ERROR and "cannot build" in result.message


def test_an_obligation_without_goals_is_an_error():
    result = check_obligation(Task("m", obligation(lambda: [])), seconds=5)
    assert result.verdict is Verdict.ERROR and "no goals" in result.message


def test_refutation_without_replay_is_not_confirmed():
    x = z3.Int("x")
    result = check_obligation(Task("m", obligation(lambda: [Z3Goal("x > 0", x > 0, [], {"x": x})])),
                              seconds=5)
    [goal] = result.goals
    assert goal.verdict is Verdict.REFUTED and goal.confirmed is False
    assert goal.counterexample == {"x": 0}
    assert "no replay" in goal.report
    assert result.label == "refuted (not confirmed)"


def test_an_obligation_is_only_as_proved_as_its_lemma():
    x = z3.Int("x")
    lemma = obligation(lambda: [Z3Goal("x > 0", x > 0, [], {"x": x})], id="lemma.false")
    user = obligation(lambda: [Z3Goal("x = x", x == x)], id="uses.it", uses=("lemma.false",))
    orphan = obligation(lambda: [Z3Goal("x = x", x == x)], id="uses.missing", uses=("lemma.gone",))
    results = run_tasks([Task("m", lemma), Task("m", user), Task("m", orphan)], seconds=10, jobs=2)
    apply_dependencies(results)
    verdicts = {r.id: r for r in results}
    assert verdicts["lemma.false"].verdict is Verdict.REFUTED
    assert verdicts["uses.it"].verdict is Verdict.UNKNOWN
    assert "lemma.false, which is refuted" in verdicts["uses.it"].message
    assert verdicts["uses.missing"].verdict is Verdict.UNKNOWN
    assert "was not checked" in verdicts["uses.missing"].message


def test_parallel_results_keep_task_order():
    x = z3.Int("x")
    tasks = [Task("m", obligation(lambda: [Z3Goal("x = x", x == x)], id=f"o{i}")) for i in range(5)]
    assert [r.id for r in run_tasks(tasks, seconds=10, jobs=3)] == [f"o{i}" for i in range(5)]


def test_obligations_running_meanwhile_give_each_mechanism_its_results_with_its_lemmas():
    """:class:`RunningTasks`: one mechanism's results as soon as they (and the lemmas they use)
    are in, each only as proved as its lemma; every result in the order of the tasks."""
    x = z3.Int("x")
    lemma = obligation(lambda: [Z3Goal("x > 0", x > 0, [], {"x": x})], id="lemma.false")
    middle = obligation(lambda: [Z3Goal("x = x", x == x)], id="lemma.uses_it",
                        uses=("lemma.false",))
    user = obligation(lambda: [Z3Goal("x = x", x == x)], id="uses.it", uses=("lemma.uses_it",))
    other = obligation(lambda: [Z3Goal("x = x", x == x)], id="other")
    running = RunningTasks([Task("n", other), Task("m", user), Task("lemmas", lemma),
                            Task("lemmas", middle)], seconds=10, jobs=2,
                           first=lambda task: task.mechanism != "lemmas")
    [of_m] = running.of("m")
    assert of_m.id == "uses.it" and of_m.verdict is Verdict.UNKNOWN
    assert "lemma.uses_it, which is unknown" in of_m.message
    every = running.all()
    assert [r.id for r in every] == ["other", "uses.it", "lemma.false", "lemma.uses_it"]
    assert "lemma.false, which is refuted" in every[3].message  # not "was not checked"


def test_obligations_whose_manager_dies_are_errors_not_lost():
    """The process running the obligations killed: each result it did not send is an error."""
    def naps():
        time.sleep(2)  # the orphaned worker ends soon after
        return Decision(True)
    running = RunningTasks([Task("m", obligation(lambda: [ComputedGoal("naps", "sympy", naps)]))],
                           seconds=60)
    running._manager.kill()
    [result] = running.all()
    assert result.verdict is Verdict.ERROR
    assert "the process running the obligations died (exit code -9)" in result.message


def test_computed_refutation_is_replayed():
    from obligations.base import Replay
    goal = ComputedGoal("always false", "structure", lambda: Decision(False, {"k": 1}, "because"),
                        lambda cex: Replay(cex["k"] == 1, "replayed k"))
    [result] = check_obligation(Task("m", obligation(lambda: [goal])), seconds=5).goals
    assert result.verdict is Verdict.REFUTED and result.confirmed and result.report == "replayed k"


def _verdict_of(goal):
    return check_obligation(Task("m", obligation(lambda: [goal])), seconds=5)


def test_a_claim_that_is_a_tuple_or_a_lambda_is_an_error_never_proved():
    x = z3.Int("x")
    for claim, hint in (((x > 5, x < 3), "z3.And"), (lambda: x > 5, "call it"), (None, "NoneType"),
                        (1, "int")):
        result = _verdict_of(Z3Goal("g", claim, [], {"x": x}))
        assert result.verdict is Verdict.ERROR, claim
        assert "'g'" in result.message and "not a Z3 Boolean" in result.message
        assert hint in result.message


def test_an_assumption_that_is_not_a_boolean_is_an_error():
    x = z3.Int("x")
    result = _verdict_of(Z3Goal("g", x > 0, [x + 1], {"x": x}))
    assert result.verdict is Verdict.ERROR and "assumption 0" in result.message
    result = _verdict_of(Z3Goal("g", x > 0, x > 1, {"x": x}))
    assert result.verdict is Verdict.ERROR and "list of Booleans" in result.message


def test_a_python_bool_claim_is_a_boolean_and_is_decided():
    assert _verdict_of(Z3Goal("true", True)).verdict is Verdict.PROVED
    assert _verdict_of(Z3Goal("false", False)).verdict is Verdict.REFUTED


def test_a_decision_whose_proved_is_not_a_bool_is_an_error():
    import sympy
    a = sympy.Symbol("a")
    for decision in (sympy.Eq(a, a), Decision(sympy.true), Decision((False,)), (True,)):
        result = _verdict_of(ComputedGoal("c", "sympy", lambda d=decision: d))
        assert result.verdict is Verdict.ERROR, decision
        assert "'c'" in result.message and "Decision" in result.message


def test_a_goal_whose_assumptions_no_value_meets_is_vacuous_not_proved():
    delta = z3.Real("delta")
    vacuous = Z3Goal("anything under 1 < delta < 1", delta > 100, [1 < delta, delta < 1],
                     {"delta": delta})
    result = _verdict_of(vacuous)
    assert result.verdict is Verdict.UNKNOWN
    assert result.label == "unknown (vacuous)"
    satisfiable = Z3Goal("delta < 2 under 0 < delta < 1", delta < 2, [0 < delta, delta < 1])
    assert _verdict_of(satisfiable).verdict is Verdict.PROVED


def _spin() -> None:
    n = 0
    while True:
        n += 1


def test_a_time_limit_is_not_swallowed_by_except_exception_and_limits_nest():
    """The limit passes through the stopped code's ``except Exception`` (a rule counting raises
    must not take it for one), an outer limit passes through an inner block, and an inner one
    stops only its own block."""
    from checker.limits import time_limit
    with pytest.raises(TimeoutError, match="after 0.2 s"):
        with time_limit(0.2):
            try:
                with time_limit(30):
                    try:
                        _spin()
                    except Exception:  # noqa: BLE001 - what careless code writes
                        pass
            except TimeoutError:
                pytest.fail("the outer limit was taken for the inner one")
    with pytest.raises(TimeoutError, match="after 0.4 s"):
        with time_limit(0.4):
            with pytest.raises(TimeoutError, match="after 0.1 s"):
                with time_limit(0.1):
                    _spin()
            _spin()  # the outer limit is still armed


def test_a_one_body_scan_that_raises_fails_only_its_own_obligations(monkeypatch):
    """The one-body goal is decided in the process that forks the workers; if deciding it raises,
    that constructor's workers decide it again and report the error, and the other tasks run."""
    import checker.runner as runner

    def scan(constructor):
        if constructor.name == "broken":
            raise RuntimeError("cannot scan")
        return ComputedGoal("one body", "structure", lambda: Decision(True))
    monkeypatch.setattr(runner, "one_body_goal", scan)
    x = z3.Int("x")
    tasks = [Task("m", obligation(lambda: [Z3Goal("x = x", x == x)], id=f"o{i}"),
                  SimpleNamespace(name=name)) for i, name in enumerate(["broken", "fine"])]
    broken, fine = run_tasks(tasks, seconds=10, jobs=2)
    assert broken.verdict is Verdict.ERROR and "cannot scan" in broken.message
    assert fine.verdict is Verdict.PROVED
