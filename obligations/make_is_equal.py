"""Obligations of ``make_is_equal``, for every row and every admitted ``value`` of each atom type:
every float64 (NaN, +-inf, -0.0 and subnormals included), every integer, every string, both
bools. The checked forms run the constructor's own ``build`` on Z3 terms of the value's type: its
kernel, its domains and its map.

The specification (``is_equal.specification``) is stated here, apart from the mechanism: IEEE-754
equality of binary64 floats written from its definition (IEEE 754-2019 §5.11: NaN is unordered
with everything, itself included; ``-0.0`` and ``+0.0`` compare equal; otherwise two floats are
equal exactly when they denote the same extended real, which for binary64 is the same encoding,
§3.4), not with ``z3.fpEQ`` or Python's ``==`` that the kernel runs; value equality on ``int``,
``str`` and ``bool``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.core import Constructor, RowTransform
from mechanisms.make_is_equal import IS_EQUAL_TYPES, make_is_equal
from mechanisms.metrics import SymmetricDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true, on_solver_terms)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.reports import (claim_assertion, constructor_call, import_line, literal,
                                 plain_report, reproducer, returns)
from obligations.row_transforms import (Concrete, admits, is_row_transform, kernel_agreement,
                                        replay_output_domain, replay_pair, replay_rows_added,
                                        row_transform_stability, vector_compatibility)
from obligations.symbols import model_value, natural, same_element
from obligations.witnesses import excluded_goals, witness_goal

ATOMS: dict[str, type] = {"float64": float, "int": int, "str": str, "bool": bool}
"""The atom types the obligations quantify over, by the name the goals use."""

WITNESS_VALUES: dict[type, Any] = {float: 0.0, int: 3, str: "a", bool: True}
"""A valid value of each type: the witness builds, and the default of a replay."""

HARD_ROWS: dict[type, list[Any]] = {
    float: [0.0, -0.0, float("nan"), float("inf"), float("-inf"), 5e-324, -5e-324, 1.0,
            1e308],
    int: [3, -3, 0, 10 ** 30, -(10 ** 30), 2 ** 63],
    str: ["a", "", "A", "a ", "\x00", "é", "aa"],
    bool: [True, False],
}
"""Rows the witnesses and the evaluated specification run through the real transformation."""

AGREEMENT_VALUES: dict[type, list[Any]] = {
    float: [1.5, -0.0, float("inf")], int: [1000, 10 ** 30, -7], str: ["ab", ""],
    bool: [True, False]}
"""Values whose comparison with every hard row, and with the value itself and an equal copy of
it (another object: ints past CPython's small-int cache, strings of two or more characters),
is run on the real kernel and on its solver form (:func:`kernel_agreement`)."""


def atom(name: str, carrier: type) -> Any:
    """A solver constant standing for any value of ``carrier`` (a float64 may be NaN)."""
    return z3.Const(name, ops.sort_of(carrier))


def specified_equal(x: Any, value: Any) -> Any:
    """The checker's statement of ``x == value`` on Z3 terms of one sort. Floats: neither is NaN,
    and both are zeros (of either sign) or both have the same encoding. Binary64 encodes every
    non-NaN extended real by exactly one bit pattern, zero excepted, which has two (IEEE 754-2019
    §3.4), so the same encoding is the same real or the same infinity; Z3's ``=`` on floating-point
    terms is that identity of encodings (SMT-LIB's FloatingPoint theory: ``+0 = -0`` is false,
    ``NaN = NaN`` true), not IEEE equality. Other sorts: the same value."""
    if isinstance(x.sort(), z3.FPSortRef):
        return z3.And(z3.Not(z3.fpIsNaN(x)), z3.Not(z3.fpIsNaN(value)),
                      z3.Or(z3.And(z3.fpIsZero(x), z3.fpIsZero(value)), x == value))
    return x == value


def documented_equal(x: Any, value: Any) -> bool:
    """:func:`specified_equal` on Python values, for replays: floats compared as the extended
    reals they denote (exact rationals), NaN equal to nothing; other atoms by value."""
    if isinstance(x, float) and isinstance(value, float):
        if math.isnan(x) or math.isnan(value):
            return False
        if math.isinf(x) or math.isinf(value):
            return math.isinf(x) and math.isinf(value) and (x > 0) == (value > 0)
        return Fraction(x) == Fraction(value)
    return type(x) is type(value) and x == value


def _symbolic(constructor: Constructor, carrier: type) -> tuple[Any, dict[str, Any], list[Any]]:
    """The constructor's ``build`` on a symbolic value of ``carrier``, and its preconditions."""
    arguments = {"value": atom("value", carrier)}
    return constructor.build(**arguments), arguments, constructor.assumptions(**arguments)


def _concrete(constructor: Constructor, carrier: type) -> Concrete:
    def concrete(counterexample: dict[str, Any]) -> tuple[Any, dict]:
        solved = counterexample.get("value")
        arguments = {"value": WITNESS_VALUES[carrier] if solved is None
                     else model_value(carrier, solved)}
        return constructor(**arguments), arguments
    return concrete


def _row(carrier: type, name: str) -> Callable[[dict[str, Any]], Any]:
    return lambda model: model_value(carrier, model[name])


def _kernel_differences(constructor: Constructor, value: Any, rows: list[Any]
                        ) -> list[tuple[Any, Any, bool]]:
    """``(row, output, documented)`` for every row the real transformation built on ``value``
    answers otherwise than :func:`documented_equal` (a non-bool answer is a difference)."""
    output = constructor(value=value)(rows)
    return [(row, got, documented_equal(row, value)) for row, got in zip(rows, output)
            if type(got) is not bool or got != documented_equal(row, value)]


def _specified_reproducer(constructor: Constructor, value: Any, row: Any) -> list[str]:
    call = constructor_call(constructor, value=value)
    return reproducer(import_line(constructor),
                      "from obligations.make_is_equal import documented_equal",
                      f"row, value = {literal(row)}, {literal(value)}",
                      f"t = {call}",
                      *returns("(got,) = t([row])", f"{call} on [{literal(row)}]"),
                      "documented = documented_equal(row, value)",
                      claim_assertion("type(got) is bool and got == documented",
                                      f"{call} maps {literal(row)} to {{got!r}}, documented "
                                      "{documented!r}"))


def _replay_specified(constructor: Constructor, carrier: type) -> Callable[[dict], Replay]:
    """The real transformation, built on the model's value, on the model's row and the hard
    rows, against the specified equality."""
    concrete = _concrete(constructor, carrier)

    def replay(model: dict[str, Any]) -> Replay:
        _, arguments = concrete(model)
        value = arguments["value"]
        solved = [model_value(carrier, model["x"])] if "x" in model else []
        rows = solved + [row for row in HARD_ROWS[carrier]
                         if literal(row) not in map(literal, solved)]
        wrong = _kernel_differences(constructor, value, rows)
        call = constructor_call(constructor, **arguments)
        detail = "; ".join(f"{literal(row)} -> {literal(got)}, documented {literal(spec)}"
                           for row, got, spec in wrong[:3])
        return plain_report(bool(wrong), f"{call} on {len(rows)} rows",
                            detail or "every row answered as specified",
                            *(_specified_reproducer(constructor, value, wrong[0][0])
                              if wrong else []))
    return replay


def _replay_matched(constructor: Constructor, carrier: type) -> Callable[[dict], Replay]:
    """The real transformation, built on the model's value, on the one-row vector ``[value]``:
    the row equal to the value must be matched."""
    concrete = _concrete(constructor, carrier)

    def replay(model: dict[str, Any]) -> Replay:
        t, arguments = concrete(model)
        value = arguments["value"]
        output = t([value])
        call = constructor_call(constructor, **arguments)
        confirmed = output != [True] or type(output[0]) is not bool
        return plain_report(confirmed, f"{call} on [{literal(value)}]",
                            f"output {literal(output)}, the row equal to the value "
                            + ("not matched" if confirmed else "matched"),
                            *reproducer(import_line(constructor),
                                        f"value = {literal(value)}",
                                        f"t = {call}",
                                        *returns("output = t([value])", f"{call} on [value]"),
                                        claim_assertion("output == [True] and output[0] is True",
                                                        f"{call} maps the row {literal(value)}, "
                                                        "equal to the value, to {output!r}, not "
                                                        "[True]")))
    return replay


def _specified_on_rows(constructor: Constructor) -> ComputedGoal:
    """Every non-NaN hard row as the value, every hard row of its type as data: the running
    code answers as specified."""
    def cases() -> list[tuple[type, Any]]:
        """The non-NaN hard rows the constructor accepts as the value (a stricter precondition
        may refuse some, +-inf say: nothing is claimed of those)."""
        return [(carrier, value) for carrier in IS_EQUAL_TYPES for value in HARD_ROWS[carrier]
                if not ops.is_nan(value) and admits(constructor, {"value": value})]

    def decide() -> Decision:
        if not cases():
            return Decision(False, detail="the constructor refuses every sampled value",
                            unsupported=True)
        for carrier, value in cases():
            try:
                wrong = _kernel_differences(constructor, value, HARD_ROWS[carrier])
            except Exception as error:  # noqa: BLE001 - the mechanism's code, whatever it raises
                return Decision(False, {"value": value, "raised": f"{type(error).__name__}"},
                                f"value {literal(value)}: the running code raises "
                                f"{type(error).__name__} ({error}) on the hard rows, so it "
                                "answers nothing there (the output domain is refuted)",
                                unsupported=True)
            if wrong:
                row, got, spec = wrong[0]
                return Decision(False, {"value": value, "x": row},
                                f"value {literal(value)}: {literal(row)} -> {literal(got)}, "
                                f"documented {literal(spec)}")
        return Decision(True, detail=f"{len(cases())} values, each on the hard rows of its type, "
                        "answered as specified")

    def replay(model: dict[str, Any]) -> Replay:
        value, row = model["value"], model["x"]
        wrong = _kernel_differences(constructor, value, [row])
        call = constructor_call(constructor, value=value)
        return plain_report(bool(wrong), f"{call} on [{literal(row)}]",
                            f"answer {literal(wrong[0][1])}, documented {literal(wrong[0][2])}"
                            if wrong else "answered as specified",
                            *(_specified_reproducer(constructor, value, row) if wrong else []))

    return ComputedGoal("the running code answers as specified on the hard rows (every non-NaN "
                        "hard row as the value)", "evaluated", decide, replay)


def is_equal_obligations(constructor: Constructor = make_is_equal,
                         prefix: str = "is_equal") -> tuple[Obligation, ...]:
    """The obligations of ``constructor``, which must build comparisons: vectors to vectors."""
    row_transform = is_row_transform(
        lambda: [constructor.build(value=WITNESS_VALUES[c]) for c in IS_EQUAL_TYPES],
        " (float, int, str and bool values)")
    builds = witness_goal(constructor, {"value": 0.0})
    agreement = kernel_agreement(
        constructor, lambda carrier, _: _symbolic(constructor, carrier)[:2],
        [({"value": value}, row) for carrier in IS_EQUAL_TYPES
         for value in AGREEMENT_VALUES[carrier] for row in (value, *HARD_ROWS[carrier])])

    def kernel_in_domain(name: str, carrier: type) -> list[Any]:
        """The kernel's output on a symbolic row of ``carrier``: a bool of the output domain."""
        t, arguments, assumptions = _symbolic(constructor, carrier)
        if not isinstance(t.function, RowTransform):
            return []
        x = atom("x", carrier)
        y = t.function.scalar(x)
        domain = [*assumptions, is_true(t.input_domain.element.contains(x))]
        replay = replay_output_domain(constructor, _concrete(constructor, carrier),
                                      _row(carrier, "x"))
        return [
            Z3Goal(f"kernel(x) has the sort of the output atom type "
                   f"{t.output_domain.element.carrier.__name__}, for every {name} x",
                   is_true(ops.carrier_of(y) is t.output_domain.element.carrier), domain,
                   {**arguments, "x": x}, replay),
            Z3Goal(f"kernel(x) is in the output atom domain, for every {name} x",
                   is_true(t.output_domain.element.contains(y)), domain,
                   {**arguments, "x": x}, replay),
        ]

    def output_domain_goals() -> list[Any]:
        goals: list[Any] = [
            row_transform,
            *[witness_goal(constructor, {"value": WITNESS_VALUES[c]}, inputs=[[], HARD_ROWS[c]])
              for c in IS_EQUAL_TYPES],
            *excluded_goals(constructor, [
                ({"value": None}, "a value of no atom type"),
                ({"value": 1j}, "a complex value"),
                ({"value": b"a"}, "bytes, not str"),
                ({"value": [0.0]}, "a vector, not an atom")],
                inputs=[[], *HARD_ROWS.values()])]
        for name, carrier in ATOMS.items():
            goals += on_solver_terms(f"output domain ({name})",
                                     lambda n=name, c=carrier: kernel_in_domain(n, c))
        return goals

    def compatibility_goals() -> list[Any]:
        return [builds, compatibility_goal(
            constructor, lambda: [_symbolic(constructor, c)[0] for c in ATOMS.values()],
            {"value": 0.0})]

    def kernel_stability(name: str, carrier: type) -> list[Any]:
        """The lemma's premise on the kernel, and the map's bound, for rows of ``carrier``."""
        goals: list[Any] = []
        t, arguments, assumptions = _symbolic(constructor, carrier)
        concrete = _concrete(constructor, carrier)
        if isinstance(t.function, RowTransform):
            x, y = atom("x", carrier), atom("y", carrier)
            goals.append(Z3Goal(
                f"premise of lemma.row_transform: kernel maps one multiset element to one "
                f"({name})",
                is_true(same_element(t.function.scalar(x), t.function.scalar(y))),
                [*assumptions, is_true(same_element(x, y)),
                 is_true(t.input_domain.element.contains(x)),
                 is_true(t.input_domain.element.contains(y))],
                {**arguments, "x": x, "y": y},
                replay_pair(constructor, concrete, lambda model, c=carrier: (
                    [model_value(c, model["x"])], [model_value(c, model["y"])]))))
        d_in, d_in_natural = natural("d_in")
        d, d_natural = natural("d")
        goals.append(Z3Goal(
            f"map(d_in) bounds the lemma's d_sym(f(v), f(w)) <= d_sym(v, w) <= d_in ({name})",
            is_true(d <= t.map(d_in)), [*assumptions, *d_in_natural, *d_natural, d <= d_in],
            {**arguments, "d_in": d_in, "d": d},
            replay_rows_added(constructor, concrete,
                              lambda model, c=carrier: concrete(model)[1]["value"])))
        return goals

    def stability_goals() -> list[Any]:
        goals: list[Any] = [row_transform, builds, metric_premise(
            lambda: constructor.build(value=0.0), SymmetricDistance, SymmetricDistance,
            "lemma.row_transform"), agreement]
        for name, carrier in ATOMS.items():
            goals += on_solver_terms(f"stability ({name})",
                                     lambda n=name, c=carrier: kernel_stability(n, c))
        return goals

    def kernel_specification(name: str, carrier: type) -> list[Any]:
        """The kernel on a symbolic row of ``carrier`` is the specified equality."""
        t, arguments, assumptions = _symbolic(constructor, carrier)
        if not isinstance(t.function, RowTransform):
            return []
        x = atom("x", carrier)
        y = t.function.scalar(x)
        is_bool = ops.carrier_of(y) is bool
        return [
            Z3Goal(f"kernel(x) is the bool x == value ("
                   f"{'IEEE-754' if carrier is float else 'value'} equality), for every "
                   f"{name} x",
                   y == specified_equal(x, arguments["value"]) if is_bool else is_true(False),
                   [*assumptions, is_true(t.input_domain.element.contains(x))],
                   {**arguments, "x": x}, _replay_specified(constructor, carrier)),
            Z3Goal(f"the value is matched: kernel(value) is True, for every admitted {name} "
                   "value",
                   t.function.scalar(arguments["value"]) if is_bool else is_true(False),
                   [*assumptions, is_true(t.input_domain.element.contains(arguments["value"]))],
                   dict(arguments), _replay_matched(constructor, carrier)),
        ]

    def specification_goals() -> list[Any]:
        goals: list[Any] = [row_transform, _specified_on_rows(constructor)]
        for name, carrier in ATOMS.items():
            goals += on_solver_terms(f"specification ({name})",
                                     lambda n=name, c=carrier: kernel_specification(n, c))
        return goals

    return (
        Obligation(f"{prefix}.specification", Kind.SPECIFICATION,
                   "function(v)_i is True exactly when v_i == value: IEEE-754 equality on floats "
                   "(NaN equals nothing, -0.0 equals 0.0, infinities by sign, otherwise the same "
                   "real), value equality on int, str and bool; and every admitted value is "
                   "matched by a row equal to it (so value is not NaN).",
                   r"\mathtt{function}(v)_i = [v_i =_{\mathrm{IEEE}} \mathtt{value}],\ "
                   r"\mathtt{function}([\mathtt{value}]) = [\mathrm{True}]",
                   specification_goals),
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every vector the input domain admits (any float, NaN and +-inf included, "
                   "any int, str or bool), every entry of function(v) is a bool.",
                   r"\forall v \in \mathrm{Vec}(T):\ \mathtt{function}(v) \in "
                   r"\mathrm{Vec}(\mathtt{bool})",
                   output_domain_goals),
        vector_compatibility(prefix, compatibility_goals),
        row_transform_stability(prefix, stability_goals,
                                "its kernel maps one multiset element to one (-0.0 and 0.0, "
                                "and every NaN, alike)"),
    )


IMPORT = "from mechanisms.make_is_equal import make_is_equal"


def catalogue_entry() -> Entry:
    return Entry("make_is_equal", make_is_equal, is_equal_obligations(),
                 "map every row to the bool row == value",
                 (example("make_is_equal(0.0)", IMPORT), example("make_is_equal('a')", IMPORT)),
                 proof=True)
