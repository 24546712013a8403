"""Obligations of ``make_vector_laplace``, for every finite float ``scale >= 0`` and vectors of
every length.

The law is stated from the pmf, not from the code: with ``s`` the running function's scale,
``Pr[M(v) = y] = prod_i exp(-|y_i - v_i| / s) / Z(s)`` for ``len(y) = len(v)`` (``0`` otherwise),
the coordinates' draws being independent exact CKS draws (Algorithm 2, cited). For ``v, v'`` of
one length ``n`` the normalisers ``Z(s)^n`` cancel and
``ln(Pr[M(v) = y] / Pr[M(v') = y]) = sum_i (|y_i - v'_i| - |y_i - v_i|) / s``. The privacy goals
prove, by induction on the length, that this sum is at most ``L1(v, v') / s`` for every ``n``:
the base (empty vectors, run on the code), the step that adds one coordinate (the L1 step
``Q + |x - x'|`` stated from the definition, and proved equal to the input metric's own
``step``, whose left fold from ``0`` its ``distance`` is), and the final bound by ``map(d_in)``. Vectors of different lengths are at
L1 distance ``+inf``; ``map(+inf) = +inf`` is evaluated at sample scales.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction
from typing import Any, Callable

import mpmath
import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.errors import DPCertError
from mechanisms.make_vector_laplace import VectorNoise, make_vector_laplace
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import L1Distance
from mechanisms.samplers import sample_discrete_laplace
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.kernels import trusted_kernel_goal
from obligations.integer_noise import (CKS, concrete, exp_product_facts, fields_agree,
                                       negative_scale_refused, no_noise_only_at_zero,
                                       replay_scale_law, replay_shift_law, runs_into_output_domain,
                                       symbolic, zero_scale_map_is_infinite, ZERO_SCALE_DIVISORS)
from obligations.make_randomized_response import EXP
from obligations.noise import exact_noise_goal
from obligations.noise_draws import BOUND as DRAW_BRANCH, DRAW, SCALES, RecordingSampler
from obligations.reports import (bound_assertion, constructor_call, import_line, literal,
                                 member_assertion, plain_report, reproducer, show)
from obligations.row_transforms import admits
from obligations.rounding import (map_rounding_obligation, parameter_candidates, real_d_in,
                                  replay_rounding, symbolic_build)
from obligations.witnesses import domain_probes, excluded_goals, witness_goal

SAMPLE = {"scale": 2.0}
PREMISE = {"scale": 1.0}
"""The arguments at which the privacy premise probes the built input domain."""
DRAW_INPUT = (0, 5, -2)
"""The vector the draw-branch goal runs the real ``__call__`` on."""
INFINITE_SCALES = (2.0, 0.5, 0.0, 5e-324, 1.7976931348623157e308)
"""Scales at which ``map(+inf) = +inf`` (vectors of different lengths) is evaluated."""
LENGTHS_BOUND = ("map(+inf) = +inf (vectors of different lengths) evaluated at scale in "
                 "{2, 1/2, 0, 2^-1074, the largest float}; scale = 0: map(d_in) = +inf evaluated "
                 "at d_in in {2^-1074, 1, 2^1023}")


PROBE_DRAWS = 3
"""Seeded runs of the real function on each probe member of the built input domain."""
WINDOW = 60
"""Draws ``|z| <= WINDOW`` searched for an output of one input that the other input can give."""


def built_probes(constructor: Constructor, arguments: dict[str, Any]) -> list[Any]:
    """:func:`obligations.witnesses.domain_probes` of the BUILT input domain at ``arguments``
    (``[]`` if the constructor refuses them: the witness goal then reports it)."""
    try:
        return domain_probes(constructor(**arguments).input_domain)
    except Exception:  # noqa: BLE001 - a refusal or crash is the witness goal's to report
        return []


def probes_witness_goal(constructor: Constructor, arguments: dict[str, Any]) -> ComputedGoal:
    """The REAL built function, on probe members of the BUILT input domain (read from the domain
    object, not from the proof's assumption about it), returns members of the built output
    domain: a raise or a non-member is refuted, and the replay reruns it."""
    return witness_goal(constructor, arguments, inputs=built_probes(constructor, arguments),
                        draws=PROBE_DRAWS)


def is_int_vector(value: Any) -> bool:
    """A list or tuple of Python ints (``bool`` excluded): the domain the vector proofs are about."""
    return isinstance(value, (list, tuple)) and all(type(x) is int for x in value)


def exact_distance(v: Any, v2: Any) -> Fraction | None:
    """``sum_i |v_i - v'_i|`` exactly, for vectors (or scalars) of finite numbers of one length."""
    v, v2 = (list(v), list(v2)) if isinstance(v, (list, tuple)) else ([v], [v2])
    if len(v) != len(v2) or not all(math.isfinite(x) for x in (*v, *v2)):
        return None
    return sum((abs(Fraction(a) - Fraction(b)) for a, b in zip(v, v2)), Fraction(0))


def separated_pair(m: Measurement, members: list[Any], outside: list[Any],
                   shift: Callable[[Any, int], Any]) -> tuple[Any, Any, Any] | None:
    """Inputs ``v`` (outside the proof's domain) and ``v'`` (any member), one coordinate each and
    finite, with ``y = shift(v, 0)`` never equal to ``shift(v', z)`` for ``|z| <= WINDOW``, on the
    real ``shift``: ``y`` has probability ``>= Pr[Z = 0]`` under ``v`` and at most the tail
    ``Pr[|Z| > WINDOW]`` under ``v'``."""
    def scalar(value: Any) -> Any:
        return value[0] if isinstance(value, (list, tuple)) and len(value) == 1 else value

    for v in outside:
        for v2 in members:
            a, b = scalar(v), scalar(v2)
            if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)) or v == v2:
                continue
            if exact_distance(a, b) in (None, 0):
                continue
            try:
                y = shift(a, 0)
                if all(shift(b, z) != y for z in range(-WINDOW, WINDOW + 1)):
                    return v, v2, y
            except Exception:  # noqa: BLE001 - a shift that cannot run shows nothing here
                continue
    return None


