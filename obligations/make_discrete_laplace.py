"""Obligations of ``make_discrete_laplace``, for every finite float ``scale >= 0``.

The symbolic build takes ``scale`` as a Z3 real (a float's value is a rational, so this is exact:
the code does no float arithmetic on it besides the map's final upward rounding, see
:func:`mechanisms.arith.div_up`). The output distribution is the discrete
Laplace's, ``Pr[M(x) = y] = exp(-|y - x| / scale) / Z(scale)``, drawn exactly by the sampler of
CKS 2020 (Algorithm 2, cited); ``privacy`` bounds every ratio of it with ``exp`` an
uninterpreted function about which Z3 knows only the facts stated in each goal.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.make_discrete_laplace import IntegerNoise, make_discrete_laplace
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import AbsoluteDistance
from mechanisms.samplers import sample_discrete_laplace
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.make_randomized_response import EXP
from obligations.rounding import (map_rounding_obligation, parameter_candidates, real_d_in,
                                  replay_rounding, symbolic_build)
from obligations.noise import exact_noise_goal
from obligations.reports import constructor_call, import_line, plain_report, show

CKS = "Canonne, Kamath and Steinke 2020, Algorithm 2 (exact discrete Laplace sampler)"
ZERO_SCALE_DIVISORS = (2.0 ** -1074, 1.0, 2.0 ** 1023)
"""The ``d_in > 0`` at which the ``scale = 0`` case (map ``+inf``) is evaluated."""


def symbolic(constructor: Constructor) -> tuple[Measurement, dict[str, Any], list[Any]]:
    """``build`` on a real ``scale``, and the preconditions on it."""
    scale = z3.Real("scale")
    return constructor.build(scale=scale), {"scale": scale}, constructor.assumptions(scale=scale)


def concrete(constructor: Constructor, counterexample: dict[str, Any],
             default: float = 1.0) -> tuple[Measurement, dict[str, Any]]:
    """The constructor on the counterexample's scale as the nearest positive float."""
    exact = Fraction(counterexample.get("scale", default))
    scale = float(exact) if exact > 0 else default
    return constructor(scale=scale), {"scale": scale}


def exp_product_facts(a: Any, b: Any, c: Any) -> list[Any]:
    """Instances of ``exp(u) exp(v) = exp(u + v)`` and ``u <= v => exp(u) <= exp(v)`` at the
    terms of the claim ``exp(a) <= exp(b) exp(c)``, and ``exp > 0``."""
    return [EXP(b) * EXP(c) == EXP(b + c), z3.Implies(a <= b + c, EXP(a) <= EXP(b + c)),
            EXP(a) > 0, EXP(b) > 0, EXP(c) > 0]


def noise_is_audited(constructor: Constructor, sampler: Callable[..., int],
                     arguments: dict[str, Any]) -> ComputedGoal:
    """The function adds one draw of ``sampler`` through :class:`IntegerNoise`'s own ``__call__``;
    otherwise the distribution argument does not apply (unsupported)."""
    def decide() -> Decision:
        function = constructor(**arguments).function
        if (isinstance(function, IntegerNoise)
                and type(function).__call__ is IntegerNoise.__call__
                and function.sampler is sampler):
            return Decision(True, detail=f"IntegerNoise draws {sampler.__name__}(scale) once and "
                                         "returns shift(x, draw)")
        return Decision(False, {"function": repr(function)},
                        f"the function does not draw through IntegerNoise with {sampler.__name__}",
                        unsupported=True)
    return ComputedGoal(f"the function adds one draw of {sampler.__name__} (IntegerNoise.__call__)",
                        "structure", decide)


def shift_has_output_type(constructor: Constructor, arguments: dict[str, Any]) -> ComputedGoal:
    """``shift(x, z)`` on a Z3 integer ``x`` and noise ``z`` has the sort of the output carrier;
    the replay runs the real function and tests membership."""
    def decide() -> Decision:
        m = constructor(**arguments)
        term = m.function.shift(z3.Int("x"), z3.Int("z"))
        carrier = ops.carrier_of(term)
        if carrier is m.output_domain.carrier:
            return Decision(True, detail=f"shift(int, int) has sort {term.sort()}: "
                                         f"{carrier.__name__}")
        return Decision(False, {"x": 0, "z": 0}, f"shift(int, int) is a {carrier.__name__}, the "
                        f"output domain holds {m.output_domain.carrier.__name__}")
    return ComputedGoal("shift(x, z) has the output domain's Python type", "structure", decide,
                        replay_output(constructor))


