"""What the proof modules of the float Laplace and Gaussian share about their integer noise: the
samplers' citations and point masses, a constructor's build on a real ``scale``, its running
fields against the proof's, its outputs on sample inputs, and the ``scale = 0`` case. The
discrete Laplace and Gaussian themselves state no obligations: the kernel's rule of additive noise
per coordinate proves them."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.errors import DPCertError
from obligations.base import ComputedGoal, Decision, Replay, is_true
from obligations.exponential import EXP
from obligations.reports import (constructor_call, import_line, literal, member_assertion,
                                 plain_report, reproducer, returns)

CKS = "Canonne, Kamath and Steinke 2020, Algorithm 2 (exact discrete Laplace sampler)"

ZERO_SCALE_DIVISORS = (2.0 ** -1074, 1.0, 2.0 ** 1023)
"""The ``d_in > 0`` at which the ``scale = 0`` case (map ``+inf``) is evaluated."""

CKS_SAMPLER = "Canonne, Kamath and Steinke 2020, Algorithm 3 (exact discrete Gaussian sampler)"

CKS_ZCDP = "Canonne, Kamath and Steinke 2020, Theorem 4 (discrete Gaussian is D^2/(2 sigma^2)-zCDP)"


def symbolic(constructor: Constructor) -> tuple[Measurement, dict[str, Any], list[Any]]:
    """``build`` on a real ``scale``, and the preconditions on it."""
    scale = z3.Real("scale")
    return constructor.build(scale=scale), {"scale": scale}, constructor.assumptions(scale=scale)


def exp_product_facts(a: Any, b: Any, c: Any) -> list[Any]:
    """Instances of ``exp(u) exp(v) = exp(u + v)`` and ``u <= v => exp(u) <= exp(v)`` at the
    terms of the claim ``exp(a) <= exp(b) exp(c)``, and ``exp > 0``."""
    return [EXP(b) * EXP(c) == EXP(b + c), z3.Implies(a <= b + c, EXP(a) <= EXP(b + c)),
            EXP(a) > 0, EXP(b) > 0, EXP(c) > 0]


def admitted(constructor: Constructor, samples: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The argument sets of ``samples`` that the constructor's preconditions admit."""
    kept = []
    for arguments in samples:
        try:
            constructor(**arguments)
        except DPCertError:
            continue
        kept.append(arguments)
    return kept


def _numeral(constant: Any, value: Any) -> Any:
    """``value`` as a Z3 numeral of ``constant``'s sort (an Int or a Real)."""
    return z3.IntVal(value) if constant.sort() == z3.IntSort() else z3.RealVal(Fraction(value))


def fields_agree(symbolic_build: Callable[[], tuple[Measurement, dict[str, Any], list[Any]]],
                 constructor: Constructor, samples: list[dict[str, Any]],
                 names: tuple[str, ...]) -> ComputedGoal:
    """The proofs read the symbolic build's function fields ``names``; at each admitted
    ``samples`` argument set, the running function has the same class and Z3 proves each field of
    the symbolic build, at those arguments, equal to the running function's value."""
    def decide() -> Decision:
        m, params, _ = symbolic_build()
        chosen = admitted(constructor, samples)
        if not chosen:
            return Decision(False, {}, "the constructor admits none of the sample arguments",
                            unsupported=True)
        for arguments in chosen:
            running = constructor(**arguments).function
            if type(running) is not type(m.function):
                return Decision(False, dict(arguments), f"the running function is a "
                                f"{type(running).__qualname__}, the proof's a "
                                f"{type(m.function).__qualname__}")
            pins = [(params[k], _numeral(params[k], v)) for k, v in arguments.items()]
            for name in names:
                term, value = getattr(m.function, name), getattr(running, name)
                solver = z3.Solver()
                solver.add(z3.substitute(is_true(term == ops.exact(value)), *pins) == False)  # noqa: E712
                if solver.check() != z3.unsat:
                    return Decision(False, dict(arguments), f"at {arguments} the running "
                                    f"function's {name} is {value!r}, not the proof's {term}")
        return Decision(True, detail=f"{', '.join(names)} agree at " +
                        "; ".join(map(str, chosen)))
    return ComputedGoal(f"the running function's {', '.join(names)} are the proof's (at "
                        f"{len(samples)} argument sets)", "structure", decide)


