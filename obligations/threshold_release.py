"""What the proofs of stability-threshold releases share (``make_laplace_threshold`` and
``make_gaussian_threshold``): a histogram's counts released with noise when above a threshold,
its privacy split into the shift of the common keys and the keys one side holds alone, the
release probability from the noise's pmf, the map's ``exp_lower`` read as a polynomial, and the
replays that compare the running code's exact loss with the map."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction
from typing import Any, Callable, Iterator, Sequence

import mpmath
import z3

from mechanisms import float_model
from mechanisms.core import Constructor, Map, Measurement
from mechanisms.domains import AtomDomain, MapDomain
from mechanisms.errors import DPCertError
from mechanisms.make_laplace_threshold import ThresholdedNoise
from mechanisms.metrics import L01InfDistance
from obligations.base import ComputedGoal, Decision, Kind, Obligation, Replay, Z3Goal, is_true
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.kernels import kernel_deviations, trusted_kernel_goal
from obligations.l01inf_facts import metric_facts_obligation
from obligations.exponential import EXP
from obligations.noise import exact_noise_goal
from obligations.reports import (Code, claim_assertion, constructor_call, import_line, literal,
                                 plain_report, reproducer)
from obligations.witnesses import excluded_goals, witness_goal


EXP_LOWER = z3.Function("exp_lower", z3.RealSort(), z3.RealSort())
"""The map's ``exp_lower`` on Z3 terms: only ``1 <= exp_lower(y) <= exp(y)`` for ``y >= 0``."""


ARGUMENTS = {"carrier": str, "scale": 2.0, "threshold": 10}
"""Valid arguments for witnesses."""


def shown(arguments: dict[str, Any]) -> dict[str, Any]:
    """Arguments as a report writes them (``carrier=str``)."""
    return {**arguments, "carrier": Code(arguments["carrier"].__name__)}


def laplace_pmf(z: int, scale: Fraction) -> Any:
    """``Pr[Z = z] = (1 - q) / (1 + q) q^|z|``, ``q = exp(-1/scale)``, in mpmath."""
    q = mpmath.exp(-1 / (mpmath.mpf(scale.numerator) / scale.denominator))
    return (1 - q) / (1 + q) * q ** abs(z)


class Polynomial:
    """Exact polynomials (rational coefficients, lowest degree first), with the operations the
    map's ``exp_lower`` uses, so running it on ``y`` gives its coefficients."""

    def __init__(self, coefficients: list[Fraction]) -> None:
        self.c = coefficients

    def _other(self, x: Any) -> "Polynomial":
        return x if isinstance(x, Polynomial) else Polynomial([Fraction(x)])

    def __add__(self, other: Any) -> "Polynomial":
        o = self._other(other)
        n = max(len(self.c), len(o.c))
        return Polynomial([(self.c[i] if i < len(self.c) else 0) + (o.c[i] if i < len(o.c) else 0)
                           for i in range(n)])

    __radd__ = __add__

    def __mul__(self, other: Any) -> "Polynomial":
        o = self._other(other)
        out = [Fraction(0)] * (len(self.c) + len(o.c) - 1)
        for i, a in enumerate(self.c):
            if a:
                for j, b in enumerate(o.c):
                    out[i + j] += a * b
        return Polynomial(out)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> "Polynomial":
        return Polynomial([a / Fraction(other) for a in self.c])


def exp_lower_goal(lower: Callable[[Any], Any] | None) -> ComputedGoal:
    """The map's ``exp_lower`` run on the polynomial ``y``: coefficients ``0 <= c_k <= 1/k!`` and
    ``c_0 >= 1``, so ``1 <= exp_lower(y) <= sum_k y^k/k! = e^y`` for every ``y >= 0``."""
    def decide() -> Decision:
        if lower is None:
            return Decision(False, {"exp_lower": "missing"}, "the map has no exp_lower "
                            "parameter; the proof method does not apply", unsupported=True)
        try:
            p = lower(Polynomial([Fraction(0), Fraction(1)]))
        except Exception as error:  # noqa: BLE001 - not a polynomial in y
            return Decision(False, {"error": repr(error)}, f"exp_lower is not a polynomial the "
                            f"method can expand ({error!r})", unsupported=True)
        if not isinstance(p, Polynomial):
            return Decision(False, {"result": repr(p)}, "exp_lower did not return a polynomial",
                            unsupported=True)
        for k, c in enumerate(p.c):
            if not 0 <= c <= Fraction(1, math.factorial(k)):
                return Decision(False, {"k": k, "coefficient": str(c)},
                                f"coefficient of y^{k} is {c}, outside [0, 1/{k}!]: exp_lower "
                                "may exceed e^y")
        if not p.c or p.c[0] < 1:
            return Decision(False, {"c0": str(p.c[0] if p.c else 0)}, "exp_lower(0) < 1")
        return Decision(True, detail=f"degree {len(p.c) - 1}; every coefficient in [0, 1/k!], "
                        "constant term >= 1")
    return ComputedGoal("the map's exp_lower satisfies 1 <= exp_lower(y) <= e^y for y >= 0 "
                        "(its coefficients, from running it on a polynomial)", "structure", decide,
                        None)


