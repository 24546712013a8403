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
import random
from contextlib import nullcontext
from dataclasses import replace
from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.errors import DPCertError
from mechanisms.make_discrete_laplace import IntegerNoise, make_discrete_laplace
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import AbsoluteDistance
from mechanisms.samplers import sample_discrete_laplace
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.kernels import trusted_kernel_goal
from obligations.make_randomized_response import EXP
from obligations.rounding import (map_rounding_obligation, parameter_candidates, real_d_in,
                                  replay_rounding, symbolic_build)
from obligations.noise import exact_noise_goal
from obligations.noise_draws import BOUND as DRAW_BRANCH, NoiseKernel, draws_exactly_when_positive
from obligations.reports import (bound_assertion, claim_assertion, constructor_call,
                                 import_line, literal, member_assertion, plain_report, reproducer,
                                 returns, show)
from obligations.witnesses import excluded_goals, refusal_goal

CKS = "Canonne, Kamath and Steinke 2020, Algorithm 2 (exact discrete Laplace sampler)"
ZERO_SCALE_DIVISORS = (2.0 ** -1074, 1.0, 2.0 ** 1023)
"""The ``d_in > 0`` at which the ``scale = 0`` case (map ``+inf``) is evaluated."""


def symbolic(constructor: Constructor) -> tuple[Measurement, dict[str, Any], list[Any]]:
    """``build`` on a real ``scale``, and the preconditions on it."""
    scale = z3.Real("scale")
    return constructor.build(scale=scale), {"scale": scale}, constructor.assumptions(scale=scale)


def concrete(constructor: Constructor, counterexample: dict[str, Any],
             default: float = 1.0) -> tuple[Measurement, dict[str, Any]]:
    """The constructor on the counterexample's scale as the nearest float when the constructor
    admits it (a negative one too, if its preconditions do), else on ``default``."""
    candidates = [float(Fraction(counterexample["scale"]))] if "scale" in counterexample else []
    for scale in [*candidates, default]:
        try:
            return constructor(scale=scale), {"scale": scale}
        except DPCertError:
            continue
    raise ValueError(f"{constructor.name} admits neither the model's scale nor {default}")


def negative_scale_refused(constructor: Constructor,
                           replay: Callable[[dict], Replay]) -> ComputedGoal:
    """Goal on the real constructor, apart from the solver model: ``scale = -1.0`` is refused.
    A negative scale draws no noise, so no finite map bounds the loss; if the constructor builds
    it (a weakened or untyped precondition), the privacy replay runs it on ``x = 0, x' = 1``."""
    return refusal_goal(constructor, {"scale": -1.0}, {"scale": -1.0},
                        "a negative scale (the function would draw no noise)",
                        lambda _: replay({"scale": -1, "x": 0, "x2": 1, "d_in": 1}))


def exp_product_facts(a: Any, b: Any, c: Any) -> list[Any]:
    """Instances of ``exp(u) exp(v) = exp(u + v)`` and ``u <= v => exp(u) <= exp(v)`` at the
    terms of the claim ``exp(a) <= exp(b) exp(c)``, and ``exp > 0``."""
    return [EXP(b) * EXP(c) == EXP(b + c), z3.Implies(a <= b + c, EXP(a) <= EXP(b + c)),
            EXP(a) > 0, EXP(b) > 0, EXP(c) > 0]


def kernel_goal(constructor: Constructor, sampler: Callable[..., int],
                arguments: dict[str, Any]) -> ComputedGoal:
    """The running function is :class:`IntegerNoise` with its own ``__call__`` (``shift`` may
    differ: the goals run it on the object) and ``sampler`` as its sampler (the law cited)."""
    def other_sampler(function: Any) -> list[str]:
        held = getattr(function, "sampler", None)
        return [] if held is sampler else \
            [f"its sampler is {getattr(held, '__qualname__', repr(held))}, not {sampler.__name__}"]
    return trusted_kernel_goal(f"the function of {constructor_call(constructor, **arguments)}",
                               lambda: constructor(**arguments).function, IntegerNoise,
                               checked=("shift",), also=other_sampler)


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
                            *reproducer(import_line(constructor), f"m = {call}",
                                        f"output = m.function.shift({x!r}, {z})",
                                        member_assertion("m")))
    return replay


LogRatio = Callable[[Fraction], Fraction]
"""``ln(Pr[Y = 1] / Pr[Y = 0])`` of the noise law at a scale ``s > 0``: ``-1/s`` (Laplace),
``-1/(2 s^2)`` (Gaussian). Both laws are symmetric and strictly decreasing in ``|z|``."""