def replay_output(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = concrete(constructor, counterexample)
        x, z = int(counterexample.get("x", 0)), int(counterexample.get("z", 0))
        output = m.function.shift(x, z)
        member = m.output_domain.member(output)
        call = constructor_call(constructor, **arguments)
        return plain_report(not member, f"{call} on x = {x!r} with noise draw {z}",
                            f"output {output!r} of type {type(output).__name__}; member of "
                            f"{m.output_domain}: {member}",
                            "reproduce:", f"  {import_line(constructor)}", f"  m = {call}",
                            f"  print(m.output_domain.member(m.function.shift({x!r}, {z})))")
    return replay


def replay_distribution(constructor: Constructor, sampler: Callable[..., int]) -> Callable[[dict], Replay]:
    """The real function's noise scale, sampler and shift against the stated ones."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = concrete(constructor, counterexample)
        f = m.function
        x, z = int(counterexample.get("x", 0)), int(counterexample.get("z", 0))
        problems = []
        if Fraction(f.scale) != Fraction(arguments["scale"]):
            problems.append(f"noise scale {f.scale!r}, stated {arguments['scale']!r}")
        if f.sampler is not sampler:
            problems.append(f"sampler {getattr(f.sampler, '__name__', f.sampler)}, stated "
                            f"{sampler.__name__}")
        if f.shift(x, z) != x + z:
            problems.append(f"shift({x}, {z}) = {f.shift(x, z)!r}, stated {x + z}")
        return plain_report(bool(problems), constructor_call(constructor, **arguments),
                            *problems or ["the real function draws the stated distribution"])
    return replay


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """The exact log-ratio ``(|y - x'| - |y - x|) / scale`` of the real function's noise (the
    normaliser cancels) against the claimed ``map(d_in)``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = concrete(constructor, counterexample)
        x, x2, y = (int(counterexample.get(k, 0)) for k in ("x", "x2", "y"))
        d_in = Fraction(counterexample.get("d_in", abs(x - x2)))
        noise = Fraction(m.function.scale)
        observed = Fraction(abs(y - x2) - abs(y - x)) / noise if noise > 0 else \
            (math.inf if x != x2 and y == x else 0)
        claimed = m.map(d_in)
        confirmed = abs(x - x2) <= d_in and observed > claimed
        call = constructor_call(constructor, **arguments)
        return plain_report(
            confirmed, call, f"inputs x = {x}, x' = {x2}, output y = {y}, d_in = {show(d_in)}",
            f"claimed  map(d_in) = {claimed!r}",
            f"observed ln(Pr[M(x)=y] / Pr[M(x')=y]) = {show(observed)}"
            + ("  > claimed" if confirmed else ""),
            "reproduce:", f"  {import_line(constructor)}", "  from fractions import Fraction",
            f"  m = {call}",
            f"  print(m.map({d_in!r}), (abs({y} - {x2}) - abs({y} - {x})) / m.function.scale)")
    return replay


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


def integer_noise_obligations(constructor: Constructor, prefix: str, sampler: Callable[..., int],
                              sample: dict[str, Any]) -> tuple[Obligation, Obligation]:
    """Output domain and compatibility of ``x -> shift(x, Y)`` with ``Y = sampler(scale)`` an
    integer (``IntegerNoise``: the discrete Laplace and Gaussian); ``sample`` builds one."""

    def output_domain_goals() -> list[Any]:
        m, params, assumptions = symbolic(constructor)
        x, z = z3.Ints("x z")
        return [noise_is_audited(constructor, sampler, sample),
                shift_has_output_type(constructor, sample),
                Z3Goal("shift(x, z) is in the output domain for every integer x and draw z",
                       is_true(m.output_domain.contains(m.function.shift(x, z))),
                       [*assumptions, is_true(m.input_domain.contains(x))],
                       {**params, "x": x, "z": z}, replay_output(constructor))]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every integer x and every noise draw z, the output shift(x, z) is an int, "
                   "a member of AtomDomain(int).",
                   r"\forall x, z \in \mathbb{Z}:\ \mathtt{shift}(x, z) \in \mathbb{Z}",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "Absolute distance is defined on AtomDomain(int).",
                   r"d_{Abs} \sim \mathrm{AtomDomain}(\mathtt{int})",
                   lambda: [compatibility_goal(constructor, lambda: [symbolic(constructor)[0]],
                                               dict(sample))]),
    )