def symbolic(constructor: Constructor) -> tuple[Measurement, dict[str, Any], list[Any]]:
    scale, threshold = z3.Real("scale"), z3.Int("threshold")
    args = {"carrier": str, "scale": scale, "threshold": threshold}
    return constructor.build(**args), {"scale": scale, "threshold": threshold}, \
        constructor.assumptions(**args)


def abstracted(privacy_map: Map) -> Map:
    """The map with its ``exp_lower`` parameter (if any) replaced by :data:`EXP_LOWER`."""
    if "exp_lower" not in privacy_map.params:
        return privacy_map
    return replace(privacy_map, params={**privacy_map.params, "exp_lower": EXP_LOWER})


def exp_lower_facts(*terms: Any) -> list[Any]:
    """For every application ``exp_lower(u)`` inside ``terms``: ``u >= 0 => 1 <= exp_lower(u)
    <= exp(u)`` (the goal ``exp_lower_goal`` proves it of the real function), ``exp(u) > 0``
    and ``exp(u) exp(-u) = 1``."""
    facts = []
    for t in {a.get_id(): a for term in terms for a in exp_lower_applications(term)}.values():
        u = t.arg(0)
        facts += [z3.Implies(u >= 0, z3.And(1 <= t, t <= EXP(u))), EXP(u) > 0, EXP(-u) > 0,
                  EXP(u) * EXP(-u) == 1]
    return facts


def d_in_terms() -> tuple[tuple[Any, Any, Any], list[Any]]:
    """A distance bound: any non-negative reals (an int, or a float the map reads exactly)."""
    l0, l1, linf = z3.Reals("l0 l1 linf")
    return (l0, l1, linf), [l0 >= 0, l1 >= 0, linf >= 0]


def true_distance() -> tuple[tuple[Any, Any, Any], list[Any]]:
    """A distance the metric can give (its facts, lemma ``metric_facts``)."""
    t0, t1, tinf = z3.Ints("t0 t1 tinf")
    return (t0, t1, tinf), [t0 >= 0, tinf >= 0, tinf <= t1, t1 <= t0 * tinf]


LAPLACE_PMF_LINES = ("q = mpmath.exp(-1 / mpmath.mpf(f.scale))",
                     "pmf = lambda z: (1 - q) / (1 + q) * q ** abs(z)")
"""A reproducer's statement of the discrete Laplace pmf at the function's scale."""


Pmf = Callable[[int, Fraction], Any]


def release_probability(m: Measurement, count: int, pmf: Pmf = laplace_pmf) -> Any:
    """A lower bound of ``Pr[the key with this count is released]``, by the running function's own
    ``shift`` and ``keep`` and the stated pmf, summed over ``z`` in a window (mpmath, 60 digits)."""
    f = m.function
    scale = Fraction(f.scale)
    start = f.threshold - count - 3
    width = int(60 * scale) + 60
    with mpmath.workdps(60):
        return mpmath.fsum(pmf(z, scale) for z in range(start, start + width)
                           if f.keep(f.shift(count, z), f.threshold))