def domain_premise_goal(constructor: Constructor, arguments: dict[str, Any], about: str,
                        accepts: Callable[[Any], bool],
                        loss: Callable[[Measurement, list[Any], list[Any]], Replay] | None = None
                        ) -> ComputedGoal:
    """Premise of the privacy proof: the BUILT input domain admits no member outside the domain
    the proof is about (``about``, tested by ``accepts``), probed with
    :func:`obligations.witnesses.domain_probes`. A probe member outside it: *unknown
    (unsupported)*, the proof says nothing of it; refuted where ``loss`` (the replay) shows on
    the real code a loss above the claimed map between two members of the built domain."""
    call = constructor_call(constructor, **arguments)

    def probes() -> tuple[Measurement, list[Any], list[Any]]:
        m = constructor(**arguments)
        members = domain_probes(m.input_domain)
        return m, members, [p for p in members if not accepts(p)]

    def decide() -> Decision:
        try:
            m, members, outside = probes()
        except Exception as error:  # noqa: BLE001 - nothing built, nothing probed
            return Decision(False, {"arguments": call}, f"{call} does not build "
                            f"({type(error).__name__}: {error})", unsupported=True)
        if not members:
            return Decision(False, {"domain": str(m.input_domain)}, f"no probe member of "
                            f"{m.input_domain} (a domain domain_probes cannot read)",
                            unsupported=True)
        if not outside:
            return Decision(True, detail=f"the {len(members)} probe members of {m.input_domain} "
                            f"are all {about}")
        what = (f"{call}: its input domain {m.input_domain} admits {literal(outside[0])}, not "
                f"{about}")
        if loss is not None and loss(m, members, outside).confirmed:
            return Decision(False, {"input": literal(outside[0])},
                            f"{what}; the replay shows the loss on the real code")
        return Decision(False, {"input": literal(outside[0])},
                        f"{what}; the proof is about {about} only", unsupported=True)

    def replay(_: dict) -> Replay:
        m, members, outside = probes()
        if loss is None or not outside:
            return plain_report(False, f"{call}: no loss shown on its input domain's probes")
        return loss(m, members, outside)

    return ComputedGoal(f"premise: the built input domain of {call} admits only {about}",
                        "structure", decide, replay)


def separated_probes(m: Measurement, members: list[Any], outside: list[Any]
                     ) -> tuple[float, Any, Any, Any, Fraction | None] | None:
    """For the tail-loss replays: the function's scale ``s``, a member ``v`` and a foreign input
    ``v'`` separated on replay (:func:`separated_pair`), ``y = shift(v_1, 0)``, and the exact
    distance of ``v, v'``; ``None`` if ``s <= 0`` or no pair is separated."""
    s = float(m.function.scale)
    pair = separated_pair(m, members, outside, m.function.shift) if s > 0 else None
    if pair is None:
        return None
    v, v2, y = pair
    return s, v, v2, y, exact_distance(v, v2)


def separation_lines(call: str, m: Measurement, v: Any, v2: Any, y: Any, d_in: Any
                     ) -> tuple[str, str]:
    """The tail-loss reports' first lines: the pair and the separated output ``y``."""
    return (f"{call} on v = {literal(v)}, v' = {literal(v2)} (members of its input "
            f"domain {m.input_domain}), d_in = {show(d_in)}",
            f"y = {literal([y])} = [shift(v_1, 0)]: Pr[M(v) = y] >= Pr[Z = 0] > 0; "
            f"shift(v'_1, z) != y_1 for |z| <= {WINDOW}")


def separation_reproducer(constructor: Constructor, call: str, v: Any, v2: Any) -> list[str]:
    """The tail-loss reproducers' first lines: build, the pair, ``y`` and its separation."""
    return [import_line(constructor), "import math", f"m = {call}",
            f"v, v2 = {literal(v)}, {literal(v2)}",
            "f, s = m.function, float(m.function.scale)", "y = f.shift(v[0], 0)",
            f"assert all(f.shift(v2[0], z) != y for z in range({-WINDOW}, "
            f"{WINDOW + 1}))"]


