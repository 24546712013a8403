"""Obligations of ``make_geometric``, for every finite float ``scale >= 0`` and every integer bounds
``L <= U``.

The symbolic build takes ``scale`` as a Z3 real and ``L, U`` as Z3 integers. The law is read from
the built function (``BoundedIntegerNoise``: its own ``__call__``, its fields, its ``release`` and
``clamp`` run on solver terms): one draw ``Y`` of the exact discrete Laplace sampler (CKS 2020,
Algorithm 2, cited) at the function's scale, which is the constructor's, and the output
``release(x, Y)``, proved equal for every ``x, z`` to the specification ``clamp(clamp(x) + z)``
(or, for a function that subtracts its draw, ``clamp(clamp(x) - z)`` for every ``x, z``: the same
law, ``Y`` being symmetric) written here from the mathematics (``clamp(v) = L if v < L, U if v > U,
else v``), so ``M(x) = g(W)`` with ``W = clamp(x) + Y`` and ``g`` the clamp, which does not depend
on ``x``. The privacy proof: ``|clamp(x) - clamp(x')| <= |x - x'|``; the point ratios of ``W`` are
at most ``exp(map(d_in))`` (``exp`` uninterpreted with the facts stated); and an output's
probability is the sum of the point probabilities of ``W`` over ``g``'s preimage, each meeting the
ratio (post-processing: an induction over the points summed, the countable limit argued in the
human proof). Nothing is truncated: OpenDP's truncation of the geometric draw at ``U - L`` trials
is absorbed by its output clamp, and ours does not truncate at all.

Replays compute the law of the running function by running its ``release`` on every draw of a
window and bounding the omitted mass (60 digits): a lower bound of ``Pr[M(x) = y]`` and an upper
bound of ``Pr[M(x') = y]``, so a confirmed loss is a true lower bound.
"""

from __future__ import annotations

import math
from contextlib import nullcontext
from dataclasses import replace
from fractions import Fraction
from typing import Any, Callable

import mpmath
import z3

from mechanisms import float_model, ops
from mechanisms.core import Constructor, Measurement
from mechanisms.errors import DPCertError
from mechanisms.make_geometric import BoundedIntegerNoise, make_geometric
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import AbsoluteDistance
from mechanisms.samplers import sample_discrete_laplace
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.kernels import trusted_kernel_goal
from obligations.make_discrete_laplace import (discrete_laplace_point_mass, exp_product_facts,
                                               runs_into_output_domain)
from obligations.make_randomized_response import EXP
from obligations.noise import exact_noise_goal
from obligations.noise_draws import BOUND as DRAW_BRANCH, NoiseKernel, draws_exactly_when_positive
from obligations.reports import (claim_assertion, constructor_call, import_line, literal,
                                 member_assertion, plain_report, reproducer)
from obligations.rounding import (map_rounding_obligation, parameter_candidates, real_d_in,
                                  replay_rounding)
from obligations.witnesses import excluded_goals

CKS = "Canonne, Kamath and Steinke 2020, Algorithm 2 (exact discrete Laplace sampler)"
DIGITS = 60
SAMPLE = {"scale": 2.0, "bounds": (0, 10)}
SAMPLES = [SAMPLE, {"scale": 0.5, "bounds": (-3, 3)}, {"scale": 1.0, "bounds": (5, 5)},
           {"scale": 0.0, "bounds": (0, 10)}]
WIDE = (-1000, 1000)
"""Bounds at which the draw branch is run (clamping then matters only past |draw| ~ 1000)."""


def symbolic(constructor: Constructor) -> tuple[Measurement, dict[str, Any], list[Any]]:
    """``build`` on a real ``scale`` and integer bounds ``L, U``, and the preconditions."""
    scale, lower, upper = z3.Real("scale"), z3.Int("L"), z3.Int("U")
    arguments = {"scale": scale, "bounds": (lower, upper)}
    return (constructor.build(**arguments), {"scale": scale, "L": lower, "U": upper},
            constructor.assumptions(**arguments))


def clamp_spec(v: Any, lower: Any, upper: Any) -> Any:
    """The clamp of an integer to ``[lower, upper]``, from its definition."""
    return z3.If(v < lower, lower, z3.If(v > upper, upper, v))