def _candidates(counterexample: dict[str, Any]) -> list[tuple[float, int, tuple[int, int, int]]]:
    """``(scale, threshold, d_in)`` to replay at: the counterexample's, then a small grid."""
    out = []
    try:
        out.append((float(Fraction(str(counterexample["scale"]))),
                    int(counterexample["threshold"]),
                    tuple(int(counterexample[n]) for n in ("l0", "l1", "linf"))))
    except (KeyError, ValueError, ZeroDivisionError):
        pass
    for scale in (1.0, 2.0, 0.5, 3.0):
        for threshold in (1, 3, 10):
            for d_in in ((1, 1, 1), (2, 2, 1), (1, 2, 2), (3, 3, 1)):
                out.append((scale, threshold, d_in))
    return out


def candidate_builds(constructor: Constructor, counterexample: dict[str, Any]
                     ) -> Iterator[tuple[Measurement, float, int, tuple[int, int, int]]]:
    """``(m, scale, threshold, d_in)``: ``m`` the constructor on string keys at each of
    :func:`_candidates` it admits, with the distance to replay there."""
    for scale, threshold, d_in in _candidates(counterexample):
        try:
            m = constructor(str, scale, threshold)
        except DPCertError:
            continue
        yield m, scale, threshold, d_in


def replay_one_sided(constructor: Constructor, pmf: Pmf = laplace_pmf,
                     pmf_lines: tuple[str, ...] = LAPLACE_PMF_LINES) -> Callable[[dict], Replay]:
    """Keys in one histogram only: ``x`` has ``n`` keys of count ``c`` (``n <= l0``, ``c <=
    linf``, ``n c <= l1``), ``x'`` none; the event "some key released" has probability
    ``1 - (1 - p)^n`` on ``x`` and ``0`` on ``x'``, so it must be ``<= delta``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        for m, scale, threshold, d_in in candidate_builds(constructor, counterexample):
            l0, l1, linf = d_in
            for n in range(1, min(l0, 3) + 1):
                for c in sorted({min(linf, l1 // n), 1}):
                    if c < 0 or n * c > l1 or c > linf:
                        continue
                    x = {f"k{i}": c for i in range(n)}
                    if not L01InfDistance.within(m.input_metric.distance(x, {}), d_in):
                        continue
                    epsilon, delta = m.map(d_in)
                    p = release_probability(m, c, pmf)
                    with mpmath.workdps(60):
                        observed = 1 - (1 - p) ** n
                        if observed > mpmath.mpf(delta):
                            return _one_sided_report(constructor, scale, threshold, d_in, x,
                                                     observed, epsilon, delta, pmf_lines)
        return plain_report(False, f"{constructor.name}: no one-sided pair found whose release "
                            "probability exceeds delta")
    return replay


def _one_sided_report(constructor: Constructor, scale: float, threshold: int, d_in: tuple,
                      x: dict, observed: Any, epsilon: Any, delta: Any,
                      pmf_lines: tuple[str, ...]) -> Replay:
    call = constructor_call(constructor, **shown({"carrier": str, "scale": scale,
                                                  "threshold": threshold}))
    c = next(iter(x.values()))
    return plain_report(
        True, call, f"inputs x = {literal(x)}, x' = {{}} (distance {d_in} or less)",
        f"claimed map{d_in} = ({epsilon!r}, {delta!r})",
        f"Pr[some key released | x] = {mpmath.nstr(observed, 20)} > delta, while "
        "Pr[... | x'] = 0",
        *reproducer(import_line(constructor), "import mpmath", f"m = {call}", "f = m.function",
                    "mpmath.mp.dps = 60", *pmf_lines,
                    f"p = mpmath.fsum(pmf(z) for z in "
                    f"range(f.threshold - {c} - 3, f.threshold - {c} + {int(60 * scale) + 57}) "
                    f"if f.keep(f.shift({c}, z), f.threshold))",
                    f"observed, (_, delta) = 1 - (1 - p) ** {len(x)}, m.map({d_in})",
                    claim_assertion("observed <= delta", "Pr[release] = {observed} > delta = "
                                    "{delta!r} for a key in one histogram only")))


def shift_goal(f: Any, replay: Callable[[dict], Replay]) -> ComputedGoal:
    """``shift(count, z)`` is ``count + z`` for every count and draw, or ``count - z`` for every
    one: the stated laws are symmetric (``pmf(z) = pmf(-z)``), so either has the law of
    ``count + Z``. Two Z3 validity checks on the function's own ``shift``."""
    a, z = z3.Ints("a z")

    def decide() -> Decision:
        term = f.shift(a, z)
        for sign, expected in (("+", a + z), ("-", a - z)):
            solver = z3.Solver()
            solver.set("timeout", 10_000)
            solver.add(term != expected)
            if solver.check() == z3.unsat:
                return Decision(True, detail=f"shift(a, z) = a {sign} z for all integers a, z")
        solver = z3.Solver()
        solver.set("timeout", 10_000)
        solver.add(term != a + z, term != a - z)
        if solver.check() == z3.sat:
            model = solver.model()
            return Decision(False, {"a": str(model.eval(a, True)), "z": str(model.eval(z, True))},
                            "shift(a, z) is neither a + z nor a - z here")
        return Decision(False, {"shift": str(term)}, "shift(a, z) is a + z for some draws and "
                        "a - z for others, or undecided: not a symmetric shift", unsupported=True)
    return ComputedGoal("shift(count, z) = count + z for all, or count - z for all (the noise law "
                        "is symmetric): the noisy count has the law of count + Z", "z3", decide,
                        replay)


