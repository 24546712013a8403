"""What the obligations of row-by-row transformations share (clamp, impute, cast, drop NaN).

Such a transformation maps vectors to vectors under symmetric distance. Its stability follows from
``lemma.row_transform`` once its function is a ``RowTransform`` whose kernel maps one multiset
element to one; replays run counterexamples through the real transformation on one-row vectors
or on ``[] vs [row] * d``.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

import z3

from mechanisms import ops
from mechanisms.core import Constructor, RowTransform
from mechanisms.errors import ConstructorError
from obligations.base import ComputedGoal, Decision, Kind, Obligation, Replay
from obligations.kernels import kernel_deviations
from obligations.reports import Code, constructor_report, literal, output_report

Concrete = Callable[[dict[str, Any]], tuple[Any, dict[str, Any]]]
"""A counterexample to ``(transformation, the arguments it was built with)``."""


def is_row_transform(builds: Callable[[], Iterable[Any]], scope: str = "") -> ComputedGoal:
    """The premise of the scalar proofs: every built transformation's function is
    ``RowTransform``'s own code (:func:`obligations.kernels.kernel_deviations`: no subclass member
    or instance attribute replaces one); otherwise the proof does not apply (unknown)."""
    def decide() -> Decision:
        for built in builds():
            deviations = kernel_deviations(built.function, RowTransform)
            if deviations:
                return Decision(False, {"function": repr(built.function),
                                        "deviations": "; ".join(deviations)},
                                "function does not run RowTransform's code (" + "; ".join(deviations)
                                + "), so its output is not the kernel's, row by row; the scalar "
                                "proof does not apply", unsupported=True)
        return Decision(True, detail="function is RowTransform(kernel), no member overridden")
    return ComputedGoal(f"function applies one scalar kernel to every row{scope}", "structure",
                        decide)


def replay_output_domain(constructor: Constructor, concrete: Concrete,
                         row: Callable[[dict[str, Any]], Any]) -> Callable[[dict], Replay]:
    """The real transformation on the one-row vector ``[row(counterexample)]``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = concrete(counterexample)
        data = [row(counterexample)]
        output = t(data)
        confirmed = not t.output_domain.member(output)
        return output_report(constructor, arguments, data, output, confirmed,
                             f"output domain {t.output_domain}, member: {not confirmed}")
    return replay