def _concrete(constructor: Constructor, counterexample: dict[str, Any]
              ) -> tuple[Measurement, dict[str, Any]]:
    """The constructor at the model's scale (nearest float) and bounds if it admits them, else at
    :data:`SAMPLE`."""
    tried = []
    if {"scale", "L", "U"} <= counterexample.keys():
        tried.append({"scale": float(Fraction(counterexample["scale"])),
                      "bounds": (int(counterexample["L"]), int(counterexample["U"]))})
    for arguments in [*tried, SAMPLE]:
        try:
            return constructor(**arguments), arguments
        except DPCertError:
            continue
    raise ValueError(f"{constructor.name} admits neither the model's arguments nor {SAMPLE}")


# --- the law of the running function ----------------------------------------------------------

def running_law(f: Any, x: int, radius: int | None = None) -> tuple[dict[Any, Any], Any]:
    """The law of ``f.release(x, Y)``, ``Y`` the discrete Laplace at ``f.scale > 0``
    (``Pr[Y = z] = (1 - a)/(1 + a) a^|z|``, ``a = exp(-1/scale)``, stated here): the mass of each
    output over the draws ``|z| <= radius`` (a lower bound of its probability), and the mass of
    the draws omitted (adding it bounds every probability from above), at :data:`DIGITS`
    digits. The outputs are those the running ``release`` returns."""
    with mpmath.workdps(DIGITS):
        scale = Fraction(f.scale)
        a = mpmath.exp(-mpmath.mpf(scale.denominator) / scale.numerator)
        c = (1 - a) / (1 + a)
        if radius is None:
            radius = min(abs(x) + int(60 * scale) + 80, 20_000)
        law: dict[Any, Any] = {}
        for z in range(-radius, radius + 1):
            y = f.release(x, z)
            law[y] = law.get(y, mpmath.mpf(0)) + c * a ** abs(z)
        return law, 2 * c * a ** (radius + 1) / (1 - a)


def loss_lower_bound(f: Any, x: int, x2: int, y: Any) -> Any:
    """A lower bound of ``ln(Pr[M(x) = y] / Pr[M(x') = y])`` for the running ``f`` (``+inf``
    when the bound on ``Pr[M(x') = y]`` is 0, ``-inf`` when ``y`` is not seen from ``x``)."""
    if Fraction(f.scale) <= 0:
        p, q = (1 if f.release(x, 0) == y else 0), (1 if f.release(x2, 0) == y else 0)
        return math.inf if p and not q else (0 if p else -math.inf)
    (law, _), (law2, tail2) = running_law(f, x), running_law(f, x2)
    with mpmath.workdps(DIGITS):
        p, q = law.get(y, mpmath.mpf(0)), law2.get(y, mpmath.mpf(0)) + tail2
        if p == 0:
            return -math.inf
        return mpmath.log(p / q)


def stated_law(scale: Any, lower: int, upper: int, x: int) -> dict[int, Any]:
    """``clamp(clamp(x) + Y)`` with ``Y`` the discrete Laplace at ``scale > 0``, from its closed
    form: interior points ``Pr[Y = y - c]``, the bounds the tails
    ``Pr[Y <= L - c]`` and ``Pr[Y >= U - c]`` (``c = clamp(x)``)."""
    with mpmath.workdps(DIGITS):
        s = Fraction(scale)
        a = mpmath.exp(-mpmath.mpf(s.denominator) / s.numerator)
        c = (1 - a) / (1 + a)
        point = lambda z: c * a ** abs(z)  # noqa: E731
        def upper_tail(t: int) -> Any:
            return a ** t / (1 + a) if t >= 1 else 1 - a ** (1 - t) / (1 + a)
        centre = min(max(x, lower), upper)
        if lower == upper:
            return {lower: mpmath.mpf(1)}
        law = {y: point(y - centre) for y in range(lower + 1, upper)}
        law[upper] = upper_tail(upper - centre)
        law[lower] = upper_tail(centre - lower)          # Pr[Y <= L - c] = Pr[Y >= c - L]
        return law