def laplace_tail_loss(constructor: Constructor, arguments: dict[str, Any]
                      ) -> Callable[[Measurement, list[Any], list[Any]], Replay]:
    """Replay of a foreign input (pure DP): with ``y = shift(v, 0)`` unreachable from ``v'`` for
    ``|z| <= WINDOW``, ``Pr[M(v) = y] >= Pr[Z = 0] = 1 / Z(s)`` and ``Pr[M(v') = y] <= 2
    e^{-(W+1)/s} / ((1 - e^{-1/s}) Z(s))``, so ``ln(Pr[M(v) = y] / Pr[M(v') = y]) >= (W + 1) / s +
    ln(1 - e^{-1/s}) - ln 2`` (the discrete Laplace pmf at the function's scale ``s``)."""
    call = constructor_call(constructor, **arguments)

    def loss(m: Measurement, members: list[Any], outside: list[Any]) -> Replay:
        found = separated_probes(m, members, outside)
        if found is None:
            return plain_report(False, f"{call}: no pair of probe members separated on replay")
        s, v, v2, y, d_in = found
        lower = (WINDOW + 1) / s + math.log1p(-math.exp(-1 / s)) - math.log(2)
        claimed = m.map(d_in)
        confirmed = lower > float(claimed) + 1e-6
        return plain_report(
            confirmed, *separation_lines(call, m, v, v2, y, d_in),
            f"claimed  map(d_in) = {claimed!r}",
            f"observed ln(Pr[M(v)=y] / Pr[M(v')=y]) >= ({WINDOW} + 1) / s + ln(1 - e^(-1/s)) - "
            f"ln 2 = {lower!r}" + ("  > claimed" if confirmed else ""),
            *reproducer(*separation_reproducer(constructor, call, v, v2),
                        f"observed = ({WINDOW} + 1) / s + math.log1p(-math.exp(-1 / s)) - "
                        "math.log(2)",
                        f"claimed = m.map({literal(d_in)})",
                        bound_assertion("ln(Pr[M(v)=y] / Pr[M(v')=y]) (lower bound)",
                                        f"map({literal(d_in)})")))
    return loss


def vector_kernel_goal(constructor: Constructor, sampler: Callable[..., int],
                       arguments: dict[str, Any]) -> ComputedGoal:
    """The running function is :class:`VectorNoise` with its own ``__call__`` (``shift`` is run
    on the object) and ``sampler`` as its sampler (the law cited)."""
    def other_sampler(function: Any) -> list[str]:
        held = getattr(function, "sampler", None)
        return [] if held is sampler else \
            [f"its sampler is {getattr(held, '__qualname__', repr(held))}, not {sampler.__name__}"]
    return trusted_kernel_goal(f"the function of {constructor_call(constructor, **arguments)}",
                               lambda: constructor(**arguments).function, VectorNoise,
                               checked=("shift",), also=other_sampler)


def _built(constructor: Constructor, scale: float) -> Measurement | None:
    try:
        return constructor(scale=scale)
    except DPCertError:
        return None


class _Tripwire(random.Random):
    """A generator that raises if the kernel draws from it other than through its sampler (the
    sampler is replaced by :func:`shared_draw_replay`'s enumeration, which never draws)."""

    def random(self) -> float:
        raise AssertionError("the kernel drew from the caller's rng outside its sampler")

    def getrandbits(self, k: int) -> int:
        raise AssertionError("the kernel drew from the caller's rng outside its sampler")


