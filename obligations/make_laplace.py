"""Obligations of ``make_laplace`` (floats through the grid ``2^k``), for every finite float
``scale >= 0`` and every integer ``k >= -1074``.

A finite float ``x`` is ``a 2^-1074`` for an integer ``a`` (its *units*), and the grid step
``2^k`` is ``m 2^-1074`` with ``m = grid_multiple(k)``, a Z3 integer about which the checker
assumes only ``m >= 1``. The goals run the code's ``grid_index``, ``grid_scale``,
``grid_to_float`` and map on these terms. The privacy goal is the exact pmf argument on the grid
(discrete Laplace of scale ``scale / 2^k``, CKS 2020 Algorithm 2, cited) plus the rounding
lemma ``|i - i'| m <= |a - a'| + m - 1`` (OpenDP's relaxation ``2^k - 2^-1074``).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.make_laplace import (GRID_UNIT, K_MIN, FloatGridLaplace, grid_multiple,
                                     grid_step, make_laplace)
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import AbsoluteDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.make_discrete_laplace import CKS, exp_product_facts, zero_scale_map_is_infinite
from obligations.make_randomized_response import EXP
from obligations.rounding import (float_d_in, map_rounding_obligation, parameter_candidates,
                                  replay_rounding, symbolic_build)
from obligations.noise import exact_noise_goal
from obligations.reports import constructor_call, import_line, plain_report, show

SAMPLE = {"scale": 2.0, "k": -10}


def _symbolic(constructor: Constructor) -> tuple[Measurement, dict[str, Any], list[Any]]:
    """``build`` on a real ``scale`` and an integer ``k``; the preconditions, and ``m >= 1``."""
    scale, k = z3.Real("scale"), z3.Int("k")
    m = constructor.build(scale=scale, k=k)
    return m, {"scale": scale, "k": k}, [*constructor.assumptions(scale=scale, k=k),
                                         grid_multiple(k) >= 1]


def _concrete(constructor: Constructor, counterexample: dict[str, Any]) -> tuple[Measurement, dict]:
    """Nearest positive float scale; the least ``k`` whose grid step is at least the model's."""
    exact = Fraction(counterexample.get("scale", 1))
    multiple = int(counterexample.get("m", 2 ** (SAMPLE["k"] - K_MIN)))
    arguments = {"scale": float(exact) if exact > 0 else 1.0,
                 "k": K_MIN + max(multiple - 1, 0).bit_length()}
    return constructor(**arguments), arguments


def _audited(constructor: Constructor) -> ComputedGoal:
    def decide() -> Decision:
        function = constructor(**SAMPLE).function
        if isinstance(function, FloatGridLaplace) and \
                type(function).__call__ is FloatGridLaplace.__call__:
            return Decision(True, detail="FloatGridLaplace.__call__: grid_index, one exact "
                                         "sample_discrete_laplace(grid_scale) draw, grid_to_float")
        return Decision(False, {"function": repr(function)}, "the function does not draw through "
                        "FloatGridLaplace.__call__", unsupported=True)
    return ComputedGoal("the function rounds to the grid, draws sample_discrete_laplace once and "
                        "rounds back (FloatGridLaplace.__call__)", "structure", decide)


