"""Obligations of ``make_cast_default``, for each of the 16 casts between ``str``, ``int``, ``float``
and ``bool``, on every row: every float64 (NaN, +-inf, -0.0), every integer, every string, both
bools. The checked forms run each cast's own kernel on a Z3 term of the input type.

Assumption (labelled): parsing and formatting (``float(s)``, ``int(s)``, ``str(x)``) have no Z3
form; they are uninterpreted functions (``ops.opaque``), of which the proof uses only that each is
a deterministic function of its argument with a result of the stated type. The result type of the
Python code is checked on hard inputs by the replay, which can refute, never prove.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.core import Constructor, RowTransform
from mechanisms.make_cast_default import CAST_TYPES, make_cast_default
from mechanisms.metrics import SymmetricDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.reports import (Code, claim_assertion, constructor_report, import_line,
                                 literal, output_report, plain_report, reproducer, returns)
from obligations.row_transforms import (is_row_transform, replay_rows_added,
                                        row_transform_stability, vector_compatibility)
from obligations.symbols import float64, natural, same_element
from obligations.witnesses import witness_goal

SYMBOLS: dict[type, Callable[[str], Any]] = {str: z3.String, int: z3.Int, float: float64,
                                             bool: z3.Bool}

HARD_INPUTS: dict[type, list[Any]] = {
    str: ["nan", "1e400", "  3 ", "", "abc", "-0", "3.5", "1_000", "True"],
    int: [10 ** 400, -10 ** 400, 10 ** 5000, 2 ** 53 + 1, 0, -7],
    float: [math.nan, math.inf, -math.inf, -0.0, 0.0, 1e300, -3.7],
    bool: [True, False],
}
"""Rows on which the replay runs the real code: unparsable, overflowing, special values."""

UNPARSED = "parsing and formatting are uninterpreted functions (deterministic, of the stated type)"

PAIRS = [(a, b) for a in CAST_TYPES for b in CAST_TYPES]


def _shown(from_type: type, to_type: type) -> dict[str, Any]:
    return {"from_type": Code(from_type.__name__), "to_type": Code(to_type.__name__)}


def _replay_hard_inputs(constructor: Constructor, from_type: type, to_type: type):
    """Run the hard rows of ``from_type`` (and the model's row) through the real cast."""
    def replay(model: dict[str, Any]) -> Replay:
        t = constructor(from_type, to_type)
        data = list(HARD_INPUTS[from_type])
        if from_type is not str and "x" in model:
            data.append(from_type(model["x"]))
        output = t(data)
        confirmed = not t.output_domain.member(output)
        return output_report(constructor, _shown(from_type, to_type), data, output, confirmed,
                             f"output domain {t.output_domain}, member: {not confirmed}")
    return replay


def _replay_identity(constructor: Constructor, from_type: type, to_type: type):
    """``[x]`` and ``[y]``, one multiset element, must map to one element."""
    def replay(model: dict[str, Any]) -> Replay:
        t = constructor(from_type, to_type)
        if from_type is str:
            return output_report(constructor, _shown(from_type, to_type), [], [], False,
                                 "string models are not replayed")
        v, w = [from_type(model["x"])], [from_type(model["y"])]
        d_in = t.input_metric.distance(v, w)
        observed = t.output_metric.distance(t(v), t(w))
        return constructor_report(constructor, _shown(from_type, to_type), v, w, d_in,
                                  t.map(d_in), observed, observed > t.map(d_in))
    return replay


def _replay_map(constructor: Constructor) -> Callable[[dict], Replay]:
    """``v = []`` and ``w = [1.0] * d`` are at distance ``d``, and so are their casts to int."""
    def concrete(_: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        return constructor(float, int), _shown(float, int)
    return replay_rows_added(constructor, concrete, lambda _: 1.0)


def _parse(cast: Callable[[str], Any], default: Any) -> Callable[[str], Any]:
    def parse(s: str) -> Any:
        try:
            return cast(s)
        except ValueError:
            return default
    return parse


def _float_of_int(n: int) -> float:
    try:
        return float(n)
    except OverflowError:
        return 0.0


def _int_of_float(x: float) -> int:
    try:
        return int(x)
    except (ValueError, OverflowError):
        return 0


def _text(x: Any) -> str:
    try:
        return str(0.0 if isinstance(x, float) and x == 0 else x)
    except ValueError:
        return ""


DEFAULTS: dict[type, Any] = {str: "", int: 0, float: 0.0, bool: False}
"""What a failed cast returns: the target type's default value (OpenDP's ``T::default()``)."""

SPECIFIED: dict[tuple[type, type], Callable[[Any], Any]] = {
    **{(a, a): (lambda x: x) for a in CAST_TYPES},
    (str, int): _parse(int, DEFAULTS[int]), (str, float): _parse(float, DEFAULTS[float]),
    (str, bool): bool, (int, bool): bool, (float, bool): bool,
    (int, float): _float_of_int, (float, int): _int_of_float,
    (bool, int): int, (bool, float): float,
    (int, str): _text, (float, str): _text, (bool, str): _text,
}
"""Each cast as documented, in Python's own builtins: ``T(x)``, the default where Python raises,
and ``-0.0`` written as ``0.0`` (one multiset element with ``0.0``)."""


def _z3_documented(from_type: type, to_type: type, x: Any, y: Any) -> Any | None:
    """``y`` is the documented cast of the Z3 term ``x``, where the cast has a Z3 form (``None``
    for parsing and formatting)."""
    zero, one = z3.FPVal(0.0, z3.Float64()), z3.FPVal(1.0, z3.Float64())
    if (from_type, to_type) == (float, int):
        return _z3_truncation(x, y)
    documented = {
        (str, bool): lambda: z3.Length(x) > 0,
        (int, bool): lambda: z3.Not(x == 0),
        (float, bool): lambda: z3.Not(z3.fpIsZero(x)),
        (bool, int): lambda: z3.If(x, z3.IntVal(1), z3.IntVal(0)),
        (bool, float): lambda: z3.If(x, one, zero),
        (int, float): lambda: z3.If(z3.fpIsInf(nearest := z3.fpToFP(z3.RNE(), z3.ToReal(x),
                                                                    z3.Float64())),
                                    zero, nearest),
        **{(a, a): lambda: x for a in CAST_TYPES},
    }.get((from_type, to_type))
    return None if documented is None else y == documented()


def _z3_truncation(x: Any, y: Any) -> Any:
    """``y = int(x)`` for a float ``x``: ``0`` for NaN and +-inf, else the integer toward zero,
    ``|y| <= |x| < |y| + 1`` with the sign of ``x``."""
    r, n = z3.fpToReal(x), z3.ToReal(y)
    toward_zero = z3.If(r >= 0, z3.And(n <= r, r < n + 1), z3.And(r <= n, n - 1 < r))
    return z3.If(z3.Or(z3.fpIsNaN(x), z3.fpIsInf(x)), y == 0, toward_zero)


class Raised(str):
    """What the cast gave on a row where it raised (never equal to a documented value)."""


def same_value(a: Any, b: Any) -> bool:
    """Equal values of one type, NaN equal to NaN, ``-0.0`` apart from ``0.0``."""
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or \
            (a == b and math.copysign(1, a) == math.copysign(1, b))
    return type(a) is type(b) and a == b


def _differences(constructor: Constructor, from_type: type, to_type: type,
                 rows: list[Any]) -> list[tuple[Any, Any, Any]]:
    """``(row, cast, specified)`` for every row the real cast maps otherwise than documented (a
    cast that raises on a row gives ``Raised``)."""
    cast = constructor(from_type, to_type)
    spec = SPECIFIED[(from_type, to_type)]
    found = []
    for row in rows:
        try:
            (got,) = cast([row])
        except Exception as error:  # noqa: BLE001 - a raise on a row is a difference
            got = Raised(f"raises {type(error).__name__}")
        if not same_value(got, spec(row)):
            found.append((row, got, spec(row)))
    return found


def _replay_specified(constructor: Constructor, from_type: type, to_type: type):
    """Run the hard rows (and the model's row) through the real cast against the documented one."""
    def replay(model: dict[str, Any]) -> Replay:
        rows = list(HARD_INPUTS[from_type])
        if from_type is not str and "x" in model:
            rows.append(from_type(model["x"]))
        wrong = _differences(constructor, from_type, to_type, rows)
        detail = "; ".join(f"{literal(row)} -> {literal(got)}, documented {literal(spec)}"
                           for row, got, spec in wrong[:3])
        call = f"{constructor.name}({from_type.__name__}, {to_type.__name__})"
        return plain_report(bool(wrong), f"{call} on {len(rows)} rows",
                            detail or "every row cast as documented",
                            *(_specified_reproducer(constructor, call, from_type, to_type,
                                                    wrong[0][0]) if wrong else []))
    return replay


def _specified_reproducer(constructor: Constructor, call: str, from_type: type, to_type: type,
                          row: Any) -> list[str]:
    """The ``reproduce:`` block of a row the real cast maps otherwise than documented."""
    return reproducer(import_line(constructor),
                      "from obligations.make_cast_default import SPECIFIED, same_value",
                      f"row = {literal(row)}",
                      *returns(f"(cast,) = {call}([row])", f"{call} on [{literal(row)}]"),
                      f"documented = SPECIFIED[({from_type.__name__}, {to_type.__name__})](row)",
                      claim_assertion("same_value(cast, documented)",
                                      f"{literal(row)} is cast to {{cast!r}}, documented "
                                      "{documented!r}"))


def _specified_on_rows(constructor: Constructor, from_type: type, to_type: type) -> ComputedGoal:
    def decide() -> Decision:
        wrong = _differences(constructor, from_type, to_type, list(HARD_INPUTS[from_type]))
        if wrong:
            row, got, spec = wrong[0]
            return Decision(False, {"row": literal(row)},
                            f"{literal(row)} -> {literal(got)}, documented {literal(spec)}")
        return Decision(True, detail=f"{len(HARD_INPUTS[from_type])} rows cast as documented")
    return ComputedGoal(f"the cast is the documented one on the hard rows ({from_type.__name__} "
                        f"-> {to_type.__name__})", "evaluated", decide,
                        _replay_specified(constructor, from_type, to_type))


def cast_default_obligations(constructor: Constructor = make_cast_default,
                             prefix: str = "cast_default") -> tuple[Obligation, ...]:
    """The obligations of ``constructor``, which must build casts: vectors to vectors."""
    row_transform = is_row_transform(lambda: [constructor.build(a, b) for a, b in PAIRS],
                                     " (all 16 casts)")
    builds = witness_goal(constructor, {"from_type": str, "to_type": float}, _shown(str, float))

    def returns() -> list[Any]:
        """Each cast, built by the constructor, on its hard rows: returns in its output domain."""
        return [witness_goal(constructor, {"from_type": a, "to_type": b}, _shown(a, b),
                             inputs=[HARD_INPUTS[a]]) for a, b in PAIRS]

    def output_domain_goals() -> list[Any]:
        goals: list[Any] = [row_transform, *returns()]
        for from_type, to_type in PAIRS:
            t = constructor.build(from_type, to_type)
            if not isinstance(t.function, RowTransform):
                return goals
            x = SYMBOLS[from_type]("x")
            y = t.function.scalar(x)
            cast = f"{from_type.__name__} -> {to_type.__name__}"
            replay = _replay_hard_inputs(constructor, from_type, to_type)
            goals += [
                Z3Goal(f"kernel(x) has the sort of {to_type.__name__} ({cast})",
                       is_true(ops.carrier_of(y) is to_type), [], {"x": x}, replay),
                Z3Goal(f"kernel(x) is in the output atom domain ({cast})",
                       is_true(t.output_domain.element.contains(y)),
                       [is_true(t.input_domain.element.contains(x))], {"x": x}, replay),
            ]
        return goals

    def compatibility_goals() -> list[Any]:
        return [builds, compatibility_goal(
            constructor, lambda: [constructor.build(a, b) for a, b in PAIRS],
            {"from_type": str, "to_type": float}, _shown(str, float))]

    def stability_goals() -> list[Any]:
        goals: list[Any] = [row_transform, builds, metric_premise(
            lambda: constructor.build(str, float), SymmetricDistance, SymmetricDistance,
            "lemma.row_transform")]
        for from_type, to_type in PAIRS:
            t = constructor.build(from_type, to_type)
            if not isinstance(t.function, RowTransform):
                return goals
            x, y = SYMBOLS[from_type]("x"), SYMBOLS[from_type]("y")
            goals.append(Z3Goal(
                f"premise of lemma.row_transform: kernel maps one multiset element to one "
                f"({from_type.__name__} -> {to_type.__name__})",
                is_true(same_element(t.function.scalar(x), t.function.scalar(y))),
                [is_true(same_element(x, y)), is_true(t.input_domain.element.contains(x)),
                 is_true(t.input_domain.element.contains(y))],
                {"x": x, "y": y}, _replay_identity(constructor, from_type, to_type)))
        t = constructor.build(float, int)
        d_in, d_in_natural = natural("d_in")
        d, d_natural = natural("d")
        goals.append(Z3Goal(
            "map(d_in) bounds the lemma's d_sym(f(v), f(w)) <= d_sym(v, w) <= d_in",
            is_true(d <= t.map(d_in)), [*d_in_natural, *d_natural, d <= d_in],
            {"d_in": d_in, "d": d}, _replay_map(constructor)))
        return goals

    def specification_goals() -> list[Any]:
        goals: list[Any] = [row_transform]
        for from_type, to_type in PAIRS:
            t = constructor.build(from_type, to_type)
            if not isinstance(t.function, RowTransform):
                return goals
            x = SYMBOLS[from_type]("x")
            claim = _z3_documented(from_type, to_type, x, t.function.scalar(x))
            cast = f"{from_type.__name__} -> {to_type.__name__}"
            if claim is not None:
                goals.append(Z3Goal(f"kernel(x) is the documented cast of x ({cast})",
                                    is_true(claim),
                                    [is_true(t.input_domain.element.contains(x))], {"x": x},
                                    _replay_specified(constructor, from_type, to_type)))
            goals.append(_specified_on_rows(constructor, from_type, to_type))
        return goals

    return (
        Obligation(f"{prefix}.specification", Kind.SPECIFICATION,
                   "Each cast computes the documented function: to_type(x) by Python's rules, "
                   "to_type's default (0, 0.0, '', False) where Python raises, and -0.0 written "
                   "'0.0'. Z3 proves it for every row of the 11 casts with a Z3 form; every cast "
                   "is also run on the hard rows against Python's builtins.",
                   r"\mathtt{function}(v)_i = \mathrm{cast}_{T_{out}}(v_i)",
                   specification_goals,
                   bound="parsing and formatting (str -> int, str -> float, int/float/bool -> "
                         "str) evaluated on the hard rows"),
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every vector of from_type rows, every entry of function(v) is a "
                   "to_type value (a float may be NaN): the kernel's result has the Z3 sort of "
                   "to_type and is in the output atom domain, for each of the 16 casts.",
                   r"\forall v \in \mathrm{Vec}(T_{in}):\ \mathtt{function}(v) \in "
                   r"\mathrm{Vec}(T_{out})",
                   output_domain_goals, assumes=UNPARSED),
        vector_compatibility(prefix, compatibility_goals),
        row_transform_stability(prefix, stability_goals, "each cast's kernel maps one multiset "
                                "element to one (-0.0 and 0.0 included)", assumes=UNPARSED),
    )


IMPORT = "from mechanisms.make_cast_default import make_cast_default"


def catalogue_entry() -> Entry:
    return Entry("make_cast_default", make_cast_default, cast_default_obligations(),
                 "cast rows between str, int, float and bool, with a default where a cast fails",
                 (example("make_cast_default(str, float)", IMPORT),
                  example("make_cast_default(float, int)", IMPORT)), proof=True)