def keep_goal(f: Any, threshold: Any, replay: Callable[[dict], Replay]) -> Z3Goal:
    """A key is released only when its noisy count reaches the threshold (releasing fewer keys
    is post-processing of the noisy counts and only lowers the release probability)."""
    y = z3.Int("y")
    return Z3Goal("keep(y, threshold) implies y >= threshold: a key is released only when its "
                  "noisy count reaches the threshold",
                  z3.Implies(is_true(f.keep(y, threshold)), y >= threshold), [],
                  {"y": y, "threshold": threshold}, replay)


NON_INTEGERS = (0.5, 9.5, 2.25)
"""Probes of the input value domain: a count the privacy proof does not cover."""


def integer_counts_goal(build: Callable[[], Measurement],
                        replay: Callable[[dict], Replay]) -> ComputedGoal:
    """The privacy proof is about integer counts (integer noise on a non-integer count shifts its
    support): the input value domain must be an ``AtomDomain(int)`` running its own code. A
    value domain that admits one of :data:`NON_INTEGERS` is refuted; another deviation is
    unsupported."""
    def decide() -> Decision:
        domain = build().input_domain
        values = getattr(domain, "value_domain", None)
        admitted = [v for v in NON_INTEGERS if values is not None and values.member(v)]
        if admitted:
            return Decision(False, {"value": admitted[0]}, f"the input value domain {values} "
                            f"admits the non-integer count {admitted[0]!r}")
        deviations = kernel_deviations(domain, MapDomain) + (
            kernel_deviations(values, AtomDomain) if values is not None else ["no value domain"])
        if deviations:
            return Decision(False, {"domain": str(domain)}, "; ".join(deviations),
                            unsupported=True)
        if values.carrier is not int:
            return Decision(False, {"carrier": values.carrier.__name__}, f"the value domain "
                            f"{values} is not of ints", unsupported=True)
        return Decision(True, detail=f"{values}: integer counts")
    return ComputedGoal("the counts are integers: the input value domain is AtomDomain(int)",
                        "structure", decide, replay)