def _replay_output(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = _concrete(constructor, counterexample)
        j = int(counterexample.get("j", 0))
        output = m.function.grid_to_float(j, m.function.multiple)
        member = m.output_domain.member(output)
        call = constructor_call(constructor, **arguments)
        return plain_report(not member, f"{call}: grid point {j} (noisy index)",
                            f"output {output!r} of type {type(output).__name__}; member of "
                            f"{m.output_domain}: {member}", "reproduce:",
                            f"  {import_line(constructor)}", f"  m = {call}",
                            f"  print(m.function.grid_to_float({j}, m.function.multiple))")
    return replay


def _output_type(constructor: Constructor) -> ComputedGoal:
    def decide() -> Decision:
        m = constructor(**SAMPLE)
        term = m.function.grid_to_float(z3.Int("j"), z3.Int("m"))
        carrier = ops.carrier_of(term)
        if carrier is m.output_domain.carrier:
            return Decision(True, detail=f"grid_to_float(int, int) has sort {term.sort()}")
        return Decision(False, {"j": 1}, f"grid_to_float gives a {carrier.__name__}, the output "
                        f"domain holds {m.output_domain.carrier.__name__}")
    return ComputedGoal("grid_to_float(j, m) has the output domain's Python type", "structure",
                        decide, _replay_output(constructor))


def _replay_rounding(constructor: Constructor) -> Callable[[dict], Replay]:
    """The real ``grid_index`` against the nearest grid point (ties up)."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = _concrete(constructor, counterexample)
        f = m.function
        problems = []
        if Fraction(f.scale) != Fraction(arguments["scale"]):
            problems.append(f"scale {f.scale!r}, stated {arguments['scale']!r}")
        if f.multiple != grid_multiple(arguments["k"]):
            problems.append(f"grid multiple {f.multiple!r}, stated {grid_multiple(arguments['k'])}")
        multiple = grid_multiple(arguments["k"])
        for units in (int(counterexample.get("a", 0)), multiple // 2, -(multiple // 2) - 1,
                      multiple - 1, 3 * multiple // 2):
            index = f.grid_index(units, multiple)
            nearest = math.floor(Fraction(units, multiple) + Fraction(1, 2))
            if index != nearest:
                problems.append(f"x = {units} * 2^-1074 goes to grid index {index}, the nearest "
                                f"(ties up) is {nearest}")
                break
        return plain_report(bool(problems), constructor_call(constructor, **arguments),
                            *problems or ["the real code rounds to the nearest grid point"])
    return replay


def _observed_loss(m: Measurement, units: int, units2: int, j: int) -> Fraction:
    """``ln(Pr[j | x] / Pr[j | x'])`` on the grid, from the exact pmf of the real function's
    noise: ``(|j - i'| - |j - i|) / n`` with ``n = grid_scale``."""
    f = m.function
    i, i2 = f.grid_index(units, f.multiple), f.grid_index(units2, f.multiple)
    return Fraction(abs(j - i2) - abs(j - i)) / Fraction(f.grid_scale(f.scale, f.multiple))


def _number(q: Fraction) -> str:
    """A float's value as the float, any other rational as :func:`show` writes it."""
    return repr(float(q)) if Fraction(float(q)) == q else show(q)


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """The model's inputs (in units of 2^-1074) and grid output, then the worst rounding pair
    ``x = 2^(k-1)``, ``x' = 2^(k-1) - 2^-1074`` at ``d_in = 2^-1074``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = _concrete(constructor, counterexample)
        multiple = m.function.multiple
        candidates = [(int(counterexample.get("a", 0)), int(counterexample.get("a2", 0)),
                       int(counterexample.get("j", 0)), Fraction(counterexample.get("d_in", 0))),
                      (multiple // 2, multiple // 2 - 1, m.function.grid_index(multiple // 2, multiple),
                       GRID_UNIT)]
        for units, units2, j, d_in in candidates:
            if d_in <= 0 or abs(units - units2) * GRID_UNIT > d_in:
                continue
            observed, claimed = _observed_loss(m, units, units2, j), m.map(d_in)
            if observed > claimed:
                break
        else:
            return plain_report(False, constructor_call(constructor, **arguments),
                                "no pair exceeds the claimed map on replay")
        x, x2 = float(units * GRID_UNIT), float(units2 * GRID_UNIT)
        call = constructor_call(constructor, **arguments)
        return plain_report(
            True, call, f"inputs x = {x!r}, x' = {x2!r}, d_in = {_number(d_in)}, grid output j = {j}",
            f"claimed  map(d_in) = {claimed!r}",
            f"observed ln(Pr[j | x] / Pr[j | x']) = {_number(observed)}  > claimed",
            "reproduce:", f"  {import_line(constructor)}", "  from fractions import Fraction",
            f"  m = {call}", "  f = m.function",
            f"  i, i2 = f.grid_index({units}, f.multiple), f.grid_index({units2}, f.multiple)",
            f"  print(m.map(Fraction({d_in.numerator}, {d_in.denominator})), "
            f"(abs({j} - i2) - abs({j} - i)) / Fraction(f.grid_scale(f.scale, f.multiple)))")
    return replay


def laplace_obligations(constructor: Constructor = make_laplace,
                        prefix: str = "laplace") -> tuple[Obligation, ...]:

    def output_domain_goals() -> list[Any]:
        m, params, assumptions = _symbolic(constructor)
        j = z3.Int("j")
        multiple = m.function.multiple
        return [_audited(constructor), _output_type(constructor),
                Z3Goal("grid_to_float(j, m) is in the output domain (not NaN) for every integer j",
                       is_true(m.output_domain.contains(m.function.grid_to_float(j, multiple))),
                       assumptions, {**params, "j": j, "m": multiple}, _replay_output(constructor))]

    def distribution_goals() -> list[Any]:
        m, params, assumptions = _symbolic(constructor)
        f, a = m.function, z3.Int("a")
        multiple = f.multiple
        i = f.grid_index(a, multiple)
        names = {**params, "a": a, "m": multiple}
        replay = _replay_rounding(constructor)
        return [_audited(constructor),
                Z3Goal("the noise scale is scale / 2^k and the grid step is 2^k",
                       z3.And(f.scale == params["scale"], multiple == grid_multiple(params["k"]),
                              f.grid_scale(f.scale, multiple) * grid_step(multiple) == params["scale"]),
                       assumptions, names, replay),
                Z3Goal("grid_index(a, m) is the nearest grid point, ties up: "
                       "(2i - 1) m <= 2a < (2i + 1) m",
                       z3.And((2 * i - 1) * multiple <= 2 * a, 2 * a < (2 * i + 1) * multiple),
                       assumptions, names, replay)]

    def privacy_goals() -> list[Any]:
        m, params, assumptions = _symbolic(constructor)
        f, scale = m.function, params["scale"]
        multiple = f.multiple
        a, a2, j = z3.Ints("a a2 j")
        d_in = z3.Real("d_in")
        i, i2 = f.grid_index(a, multiple), f.grid_index(a2, multiple)
        noise = f.grid_scale(f.scale, multiple)
        epsilon = m.map(d_in)
        loss, loss2 = -z3.ToReal(ops.absolute(j - i)) / noise, -z3.ToReal(ops.absolute(j - i2)) / noise
        rounding = ops.absolute(i - i2) * multiple <= ops.absolute(a - a2) + multiple - 1
        names = {**params, "a": a, "a2": a2, "j": j, "d_in": d_in, "m": multiple}
        replay = _replay_privacy(constructor)
        return [
            exact_noise_goal(lambda: _concrete(constructor, {})[0]),
            _audited(constructor),
            metric_premise(lambda: m, AbsoluteDistance, MaxDivergence,
                           "the privacy proof (|x - x'| <= d_in)"),
            Z3Goal("rounding lemma: |grid_index(a) - grid_index(a')| m <= |a - a'| + m - 1",
                   rounding, assumptions, names, replay),
            Z3Goal("scale > 0, d_in > 0, |x - x'| <= d_in, with the rounding lemma: "
                   "exp(-|j-i|/n) <= exp(map(d_in)) exp(-|j-i'|/n), n = scale / 2^k",
                   EXP(loss) <= EXP(epsilon) * EXP(loss2),
                   [*assumptions, scale > 0, d_in > 0,
                    z3.ToReal(ops.absolute(a - a2)) * GRID_UNIT <= d_in, rounding,
                    *exp_product_facts(loss, epsilon, loss2)], names, replay),
            Z3Goal("d_in = 0 (then x = x'): map(0) >= 0", 0 <= m.map(z3.RealVal(0)),
                   assumptions, params, replay),
            zero_scale_map_is_infinite(
                lambda scale: constructor(scale=scale, k=SAMPLE["k"]), replay),
        ]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every noisy grid index j, the output grid_to_float(j, m) is a float that "
                   "is not NaN (+-inf beyond the float range), a member of AtomDomain(float).",
                   r"\forall j \in \mathbb{Z}:\ \mathtt{grid\_to\_float}(j) \in "
                   r"\mathrm{AtomDomain}(\mathtt{float})",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "Absolute distance is defined on AtomDomain(float) (no NaN).",
                   r"d_{Abs} \sim \mathrm{AtomDomain}(\mathtt{float})",
                   lambda: [compatibility_goal(constructor, lambda: [_symbolic(constructor)[0]],
                                               dict(SAMPLE))]),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "function(x) = grid_to_float(i + Z) with i the grid point nearest to x (ties "
                   "up, +-inf clamped to +-max float) and Pr[Z = z] proportional to "
                   "exp(-|z| 2^k / scale), one exact CKS draw.",
                   r"\Pr[\,i + Z = j\,] \propto e^{-|j - i| 2^k / \mathtt{scale}}",
                   distribution_goals, cites=(CKS,)),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "For all finite floats x, x' with |x - x'| <= d_in and every grid output j, "
                   "Pr[j | x] <= exp(map(d_in)) Pr[j | x']: the grid indices differ by at most "
                   "(|x - x'| + 2^k - 2^-1074) / 2^k; rounding j to a float is post-processing.",
                   r"|x - x'| \le d_{in} \implies \Pr[M(x) = y] \le e^{\mathtt{map}(d_{in})} "
                   r"\Pr[M(x') = y]",
                   privacy_goals, uses=(f"{prefix}.distribution", f"{prefix}.map_rounding"),
                   bound="scale = 0: map(d_in) = +inf evaluated at d_in in {2^-1074, 1, 2^1023}, "
                         "k = -10"),
        map_rounding_obligation(
            prefix, symbolic_build(constructor, floats=("scale",), integers=("k",)), float_d_in,
            replay_rounding(constructor, parameter_candidates(("scale",), fixed={"k": -1074},
                                                              float_distance=True)),
            "(d_in + 2^k - 2^-1074) / scale"),
    )


IMPORT = "from mechanisms.make_laplace import make_laplace"


def catalogue_entry() -> Entry:
    return Entry("make_laplace", make_laplace, laplace_obligations(),
                 "add Laplace noise to a float through the grid 2^k",
                 (example("make_laplace(1.0)", IMPORT), example("make_laplace(2.0, -10)", IMPORT)),
                 proof=True)
