"""What the proofs of the exponential mechanism's selections share (report noisy max, noisy top-k,
the private quantile, AboveThreshold's scale): the law ``Pr[i] = a_i / sum_j a_j`` of the
rejection sampler computed from the running code's own ``gamma_i``, a scripted generator, and the
goals on the admitted lengths, the quotients and the running scale."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any, Callable

import mpmath
import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.domains import VectorDomain
from obligations.base import ComputedGoal, Decision, Replay, Z3Goal
from obligations.reports import (constructor_call, import_line, literal_imports, member_assertion,
                                 plain_report, reproducer, returns)


BERNOULLI_EXP = "Canonne, Kamath and Steinke 2020, Algorithm 1 (exact Bernoulli(exp(-gamma)))"
CHECKED_KERNELS = ("oriented", "best_step", "rejection_gamma", "candidate")
"""The members the goals run on the object itself; every other member must be NoisyMax's."""


class ScriptedRng:
    """``randrange`` returns the scripted values in turn (each must lie in range), then 0: with
    every ``gamma = 0`` the exact Bernoulli(exp(-0)) accepts on ``randrange(1) = 0``."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def randrange(self, bound: int) -> int:
        value = self.values.pop(0) if self.values else 0
        if not 0 <= value < bound:
            raise ValueError(f"scripted draw {value} is outside [0, {bound})")
        return value


def code_distribution(m: Measurement, scores: list[Any]) -> list[Any]:
    """``Pr[i] = a_i / sum_j a_j`` with ``a_i = exp(-gamma_i)`` and the code's own ``gamma_i``
    (mpmath, 60 digits): what the rejection loop returns."""
    with mpmath.workdps(60):
        weights = [mpmath.exp(-mpmath.mpf(g.numerator) / g.denominator)
                   for g in map(Fraction, m.function.gammas(scores))]
        total = mpmath.fsum(weights)
        return [w / total for w in weights]


def finite_running_scale_goal(constructor: Constructor, fixed: dict[str, Any],
                              probe: list[Any]) -> Z3Goal:
    """Goal: for every binary64 ``scale`` the preconditions admit (+-inf and NaN included, which
    a real-valued model cannot show), the running function's ``scale`` is a finite float > 0; the
    function reads it as an exact rational, and ``Fraction(inf)`` raises. The replay builds the
    model's scale and runs the function on ``probe``."""
    scale = z3.FP("scale", z3.Float64())
    m = constructor.build(scale=scale, **fixed)
    running = m.function.scale
    zero = z3.FPVal(0.0, z3.Float64())
    claim = z3.And(ops.to_bool(ops.is_finite(running)), zero < running) \
        if isinstance(running, z3.FPRef) else z3.BoolVal(False)

    def replay(counterexample: dict[str, Any]) -> Replay:
        value = counterexample.get("scale", math.inf)
        arguments = {"scale": float(value), **fixed}
        call = constructor_call(constructor, **arguments)
        try:
            built = constructor(**arguments)
        except Exception as error:  # the constructor refuses it: nothing runs
            return plain_report(False, call, f"the constructor raises {type(error).__name__}")
        try:
            output = built(probe)
        except Exception as error:  # what the running function does on every input
            return plain_report(True, call, f"builds, and the function raises "
                                f"{type(error).__name__} ({error}) on {probe!r}: it returns no "
                                "output on any input",
                                *reproducer(import_line(constructor), f"m = {call}",
                                            *returns(f"m({probe!r})", f"m({probe!r})")))
        return plain_report(False, call, f"returns {output!r} on {probe!r}")

    return Z3Goal("the running scale is a finite float > 0 for every binary64 scale the "
                  "preconditions admit (inf and NaN included)" + ("" if isinstance(
                      running, z3.FPRef) else f" (the running scale {running!r} is not the "
                      "float argument: unsupported here)"),
                  claim, constructor.assumptions(scale=scale, **fixed),
                  {"scale": scale}, replay)


