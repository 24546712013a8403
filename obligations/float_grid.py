"""What the proofs of noise on the ``2^k`` float grid share (``make_laplace`` and
``make_float_gaussian``): the input rounded to the grid as the running code rounds it, the noise
an integer number of grid units, the outputs of a draw read on the running code with its sampler
recorded, the law's goals on that grid, the map's rounding and the domain goals of the grid."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable
from unittest import mock

import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.errors import DPCertError
from mechanisms.make_laplace import float_units
from obligations.base import ComputedGoal, Decision, Kind, Obligation, Replay, Z3Goal
from obligations.compatibility import compatibility_goal
from obligations.ieee import LARGEST_FINITE, SMALLEST_SUBNORMAL, SUBNORMAL_EXPONENT
from obligations.kernels import trusted_kernel_goal
from obligations.integer_noise import fields_agree
from obligations.rounding import (float_d_in, map_rounding_obligation, parameter_candidates,
                                  replay_rounding, symbolic_build)
from obligations.noise_draws import NoiseKernel, RecordingSampler, draws_exactly_when_positive
from obligations.reports import (constructor_call, import_line, member_assertion, plain_report,
                                 reproducer, show)


SAMPLE = {"scale": 2.0, "k": -10}
"""The arguments the single-object goals build at."""
SAMPLES = [SAMPLE, {"scale": 1.0, "k": SUBNORMAL_EXPONENT}, {"scale": 0.0, "k": 3},
           {"scale": 0.5, "k": SUBNORMAL_EXPONENT + 1}]
"""Admitted argument sets at which the running function is run and its fields compared."""


U = SMALLEST_SUBNORMAL
"""``2^-1074``, the grid's finest unit."""
STEPS = ("grid_index", "grid_scale", "grid_to_float")
"""The steps of ``FloatGridLaplace.__call__`` the goals run on the object itself."""


def spec_multiple(k: Any) -> Any:
    """``2^(k + 1074)``: the grid step ``2^k`` in units of ``u`` (Z3's power on a Z3 ``k``)."""
    return 2 ** (k - SUBNORMAL_EXPONENT)


def symbolic_grid(constructor: Constructor) -> tuple[Measurement, dict[str, Any], list[Any]]:
    """``build`` on a real ``scale`` and an integer ``k``, and the preconditions."""
    scale, k = z3.Real("scale"), z3.Int("k")
    m = constructor.build(scale=scale, k=k)
    return m, {"scale": scale, "k": k}, constructor.assumptions(scale=scale, k=k)


REPLAY_SCALES = (3 * U, Fraction(1))
"""Scales the privacy replay also tries, beside the model's: a few grid units, and 1."""


def nearest_float_or_none(q: Fraction) -> float | None:
    """The float nearest ``q``, ``None`` beyond the float range (a model's value may be huge)."""
    try:
        return float(q)
    except OverflowError:
        return None


def concrete_grid(constructor: Constructor,
                  counterexample: dict[str, Any]) -> tuple[Measurement, dict]:
    """The model's scale (nearest float) and ``k`` when the constructor admits them, else the
    model's scale at :data:`SAMPLE`'s ``k``, else :data:`SAMPLE`."""
    scale = nearest_float_or_none(Fraction(counterexample.get("scale", 1)))
    k = int(counterexample.get("k", SAMPLE["k"]))
    tried = [{"scale": scale, "k": k}, {"scale": scale, "k": SAMPLE["k"]}] if scale is not None \
        else []
    for arguments in (*tried, SAMPLE):
        try:
            return constructor(**arguments), dict(arguments)
        except (DPCertError, OverflowError, ValueError):
            continue
    raise ValueError(f"{constructor.name} admits none of the replay's arguments")


def grid_kernel_goal(constructor: Constructor, kernel: type) -> Any:
    """The function of the constructor at :data:`SAMPLE` runs ``kernel``'s own code, its grid
    steps :data:`STEPS` checked (shared by the float-grid noise constructors)."""
    return trusted_kernel_goal(f"the function of {constructor_call(constructor, **SAMPLE)}",
                               lambda: constructor(**SAMPLE).function, kernel, checked=STEPS)


def sampler_replaced(sampler: str) -> Callable[[Any, RecordingSampler], tuple[Any, Any]]:
    """The installer for a float-grid kernel whose ``__call__`` finds its sampler, named
    ``sampler``, among its module's globals: the recorder takes that name there while the call
    runs."""
    def install(function: Any, recorder: RecordingSampler) -> tuple[Any, Any]:
        module = type(function).__call__.__globals__
        return function, mock.patch.dict(module, {sampler: recorder})
    return install


def grid_outputs_for_draw(f: Any, z: int) -> set[float]:
    """The outputs on ``0`` for the draw ``z``: ``index(0) +- z`` back to a float (the noise is
    symmetric, so either sign has the law), with the function's own checked steps."""
    index = f.grid_index(float_units(0.0), f.multiple)
    return {f.grid_to_float(index + z, f.multiple), f.grid_to_float(index - z, f.multiple)}