def replay_pair(constructor: Constructor, concrete: Concrete,
                rows: Callable[[dict[str, Any]], tuple[list[Any], list[Any]]]
                ) -> Callable[[dict], Replay]:
    """The real transformation on the two vectors ``rows(counterexample)``, against its map."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = concrete(counterexample)
        v, w = rows(counterexample)
        d_in = t.input_metric.distance(v, w)
        observed = t.output_metric.distance(t(v), t(w))
        return constructor_report(constructor, arguments, v, w, d_in, t.map(d_in), observed,
                                  observed > t.map(d_in))
    return replay


def replay_rows_added(constructor: Constructor, concrete: Concrete,
                      row: Callable[[dict[str, Any]], Any]) -> Callable[[dict], Replay]:
    """``v = []`` and ``w = [row] * d`` are at distance ``d`` (the model's), and a row transform
    keeps them ``d`` apart."""
    return replay_pair(constructor, concrete,
                       lambda model: ([], [row(model)] * int(model["d"])))


def vector_compatibility(prefix: str, goals: Callable[[], list[Any]]) -> Obligation:
    return Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                      "Symmetric distance is defined on the input and output vector domains.",
                      r"d_{Sym} \sim \mathrm{VectorDomain}", goals)


def row_transform_stability(prefix: str, goals: Callable[[], list[Any]],
                            kernel: str = "its kernel respects multiset identity",
                            **labels: Any) -> Obligation:
    """Stability by ``lemma.row_transform``; ``kernel`` says what is checked of the kernel."""
    return Obligation(f"{prefix}.stability", Kind.STABILITY,
                      "If d_sym(v, w) <= d_in then d_sym(function(v), function(w)) <= map(d_in): "
                      f"function is a row transform (lemma.row_transform), {kernel}, and "
                      "map(d_in) >= d_in.",
                      r"d_{Sym}(v, w) \le d_{in} \implies d_{Sym}(f(v), f(w)) \le "
                      r"\mathtt{map}(d_{in})",
                      goals, uses=("lemma.row_transform",), **labels)


def equal_copy(value: Any) -> Any:
    """A value equal to ``value`` and of its type, but another object where the type allows it
    (``int(str(n))``, a rebuilt string, ``float(repr(x))``): Python's ``is`` tells them apart,
    ``==`` and every metric do not."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, tuple):
        return tuple(equal_copy(field) for field in value)
    if isinstance(value, int):
        return int(str(value))
    if isinstance(value, float):
        return float(repr(value))
    if isinstance(value, str):
        return "".join(list(value))
    return value


def admits(constructor: Constructor, arguments: dict[str, Any]) -> bool:
    """``constructor`` accepts ``arguments``: a sampled case whose arguments a stricter
    precondition refuses is left out (nothing is claimed of it)."""
    try:
        constructor(**arguments)
    except ConstructorError:
        return False
    return True


def copy_source(value: Any) -> Code:
    """Source that builds :func:`equal_copy` of ``value`` at run time (``int('1000')``), for a
    reproducer: equal literals in one snippet are one constant object, so ``[1000]`` would not
    be a copy."""
    if isinstance(value, tuple):
        return Code("(" + "".join(f"{copy_source(field)}, " for field in value) + ")")
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return Code(literal(value))
    if isinstance(value, str):
        return Code(f"''.join({list(value)!r})")
    return Code(f"{type(value).__name__}({repr(value)!r})")


def _term(value: Any) -> Any:
    """``value`` (a bool, int, float or str) as a Z3 constant of its sort."""
    return {bool: z3.BoolVal, int: z3.IntVal, str: z3.StringVal,
            float: lambda v: z3.FPVal(v, z3.Float64())}[type(value)](value)


def _symbolic_row(row: Any) -> tuple[Any, list[tuple[Any, Any]]]:
    """A solver row of ``row``'s shape (an atom, or a tuple of atoms, a record), and the
    substitution of ``row``'s values for its constants."""
    if isinstance(row, tuple):
        fields = [z3.Const(f"agreement_field_{i}", ops.sort_of(type(v))) for i, v in enumerate(row)]
        return tuple(fields), [(f, _term(v)) for f, v in zip(fields, row)]
    x = z3.Const("agreement_row", ops.sort_of(type(row)))
    return x, [(x, _term(row))]


def kernel_agreement(constructor: Constructor,
                     symbolic: Callable[[type, dict[str, Any]], tuple[Any, dict[str, Any]]],
                     cases: Iterable[tuple[dict[str, Any], Any]]) -> ComputedGoal:
    """The premise of every solver goal about the kernel: on values it computes what it computes
    on solver terms, and only from the row's value. For each ``(arguments, row)`` case (a row may
    be an argument object itself), the real transformation built on ``arguments`` runs on
    ``[row]`` and on ``[equal_copy(row)]``, which are the same dataset: different outputs are a
    stability violation at ``d_in = 0`` (refuted, replayed). Then the kernel of the symbolic build
    (``symbolic(type(row), arguments)``: the transformation and its argument terms; the
    case's arguments for a build that takes them concretely) is evaluated at the same
    row and arguments by substitution; a different answer means the solver goals are about
    another function than the one that runs (unknown). A kernel that asks ``is``, or branches on a
    Python type a solver term does not have, is caught here."""
    cases = list(cases)

    def disagreement(admitted: list[tuple[dict[str, Any], Any]]
                     ) -> tuple[dict[str, Any], Any, Any, str] | None:
        for arguments, row in admitted:
            t = constructor(**arguments)
            same, copy = t([row])[0], t([equal_copy(row)])[0]
            if not (same == copy or same != same and copy != copy):
                return arguments, row, (same, copy), "value"
            built, terms = symbolic(type(row), arguments)
            if not isinstance(built.function, RowTransform):
                return arguments, row, (built.function, copy), "shape"
            x, pairs = _symbolic_row(row)
            solver_form = built.function.scalar(x)
            solver_form = solver_form if z3.is_expr(solver_form) else _term(solver_form)
            pairs += [(terms[n], _term(v)) for n, v in arguments.items() if n in terms]
            answer = z3.simplify(z3.substitute(solver_form, *pairs))
            if not z3.is_true(z3.simplify(answer == _term(copy))):
                return arguments, row, (answer, copy), "solver"
        return None

    def decide() -> Decision:
        admitted = [(arguments, row) for arguments, row in cases
                    if admits(constructor, arguments)]
        if not admitted:
            return Decision(False, detail="the constructor refuses the arguments of every sampled "
                                          "case, so none was run", unsupported=True)
        try:
            found = disagreement(admitted)
        except Exception as error:  # noqa: BLE001 - the mechanism's code, whatever it raises
            return Decision(False, {"raised": f"{type(error).__name__}: {error}"},
                            f"the kernel raises {type(error).__name__} ({error}) on a sampled row "
                            "or on its solver form: no agreement to check (a raise on an "
                            "admitted row breaks the output domain)", unsupported=True)
        if found is None:
            return Decision(True, detail=f"{len(admitted)} rows: the same output for a row "
                                         "and an equal copy, equal to the solver form's")
        arguments, row, (first, second), kind = found
        counterexample = {**{n: repr(v) for n, v in arguments.items()}, "row": repr(row)}
        if kind == "value":
            return Decision(False, counterexample,
                            f"the kernel answers {first!r} on {row!r} and {second!r} on an equal "
                            "copy of it: its output is not a function of the row's value")
        if kind == "shape":
            return Decision(False, counterexample, f"the function {first!r} is not a "
                            "RowTransform: it has no kernel to compare", unsupported=True)
        return Decision(False, counterexample,
                        f"the kernel's solver form gives {first} on {row!r}, the running kernel "
                        f"{second!r}: the solver goals are about another function than the one "
                        "that runs", unsupported=True)

    def replay(model: dict[str, Any]) -> Replay:
        arguments, row = next((a, r) for a, r in cases
                              if repr(r) == model["row"]
                              and all(repr(v) == model[n] for n, v in a.items()))
        t = constructor(**arguments)
        observed = t.output_metric.distance(t([row]), t([equal_copy(row)]))
        return constructor_report(constructor, arguments, [row], [copy_source(row)], 0,
                                  t.map(0), observed, observed > t.map(0))
    return ComputedGoal("the kernel computes on values what it computes on solver terms, from "
                        "the row's value only (sampled rows and equal copies)", "evaluated",
                        decide, replay)