def replay_scale_law(constructor: Constructor, log_ratio: LogRatio) -> Callable[[dict], Replay]:
    """The law the running function draws at the model's scale against the stated one, compared
    exactly on the event ``Y = 1`` relative to ``Y = 0`` (a point mass when the function's scale is
    not positive)."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = concrete(constructor, counterexample)
        real, stated = Fraction(m.function.scale), Fraction(arguments["scale"])
        describe = lambda s: f"ln(Pr[Y=1]/Pr[Y=0]) = {show(log_ratio(s))}" if s > 0 \
            else "Pr[Y=1] = 0 (no noise)"  # noqa: E731
        differ = (real > 0) != (stated > 0) or (real > 0 and log_ratio(real) != log_ratio(stated))
        return plain_report(differ, constructor_call(constructor, **arguments),
                            f"the running function draws at scale {show(real)}: {describe(real)}",
                            f"the stated law, scale {show(stated)}: {describe(stated)}",
                            "the laws differ" if differ else "the same law",
                            *reproducer(import_line(constructor),
                                        f"m = {constructor_call(constructor, **arguments)}",
                                        f"real, stated = Fraction(m.function.scale), "
                                        f"{literal(stated)}",
                                        claim_assertion("(real > 0) == (stated > 0) and (real <= 0 "
                                                        "or real == stated)",
                                                        "the function draws at scale {real}, the "
                                                        "stated law's scale is {stated} (for a "
                                                        "scale > 0, ln(Pr[Y=1]/Pr[Y=0]) is one to "
                                                        "one in it; at <= 0 there is no noise)")))
    return replay


def shift_witness(shift: Callable[[int, int], int], x: int, z: int, z2: int) -> str | None:
    """An event on which ``shift(x, Y)`` has more mass than the stated ``x + Y``, for any law of
    ``Y`` that is positive and strictly decreasing in ``|z|``, or ``None``."""
    y = shift(x, z)
    if abs(y - x) > abs(z):
        return (f"Pr[M({x}) = {y}] >= Pr[Y = {z}] > Pr[Y = {y - x}], the stated probability "
                f"(|{z}| < |{y - x}|)")
    if z2 != z and shift(x, z2) == y and min(abs(z), abs(z2)) <= abs(y - x):
        return (f"Pr[M({x}) = {y}] >= Pr[Y = {z}] + Pr[Y = {z2}] > Pr[Y = {y - x}], the stated "
                "probability (two draws reach it)")
    radius = abs(y - x)
    if radius < abs(z) and radius <= 10 ** 4:
        for w in range(-radius, radius + 1):
            if abs(shift(x, w) - x) > abs(w):
                return shift_witness(shift, x, w, w)
        return (f"Pr[|M({x}) - {x}| <= {radius}] >= Pr[|Y| <= {radius}] + Pr[Y = {z}] > "
                f"Pr[|Y| <= {radius}], the stated probability (every draw |w| <= {radius} stays "
                f"within {radius}, and so does the draw {z})")
    return None


def replay_shift_law(constructor: Constructor) -> Callable[[dict], Replay]:
    """The law of the real ``shift(x, Y)`` against the stated ``x + Y``: an event with more mass
    (:func:`shift_witness`); Y's law needs only a positive scale."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = concrete(constructor, {k: v for k, v in counterexample.items()
                                              if k != "scale" or Fraction(v) > 0})
        x, z = int(counterexample.get("x", 0)), int(counterexample.get("z", 0))
        z2 = int(counterexample.get("z2", z))
        witness = shift_witness(m.function.shift, x, z, z2)
        call = constructor_call(constructor, **arguments)
        return plain_report(witness is not None, f"{call} on x = {x}",
                            f"shift({x}, {z}) = {m.function.shift(x, z)}, shift({x}, {z2}) = "
                            f"{m.function.shift(x, z2)}",
                            witness or "no event found on which the law differs",
                            *reproducer(import_line(constructor),
                                        "from obligations.make_discrete_laplace import "
                                        "shift_witness",
                                        f"witness = shift_witness({call}.function.shift, {x}, {z}, "
                                        f"{z2})",
                                        claim_assertion("witness is None",
                                                        "shift(x, Y) is not x + Y in law: "
                                                        "{witness}")))
    return replay