def discrete_laplace_obligations(constructor: Constructor = make_discrete_laplace,
                                 prefix: str = "discrete_laplace") -> tuple[Obligation, ...]:
    sample = {"scale": 2.0}

    def distribution_goals() -> list[Any]:
        m, params, assumptions = symbolic(constructor)
        x, z = z3.Ints("x z")
        replay = replay_distribution(constructor, sample_discrete_laplace)
        return [noise_is_audited(constructor, sample_discrete_laplace, sample),
                Z3Goal("the noise scale is the constructor's scale", m.function.scale == params["scale"],
                       assumptions, params, replay),
                Z3Goal("shift(x, z) = x + z: the output is the input plus the draw",
                       m.function.shift(x, z) == x + z, assumptions, {**params, "x": x, "z": z},
                       replay)]

    def privacy_goals() -> list[Any]:
        m, params, assumptions = symbolic(constructor)
        scale = params["scale"]
        noise = m.function.scale
        x, x2, y = z3.Ints("x x2 y")
        d_in = z3.Real("d_in")
        epsilon = m.map(d_in)
        loss_x, loss_x2 = -ops.absolute(y - x) / noise, -ops.absolute(y - x2) / noise
        names = {**params, "x": x, "x2": x2, "y": y, "d_in": d_in}
        replay = _replay_privacy(constructor)
        return [
            exact_noise_goal(lambda: constructor(**sample)),
            noise_is_audited(constructor, sample_discrete_laplace, sample),
            metric_premise(lambda: m, AbsoluteDistance, MaxDivergence,
                           "the privacy proof (|x - x'| <= d_in on integers)"),
            Z3Goal("scale > 0, |x - x'| <= d_in, d_in > 0: exp(-|y-x|/s) <= exp(map(d_in)) "
                   "exp(-|y-x'|/s)",
                   EXP(loss_x) <= EXP(epsilon) * EXP(loss_x2),
                   [*assumptions, scale > 0, d_in > 0, ops.absolute(x - x2) <= d_in,
                    *exp_product_facts(loss_x, epsilon, loss_x2)], names, replay),
            Z3Goal("d_in = 0 (then x = x'): map(0) >= 0", 0 <= m.map(z3.RealVal(0)),
                   assumptions, params, replay),
            zero_scale_map_is_infinite(constructor, replay),
        ]

    return (
        *integer_noise_obligations(constructor, prefix, sample_discrete_laplace, sample),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "function(x) = x + Y with Pr[Y = z] = exp(-|z|/scale) / Z(scale): one draw of "
                   "the exact CKS sampler with the constructor's scale, added to x (no noise "
                   "when scale = 0).",
                   r"\Pr[M(x) = y] \propto e^{-|y - x| / \mathtt{scale}}",
                   distribution_goals, cites=(CKS,)),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "For all integers x, x', y with |x - x'| <= d_in, Pr[M(x) = y] <= "
                   "exp(map(d_in)) Pr[M(x') = y]: the normaliser does not depend on x and "
                   "|y - x'| - |y - x| <= |x - x'| <= d_in <= scale * map(d_in).",
                   r"|x - x'| \le d_{in} \implies \Pr[M(x) = y] \le e^{\mathtt{map}(d_{in})} "
                   r"\Pr[M(x') = y]",
                   privacy_goals, uses=(f"{prefix}.distribution", f"{prefix}.map_rounding"),
                   bound="scale = 0: map(d_in) = +inf evaluated at d_in in {2^-1074, 1, 2^1023}"),
        map_rounding_obligation(prefix, symbolic_build(constructor, floats=("scale",)), real_d_in,
                                replay_rounding(constructor, parameter_candidates(("scale",))),
                                "d_in / scale"),
    )


IMPORT = "from mechanisms.make_discrete_laplace import make_discrete_laplace"


def catalogue_entry() -> Entry:
    return Entry("make_discrete_laplace", make_discrete_laplace, discrete_laplace_obligations(),
                 "add discrete Laplace noise to an integer",
                 (example("make_discrete_laplace(1.0)", IMPORT),
                  example("make_discrete_laplace(2.5)", IMPORT)), proof=True)
