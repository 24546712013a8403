"""The conversion rule from zCDP to approximate DP, for every argument a constructor admits.

A rho-zCDP mechanism is ``(rho + 2 sqrt(rho ln(1/delta)), delta)``-DP for every ``0 < delta < 1``
(Bun and Steinke 2016, Proposition 1.3), and every mechanism is ``(epsilon, delta)``-DP for
``delta >= 1``. A measurement that releases a zCDP component's output unchanged, with a map
``d -> (epsilon, delta)`` whose epsilon is at least that bound at the component's ``rho = m(d)``,
is therefore private in approximate DP.

Premises, read on a stand-in component (:mod:`.composition`'s) and a delta: the constructor takes
two arguments, a measurement and a number; it admits the stand-in in zCDP with some delta of
:data:`DELTAS`, only float ones, and refuses a component in any other measure and a
transformation. Built on the stand-in and a real delta, under the preconditions (which admit only
finite deltas), the object has the component's input domain and metric and output domain and the
measure ``FixedSmoothedMaxDivergence``; its function, run on a token and a few inputs, calls the
component once on exactly its input and rng, returns its output and loads no random module; and Z3
proves that its map ``(epsilon, delta')`` has ``delta' >= 1``, or ``delta' > 0`` and ``epsilon >=
rho + 2 sqrt(rho ln(1/delta'))`` for every real ``d >= 0`` (floats rounded as IEEE-754 does;
``sqrt`` and ``ln`` with the textbook facts stated below). At each admitted delta the running map
meets the same inequality at :data:`NUMBERS` and ``+inf``, computed in interval arithmetic. The
theorem is *bounded* to what was read.
"""

from __future__ import annotations

import math
from typing import Any

import mpmath
import z3

from mechanisms import float_model, ops
from mechanisms.core import Map, Measurement, Transformation
from mechanisms.domains import AtomDomain
from mechanisms.measures import (FixedSmoothedMaxDivergence, MaxDivergence,
                                 ZeroConcentratedDivergence)
from obligations.base import is_true
from obligations.kernel import composition
from obligations.kernel.chain import NUMBERS
from obligations.kernel.code_checks import one_body_no_randomness
from obligations.kernel.composition import (HARD_INPUTS, INPUTS, Opaque, Recorder, built_or_none,
                                            map_values, part, token_runs)
from obligations.kernel.goals import on_terms, prove, require
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import ObjectKind, standard_statements
from obligations.kernel.theorems import _KERNEL, Premise, PremiseKind, Theorem

RULE = "zCDP to approximate DP read from code"
DELTAS = (0.5, 1e-9, 5e-324, 0.9999999999999999, 0.0, -0.5, 1.0, 1.5, 2.0, math.nan, math.inf,
          0, 1, True, "0.5", None)
"""The deltas offered with a stand-in zCDP component: the constructor may admit only floats."""
CITES = ("Bun and Steinke 2016, Proposition 1.3: rho-zCDP implies (rho + 2 sqrt(rho ln(1/delta)), "
         "delta)-DP for every 0 < delta < 1",
         "textbook facts of the real ln and sqrt: ln(y) >= 0 for y >= 1; sqrt(t) >= 0 and "
         "sqrt(t)^2 = t for t >= 0")


def _stand_in(measure: Any, index: int, calls: list[tuple[int, Any, Any]],
              inputs: tuple[Any, Any] = INPUTS[0]) -> Measurement:
    """Stand-in component ``index`` in ``measure``, on ``inputs`` (a domain and metric)."""
    return Measurement(inputs[0], AtomDomain(int, bounds=(index, index)), inputs[1], measure,
                       Recorder(index, calls, Opaque(f"output{index}", RULE)),
                       Map(rule=composition.stand_in_map, params={
                           "index": index,
                           "approx": type(measure) is FixedSmoothedMaxDivergence}))


def _arguments(constructor: Any, zcdp: Measurement) -> tuple[Any, Any]:
    """The names of the component's and the delta's argument, or Nones: the constructor takes
    two and admits the stand-in ``zcdp`` with delta 0.5 (the first order that does)."""
    names = list(constructor.signature.parameters)
    if len(names) != 2 or constructor.signatures:
        return None, None
    return next(((c, n) for c, n in (names, names[::-1])
                 if built_or_none(constructor, **{c: zcdp, n: 0.5}) is not None), (None, None))


def converted_kind(constructor: Any) -> ObjectKind | None:
    """A measurement, when ``constructor`` builds one from a stand-in zCDP component and delta
    0.5; else None."""
    zcdp = _stand_in(ZeroConcentratedDivergence(), 0, [])
    component, number = _arguments(constructor, zcdp)
    return None if component is None or not isinstance(
        constructor(**{component: zcdp, number: 0.5}), Measurement) else ObjectKind.MEASUREMENT