def grid_draws_goal(constructor: Constructor,
                    at_scale: Callable[[Constructor, float], Measurement | None], sampler: str,
                    point_mass: Callable[[Fraction], Any]) -> ComputedGoal:
    """One exact draw of the sampler named ``sampler`` at the function's grid noise scale
    ``scale / 2^k`` exactly when it is positive, its largest point probability bounded by
    ``point_mass`` of that scale (shared by the float-grid noise constructors)."""
    return draws_exactly_when_positive(NoiseKernel(
        constructor.name, lambda scale: at_scale(constructor, scale),
        lambda f: f.grid_scale(f.scale, f.multiple), sampler_replaced(sampler),
        grid_outputs_for_draw,
        lambda f: point_mass(Fraction(f.grid_scale(f.scale, f.multiple)))))


def grid_fields_agree(constructor: Constructor) -> Any:
    return fields_agree(lambda: symbolic_grid(constructor), constructor, SAMPLES,
                        ("scale", "multiple"))


def _units(a: Any) -> Any:
    """The code's ``float_units`` of the float ``x = a u`` (a Z3 real)."""
    return float_units(z3.ToReal(a) * z3.RealVal(U))


def finite_units(*units: Any) -> list[Any]:
    """``a u`` is within the float range (every finite float is such an ``a u``)."""
    return [z3.ToReal(ops.absolute(a)) * z3.RealVal(U) <= z3.RealVal(LARGEST_FINITE) for a in units]


def units_goal(constructor: Constructor, replay: Callable[[dict], Replay]) -> Z3Goal:
    """The code's ``float_units`` is the specification's: ``a`` for the float ``a 2^-1074``
    (the other goals then count inputs in these units)."""
    a = z3.Int("a")
    return Z3Goal("float_units(x) = a for every finite float x = a 2^-1074",
                  _units(a) == z3.ToReal(a), finite_units(a), {"a": a}, replay)