def replay_non_integer(constructor: Constructor, pmf: Pmf = laplace_pmf,
                       pmf_lines: tuple[str, ...] = LAPLACE_PMF_LINES) -> Callable[[dict], Replay]:
    """``x = {a: v}``, ``x' = {a: v + 1/2}`` with ``v`` a non-integer member: ``M(x)`` releases
    ``a`` only with non-integer values, ``M(x')`` never; that event must have probability
    ``<= delta``."""
    def replay(_: dict) -> Replay:
        m = constructor(str, 1.0, 10)
        f = m.function
        for v in NON_INTEGERS:
            x, x2 = {"a": v}, {"a": v + 0.5}
            if not (m.input_domain.member(x) and m.input_domain.member(x2)):
                continue
            d_in = m.input_metric.distance(x, x2)
            epsilon, delta = m.map(d_in)
            reach = 200
            with mpmath.workdps(60):
                def released_fraction(value: float) -> Any:
                    return mpmath.fsum(
                        pmf(z, Fraction(f.scale)) for z in range(-reach, reach)
                        if f.keep(f.shift(value, z), f.threshold)
                        and f.shift(value, z) != int(f.shift(value, z)))
                p, q = released_fraction(v), released_fraction(v + 0.5)
                if p > mpmath.exp(mpmath.mpf(epsilon)) * q + mpmath.mpf(delta):
                    call = constructor_call(constructor, **shown(
                        {"carrier": str, "scale": 1.0, "threshold": 10}))
                    return plain_report(
                        True, call, f"inputs x = {x}, x' = {x2} (distance {d_in})",
                        f"map = ({epsilon!r}, {delta!r}); Pr[a released with a non-integer "
                        f"value | x] = {mpmath.nstr(p, 20)}, | x'] = {mpmath.nstr(q, 20)}",
                        *reproducer(
                            import_line(constructor), "import mpmath", f"m = {call}",
                            "f = m.function", "mpmath.mp.dps = 60", *pmf_lines,
                            "def fractional(value):",
                            "    return mpmath.fsum(pmf(z) for z in range(-200, 200) if "
                            "f.keep(f.shift(value, z), f.threshold) and "
                            "f.shift(value, z) != int(f.shift(value, z)))",
                            f"epsilon, delta = m.map(m.input_metric.distance({x}, {x2}))",
                            f"p, q = fractional({v}), fractional({v + 0.5})",
                            claim_assertion("p <= mpmath.exp(epsilon) * q + delta",
                                            "P = {p} > exp(epsilon) {q} + delta: non-integer "
                                            "counts")))
        return plain_report(False, f"{constructor.name}: no non-integer count breaks the map")
    return replay


def exact_map_spec(scale: float, threshold: int, d_in: tuple[int, int, int]) -> tuple[Any, Any]:
    """The map's exact value, from the mathematics: ``l1' / scale`` (a Fraction) and
    ``min(1, l0 tail(threshold - linf'))`` (mpmath, 60 digits; ``0`` when ``l0 = 0``)."""
    l0, l1, linf = d_in
    l1 = min(l1, l0 * linf)
    linf = min(linf, l1)
    epsilon = Fraction(l1) / Fraction(scale)
    gap = threshold - linf
    with mpmath.workdps(60):
        b = mpmath.mpf(Fraction(scale).numerator) / Fraction(scale).denominator
        tail = mpmath.mpf(1) if gap <= 0 else mpmath.exp(-(gap - 1) / b) / (mpmath.exp(1 / b) + 1)
        delta = mpmath.mpf(0) if l0 == 0 else min(mpmath.mpf(1), l0 * tail)
    return epsilon, delta


Spec = Callable[[float, int, tuple[int, int, int]], tuple[Any, Any]]