def shared_draw_replay(constructor: Constructor, claim: str) -> Callable[[dict], Replay]:
    """Replay of a kernel that draws fewer than one value per coordinate, for the discrete Laplace
    law (``Pr[Y = z] = (1 - a)/(1 + a) a^|z|``, ``a = exp(-1/s)``, from the mathematics). The real
    ``__call__`` at the sample scale runs with its ``sampler`` field replaced by a stub returning
    each ``c`` with ``|c| <= W`` (``W = 60 s + 60``; the field must hold the exact discrete Laplace
    sampler, called at the function's scale) and a generator that raises if drawn from
    otherwise; if on ``v = [0, 0]`` it calls the stub once and returns a diagonal output
    (``y_1 = y_2``) for every such ``c``, and on ``v' = [1, -1]`` never does, then
    ``Pr[M(v) in D] >= 1 - t`` and ``Pr[M(v') in D] <= t`` for the diagonal ``D``, with
    ``t = Pr[|Y| > W] = 2 a^(W+1) / (1 + a)``. ``claim = "law"`` confirms against the stated law,
    under which ``Pr[M(v) in D] = sum_z Pr[Y = z]^2 <= Pr[Y = 0] = (1 - a)/(1 + a)``;
    ``claim = "privacy"`` against ``map(d_in)``, ``d_in`` the input metric's distance of v, v'
    (the loss on ``D`` is at least ``ln((1 - t) / t)``)."""
    def replay(_: dict) -> Replay:
        m = constructor(**SAMPLE)
        f = m.function
        scale = Fraction(f.scale)
        call = constructor_call(constructor, **SAMPLE)
        if scale <= 0 or getattr(f, "sampler", None) is not sample_discrete_laplace:
            return plain_report(False, f"{call}: no discrete Laplace sampler at a positive scale")
        width = int(60 * scale) + 60
        v, v2 = [0, 0], [1, -1]

        def run(arg: list[int], c: int) -> tuple[int, Any]:
            """The number of sampler calls and the output of the real ``__call__`` on ``arg``
            when every draw is ``c``."""
            calls: list[Any] = []

            def stub(s: Any, r: Any) -> int:
                calls.append(s)
                return c
            output = replace(f, sampler=stub)(list(arg), _Tripwire(0))
            return len(calls) if all(Fraction(s) == scale for s in calls) else -1, output
        try:
            runs = {c: (run(v, c), run(v2, c)) for c in range(-width, width + 1)}
        except Exception as error:  # noqa: BLE001 - the kernel under the stub: no exact law
            return plain_report(False, f"{call}: the kernel under the enumerating stub raised "
                                f"{type(error).__name__}: {error}")
        one_draw = all(a[0] == 1 and b[0] == 1 for a, b in runs.values())
        diagonal = all(len(a[1]) == 2 and a[1][0] == a[1][1] for a, _ in runs.values())
        off = all(len(b[1]) == 2 and b[1][0] != b[1][1] for _, b in runs.values())
        if not (one_draw and diagonal and off):
            return plain_report(False, f"{call}: the kernel does not draw once and put every "
                                "output of [0, 0] on the diagonal and none of [1, -1]")
        with mpmath.workdps(60):
            a = mpmath.exp(-1 / (mpmath.mpf(scale.numerator) / scale.denominator))
            tail = 2 * a ** (width + 1) / (1 + a)
            lines = [f"{call}: on v = [0, 0] the kernel calls its sampler once (not once per "
                     f"coordinate) and returns a diagonal output (y_1 = y_2) for every draw c, "
                     f"|c| <= {width}; on v' = [1, -1] never",
                     f"Pr[M(v) in D] >= 1 - t, Pr[M(v') in D] <= t, "
                     f"t = Pr[|Y| > {width}] = {mpmath.nstr(tail, 6)}"]
            if claim == "law":
                stated = (1 - a) / (1 + a)
                confirmed = bool(1 - tail > stated)
                lines.append(f"the stated law (independent draws) gives Pr[M(v) in D] <= "
                             f"Pr[Y = 0] = {mpmath.nstr(stated, 10)}")
            else:
                d_in = Fraction(m.input_metric.distance(v, v2))
                claimed = m.map(d_in)
                loss = mpmath.log((1 - tail) / tail)
                confirmed = bool(loss > mpmath.mpf(Fraction(claimed).numerator)
                                 / Fraction(claimed).denominator) if claimed != math.inf \
                    else False
                lines += [f"d_in = {show(d_in)} (the input metric's distance), claimed "
                          f"map(d_in) = {claimed!r}",
                          f"observed ln(Pr[M(v) in D] / Pr[M(v') in D]) >= "
                          f"{mpmath.nstr(loss, 10)}"]
        return plain_report(confirmed, *lines,
                            *reproducer(import_line(constructor), "from dataclasses import replace",
                                        f"m = {call}",
                                        "runs = [(replace(m.function, sampler=lambda s, r, c=c: "
                                        "c)([0, 0], None), replace(m.function, sampler=lambda s, "
                                        f"r, c=c: c)([1, -1], None)) for c in range(-{width}, "
                                        f"{width + 1})]",
                                        "assert not all(a[0] == a[1] and b[0] != b[1] for a, b "
                                        "in runs), 'every output of [0, 0] on the diagonal, "
                                        "none of [1, -1]: the draws are shared'"))
    return replay


def as_premise(goal: ComputedGoal) -> ComputedGoal:
    """``goal`` as a premise of a proof whose claim does not need it to fail when it fails (the
    output domain holds whatever the number of draws): a refutation becomes *unknown
    (unsupported)*, the proof not covering that code."""
    def decide() -> Decision:
        decision = goal.decide()
        if decision.proved or decision.unsupported:
            return decision
        return Decision(False, decision.counterexample, f"{decision.detail}; the output-domain "
                        "proof is for that kernel only", unsupported=True)
    return ComputedGoal(goal.name, goal.solver, decide, goal.replay)


def draws_per_coordinate(constructor: Constructor,
                         replay: Callable[[dict], Replay] | None = None) -> ComputedGoal:
    """At each admitted scale of :data:`obligations.noise_draws.SCALES`, one call of the real
    ``__call__`` on :data:`DRAW_INPUT`, with a recording sampler in its ``sampler`` field, draws
    once per coordinate with the function's scale and the caller's ``rng`` when the scale is
    positive, never when it is 0, and returns ``[shift(v_i, draw_i)]``, as long as the input."""
    def decide() -> Decision:
        checked = []
        for scale in SCALES:
            m = _built(constructor, scale)
            if m is None:
                continue
            f, recorder, rng = m.function, RecordingSampler(), random.Random(0)
            output = replace(f, sampler=recorder)(list(DRAW_INPUT), rng)
            noise = Fraction(f.scale)
            wanted = [(noise, rng)] * len(DRAW_INPUT) if noise > 0 else []
            got = [(Fraction(s), r) for s, r in recorder.calls]
            if got != wanted:
                return Decision(False, {"scale": scale}, f"at scale {scale!r} the kernel made "
                                f"{len(got)} sampler call(s) on a vector of {len(DRAW_INPUT)}; "
                                f"the law needs {len(wanted)}"
                                + (" at the function's scale with the caller's rng"
                                   if wanted else ""))
            draw = DRAW if wanted else 0
            expected = [f.shift(x, draw) for x in DRAW_INPUT]
            if list(output) != expected:
                return Decision(False, {"scale": scale}, f"at scale {scale!r} the kernel returned "
                                f"{output!r} on {list(DRAW_INPUT)} for draws {draw}; the law "
                                f"gives {expected}")
            checked.append(scale)
        if not checked:
            return Decision(False, {}, "the constructor admits none of the scales",
                            unsupported=True)
        return Decision(True, detail="one draw per coordinate exactly when the scale is positive, "
                        "output [shift(v_i, draw_i)], at scale in "
                        f"{{{', '.join(map(repr, checked))}}}")
    return ComputedGoal(f"the function of {constructor.name}: one independent draw per coordinate "
                        "exactly when its scale is positive, the output as long as the input",
                        "evaluated", decide, replay)