def law_difference(f: Any, x: int) -> tuple[Any, Any, Any] | None:
    """An output whose probability under the running ``f`` (bounded from both sides) lies off
    the stated law's at ``f``'s scale and bounds: ``(y, running bounds, stated)``."""
    if Fraction(f.scale) <= 0:
        return None
    law, tail = running_law(f, x)
    stated = stated_law(f.scale, f.lower, f.upper, x)
    with mpmath.workdps(DIGITS):
        margin = mpmath.mpf(10) ** -40
        for y in sorted(law.keys() | stated.keys(), key=repr):
            low = law.get(y, mpmath.mpf(0))
            want = stated.get(y, mpmath.mpf(0))
            if low > want + margin or low + tail < want - margin:
                return y, (low, low + tail), want
    return None


# --- goals ------------------------------------------------------------------------------------

def draw_sign(constructor: Constructor) -> int:
    """``-1`` when the running function at :data:`SAMPLE` releases ``clamp(clamp(0) - 1)`` for
    the draw ``1`` (it subtracts the draw), else ``+1``. Either sign gives the stated law, ``Y``
    being symmetric; the Z3 goal then proves the chosen form for every ``x, z``, so a release
    that mixes the two is refuted."""
    try:
        f = constructor(**SAMPLE).function
        return -1 if f.release(0, 1) == 0 else 1
    except Exception:  # noqa: BLE001 - the goals report a function that does not run
        return 1


def kernel_goal(constructor: Constructor) -> ComputedGoal:
    """The running function is :class:`BoundedIntegerNoise` with its own ``__call__``
    (``clamp`` and ``release`` may differ: the goals run them on the object) and the exact
    discrete Laplace sampler."""
    def other_sampler(function: Any) -> list[str]:
        held = getattr(function, "sampler", None)
        return [] if held is sample_discrete_laplace else \
            [f"its sampler is {getattr(held, '__qualname__', repr(held))}, not "
             "sample_discrete_laplace"]
    return trusted_kernel_goal(f"the function of {constructor_call(constructor, **SAMPLE)}",
                               lambda: constructor(**SAMPLE).function, BoundedIntegerNoise,
                               checked=("clamp", "release"), also=other_sampler)


def fields_goal(constructor: Constructor) -> ComputedGoal:
    """At each admitted :data:`SAMPLES` argument set the running function has the symbolic
    build's class and the fields ``scale, lower, upper`` equal to the arguments (the Z3 goals
    prove the same of the symbolic build)."""
    def decide() -> Decision:
        m, _, _ = symbolic(constructor)
        ran = 0
        for arguments in SAMPLES:
            try:
                running = constructor(**arguments).function
            except DPCertError:
                continue
            ran += 1
            if type(running) is not type(m.function):
                return Decision(False, {"arguments": str(arguments)}, f"the running function is "
                                f"a {type(running).__qualname__}, the proof's a "
                                f"{type(m.function).__qualname__}")
            fields = (running.scale, running.lower, running.upper)
            wanted = (arguments["scale"], *arguments["bounds"])
            if any(Fraction(a) != Fraction(b) for a, b in zip(fields, wanted)):
                return Decision(False, {"arguments": str(arguments)}, f"the running function's "
                                f"(scale, lower, upper) are {fields}, not {wanted}")
        if not ran:  # a bounded check counts only the cases that ran
            return Decision(False, {"argument sets": len(SAMPLES)}, "the constructor refused "
                            "every argument set: nothing was checked", unsupported=True)
        return Decision(True, detail=f"scale, lower, upper agree at {ran} of {len(SAMPLES)} "
                        "argument sets (the others refused)" if ran < len(SAMPLES) else
                        f"scale, lower, upper agree at {ran} argument sets")
    return ComputedGoal("the running function's scale, lower, upper are the arguments", "structure",
                        decide)