def runs_into_output_domain(constructor: Constructor, samples: list[dict[str, Any]],
                            inputs: tuple[Any, ...]) -> ComputedGoal:
    """The running measurement, at each ``samples`` argument set, returns a member of its output
    domain on each of ``inputs`` (seeded draws). It can only refute: a body that raises or
    returns a non-member is a confirmed violation; the proof of the other goals covers the rest."""
    def run(counterexample: dict[str, Any]) -> tuple[bool, str]:
        arguments = {k: v for k, v in counterexample.items() if k != "x"}
        m = constructor(**arguments)
        try:
            output = m.function(counterexample["x"], random.Random(0))
        except Exception as error:  # noqa: BLE001 - any raise is the violation reported
            return False, f"raised {type(error).__name__}: {error}"
        return m.output_domain.member(output), f"returned {output!r}"

    def decide() -> Decision:
        chosen = admitted(constructor, samples)
        if not chosen:
            return Decision(False, {}, "the constructor admits none of the sample arguments",
                            unsupported=True)
        for arguments in chosen:
            for x in inputs:
                member, what = run({**arguments, "x": x})
                if not member:
                    return Decision(False, {**arguments, "x": x}, f"on x = {x!r} the function {what}")
        return Decision(True, detail=f"members on {len(inputs)} inputs at {len(chosen)} "
                                     "argument sets")

    def replay(counterexample: dict[str, Any]) -> Replay:
        member, what = run(counterexample)
        arguments = {k: v for k, v in counterexample.items() if k != "x"}
        call = constructor_call(constructor, **arguments)
        running = f"m.function({literal(counterexample['x'])}, random.Random(0))"
        return plain_report(not member, f"{call} on x = {counterexample['x']!r}",
                            f"the function {what}; not a member of the output domain"
                            if not member else f"the function {what}",
                            *reproducer(import_line(constructor), "import random", f"m = {call}",
                                        *returns(f"output = {running}", running),
                                        member_assertion("m")))
    return ComputedGoal("the running function returns a member of its output domain on sample "
                        "inputs (a raise is a violation)", "structure", decide, replay)


def discrete_laplace_point_mass(scale: Fraction) -> float:
    """``Pr[Y = 0] = (1 - q)/(1 + q) = tanh(1/(2 scale))``, ``q = e^(-1/scale)``: the discrete
    Laplace's largest point probability (the trivial bound ``1`` for ``scale < 1/64``, where
    ``tanh`` is ``1`` in floats)."""
    return math.tanh(1 / (2 * scale)) if scale >= Fraction(1, 64) else 1.0


def zero_scale_map_is_infinite(constructor: Constructor,
                               replay: Callable[[dict], Replay]) -> ComputedGoal:
    """``scale = 0``: the outputs on ``x != x'`` are point masses, so ``map(d_in)`` must be
    ``+inf`` for ``d_in > 0``; evaluated at :data:`ZERO_SCALE_DIVISORS`."""
    def decide() -> Decision:
        m = constructor(scale=0.0)
        finite = [d for d in ZERO_SCALE_DIVISORS if m.map(d) != math.inf]
        if finite:
            return Decision(False, {"scale": 0, "d_in": finite[0], "x": 0, "x2": 1, "y": 0},
                            f"scale = 0 but map({finite[0]!r}) = {m.map(finite[0])!r} is finite")
        return Decision(True, detail="map(d_in) = inf at d_in = " +
                        ", ".join(map(repr, ZERO_SCALE_DIVISORS)))
    return ComputedGoal("scale = 0 (no noise), d_in > 0: map(d_in) = +inf", "structure", decide,
                        replay)


def discrete_gaussian_point_mass(sigma: Fraction) -> float | None:
    """``Pr[Y = 0] = 1 / sum_k exp(-k^2 / (2 sigma^2))``, bounded above by cutting the sum at
    ``|k| <= 10 sigma + 1`` (the trivial bound ``1`` for ``sigma < 1/16``); ``None`` (no bound used)
    for ``sigma > 1000``."""
    if sigma < Fraction(1, 16):
        return 1.0
    if sigma > 1000:
        return None
    cut = math.ceil(10 * sigma) + 1
    return 1 / math.fsum(math.exp(-k * k / (2 * float(sigma) ** 2)) for k in range(-cut, cut + 1))