def replay_vector_output(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = concrete(constructor, counterexample)
        x, z = int(counterexample.get("x", 0)), int(counterexample.get("z", 0))
        output = [m.function.shift(x, z)]
        member = m.output_domain.member(output)
        call = constructor_call(constructor, **arguments)
        return plain_report(not member, f"{call} on v = [{x!r}] with noise draw {z}",
                            f"output {output!r}; member of {m.output_domain}: {member}",
                            *reproducer(import_line(constructor), f"m = {call}",
                                        f"output = [m.function.shift({x!r}, {z})]",
                                        member_assertion("m")))
    return replay


def element_type_goal(constructor: Constructor, arguments: dict[str, Any]) -> ComputedGoal:
    """``shift(x, z)`` on Z3 integers has the sort of the output vector's element carrier."""
    def decide() -> Decision:
        m = constructor(**arguments)
        term = m.function.shift(z3.Int("x"), z3.Int("z"))
        carrier, wanted = ops.carrier_of(term), m.output_domain.element.carrier
        if carrier is wanted:
            return Decision(True, detail=f"shift(int, int) has sort {term.sort()}: "
                                         f"{carrier.__name__}")
        return Decision(False, {"x": 0, "z": 0}, f"shift(int, int) is a {carrier.__name__}, the "
                        f"output vector's elements are {wanted.__name__}")
    return ComputedGoal("shift(x, z) has the output elements' Python type", "structure", decide,
                        replay_vector_output(constructor))


def vector_noise_obligations(constructor: Constructor, prefix: str, sampler: Callable[..., int],
                             sample: dict[str, Any], law: str, law_tex: str,
                             log_ratio: Callable[[Fraction], Fraction],
                             sampler_citation: str) -> tuple[Obligation, Obligation, Obligation]:
    """Output domain, compatibility and distribution of ``v -> [shift(v_i, Y_i)]`` with
    ``Y_i = sampler(scale)`` independent (:class:`VectorNoise`: the discrete Laplace and
    Gaussian); ``log_ratio(s)`` is ``ln(Pr[Y = 1] / Pr[Y = 0])`` of the law at scale ``s``."""

    def output_domain_goals() -> list[Any]:
        m, params, assumptions = symbolic(constructor)
        x, z = z3.Ints("x z")
        return [vector_kernel_goal(constructor, sampler, sample),
                probes_witness_goal(constructor, sample),
                fields_agree(lambda: symbolic(constructor), constructor, [sample], ("scale",)),
                element_type_goal(constructor, sample),
                Z3Goal("shift(x, z) is in the output vector's element domain for every integer x "
                       "and draw z", is_true(m.output_domain.element.contains(
                           m.function.shift(x, z))),
                       [*assumptions, is_true(m.input_domain.element.contains(x))],
                       {**params, "x": x, "z": z}, replay_vector_output(constructor)),
                as_premise(draws_per_coordinate(constructor)),
                runs_into_output_domain(constructor, [sample, {"scale": 0.0}],
                                        ([], [0], [1, -7, 10 ** 30])),
                *excluded_goals(constructor, [({"scale": math.inf}, "an infinite scale"),
                                              ({"scale": 1}, "an int scale (a float)")],
                                inputs=[[0], [1, -7]])]

    def distribution_goals() -> list[Any]:
        m, params, assumptions = symbolic(constructor)
        f = m.function
        x, z, z2 = z3.Ints("x z z2")
        names = {**params, "x": x, "z": z, "z2": z2}
        shift_replay = replay_shift_law(constructor)
        return [vector_kernel_goal(constructor, sampler, sample),
                draws_per_coordinate(constructor, shared_draw_replay(constructor, "law")
                                     if sampler is sample_discrete_laplace else None),
                fields_agree(lambda: symbolic(constructor), constructor,
                             [sample, {"scale": 0.5}], ("scale",)),
                Z3Goal("the function's scale (the law's) is the constructor's scale",
                       ops.exact(f.scale) == params["scale"], assumptions, params,
                       replay_scale_law(constructor, log_ratio)),
                Z3Goal("shift(x, z) is x + z or x - z: |output_i - v_i| = |draw_i|",
                       z3.Or(f.shift(x, z) == x + z, f.shift(x, z) == x - z), assumptions, names,
                       shift_replay),
                Z3Goal("shift(x, .) is one-to-one: two draws never give the same coordinate",
                       z3.Implies(f.shift(x, z) == f.shift(x, z2), z == z2), assumptions, names,
                       shift_replay)]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every integer coordinate x and noise draw z, shift(x, z) is an int, so "
                   "the output [shift(v_i, z_i)] is a member of VectorDomain(AtomDomain(int)); "
                   "the running function, VectorNoise's own __call__, returns one.",
                   r"\forall x, z \in \mathbb{Z}:\ \mathtt{shift}(x, z) \in \mathbb{Z}",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   f"{type(constructor(**sample).input_metric).__name__} is defined on "
                   "VectorDomain(AtomDomain(int)).",
                   r"d \sim \mathrm{VectorDomain}(\mathrm{AtomDomain}(\mathtt{int}))",
                   lambda: [compatibility_goal(constructor, lambda: [symbolic(constructor)[0]],
                                               dict(sample))]),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   f"function(v) has the law of [v_1 + Y_1, ..., v_n + Y_n], Y_i independent with "
                   f"{law}: one draw of the exact CKS sampler per coordinate at the function's "
                   "scale, which is the constructor's, each shifted by +-draw one-to-one (no "
                   "noise when scale = 0).",
                   law_tex, distribution_goals, cites=(sampler_citation,), bound=DRAW_BRANCH),
    )