def _replay_release(constructor: Constructor) -> Callable[[dict], Replay]:
    """The model's ``release(x, z)`` on the real function against the output domain and the
    specification ``clamp(clamp(x) + z)``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = _concrete(constructor, counterexample)
        f = m.function
        x, z = int(counterexample.get("x", 0)), int(counterexample.get("z", 0))
        output = f.release(x, z)
        lower, upper = f.lower, f.upper
        member = m.output_domain.member(output)
        call = constructor_call(constructor, **arguments)
        return plain_report(not member, f"{call} on x = {x} with noise draw {z}",
                            f"release({x}, {z}) = {output!r}; member of {m.output_domain}: "
                            f"{member} (bounds {lower}, {upper})",
                            *reproducer(import_line(constructor), f"m = {call}",
                                        f"output = m.function.release({x}, {z})",
                                        member_assertion("m")))
    return replay


def _replay_law(constructor: Constructor) -> Callable[[dict], Replay]:
    """The running law against the stated one, on the model's input, then on inputs outside
    and inside the bounds."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        for m, arguments in _concretes(constructor, counterexample):
            f = m.function
            inputs = [int(counterexample.get("x", 0)), f.lower - 7, f.upper + 7, f.lower]
            for x in inputs:
                found = law_difference(f, x)
                if found is not None:
                    return _law_report(constructor, arguments, x, found)
        return plain_report(False, f"{constructor.name}: the running law is the stated one on "
                                   "the inputs tried")
    return replay


def _law_report(constructor: Constructor, arguments: dict[str, Any], x: int,
                found: tuple[Any, Any, Any]) -> Replay:
    call = constructor_call(constructor, **arguments)
    y, (low, high), want = found
    return plain_report(True, f"{call} on x = {x}",
                        f"Pr[M(x) = {y!r}] lies in [{mpmath.nstr(low, 15)}, "
                        f"{mpmath.nstr(high, 15)}] (the running release on every draw)",
                        f"the stated law clamp(clamp(x) + Y) gives {mpmath.nstr(want, 15)}",
                        *reproducer(import_line(constructor),
                                    "from obligations.make_geometric import "
                                    "law_difference",
                                    f"found = law_difference({call}.function, {x})",
                                    claim_assertion("found is None", "the running law "
                                                    "differs from the stated one: "
                                                    "{found}")))


def _concretes(constructor: Constructor, counterexample: dict[str, Any]
               ) -> list[tuple[Measurement, dict[str, Any]]]:
    """The constructor at the model's arguments (when admitted), then at :data:`SAMPLE`."""
    first = _concrete(constructor, counterexample)
    return [first] if first[1] == SAMPLE else [first, (constructor(**SAMPLE), SAMPLE)]