def law_goals(constructor: Constructor, sampler: Callable[..., int], sample: dict[str, Any],
              log_ratio: LogRatio, point_mass: Callable[[Fraction], float | None]) -> list[Any]:
    """The distribution of ``x -> shift(x, Y)``, ``Y = sampler(function.scale)``: the running
    function is the kernel with that sampler; it draws once exactly when its scale is positive;
    the scale it reads is the constructor's; and ``shift(x, .)`` maps each draw ``z`` to ``x + z``
    or ``x - z`` one-to-one, so (the law being symmetric) ``shift(x, Y)`` has the law of ``x + Y``.
    ``point_mass(s)`` bounds the law's largest point probability at scale ``s`` from above."""
    m, params, assumptions = symbolic(constructor)
    f = m.function
    x, z, z2 = z3.Ints("x z z2")
    names = {**params, "x": x, "z": z, "z2": z2}
    shift_replay = replay_shift_law(constructor)
    kernel = NoiseKernel(constructor.name, lambda scale: _built(constructor, scale),
                         lambda function: function.scale,
                         lambda function, recorder: (replace(function, sampler=recorder),
                                                     nullcontext()),
                         lambda function, z: {function.shift(0, z)},
                         lambda function: point_mass(Fraction(function.scale)))
    return [kernel_goal(constructor, sampler, sample), draws_exactly_when_positive(kernel),
            fields_agree(lambda: symbolic(constructor), constructor,
                         [sample, {"scale": 0.5}], ("scale",)),
            Z3Goal("the function's scale (the law's) is the constructor's scale",
                   ops.exact(f.scale) == params["scale"], assumptions, params,
                   replay_scale_law(constructor, log_ratio)),
            Z3Goal("shift(x, z) is x + z or x - z: |output - x| = |draw|",
                   z3.Or(f.shift(x, z) == x + z, f.shift(x, z) == x - z), assumptions, names,
                   shift_replay),
            Z3Goal("shift(x, .) is one-to-one: two draws never give the same output",
                   z3.Implies(f.shift(x, z) == f.shift(x, z2), z == z2), assumptions, names,
                   shift_replay)]


def _built(constructor: Constructor, scale: float) -> Measurement | None:
    """The constructor at ``scale``, or ``None`` if it refuses it."""
    try:
        return constructor(scale=scale)
    except DPCertError:
        return None


def discrete_laplace_point_mass(scale: Fraction) -> float:
    """``Pr[Y = 0] = (1 - q)/(1 + q) = tanh(1/(2 scale))``, ``q = e^(-1/scale)``: the discrete
    Laplace's largest point probability (the trivial bound ``1`` for ``scale < 1/64``, where
    ``tanh`` is ``1`` in floats)."""
    return math.tanh(1 / (2 * scale)) if scale >= Fraction(1, 64) else 1.0


def no_noise_only_at_zero(noise: Any, scale: Any, assumptions: list[Any], params: dict[str, Any],
                          replay: Callable[[dict], Replay]) -> Z3Goal:
    """Where the function's noise scale is not positive it adds no noise (point masses, privacy
    only with ``map = +inf``): that happens only at ``scale = 0``, the case evaluated by
    :func:`zero_scale_map_is_infinite`."""
    return Z3Goal("the function adds noise (its scale > 0) for every admitted scale but 0",
                  z3.Or(noise > 0, scale == 0), assumptions, params, replay)


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
        return [kernel_goal(constructor, sampler, sample),
                fields_agree(lambda: symbolic(constructor), constructor, [sample], ("scale",)),
                shift_has_output_type(constructor, sample),
                Z3Goal("shift(x, z) is in the output domain for every integer x and draw z",
                       is_true(m.output_domain.contains(m.function.shift(x, z))),
                       [*assumptions, is_true(m.input_domain.contains(x))],
                       {**params, "x": x, "z": z}, replay_output(constructor)),
                runs_into_output_domain(constructor, [sample, {"scale": 0.0}],
                                        (0, 1, -7, 10 ** 30)),
                *excluded_goals(constructor, [({"scale": math.inf}, "an infinite scale"),
                                              ({"scale": 1}, "an int scale (a float)")],
                                inputs=[0, 1, -7])]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every integer x and every noise draw z, the output shift(x, z) is an int, "
                   "a member of AtomDomain(int); the running function, IntegerNoise's own "
                   "__call__, returns one.",
                   r"\forall x, z \in \mathbb{Z}:\ \mathtt{shift}(x, z) \in \mathbb{Z}",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "Absolute distance is defined on AtomDomain(int).",
                   r"d_{Abs} \sim \mathrm{AtomDomain}(\mathtt{int})",
                   lambda: [compatibility_goal(constructor, lambda: [symbolic(constructor)[0]],
                                               dict(sample))]),
    )


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """The exact log-ratio of the running function's law on the model's inputs, then on
    ``x = 0, x' = 1, y = 0, d_in = 1``: ``(|y - x'| - |y - x|) / s`` for its scale ``s > 0`` (the
    normaliser cancels), ``+inf`` for a point mass (no noise) with ``x != x'``, against the
    claimed ``map(d_in)``."""
    def observed_loss(scale: Fraction, x: int, x2: int, y: int) -> Any:
        if scale > 0:
            return Fraction(abs(y - x2) - abs(y - x)) / scale
        return math.inf if x != x2 and y == x else 0

    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = concrete(constructor, counterexample)
        noise = Fraction(m.function.scale)
        model = tuple(int(counterexample.get(k, 0)) for k in ("x", "x2", "y"))
        candidates = [(*model, Fraction(counterexample.get("d_in", abs(model[0] - model[1])))),
                      (0, 1, 0, Fraction(1))]
        for x, x2, y, d_in in candidates:
            observed, claimed = observed_loss(noise, x, x2, y), m.map(d_in)
            confirmed = abs(x - x2) <= d_in and observed > claimed
            if confirmed:
                break
        call = constructor_call(constructor, **arguments)
        return plain_report(
            confirmed, call, f"inputs x = {x}, x' = {x2}, output y = {y}, d_in = {show(d_in)}",
            f"the function's noise scale: {show(noise)}" + ("" if noise > 0 else " (no noise)"),
            f"claimed  map(d_in) = {claimed!r}",
            f"observed ln(Pr[M(x)=y] / Pr[M(x')=y]) = {show(observed)}"
            + ("  > claimed" if confirmed else ""),
            *reproducer(import_line(constructor), f"m = {call}", "s = Fraction(m.function.scale)",
                        f"claimed = m.map({literal(d_in)})",
                        f"observed = Fraction(abs({y} - {x2}) - abs({y} - {x})) / s if s > 0 else "
                        + ("float('inf')" if x != x2 and y == x else "0"),
                        bound_assertion("ln(Pr[M(x)=y] / Pr[M(x')=y]) = (|y - x'| - |y - x|) / s",
                                        f"map({literal(d_in)})")))
    return replay