def replay_grid_output(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = concrete_grid(constructor, counterexample)
        j = int(counterexample.get("j", 0))
        output = m.function.grid_to_float(j, m.function.multiple)
        member = m.output_domain.member(output)
        call = constructor_call(constructor, **arguments)
        return plain_report(not member, f"{call}: grid point {j} (noisy index)",
                            f"output {output!r} of type {type(output).__name__}; member of "
                            f"{m.output_domain}: {member}",
                            *reproducer(import_line(constructor), f"m = {call}",
                                        f"output = m.function.grid_to_float({j}, "
                                        "m.function.multiple)", member_assertion("m")))
    return replay


def grid_output_type(constructor: Constructor) -> Any:
    def decide() -> Decision:
        m = constructor(**SAMPLE)
        term = m.function.grid_to_float(z3.Int("j"), z3.Int("m"))
        carrier = ops.carrier_of(term)
        if carrier is m.output_domain.carrier:
            return Decision(True, detail=f"grid_to_float(int, int) has sort {term.sort()}")
        return Decision(False, {"j": 1}, f"grid_to_float gives a {carrier.__name__}, the output "
                        f"domain holds {m.output_domain.carrier.__name__}")
    return ComputedGoal("grid_to_float(j, m) has the output domain's Python type", "structure",
                        decide, replay_grid_output(constructor))


def grid_center(m: Measurement, x: float) -> int:
    """The grid index the running function centres the noise on for the input ``x``."""
    f = m.function
    return f.grid_index(float_units(x), f.multiple)


def grid_noise_scale(m: Measurement) -> Fraction:
    f = m.function
    return Fraction(f.grid_scale(f.scale, f.multiple))


def number_text(q: Any) -> str:
    """A float's value as the float, any other rational as :func:`show` writes it."""
    return repr(float(q)) if isinstance(q, float) or Fraction(float(q)) == q else show(q)


def grid_law_goals(constructor: Constructor, replay: Callable[[dict], Replay], noise: str
                   ) -> tuple[Z3Goal, list[Z3Goal]]:
    """The distribution goals on the grid of a float-grid noise constructor, run on the symbolic
    build, against the specification (IEEE-754's ``2^k`` and ``u``): the grid multiple is
    ``2^(k + 1074)``; then the function's ``noise`` (its grid scale) is ``scale / 2^k``,
    ``grid_index`` the nearest grid point (ties up), ``grid_to_float`` the nearest float."""
    m, params, assumptions = symbolic_grid(constructor)
    f, a, j, grid = m.function, z3.Int("a"), z3.Int("j"), z3.Int("m")
    scale, spec = params["scale"], spec_multiple(params["k"])
    i = f.grid_index(a, grid)
    step = z3.ToReal(grid) * z3.RealVal(U)
    names = {**params, "a": a, "j": j, "m": grid}
    generalized = [*assumptions, grid == spec, grid >= 1]
    return (Z3Goal("the function's grid multiple m is 2^(k + 1074): its grid step is 2^k, "
                   "and m >= 1", z3.And(f.multiple == spec, spec >= 1), assumptions, params,
                   replay),
            [Z3Goal(f"the function's {noise}, in grid steps, is scale / 2^k",
                    ops.exact(f.grid_scale(f.scale, grid)) * step == scale,
                    generalized, names, replay),
             Z3Goal("grid_index(a, m) is the nearest grid point, ties up: (2i - 1) m <= 2a < "
                    "(2i + 1) m", z3.And((2 * i - 1) * grid <= 2 * a, 2 * a < (2 * i + 1) * grid),
                    generalized, names, replay),
             Z3Goal("grid_to_float(j, m) is the float nearest j 2^k (ties to even)",
                    f.grid_to_float(j, grid)
                    == z3.fpToFP(z3.RNE(), z3.ToReal(j) * step, z3.Float64()),
                    generalized, names, replay)])


def replay_builds(constructor: Constructor, counterexample: dict[str, Any]
                  ) -> list[tuple[Measurement, dict[str, Any]]]:
    """The builds a float-grid privacy replay tries: the model's, the model's at the finest and
    the next grid, and :data:`REPLAY_SCALES` at those two grids."""
    return [concrete_grid(constructor, counterexample),
            *[concrete_grid(constructor, {**counterexample, "k": SUBNORMAL_EXPONENT + e})
              for e in (0, 1)],
            *[concrete_grid(constructor, {"scale": scale, "k": SUBNORMAL_EXPONENT + e})
              for scale in REPLAY_SCALES for e in (0, 1)]]


def rounding_unit_pairs(m: Measurement, arguments: dict[str, Any],
                        counterexample: dict[str, Any],
                        more: Callable[[Fraction], list[tuple[int, int]]] = lambda step: []
                        ) -> list[tuple[int, int]]:
    """Input pairs, in units of ``u``, of a float-grid privacy replay: the model's ``a, a'``
    shifted by ``-3 .. 3``, ``(2, 1)``, ``(1, 0)``, then for the stated step ``2^k`` and the
    function's real step the worst rounding pairs around half a step and ``(step, 0)``, each
    step followed by ``more(step)``."""
    f = m.function
    steps = {Fraction(2) ** arguments["k"], Fraction(f.grid_to_float(1, f.multiple))}
    a, a2 = int(counterexample.get("a", 0)), int(counterexample.get("a2", 0))
    pairs = [(a + d, a2 + d) for d in range(-3, 4)] + [(2, 1), (1, 0)]
    for step in steps:
        half = math.floor(step / 2 / U)
        pairs += [(half, half - 1), (half + 1, half), (math.floor(step / U), 0)]
        pairs += more(step)
    return pairs


ZERO_SCALE_BOUND = ("scale = 0: map(d_in) = +inf evaluated at d_in in {2^-1074, 1, 2^1023}, "
                    "k = -10")
"""The privacy obligations' bound of the float-grid noise constructors: the zero-scale map is
evaluated at these d_in, not proved."""


def grid_map_rounding(constructor: Constructor, prefix: str, exact: str) -> Obligation:
    """The map-rounding obligation of a float-grid noise constructor (float ``scale``, int ``k``,
    float ``d_in``): its map computed in floats is never below ``exact``."""
    return map_rounding_obligation(
        prefix, symbolic_build(constructor, floats=("scale",), integers=("k",)), float_d_in,
        replay_rounding(constructor, parameter_candidates(
            ("scale",), fixed={"k": SUBNORMAL_EXPONENT}, float_distance=True)),
        exact)


def grid_domain_obligations(constructor: Constructor, prefix: str, kernel_name: str,
                            output_domain_goals: Callable[[], list[Any]]
                            ) -> tuple[Obligation, Obligation]:
    """The output-domain (goals ``output_domain_goals``, the running function ``kernel_name``'s
    own ``__call__``) and compatibility obligations of a float-grid noise constructor on
    AtomDomain(float) with the absolute distance."""
    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every noisy grid index j, the output grid_to_float(j, m) is a float that "
                   "is not NaN (+-inf beyond the float range), a member of AtomDomain(float); "
                   f"the running function, {kernel_name}'s own __call__, returns one.",
                   r"\forall j \in \mathbb{Z}:\ \mathtt{grid\_to\_float}(j) \in "
                   r"\mathrm{AtomDomain}(\mathtt{float})",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "Absolute distance is defined on AtomDomain(float) (no NaN).",
                   r"d_{Abs} \sim \mathrm{AtomDomain}(\mathtt{float})",
                   lambda: [compatibility_goal(constructor, lambda: [symbolic_grid(constructor)[0]],
                                               dict(SAMPLE))]),
    )