def metric_fold_goal(constructor: Constructor, metric: type,
                     arguments: dict[str, Any]) -> ComputedGoal:
    """The input metric runs ``metric``'s own code: its distance is the left fold of its
    ``step`` from ``0`` over the coordinates (the induction's steps), ``step`` run on the object."""
    return trusted_kernel_goal(f"the input metric of {constructor_call(constructor, **arguments)}",
                               lambda: constructor(**arguments).input_metric, metric,
                               checked=("step",))


def empty_vectors_goal(constructor: Constructor, arguments: dict[str, Any]) -> ComputedGoal:
    """Induction base, run on the real code: two empty vectors are at distance ``0`` and the
    function returns ``[]`` on ``[]`` (so both laws are the point mass at ``[]``, loss ``0``)."""
    def decide() -> Decision:
        m = constructor(**arguments)
        distance, output = m.input_metric.distance([], []), m.function([], random.Random(0))
        if distance == 0 and output == []:
            return Decision(True, detail="distance([], []) = 0, function([]) = []")
        return Decision(False, {"v": "[]"}, f"distance([], []) = {distance!r}, function([]) = "
                        f"{output!r}; the induction starts at 0 and []")
    return ComputedGoal("induction base (empty vectors): distance 0, the output [] with "
                        "probability 1 on both, loss 0", "evaluated", decide)


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """The exact log-ratio of the running function's law, ``sum_i (|y_i - v'_i| - |y_i - v_i|) /
    s`` for its scale ``s > 0`` (``+inf`` for point masses with ``v != v'``), on the model's
    one-coordinate vectors, then on ``[0]`` against ``[1]`` and ``[2]``, and ``[0, 0]`` against
    ``[1, 1]``, with ``y = v``, against the claimed ``map(d_in)`` at the true L1 distance."""
    def observed_loss(scale: Fraction, v: list[int], v2: list[int], y: list[int]) -> Any:
        if scale > 0:
            return sum(Fraction(abs(b - x2) - abs(b - x)) for x, x2, b in zip(v, v2, y)) / scale
        return math.inf if v != v2 and y == v else 0

    def close_at(m: Measurement, v: list[int], v2: list[int]) -> Fraction:
        """The ``d_in`` at which ``v`` and ``v2`` are close: the running input metric's own
        distance when it returns a finite number (the claim is for d_in-close inputs in the
        metric the measurement declares), else the true L1 distance."""
        try:
            distance = Fraction(m.input_metric.distance(v, v2))
        except Exception:  # noqa: BLE001 - a metric that fails here: the L1 distance instead
            return Fraction(sum(abs(a - b) for a, b in zip(v, v2)))
        return distance

    def replay(counterexample: dict[str, Any]) -> Replay:
        model = [int(counterexample.get(k, 0)) for k in ("x", "x2", "y")]
        candidates = [([model[0]], [model[1]], [model[2]]), ([0], [1], [0]), ([0], [2], [0]),
                      ([0, 0], [1, 1], [0, 0]), ([0, 0, 0], [1, -1, 1], [0, 0, 0]),
                      ([0, 0, 0, 0], [1, 1, 1, 1], [0, 0, 0, 0])]
        builds = [concrete(constructor, counterexample)]
        if Fraction(builds[0][0].function.scale) <= 0:  # no noise: also the sample's scale
            builds.append((constructor(**SAMPLE), dict(SAMPLE)))
        for m, arguments in builds:
            noise = Fraction(m.function.scale)
            for v, v2, y in candidates:
                d_in = close_at(m, v, v2)
                observed, claimed = observed_loss(noise, v, v2, y), m.map(d_in)
                confirmed = observed > claimed
                if confirmed:
                    break
            if confirmed:
                break
        call = constructor_call(constructor, **arguments)
        return plain_report(
            confirmed, call, f"inputs v = {v}, v' = {v2}, output y = {y}, d_in = {show(d_in)} "
            "(the input metric's distance)",
            f"the function's noise scale: {show(noise)}" + ("" if noise > 0 else " (no noise)"),
            f"claimed  map(d_in) = {claimed!r}",
            f"observed ln(Pr[M(v)=y] / Pr[M(v')=y]) = {show(observed)}"
            + ("  > claimed" if confirmed else ""),
            *reproducer(import_line(constructor), f"m = {call}", "s = Fraction(m.function.scale)",
                        f"v, v2, y = {v}, {v2}, {y}",
                        f"assert m.input_metric.distance(v, v2) <= {literal(d_in)}",
                        f"claimed = m.map({literal(d_in)})",
                        "observed = sum(Fraction(abs(b - x2) - abs(b - x)) for x, x2, b in "
                        "zip(v, v2, y)) / s if s > 0 else "
                        + ("float('inf')" if v != v2 and y == v else "0"),
                        bound_assertion("ln(Pr[M(v)=y] / Pr[M(v')=y]) = sum_i (|y_i - v'_i| - "
                                        "|y_i - v_i|) / s", f"map({literal(d_in)})")))
    return replay