def discrete_laplace_obligations(constructor: Constructor = make_discrete_laplace,
                                 prefix: str = "discrete_laplace") -> tuple[Obligation, ...]:
    sample = {"scale": 2.0}

    def distribution_goals() -> list[Any]:
        return law_goals(constructor, sample_discrete_laplace, sample, lambda s: -1 / s,
                         discrete_laplace_point_mass)

    def privacy_goals() -> list[Any]:
        m, params, assumptions = symbolic(constructor)
        scale = params["scale"]
        noise = ops.exact(m.function.scale)
        x, x2, y = z3.Ints("x x2 y")
        d_in = z3.Real("d_in")
        epsilon = m.map(d_in)
        loss_x, loss_x2 = -ops.absolute(y - x) / noise, -ops.absolute(y - x2) / noise
        names = {**params, "x": x, "x2": x2, "y": y, "d_in": d_in}
        replay = _replay_privacy(constructor)
        return [
            exact_noise_goal(lambda: constructor(**sample)),
            kernel_goal(constructor, sample_discrete_laplace, sample),
            fields_agree(lambda: symbolic(constructor), constructor, [sample, {"scale": 0.5}],
                         ("scale",)),
            metric_premise(lambda: m, AbsoluteDistance, MaxDivergence,
                           "the privacy proof (|x - x'| <= d_in on integers)"),
            Z3Goal("the function's scale s > 0, |x - x'| <= d_in, d_in > 0: exp(-|y-x|/s) <= "
                   "exp(map(d_in)) exp(-|y-x'|/s)",
                   EXP(loss_x) <= EXP(epsilon) * EXP(loss_x2),
                   [*assumptions, noise > 0, d_in > 0, ops.absolute(x - x2) <= d_in,
                    *exp_product_facts(loss_x, epsilon, loss_x2)], names, replay),
            no_noise_only_at_zero(noise, scale, assumptions, params, replay),
            negative_scale_refused(constructor, replay),
            Z3Goal("d_in = 0 (then x = x'): map(0) >= 0", 0 <= m.map(z3.RealVal(0)),
                   assumptions, params, replay),
            zero_scale_map_is_infinite(constructor, replay),
        ]

    return (
        *integer_noise_obligations(constructor, prefix, sample_discrete_laplace, sample),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "function(x) has the law of x + Y with Pr[Y = z] = exp(-|z|/scale) / Z(scale): "
                   "one draw of the exact CKS sampler at the function's scale, which is the "
                   "constructor's, shifted by +-draw one-to-one (no noise when scale = 0).",
                   r"\Pr[M(x) = y] \propto e^{-|y - x| / \mathtt{scale}}",
                   distribution_goals, cites=(CKS,), bound=DRAW_BRANCH),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "For all integers x, x', y with |x - x'| <= d_in, Pr[M(x) = y] <= "
                   "exp(map(d_in)) Pr[M(x') = y], for the law the running function draws at "
                   "its own scale s: for s > 0 the normaliser does not depend on x and "
                   "|y - x'| - |y - x| <= |x - x'| <= d_in <= s * map(d_in); s <= 0 (no noise, "
                   "point masses) only at scale = 0, where map(d_in) = +inf.",
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