def replay_rounding(constructor: Constructor, spec: Spec = exact_map_spec,
                    first: str = "epsilon") -> Callable[[dict], Replay]:
    """Seeded floats: the real map against its exact value (``spec``: by default
    :func:`exact_map_spec`); ``first`` names the map's first component."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        rng = random.Random(0)
        tries = [(float(Fraction(str(counterexample.get("scale", 3)))), 10, (1, 3, 3))]
        tries += [(float(Fraction(rng.getrandbits(53) | 1 << 52, 1 << 52)
                         * Fraction(2) ** rng.randint(-8, 8)), rng.randint(0, 20),
                   (rng.randint(1, 4), rng.randint(1, 99), rng.randint(1, 9)))
                  for _ in range(300)]
        for scale, threshold, d_in in tries:
            try:
                m = constructor(str, scale, threshold)
            except DPCertError:
                continue
            epsilon, delta = m.map(d_in)
            exact_epsilon, exact_delta = spec(scale, threshold, d_in)
            with mpmath.workdps(60):
                low = [name for name, below in (
                    (first, Fraction(epsilon) < exact_epsilon),
                    ("delta", mpmath.mpf(delta) < exact_delta)) if below]
            if low:
                call = constructor_call(constructor, **shown(
                    {"carrier": str, "scale": scale, "threshold": threshold}))
                return plain_report(
                    True, call, f"map{d_in} = {(epsilon, delta)!r}: {low[0]} below its exact "
                    f"value ({exact_epsilon} = {float(exact_epsilon)!r}, "
                    f"{mpmath.nstr(exact_delta, 20)})",
                    *reproducer(import_line(constructor), "from fractions import Fraction",
                                f"m = {call}", f"first, _ = m.map({d_in})",
                                f"exact = Fraction({exact_epsilon.numerator}, "
                                f"{exact_epsilon.denominator})",
                                claim_assertion("Fraction(first) >= exact",
                                                f"{first} = {{first!r}} < exact {{exact}}"))
                    if low[0] == first else [])
        return plain_report(False, "no float parameters found on which the map falls below "
                            "its exact value")
    return replay


def replay_output(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        m = constructor(**ARGUMENTS)
        for seed in range(20):
            data = {"a": 12, "b": 30, "c": 0}
            out = m(data, random.Random(seed))
            if not m.output_domain.member(out):
                call = constructor_call(constructor, **shown(ARGUMENTS))
                return plain_report(True, f"{call} on {literal(data)}",
                                    f"output {literal(out)} is not in {m.output_domain}",
                                    *reproducer(import_line(constructor), "import random",
                                                f"m = {call}",
                                                f"out = m({literal(data)}, random.Random({seed}))",
                                                claim_assertion("m.output_domain.member(out)",
                                                                "{out!r} is not a member")))
        return plain_report(False, "outputs on the sample histogram are members")
    return replay


def threshold_obligations(constructor: Constructor, prefix: str, sampler: Callable[..., int],
                          sampler_cite: str) -> tuple[Obligation, ...]:
    """Output domain, compatibility and the input metric's facts: shared with the Gaussian."""

    def built() -> Measurement:
        return symbolic(constructor)[0]

    def kernel_goal() -> ComputedGoal:
        def other_sampler(f: Any) -> list[str]:
            return [] if getattr(f, "sampler", None) is sampler else \
                [f"sampler {getattr(f, 'sampler', None)!r} is not {sampler.__name__}"]
        return trusted_kernel_goal("function", lambda: built().function, ThresholdedNoise,
                                   checked=("shift", "keep"), also=other_sampler)

    def output_domain_goals() -> list[Any]:
        goals: list[Any] = [kernel_goal(), witness_goal(
            constructor, ARGUMENTS, shown(ARGUMENTS),
            inputs=[{}, {"a": 12}, {"a": 12, "b": 30, "c": 0, "d": -4}], draws=5)]
        m = built()
        if kernel_deviations(m.function, ThresholdedNoise, ("shift", "keep")):
            return goals
        replay = replay_output(constructor)

        def structure() -> Decision:
            out, inp = m.output_domain, m.input_domain
            if kernel_deviations(out, MapDomain) or not isinstance(inp, MapDomain):
                return Decision(False, {"output_domain": str(out)}, "not MapDomains",
                                unsupported=True)
            if out.key_domain != inp.key_domain:
                return Decision(False, {"keys": str(out.key_domain)},
                                "released keys are input keys; the output key domain differs")
            return Decision(True, detail="released keys are input keys, in the same key domain")
        count, z = z3.Ints("count z")
        f = m.function
        goals += [
            ComputedGoal("output keys: the input's key domain", "structure", structure, replay),
            Z3Goal("a released value shift(count, z) is an int in the value domain, for every "
                   "int count of the input domain and int draw z",
                   z3.And(is_true(m.output_domain.value_domain.contains(f.shift(count, z))),
                          z3.BoolVal(isinstance(f.shift(count, z), z3.ArithRef)
                                     and f.shift(count, z).sort() == z3.IntSort())),
                   [is_true(m.input_domain.value_domain.contains(count))],
                   {"count": count, "z": z}, replay),
        ]
        return goals

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(constructor, lambda: [built()], ARGUMENTS, shown(ARGUMENTS))]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every histogram x, function(x) is a dict from keys of x to ints: each "
                   "released value is shift(x(k), z) = x(k) + z for an integer draw z.",
                   r"\mathtt{function}(x) \in \mathrm{Map}(K, \mathbb{Z})", output_domain_goals,
                   cites=(sampler_cite,)),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "The L01Inf distance is defined on the input map domain (absolute distance on "
                   "its int values).", r"d_{L01Inf} \sim \mathrm{MapDomain}(K, \mathtt{int})",
                   compatibility_goals),
        metric_facts_obligation(prefix, lambda: constructor.build(**ARGUMENTS).input_metric,
                                lambda: (constructor_call(constructor, **shown(ARGUMENTS)),
                                         [import_line(constructor)]), "input_metric"),
    )