def admitted_lengths_goal(label: str, m: Measurement, least: Any, least_text: str,
                          assumptions: list[Any], names: dict[str, Any],
                          replay: Callable[[dict], Replay]) -> Z3Goal | ComputedGoal:
    """Goal: every length ``n`` the running input domain admits is at least ``least`` (a term of
    the running object): Z3 on the domain's own length condition ``admits_length(n)``, for a
    natural ``n``. The domain must be a :class:`~mechanisms.domains.VectorDomain` (the shared
    layer's, whose ``member`` is ``admits_length`` of the length and every entry in the element
    domain); any other input domain is outside the method (unknown)."""
    title = (f"{label} every length n the running input domain admits (its own "
             f"admits_length(n)) is at least {least_text}")
    if type(m.input_domain) is not VectorDomain:
        def outside() -> Decision:
            return Decision(False, {"input domain": str(m.input_domain)}, "the input domain is "
                            "not a VectorDomain: its lengths are not read", unsupported=True)
        return ComputedGoal(title, "structure", outside)
    n = z3.Int("n")
    return Z3Goal(title, z3.Implies(ops.to_bool(m.input_domain.admits_length(n)), n >= least),
                  [*assumptions, n >= 0], {**names, "n": n}, replay)


def replay_short_input(constructor: Constructor, arguments: list[dict[str, Any]],
                       least: Callable[[dict[str, Any]], int], outputs: bool
                       ) -> Callable[[dict], Replay]:
    """Builds the real measurement at each of ``arguments`` and runs it (seeded) on the vectors of
    zeros (of the arguments' ``T``, float by default) shorter than ``least(arguments)`` that its
    input domain admits, the model's length first: confirmed when one of those admitted inputs
    raises, or (``outputs``: an output-domain claim) returns a value outside the output
    domain."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        try:
            model = int(counterexample["n"])
        except (KeyError, TypeError, ValueError):
            model = None
        shown = "no admitted input shorter than the least length found"
        for chosen in arguments:
            call = constructor_call(constructor, **chosen)
            try:
                m = constructor(**chosen)
            except (ValueError, TypeError, ArithmeticError):  # refused: nothing runs
                continue
            lengths = range(max(int(least(chosen)), 0))
            first = [model] if model is not None and model in lengths else []
            for n in dict.fromkeys([*first, *lengths]):
                data = [chosen.get("T", float)(0)] * n
                if not m.input_domain.member(data):
                    continue
                try:
                    output = m(data, random.Random(0))
                except Exception as error:  # noqa: BLE001 - an admitted input on which it raises
                    run = f"m({data!r}, random.Random(0))"
                    return plain_report(True, call, f"the input domain {m.input_domain} admits "
                                        f"{data!r}, on which the function raises "
                                        f"{type(error).__name__}: {error}",
                                        *reproducer(import_line(constructor),
                                                    *literal_imports(chosen), "import random",
                                                    f"m = {call}", *returns(
                                                        run, f"{run} (in the input domain)")))
                if outputs and not m.output_domain.member(output):
                    return plain_report(True, call, f"the input domain {m.input_domain} admits "
                                        f"{data!r}, on which the function returns {output!r}, "
                                        f"not in the output domain {m.output_domain}",
                                        *reproducer(import_line(constructor),
                                                    *literal_imports(chosen), "import random",
                                                    f"m = {call}",
                                                    f"output = m({data!r}, random.Random(0))",
                                                    member_assertion("m")))
                shown = f"{call} admits {data!r} and returns {output!r}"
        return plain_report(False, shown)
    return replay


def quotients_defined(term: z3.ExprRef) -> list[z3.BoolRef]:
    """For every quotient in ``term`` (real or integer division, modulo) its divisor is nonzero,
    and for every power ``b ** e`` the base is nonzero or the exponent >= 0: Z3 gives ``x / 0`` and
    ``0 ** -1`` arbitrary values, where Python's exact arithmetic raises ZeroDivisionError."""
    conditions, seen, pending = [], set(), [term]
    while pending:
        node = pending.pop()
        if node.get_id() in seen:
            continue
        seen.add(node.get_id())
        if any(z3.is_app_of(node, kind) for kind in (z3.Z3_OP_DIV, z3.Z3_OP_IDIV, z3.Z3_OP_MOD)):
            conditions.append(node.arg(1) != 0)
        elif z3.is_app_of(node, z3.Z3_OP_POWER):
            conditions.append(z3.Or(node.arg(0) != 0, node.arg(1) >= 0))
        pending.extend(node.children())
    return conditions