def _privacy_candidates(f: Any, counterexample: dict[str, Any]) -> list[tuple[int, int, Any, int]]:
    candidates = []
    if {"x", "x2", "y"} <= counterexample.keys():
        x, x2 = int(counterexample["x"]), int(counterexample["x2"])
        candidates.append((x, x2, int(counterexample["y"]), abs(x - x2)))
    for d in (1, 2, 3):
        lo = f.lower
        for y in sorted({f.release(lo, z) for z in range(-d - 3, f.upper - lo + d + 4)}):
            candidates.append((lo, lo + d, y, d))
    return [c for c in candidates if c[3] > 0]


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """A lower bound of the running law's loss (:func:`loss_lower_bound`) at the model's point,
    then at ``x = L, x' = L + d`` for ``d = 1..3`` on every output, against ``map(d_in)``; at the
    model's arguments, then at :data:`SAMPLE`."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        for m, arguments in _concretes(constructor, counterexample):
            f = m.function
            for x, x2, y, d_in in _privacy_candidates(f, counterexample):
                claimed = m.map(d_in)
                observed = loss_lower_bound(f, x, x2, y)
                if observed > claimed:
                    return _privacy_report(constructor, arguments, x, x2, y, d_in, claimed,
                                           observed)
        return plain_report(False, f"{constructor.name}: no loss above the map found")
    return replay


def _privacy_report(constructor: Constructor, arguments: dict[str, Any], x: int, x2: int, y: Any,
                    d_in: int, claimed: Any, observed: Any) -> Replay:
    call = constructor_call(constructor, **arguments)
    return plain_report(True, call, f"inputs x = {x}, x' = {x2}, output y = {y!r}, "
                        f"d_in = {d_in}", f"claimed  map(d_in) = {claimed!r}",
                        f"observed ln(Pr[M(x)=y] / Pr[M(x')=y]) >= "
                        f"{mpmath.nstr(observed, 15) if observed != math.inf else 'inf'}"
                        "  > claimed",
                        *reproducer(import_line(constructor),
                                    "from obligations.make_geometric import loss_lower_bound",
                                    f"m = {call}", f"claimed = m.map({d_in})",
                                    f"observed = loss_lower_bound(m.function, {x}, {x2}, "
                                    f"{literal(y)})",
                                    claim_assertion("observed <= claimed",
                                                    "ln(Pr[M(x)=y] / Pr[M(x')=y]) >= "
                                                    "{observed} > map(d_in) = {claimed!r}")))


class _AtWideBounds:
    """The constructor at the bounds :data:`WIDE`, as a function of the scale."""

    def __init__(self, constructor: Constructor) -> None:
        self.constructor = constructor

    def __call__(self, scale: float) -> Measurement | None:
        try:
            return self.constructor(scale=scale, bounds=WIDE)
        except DPCertError:
            return None


def _point_mass(function: Any) -> float:
    """The clamped law's largest point probability: at most that of the discrete Laplace or
    ``1/2`` (a bound collects one tail, at most half the mass... plus the centre when the input
    is at the bound: bounded by the point mass plus 1/2, capped at 1)."""
    return min(1.0, discrete_laplace_point_mass(Fraction(function.scale)) + 0.5)


def draw_branch_goal(constructor: Constructor) -> ComputedGoal:
    kernel = NoiseKernel(f"{constructor.name}(bounds={WIDE})", _AtWideBounds(constructor),
                         lambda function: function.scale,
                         lambda function, recorder: (replace(function, sampler=recorder),
                                                     nullcontext()),
                         lambda function, z: {function.release(0, z), function.release(0, -z)},
                         _point_mass)
    return draws_exactly_when_positive(kernel)


def geometric_obligations(constructor: Constructor = make_geometric,
                          prefix: str = "geometric") -> tuple[Obligation, ...]:
    release_replay = _replay_release(constructor)
    law_replay = _replay_law(constructor)
    privacy_replay = _replay_privacy(constructor)
    excluded = excluded_goals(constructor, [
        ({"scale": math.inf, "bounds": (0, 10)}, "an infinite scale"),
        ({"scale": 1, "bounds": (0, 10)}, "an int scale (a float)"),
        ({"scale": -1.0, "bounds": (0, 10)}, "a negative scale (no noise would be drawn)"),
        ({"scale": 1.0, "bounds": (0.0, 10)}, "a float bound"),
        ({"scale": 1.0, "bounds": (False, True)}, "bool bounds"),
        ({"scale": 1.0, "bounds": (10, 0)}, "lower > upper"),
        ({"scale": 1.0, "bounds": (0, 1, 2)}, "three bounds")], inputs=[0, 1, -7, 12])

    def output_domain_goals() -> list[Any]:
        m, params, assumptions = symbolic(constructor)
        x, z = z3.Ints("x z")
        term = m.function.release(x, z)
        names = {**params, "x": x, "z": z}
        carrier = ops.carrier_of(term)
        return [kernel_goal(constructor), fields_goal(constructor),
                ComputedGoal("release(x, z) on integers has the output domain's Python type",
                             "structure",
                             lambda: Decision(carrier is m.output_domain.carrier,
                                              {"x": 0, "z": 0},
                                              f"release(int, int) is a {carrier.__name__}"),
                             release_replay),
                Z3Goal("release(x, z) is in the output domain for every integer x and draw z",
                       is_true(m.output_domain.contains(term)),
                       [*assumptions, is_true(m.input_domain.contains(x))], names, release_replay),
                runs_into_output_domain(constructor, SAMPLES, (0, 1, -7, 12, 10 ** 30)),
                *excluded]

    def distribution_goals() -> list[Any]:
        sign = draw_sign(constructor)
        m, params, assumptions = symbolic(constructor)
        f = m.function
        x, z = z3.Ints("x z")
        lower, upper = params["L"], params["U"]
        names = {**params, "x": x, "z": z}
        return [kernel_goal(constructor), fields_goal(constructor), draw_branch_goal(constructor),
                Z3Goal("the function's scale and bounds are the constructor's",
                       z3.And(ops.exact(f.scale) == params["scale"], f.lower == lower,
                              f.upper == upper), assumptions, params, law_replay),
                Z3Goal(f"release(x, z) = clamp(clamp(x) {'+' if sign > 0 else '-'} z) to [L, U] "
                       "for every integer x, z (the specification; Y and -Y have one law)",
                       f.release(x, z) == clamp_spec(clamp_spec(x, lower, upper) + sign * z,
                                                     lower, upper),
                       assumptions, names, law_replay)]

    def privacy_goals() -> list[Any]:
        m, params, assumptions = symbolic(constructor)
        lower, upper = params["L"], params["U"]
        noise = ops.exact(m.function.scale)
        x, x2, w = z3.Ints("x x2 w")
        d_in = z3.Real("d_in")
        epsilon = m.map(d_in)
        c, c2 = clamp_spec(x, lower, upper), clamp_spec(x2, lower, upper)
        loss_x, loss_x2 = -ops.absolute(w - c) / noise, -ops.absolute(w - c2) / noise
        big_p, big_q, p, q = z3.Reals("P_S Q_S p q")
        names = {**params, "x": x, "x2": x2, "w": w, "d_in": d_in}
        zero = _zero_scale_goal(constructor, privacy_replay)
        return [
            exact_noise_goal(lambda: constructor(**SAMPLE)),
            kernel_goal(constructor),
            fields_goal(constructor),
            metric_premise(lambda: m, AbsoluteDistance, MaxDivergence,
                           "the privacy proof (|x - x'| <= d_in on integers)"),
            Z3Goal("clamping moves no two integers apart: |clamp(x) - clamp(x')| <= |x - x'|",
                   ops.absolute(c - c2) <= ops.absolute(x - x2), assumptions, names,
                   privacy_replay),
            Z3Goal("the function's scale s > 0, |x - x'| <= d_in, d_in > 0: W = clamp(x) + Y has "
                   "exp(-|w - clamp(x)|/s) <= exp(map(d_in)) exp(-|w - clamp(x')|/s) at every w",
                   EXP(loss_x) <= EXP(epsilon) * EXP(loss_x2),
                   [*assumptions, noise > 0, d_in > 0, ops.absolute(x - x2) <= d_in,
                    *exp_product_facts(loss_x, epsilon, loss_x2)], names, privacy_replay),
            Z3Goal("post-processing, one more point w of clamp's preimage of y: P_S <= E Q_S and "
                   "p <= E q give P_S + p <= E (Q_S + q), E = exp(map(d_in))",
                   big_p + p <= EXP(epsilon) * (big_q + q),
                   [big_p >= 0, big_q >= 0, p >= 0, q >= 0, big_p <= EXP(epsilon) * big_q,
                    p <= EXP(epsilon) * q], {"P_S": big_p, "Q_S": big_q, "p": p, "q": q,
                                             "d_in": d_in, **params}, privacy_replay),
            Z3Goal("the function adds noise (its scale > 0) for every admitted scale but 0",
                   z3.Or(noise > 0, params["scale"] == 0), assumptions, params, privacy_replay),
            Z3Goal("d_in = 0 (then clamp(x) = clamp(x')): map(0) >= 0",
                   0 <= m.map(z3.RealVal(0)), assumptions, params, privacy_replay),
            zero,
        ]

    def rounding_symbolic() -> tuple[Any, dict[str, Any], list[Any]]:
        scale = float_model.float_parameter("scale")
        lower, upper = z3.Ints("L U")
        arguments = {"scale": scale, "bounds": (lower, upper)}
        return (constructor.build(**arguments),
                {"scale": float_model.plain(scale), "L": lower, "U": upper},
                constructor.assumptions(**arguments))

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every integer x and draw z, release(x, z) = clamp(clamp(x) + z) is an "
                   "int in [L, U], a member of AtomDomain(int, bounds=(L, U)); the running "
                   "function, BoundedIntegerNoise's own __call__, returns one.",
                   r"\forall x, z \in \mathbb{Z}:\ "
                   r"\mathtt{release}(x, z) \in [L, U] \cap \mathbb{Z}",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "Absolute distance is defined on AtomDomain(int).",
                   r"d_{Abs} \sim \mathrm{AtomDomain}(\mathtt{int})",
                   lambda: [compatibility_goal(constructor, lambda: [symbolic(constructor)[0]],
                                               dict(SAMPLE))]),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "function(x) has the law of clamp(clamp(x) + Y) with Pr[Y = z] = "
                   "exp(-|z|/scale) / Z(scale): one draw of the exact CKS sampler at the "
                   "function's scale (the constructor's) when it is positive, none at 0, and "
                   "release(x, z) = clamp(clamp(x) + z) for every integer x, z (or clamp(clamp(x) "
                   "- z) for every x, z: Y and -Y have one law).",
                   r"M(x) \sim \mathrm{clamp}_{[L, U]}(\mathrm{clamp}_{[L, U]}(x) + Y),\ "
                   r"\Pr[Y = z] \propto e^{-|z| / \mathtt{scale}}",
                   distribution_goals, cites=(CKS,), bound=DRAW_BRANCH),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "For all integers x, x' with |x - x'| <= d_in and every output y, "
                   "Pr[M(x) = y] <= exp(map(d_in)) Pr[M(x') = y]: clamping the input is "
                   "1-Lipschitz, W = clamp(x) + Y has point ratios at most exp(|clamp(x) - "
                   "clamp(x')|/s) <= exp(map(d_in)), and the output clamp is a fixed function of "
                   "W (post-processing: each output sums W's points over its preimage); scale 0 "
                   "(no noise) has map +inf.",
                   r"|x - x'| \le d_{in} \implies \Pr[M(x) = y] \le e^{\mathtt{map}(d_{in})} "
                   r"\Pr[M(x') = y]", privacy_goals,
                   uses=(f"{prefix}.distribution", f"{prefix}.map_rounding"),
                   bound="scale = 0: map(d_in) = +inf evaluated at d_in in {2^-1074, 1, 2^1023}"),
        map_rounding_obligation(prefix, rounding_symbolic, real_d_in,
                                replay_rounding(constructor, parameter_candidates(
                                    ("scale",), fixed={"bounds": (0, 10)})),
                                "d_in / scale"),
    )


ZERO_SCALE_DIVISORS = (2.0 ** -1074, 1.0, 2.0 ** 1023)


def _zero_scale_goal(constructor: Constructor, replay: Callable[[dict], Replay]) -> ComputedGoal:
    """``scale = 0``: no noise, ``clamp(x)`` itself (point masses), so ``map(d_in)`` must be
    ``+inf`` for ``d_in > 0``; evaluated at :data:`ZERO_SCALE_DIVISORS`."""
    def decide() -> Decision:
        m = constructor(scale=0.0, bounds=(0, 10))
        try:
            finite = [d for d in ZERO_SCALE_DIVISORS if m.map(d) != math.inf]
        except Exception as error:  # noqa: BLE001 - a map that raises returns no bound
            return Decision(False, {"scale": 0}, f"scale = 0: the map raises "
                            f"{type(error).__name__}: {error}, so it returns no bound")
        if finite:
            return Decision(False, {"scale": 0, "L": 0, "U": 10, "d_in": finite[0], "x": 0,
                                    "x2": 1, "y": 0},
                            f"scale = 0 but map({finite[0]!r}) = {m.map(finite[0])!r} is finite")
        return Decision(True, detail="map(d_in) = inf at d_in = " +
                        ", ".join(map(repr, ZERO_SCALE_DIVISORS)))
    def guarded(counterexample: dict[str, Any]) -> Replay:
        try:
            return replay(counterexample)
        except Exception as error:  # noqa: BLE001 - the map raised: no value to compare
            return plain_report(False, f"{constructor.name}: the map raises at scale 0 "
                                f"({type(error).__name__}: {error}); no loss compared")
    return ComputedGoal("scale = 0 (no noise), d_in > 0: map(d_in) = +inf", "structure", decide,
                        guarded)


IMPORT = "from mechanisms.make_geometric import make_geometric"


def catalogue_entry() -> Entry:
    return Entry("make_geometric", make_geometric, geometric_obligations(),
                 "add discrete Laplace noise to an integer, clamped to bounds",
                 (example("make_geometric(1.0, (0, 10))", IMPORT),
                  example("make_geometric(2.5, (-5, 5))", IMPORT)), proof=True)