def map_runs(goal: ComputedGoal, constructor: Constructor,
             trials: list[tuple[dict[str, Any], Any]]) -> ComputedGoal:
    """``goal``, which evaluates the built map at the ``(arguments, d_in)`` of ``trials``, with a
    map that RAISES there refuted instead of an error: the claim is that ``map(d_in)`` bounds the
    loss for every admitted ``d_in``, and a map that returns nothing bounds nothing. The replay
    reruns the raising call on the real code (confirmed), else ``goal``'s own replay."""
    def raising() -> tuple[dict[str, Any], Any, str] | None:
        for arguments, d_in in trials:
            if not admits(constructor, arguments):
                continue
            try:
                constructor(**arguments).map(d_in)
            except Exception as error:  # noqa: BLE001 - the map's crash is the finding
                return arguments, d_in, f"{type(error).__name__}: {error}"
        return None

    def decide() -> Decision:
        try:
            return goal.decide()
        except Exception:  # noqa: BLE001 - located and reported below
            found = raising()
            if found is None:
                raise
            arguments, d_in, what = found
            return Decision(False, {**arguments, "d_in": literal(d_in)},
                            f"{constructor_call(constructor, **arguments)}.map({literal(d_in)}) "
                            f"raises {what}")

    def replay(counterexample: dict[str, Any]) -> Replay:
        found = raising()
        if found is None:
            return goal.replay(counterexample) if goal.replay is not None else plain_report(
                False, "the map returns at every trial")
        arguments, d_in, what = found
        call = constructor_call(constructor, **arguments)
        return plain_report(
            True, f"{call}: map({literal(d_in)}) raises {what}, an admitted d_in with no bound",
            *reproducer(import_line(constructor), f"m = {call}", f"d_in = {literal(d_in)}",
                        "try:", "    m.map(d_in)", "except Exception as error:",
                        "    raise AssertionError(f'map({d_in!r}) raises "
                        "{type(error).__name__}: {error}') from error"))
    return ComputedGoal(goal.name, goal.solver, decide, replay)


def zero_scale_goals(constructor: Constructor, replay: Callable[[dict], Replay]
                     ) -> list[ComputedGoal]:
    """``map(d_in) = +inf`` at ``scale = 0`` when the preconditions admit ``scale = 0.0``; none
    when they refuse it (a stricter precondition: nothing is claimed there)."""
    return [map_runs(zero_scale_map_is_infinite(constructor, replay), constructor,
                     [({"scale": 0.0}, d) for d in ZERO_SCALE_DIVISORS])] \
        if admits(constructor, {"scale": 0.0}) else []


def infinite_distance_map(constructor: Constructor, replay: Callable[[dict], Replay]
                          ) -> ComputedGoal:
    """Vectors of different lengths are at distance ``+inf``: ``map(+inf)`` must be ``+inf``;
    evaluated at :data:`INFINITE_SCALES`."""
    def decide() -> Decision:
        for scale in INFINITE_SCALES:
            m = _built(constructor, scale)
            if m is not None and m.map(math.inf) != math.inf:
                return Decision(False, {"scale": scale, "x": 0, "x2": 1, "y": 0},
                                f"at scale {scale!r}, map(+inf) = {m.map(math.inf)!r}")
        return Decision(True, detail="map(+inf) = +inf at scale in "
                        + ", ".join(map(repr, INFINITE_SCALES)))
    return ComputedGoal("vectors of different lengths (distance +inf): map(+inf) = +inf",
                        "structure", decide, replay)


def vector_edge_goals(constructor: Constructor, replay: Callable[[dict], Replay],
                      tail_loss: Callable[[Constructor, dict[str, Any]], Any]) -> list[Any]:
    """The privacy goals at the edges, shared by make_vector_laplace and make_vector_gaussian:
    scale = 0 (no noise, map = +inf), vectors of different lengths (map(+inf) = +inf at
    :data:`INFINITE_SCALES`), and the premise that the built input domain admits only int
    vectors (at :data:`PREMISE`, a member outside it replayed by ``tail_loss``)."""
    return [
        *zero_scale_goals(constructor, replay),
        map_runs(infinite_distance_map(constructor, replay), constructor,
                 [({"scale": s}, math.inf) for s in INFINITE_SCALES]),
        domain_premise_goal(constructor, PREMISE, "int vectors", is_int_vector,
                            tail_loss(constructor, PREMISE)),
    ]


def scale_map_rounding(constructor: Constructor, prefix: str, exact: str) -> Obligation:
    """The map-rounding obligation of a vector noise constructor whose one float parameter is
    ``scale``: its map computed in floats is never below ``exact`` (shared by make_vector_laplace
    and make_vector_gaussian)."""
    return map_rounding_obligation(prefix, symbolic_build(constructor, floats=("scale",)), real_d_in,
                                   replay_rounding(constructor, parameter_candidates(("scale",))),
                                   exact)