def threshold_premise_goals(constructor: Constructor, m: Measurement, measure: type,
                            sampler: Callable[..., int], prefix: str) -> list[Any]:
    """The premises of a threshold release's privacy proof: the metric and ``measure`` of the
    built ``m`` (the metric's facts), its function the trusted :class:`ThresholdedNoise` drawing
    by ``sampler``, and exact noise."""
    return [
        metric_premise(lambda: m, L01InfDistance, measure, f"{prefix}.metric_facts"),
        trusted_kernel_goal("function", lambda: m.function, ThresholdedNoise,
                            checked=("shift", "keep"), also=lambda g: [] if getattr(
                                g, "sampler", None) is sampler else
                            [f"the sampler is not {sampler.__name__}"]),
        exact_noise_goal(lambda: constructor(**ARGUMENTS)),
    ]


def threshold_release_goals(f: Any, params: dict[str, Any], assumptions: list[Any],
                            names: dict[str, Any], replay: Callable[[dict], Replay]
                            ) -> list[Any]:
    """The noise drawn at the map's scale and the release at its threshold, the noisy count
    ``count + noise`` (:func:`shift_goal`) and the kept keys (:func:`keep_goal`)."""
    return [
        Z3Goal("the noise is drawn at the map's scale, the release at the map's threshold",
               z3.And(f.scale == params.get("scale", z3.Real("missing")),
                      f.threshold == params.get("threshold", z3.Int("missing"))),
               assumptions, names, replay),
        shift_goal(f, replay),
        keep_goal(f, names["threshold"], replay),
    ]


def threshold_rounding_goals(constructor: Constructor, first: str,
                             replay: Callable[[dict], Replay]) -> list[Any]:
    """The map_rounding goal of a threshold release (``make_laplace_threshold``,
    ``make_gaussian_threshold``): the map built in binary64 is >= the map built exactly,
    componentwise (``first`` and delta), for every admitted scale and threshold and every d_in."""
    def run(model_cm: Any) -> tuple[Any, list[Any], dict[str, Any], list[Any]]:
        with model_cm as model:
            scale = float_model.float_parameter("scale")
            threshold = z3.Int("threshold")
            args = {"carrier": str, "scale": scale, "threshold": threshold}
            m = constructor.build(**args)
            value = abstracted(m.privacy_map)(d_in)
            return value, list(model.facts), \
                {"scale": float_model.plain(scale), "threshold": threshold}, \
                constructor.assumptions(**args)
    d_in, d_facts = d_in_terms()
    rounded, facts, names, assumptions = run(float_model.rounding_model())
    exact, exact_facts, _, _ = run(float_model.exact_model())
    claim = z3.And(*[float_model.plain(r) >= float_model.plain(e)
                     for r, e in zip(rounded, exact, strict=True)])
    return [Z3Goal("the map computed in binary64 is >= its exact value, componentwise "
                   f"({first} and delta)", claim, [*assumptions, *d_facts, *facts, *exact_facts],
                   {**names, "l0": d_in[0], "l1": d_in[1], "linf": d_in[2]}, replay)]


def threshold_refusals(constructor: Constructor,
                       more: Sequence[tuple[dict[str, Any], str]] = ()) -> list[Any]:
    """The refusals of a threshold release: no noise, a negative or infinite scale, a negative
    threshold, then ``more``."""
    return excluded_goals(constructor, [
        ({"carrier": str, "scale": 0.0, "threshold": 10}, "scale = 0 (no noise)"),
        ({"carrier": str, "scale": -1.0, "threshold": 10}, "a negative scale"),
        ({"carrier": str, "scale": math.inf, "threshold": 10}, "an infinite scale"),
        ({"carrier": str, "scale": 1.0, "threshold": -1}, "a negative threshold"),
        *more,
    ], inputs=[{"a": 1}])


def exp_lower_applications(term: Any) -> list[Any]:
    """The applications of :data:`EXP_LOWER` inside ``term``."""
    found: dict[int, Any] = {}

    def walk(t: Any) -> None:
        if not isinstance(t, z3.ExprRef):
            return
        if z3.is_app(t) and t.decl().name() == "exp_lower":
            found.setdefault(t.get_id(), t)
        for child in t.children():
            walk(child)
    walk(term)
    return list(found.values())