def conversion_for_every_argument(constructor: Any) -> list[Theorem]:
    """Every standard statement of the measurements ``constructor`` converts from a zCDP
    component and a delta; raises :class:`RuleRefused` naming the first premise that fails."""
    calls: list[tuple[int, Any, Any]] = []
    zcdp = _stand_in(ZeroConcentratedDivergence(), 0, calls)
    component, number = _arguments(constructor, zcdp)
    require(RULE, component is not None, f"{constructor.name} does not take two arguments, a "
            "measurement and a delta, or admits no stand-in zCDP component with delta = 0.5")
    admitted = [delta for delta in DELTAS
                if built_or_none(constructor, **{component: zcdp, number: delta}) is not None]
    require(RULE, all(type(delta) is float for delta in admitted), f"{constructor.name} admits "
            f"deltas that are not floats: {[d for d in admitted if type(d) is not float]}")
    others = [_stand_in(measure, 1, calls) for measure in (MaxDivergence(),
              FixedSmoothedMaxDivergence(), composition._OtherMeasure())]
    transformation = Transformation(*INPUTS[0][:1] * 2, *INPUTS[0][1:] * 2, lambda x: x,
                                    Map(constant=lambda: 1))
    require(RULE, all(built_or_none(constructor, **{component: other, number: 0.5}) is None
                      for other in [*others, transformation]), f"{constructor.name} admits a "
            "component that is not a zCDP measurement")
    taken = f"{constructor.name}({component}=a stand-in zCDP measurement, {number}: float)"
    delta = float_model.float_parameter(number)
    with float_model.rounding_model() as model:
        try:
            with on_terms() as watch:
                built = constructor.build(**{component: zcdp, number: delta})
                facts = [is_true(h) for h in constructor.assumptions(**{component: zcdp,
                                                                         number: delta})]
        except Exception as error:  # noqa: BLE001 - the build on a solver delta
            raise RuleRefused(RULE, f"{taken}: the build does not run on solver terms "
                              f"({type(error).__name__}: {error})") from None
        require(RULE, not watch.found, f"{taken}: the build tests the type of a solver term")
        floating = z3.FP(number, z3.Float64())
        finite = [is_true(h) for h in constructor.assumptions(**{component: zcdp,
                                                                 number: floating})]
        prove(RULE, f"{taken}: the preconditions admit only finite deltas",
              lambda: ops.is_finite(floating), finite)
        _releases(taken, built, zcdp, calls)
        d = z3.Real("d_in")
        epsilon, stated = map_values(RULE, taken, built, d, 2)
        rho = part("m", 0, d)
        root = float_model.SQRT(rho * float_model.LN(1 / float_model.plain(stated)))
        prove(RULE, f"{taken}: map(d_in) = (epsilon, delta) with delta >= 1, or delta > 0 and "
              "epsilon >= rho + 2 sqrt(rho ln(1/delta)) at the component's rho = m(d_in), for "
              "every real d_in >= 0", lambda: z3.Or(float_model.plain(stated) >= 1, z3.And(
                  float_model.plain(stated) > 0,
                  float_model.plain(epsilon) >= rho + 2 * root)),
              [d >= 0, rho >= 0, *facts, *model.facts,
               z3.Implies(z3.And(0 < float_model.plain(stated), float_model.plain(stated) <= 1),
                          float_model.LN(1 / float_model.plain(stated)) >= 0),
               z3.Implies(root.arg(0) >= 0, z3.And(root >= 0, root * root == root.arg(0)))])
    for index, inputs in enumerate(INPUTS[1:], 3):  # a refused component owes nothing
        other = _stand_in(ZeroConcentratedDivergence(), index, calls, inputs)
        if (built := built_or_none(constructor, **{component: other, number: 0.5})) is not None:
            _releases(f"{constructor.name} on a stand-in on {inputs[0]}", built, other, calls)
    for value in admitted:
        _on_numbers(f"{constructor.name}({component}=a stand-in, {number}={value!r})",
                    constructor(**{component: zcdp, number: value}), zcdp)
    premises = (*(Premise(PremiseKind.CITES, c) for c in CITES),
                Premise(PremiseKind.BOUNDED, f"a stand-in zCDP component read, with a real delta "
                        f"(of the deltas {DELTAS} offered, only floats admitted); the function "
                        "run on a token and a few inputs; the running map checked at the "
                        "admitted deltas"))
    return [Theorem(_KERNEL, statement, RULE, premises)
            for statement in standard_statements(constructor, ObjectKind.MEASUREMENT)]


def _releases(taken: str, built: Any, component: Measurement,
              calls: list[tuple[int, Any, Any]]) -> None:
    """``built`` is the component's output released unchanged, in approximate DP."""
    require(RULE, type(built) is Measurement and built.input_domain == component.input_domain
            and built.input_metric == component.input_metric
            and built.output_domain == component.output_domain
            and built.output_measure == FixedSmoothedMaxDivergence(), f"{taken}: not a "
            "measurement in FixedSmoothedMaxDivergence with the component's domains and metric")
    one_body_no_randomness(RULE, [built.function], f"the function of {taken}",
                           trusted=(composition.__name__,))
    rng = Opaque("the rng", RULE)
    for x, output in token_runs(RULE, taken, built.function,
                                HARD_INPUTS[type(component.input_domain)], calls, rng):
        require(RULE, len(calls) == 1 and calls[0][1] is x and calls[0][2] is rng
                and output is component.function.token, f"{taken}: the function does not call "
                f"the component once on its input {x!r} and rng and return its output")


def _on_numbers(taken: str, built: Any, component: Measurement) -> None:
    """The running map meets the conversion's inequality at :data:`NUMBERS` and ``+inf``, at the
    component's known ``rho`` there, the bound computed in interval arithmetic."""
    context = mpmath.iv
    saved, context.prec = context.prec, 256
    try:
        for number in (*NUMBERS, math.inf):
            rho = component.map(number)
            epsilon, delta = map_values(RULE, taken, built, number, 2)
            require(RULE, all(isinstance(v, (int, float)) and not math.isnan(v)
                              for v in (epsilon, delta)) and (delta >= 1 or delta > 0 and (
                epsilon == math.inf or rho != math.inf and epsilon >= (
                    context.mpf(rho) + 2 * context.sqrt(context.mpf(rho) * context.log(
                        1 / context.mpf(delta)))).b)),
                    f"{taken}: map({number}) = {(epsilon, delta)!r} is below rho + 2 sqrt(rho "
                    f"ln(1/delta)) at the component's rho = {rho!r}")
    finally:
        context.prec = saved