def vector_laplace_obligations(constructor: Constructor = make_vector_laplace,
                               prefix: str = "vector_laplace") -> tuple[Obligation, ...]:

    def privacy_goals() -> list[Any]:
        m, params, assumptions = symbolic(constructor)
        scale, noise = params["scale"], ops.exact(m.function.scale)
        x, x2, y = z3.Ints("x x2 y")
        loss, total, d_in = z3.Reals("P Q d_in")
        metric_step = getattr(m.input_metric, "step", None)

        def step(q: Any, a: Any, b: Any) -> Any:
            """The L1 distance's step, from its definition: ``q + |a - b|``."""
            return q + ops.absolute(a - b)

        def coordinate(a: Any, b: Any, out: Any) -> Any:
            """``ln(Pr[Y = out - a] / Pr[Y = out - b])`` from the pmf ``exp(-|z| / s) / Z(s)``."""
            return (ops.absolute(out - b) - ops.absolute(out - a)) / noise

        epsilon = m.map(d_in)
        names = {**params, "x": x, "x2": x2, "y": y, "P": loss, "Q": total, "d_in": d_in}
        replay = _replay_privacy(constructor)
        positive = [*assumptions, noise > 0]
        return [
            exact_noise_goal(lambda: constructor(**SAMPLE)),
            vector_kernel_goal(constructor, sample_discrete_laplace, SAMPLE),
            draws_per_coordinate(constructor, shared_draw_replay(constructor, "privacy")),
            fields_agree(lambda: symbolic(constructor), constructor, [SAMPLE, {"scale": 0.5}],
                         ("scale",)),
            metric_premise(lambda: m, L1Distance, MaxDivergence,
                           "the privacy proof (sum_i |v_i - v'_i| <= d_in, the metric's fold)"),
            metric_fold_goal(constructor, L1Distance, SAMPLE),
            *([Z3Goal("the input metric's step is the L1 distance's: step(Q, x, x') = "
                      "Q + |x - x'|", metric_step(total, x, x2) == step(total, x, x2),
                      assumptions, names, replay)] if metric_step is not None else []),
            Z3Goal("one coordinate: the function's scale s > 0: (|y - x'| - |y - x|) / s <= "
                   "|x - x'| / s",
                   coordinate(x, x2, y) <= step(0, x, x2) / noise, positive, names, replay),
            empty_vectors_goal(constructor, SAMPLE),
            Z3Goal("induction step (one more coordinate): P <= Q / s implies "
                   "P + (|y - x'| - |y - x|) / s <= (Q + |x - x'|) / s",
                   coordinate(x, x2, y) + loss <= step(total, x, x2) / noise,
                   [*positive, loss <= total / noise], names, replay),
            Z3Goal("the bound: P <= Q / s, Q <= d_in, d_in > 0: exp(P) <= exp(map(d_in)), the "
                   "ratio of the products prod_i exp(-|y_i - v_i| / s) / Z(s)",
                   EXP(loss) <= EXP(epsilon) * EXP(z3.RealVal(0)),
                   [*positive, loss <= total / noise, total <= d_in, d_in > 0,
                    *exp_product_facts(loss, epsilon, z3.RealVal(0)), EXP(z3.RealVal(0)) == 1],
                   names, replay),
            no_noise_only_at_zero(noise, scale, assumptions, params, replay),
            negative_scale_refused(constructor, replay),
            Z3Goal("d_in = 0 (then v = v'): map(0) >= 0", 0 <= m.map(z3.RealVal(0)),
                   assumptions, params, replay),
            *vector_edge_goals(constructor, replay, laplace_tail_loss),
        ]

    return (
        *vector_noise_obligations(
            constructor, prefix, sample_discrete_laplace, SAMPLE,
            "Pr[Y_i = z] = exp(-|z|/scale) / Z(scale)",
            r"\Pr[M(v) = y] = \prod_i e^{-|y_i - v_i| / \mathtt{scale}} / Z(\mathtt{scale})",
            lambda s: -1 / s, CKS),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "For vectors v, v' of every length n with L1 distance sum_i |v_i - v'_i| <= "
                   "d_in and every output y, Pr[M(v) = y] <= exp(map(d_in)) Pr[M(v') = y], for "
                   "the law the running function draws at its own scale s: the normalisers "
                   "Z(s)^n cancel and, by induction on n with the metric's own step, "
                   "sum_i (|y_i - v'_i| - |y_i - v_i|) / s <= L1(v, v') / s <= map(d_in); "
                   "vectors of different lengths are at distance +inf, where map = +inf; s <= 0 "
                   "(no noise) only at scale = 0, where map(d_in) = +inf.",
                   r"\|v - v'\|_1 \le d_{in} \implies \Pr[M(v) = y] \le e^{\mathtt{map}(d_{in})} "
                   r"\Pr[M(v') = y]",
                   privacy_goals, uses=(f"{prefix}.distribution", f"{prefix}.map_rounding"),
                   bound=LENGTHS_BOUND),
        scale_map_rounding(constructor, prefix, "d_in / scale"),
    )


IMPORT = "from mechanisms.make_vector_laplace import make_vector_laplace"


def catalogue_entry() -> Entry:
    return Entry("make_vector_laplace", make_vector_laplace, vector_laplace_obligations(),
                 "add independent discrete Laplace noise to each coordinate of an int vector",
                 (example("make_vector_laplace(1.0)", IMPORT),
                  example("make_vector_laplace(2.5)", IMPORT)), proof=True)
