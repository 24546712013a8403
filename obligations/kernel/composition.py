"""The composition rule, for every list of measurements a constructor admits.

A measurement whose function calls each of its ``k`` components once, on its own input and with
its own rng, and returns their outputs in order releases independent draws: the joint law is the
product of the components' laws. Its privacy is then basic composition: in the max divergence
and in zCDP the components' losses add; in approximate DP their epsilons and their deltas add.

Premises, read on stand-in components made here (a function that records its call and returns a
token; a map ``d -> m_i(d)``, an unknown real function of ``d >= 0`` at least 0, rounded as a
float): the constructor's one argument is the list of components; for lists of ``0 ..``
:data:`COMPONENTS` stand-ins sharing an input domain and metric (two kinds), in one measure, with
one listed twice, or with the last in another measure, the constructor either refuses or builds
a measurement with their input domain and metric, a measure that composes each component's, and
the product of their output domains, whose function, given a token input, then a few members of
the input domain, and an unusable rng, calls each component once with exactly those and returns
their tokens in order (a tuple or a list), loading no random module, and whose map Z3 proves at
least ``sum_i m_i(d)`` (per coordinate for ``(epsilon, delta)``, an eps-DP component counting
``(m_i, 0)``) for every real ``d >= 0``, floats rounded as IEEE-754 does, and at least the sum at
``d = +inf``. Lists whose components disagree on the input domain or metric, or that hold a
transformation, are refused. The theorem is *bounded* to what was read.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Iterator, Sequence

import z3

from mechanisms import float_model
from mechanisms.core import Map, Measurement, Transformation
from mechanisms.domains import AtomDomain, ProductDomain, VectorDomain
from mechanisms.measures import (FixedSmoothedMaxDivergence, MaxDivergence,
                                 ZeroConcentratedDivergence)
from mechanisms.metrics import AbsoluteDistance, DiscreteMetric, L1Distance, SymmetricDistance
from obligations.kernel.code_checks import map_one_body, one_body_no_randomness
from obligations.kernel.goals import as_real, no_branches, prove, require
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import ObjectKind, object_kind, standard_statements
from obligations.kernel.theorems import _KERNEL, Premise, PremiseKind, Theorem

RULE = "basic composition read from code"
COMPONENTS = 3
"""Lists of ``0 .. COMPONENTS`` components are read: the rule's bound."""
INPUTS = ((VectorDomain(AtomDomain(int)), SymmetricDistance()),
          (AtomDomain(int), AbsoluteDistance()))
"""The input domains and metrics the stand-ins share, one pair at a time."""
HARD_INPUTS = {VectorDomain: ([], [0], [1, -1, 7], [2] * 100), AtomDomain: (0, 1, -7, 10 ** 20)}
"""Inputs the function also runs on, beside an opaque token, by the kind of input domain."""
DISAGREEING = {VectorDomain: (VectorDomain(AtomDomain(int, bounds=(0, 1))), L1Distance()),
               AtomDomain: (AtomDomain(int, bounds=(0, 1)), DiscreteMetric())}
"""By the kind of input domain: the other domain, and the other metric, a disagreeing stand-in
has instead (one at a time: a constructor that compares only the domains is refused)."""
CITES = {
    MaxDivergence: "Dwork and Roth 2014, Theorem 3.14: the composition of eps_i-DP mechanisms "
                   "is (sum eps_i)-DP",
    ZeroConcentratedDivergence: "Bun and Steinke 2016, Lemma 2.3: the composition of rho_i-zCDP "
                                "mechanisms is (sum rho_i)-zCDP",
    FixedSmoothedMaxDivergence: "Dwork and Roth 2014, Theorem 3.16: the composition of "
                                "(eps_i, delta_i)-DP mechanisms is (sum eps_i, sum delta_i)-DP",
}
MEASURES = (MaxDivergence(), ZeroConcentratedDivergence(), FixedSmoothedMaxDivergence())
CONVERTS = {MaxDivergence: (MaxDivergence,),
            ZeroConcentratedDivergence: (ZeroConcentratedDivergence,),
            FixedSmoothedMaxDivergence: (FixedSmoothedMaxDivergence, MaxDivergence)}
"""The components' measures each output measure composes: an eps-DP component is (eps, 0)-DP."""
PURE_AS_APPROX = ("Dwork and Roth 2014, Definition 2.4: an eps-DP mechanism is (eps, 0)-DP")
AT_INFINITY = (math.inf, 0.25)
"""A stand-in's ``(epsilon, delta)`` at ``d = +inf`` (its epsilon alone in the other measures)."""


class Opaque:
    """A token: the input a composition is given, or what a stand-in returns. Nothing can be read
    from it; a function can only pass it on."""

    def __init__(self, name: str, rule: str = RULE) -> None:
        self.name, self.rule = name, rule

    def __repr__(self) -> str:
        return self.name

    def _read(self, *_: Any) -> Any:
        raise RuleRefused(self.rule, f"the function reads {self.name}")

    __bool__ = __len__ = __iter__ = __getitem__ = __hash__ = __int__ = __float__ = _read
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __contains__ = __getattr__ = _read


class Recorder:
    """A stand-in component's function: records ``(index, input, rng)`` and returns its token."""

    def __init__(self, index: int, calls: list[tuple[int, Any, Any]], token: Opaque) -> None:
        self.index, self.calls, self.token = index, calls, token

    def __call__(self, x: Any, rng: Any = None) -> Opaque:
        self.calls.append((self.index, x, rng))
        return self.token


def stand_in_map(d_in: Any, index: int, approx: bool) -> Any:
    """``m_i(d_in)`` (a pair ``(epsilon, delta)`` for approximate DP): on a solver term, an
    unknown real rounded as a float; on a finite number, the known ``(index + 2) d_in + index``
    (``delta`` 0.25), against which running code is checked; at ``+inf``, :data:`AT_INFINITY`."""
    if isinstance(d_in, (int, float, Fraction)):
        if d_in == math.inf:
            return AT_INFINITY if approx else AT_INFINITY[0]
        value = float((index + 2) * d_in + index)
        return (value, AT_INFINITY[1]) if approx else value
    values = [float_model.as_float(part(name, index, d_in)) for name in map_names(approx)]
    return tuple(values) if approx else values[0]


def map_names(approx: bool) -> tuple[str, ...]:
    return ("eps", "delta") if approx else ("m",)


def part(name: str, index: int, d: Any) -> Any:
    """Stand-in ``index``'s ``name`` (``m``, ``eps`` or ``delta``) at ``d``: an unknown real."""
    return z3.Function(f"{name}{index}", z3.RealSort(), z3.RealSort())(d)


def _stand_ins(measures: Sequence[Any], inputs: Sequence[tuple[Any, Any]],
               calls: list[tuple[int, Any, Any]], first: int = 0) -> list[Measurement]:
    """A stand-in component in each of ``measures``, numbered from ``first``; ``inputs[i]`` (the
    last for the rest) their input domain and metric."""
    return [Measurement(input_domain=inputs[min(i, len(inputs) - 1)][0],
                        output_domain=AtomDomain(int, bounds=(first + i, first + i)),
                        input_metric=inputs[min(i, len(inputs) - 1)][1], output_measure=measure,
                        function=Recorder(first + i, calls, Opaque(f"output{first + i}")),
                        privacy_map=Map(rule=stand_in_map, params={
                            "index": first + i,
                            "approx": type(measure) is FixedSmoothedMaxDivergence}))
            for i, measure in enumerate(measures)]


def _lists(k: int, measure: Any, inputs: tuple[Any, Any], calls: list[tuple[int, Any, Any]]
           ) -> list[list[Measurement]]:
    """The lists of ``k`` stand-ins read: all in ``measure``; the first listed again last; the
    last in each other measure."""
    distinct = _stand_ins([measure] * k, [inputs], calls)
    if k < 2:
        return [distinct]
    return [distinct, [*distinct[:-1], distinct[0]],
            *([*distinct[:-1], *_stand_ins([other], [inputs], calls, k)]
              for other in [*MEASURES, _OtherMeasure()] if type(other) is not type(measure))]


def _transformation() -> Transformation:
    """A stand-in transformation, which a list of measurements must not hold."""
    domain, metric = INPUTS[0]
    return Transformation(input_domain=domain, output_domain=domain, input_metric=metric,
                          output_metric=metric, function=lambda x: x,
                          stability_map=Map(constant=lambda: 1))


def _disagreeing(inputs: tuple[Any, Any]) -> list[tuple[Any, Any]]:
    """``inputs`` with its domain replaced, then with its metric replaced (:data:`DISAGREEING`)."""
    domain, metric = inputs
    other_domain, other_metric = DISAGREEING[type(domain)]
    return [(other_domain, metric), (domain, other_metric)]


def _given(measure: Any) -> list[Any]:
    """One stand-in in ``measure``, given in a list and alone."""
    stand_in = _stand_ins([measure], INPUTS[:1], [])
    return [stand_in, stand_in[0]]


def takes_components(constructor: Any) -> bool:
    """``constructor`` has one argument and declares no sorts: the shape this rule reads."""
    return len(constructor.signature.parameters) == 1 and not constructor.signatures


def built_kind(constructor: Any) -> ObjectKind | None:
    """The kind of object ``constructor``, of one argument, builds from one stand-in component
    in each measure, when all it admits are of one kind; else None."""
    if not takes_components(constructor):
        return None
    name = next(iter(constructor.signature.parameters))
    kinds = {object_kind(built) for measure in MEASURES for given in _given(measure)
             if (built := built_or_none(constructor, **{name: given})) is not None}
    return kinds.pop() if len(kinds) == 1 else None


class _OtherMeasure:
    """A measure the rule does not know."""


def token_runs(rule: str, taken: str, function: Any, inputs: Sequence[Any],
               calls: list[tuple[int, Any, Any]], rng: Any = None) -> Iterator[tuple[Any, Any]]:
    """``(x, output)`` for ``function`` run on a token and on each of ``inputs`` (given ``rng``
    too, unless it is None), ``calls`` cleared before each run; a raise refuses (for ``rule``)."""
    for x in [Opaque("the input", rule), *inputs]:
        calls.clear()
        try:
            output = function(x) if rng is None else function(x, rng)
        except Exception as error:  # noqa: BLE001 - a read of a token, or the function's own
            raise RuleRefused(rule, f"{taken}: the function raises on {x!r} "
                              f"({type(error).__name__}: {error})") from None
        yield x, output


def built_or_none(constructor: Any, *args: Any, **kwargs: Any) -> Any:
    """The constructor on these arguments, or None when it refuses them."""
    try:
        return constructor(*args, **kwargs)
    except Exception:  # noqa: BLE001 - refused: no statement about it
        return None


def at_least(value: Any, wanted: Any) -> bool:
    """``value`` is a number (not NaN) at least ``wanted``, exactly compared."""
    return isinstance(value, (int, float, Fraction)) and not math.isnan(value) and (
        value == math.inf or (wanted != math.inf and Fraction(value) >= Fraction(wanted)))


def composition_for_every_argument(constructor: Any) -> list[Theorem]:
    """Every standard statement of the measurements ``constructor`` builds from a list of
    measurements; raises :class:`RuleRefused` naming the first premise that fails."""
    require(RULE, takes_components(constructor), f"{constructor.name} does not take one argument, "
            "a list of measurements")
    name, admitted, cited = next(iter(constructor.signature.parameters)), 0, []
    for measure in [*MEASURES, _OtherMeasure()]:
        for k in range(COMPONENTS + 1):
            for inputs in INPUTS:
                calls: list[tuple[int, Any, Any]] = []
                for components in _lists(k, measure, inputs, calls):
                    for given in [components, *components[:k == 1]]:  # one alone, too
                        built = built_or_none(constructor, **{name: given})
                        if built is None:
                            continue
                        calls.clear()
                        cited += _composes(constructor.name, built, components, inputs, calls,
                                           alone=given is not components)
                        admitted += 1
                for other in _disagreeing(inputs) if k >= 2 else ():
                    require(RULE, built_or_none(constructor, **{name: _stand_ins(
                        [measure] * k, [*[inputs] * (k - 1), other], [])}) is None,
                        f"{constructor.name} admits {k} components whose input "
                        f"{'domains' if other[1] == inputs[1] else 'metrics'} differ")
    require(RULE, admitted > 0, f"{constructor.name} admits no list of stand-in components")
    require(RULE, built_or_none(constructor, **{name: [_transformation()]}) is None
            and built_or_none(constructor, **{name: _transformation()}) is None,
            f"{constructor.name} admits a transformation as a component")
    premises = [*(Premise(PremiseKind.CITES, c) for c in dict.fromkeys(cited)),
                Premise(PremiseKind.BOUNDED, f"lists of at most {COMPONENTS} stand-in components "
                        "read (or one alone), on two input domains, each map given by a rule, "
                        "the function run on a token and a few inputs; lists disagreeing in one "
                        "other input domain or one other metric refused")]
    return [Theorem(_KERNEL, statement, RULE, tuple(premises))
            for statement in standard_statements(constructor, ObjectKind.MEASUREMENT)]


def _composes(subject: str, built: Any, components: Sequence[Measurement],
              inputs: tuple[Any, Any], calls: list[tuple[int, Any, Any]],
              alone: bool = False) -> list[str]:
    """The premises on one built composition of ``components`` (the same one may be listed
    twice: two runs of it, with their own draws), or of the one component given ``alone`` (not
    in a list: its output released as it is); returns what the theorem cites."""
    indices = [c.function.index for c in components]
    measures = [type(c.output_measure) for c in components]
    taken = f"{subject} on the stand-in components {indices} in " \
            f"{', '.join(m.__name__ for m in dict.fromkeys(measures)) or 'no measure'}"
    require(RULE, type(built) is Measurement and (built.input_domain, built.input_metric)
            == inputs, f"{taken}: the input domain or metric is not the components'")
    target = type(built.output_measure)
    require(RULE, target in CITES and all(m in CONVERTS[target] for m in measures)
            and built.output_measure == target(), f"{taken}: the components are not all in "
            f"a measure that {built.output_measure} composes")
    require(RULE, built.output_domain == (components[0].output_domain if alone else ProductDomain(
        tuple(c.output_domain for c in components))), f"{taken}: the output domain is not "
        f"{'the component' if alone else 'the product of the components'}'s")
    one_body_no_randomness(RULE, [built.function], f"the function of {taken}",
                           trusted=(__name__,))
    rng = Opaque("the rng")
    for x, output in token_runs(RULE, taken, built.function, HARD_INPUTS[type(inputs[0])], calls,
                                rng):
        require(RULE, sorted(i for i, _, _ in calls) == sorted(indices)
                and all(got is x and given is rng for _, got, given in calls),
                f"{taken}: the function does not call each component once on its input "
                f"{x!r} and rng")
        require(RULE, output is components[0].function.token if alone else (
            isinstance(output, (tuple, list)) and len(output) == len(components)
            and all(o is c.function.token for o, c in zip(output, components))),
                f"{taken}: the function does not return the components' outputs in order "
                f"on {x!r}")
    _map_goals(taken, built, components, target is FixedSmoothedMaxDivergence)
    return [CITES[target], *([PURE_AS_APPROX] if target is not MaxDivergence
                             and MaxDivergence in measures else [])]


def _map_goals(taken: str, built: Any, components: Sequence[Measurement], approx: bool) -> None:
    """``map(d) >= sum_i m_i(d)`` for every real ``d >= 0`` (per coordinate for approximate DP,
    an eps-DP component counting ``(m_i, 0)``), and at ``d = +inf``."""
    d = z3.Real("d_in")
    names = map_names(approx)
    owned = [(map_names(type(c.output_measure) is FixedSmoothedMaxDivergence), c.function.index)
             for c in components]
    parts = [[part(own[j], i, d) if j < len(own) else z3.RealVal(0) for own, i in owned]
             for j in range(len(names))]
    with float_model.rounding_model() as model:
        values = map_values(RULE, taken, built, d, len(names))
    prove(RULE, f"{taken}: map(d_in) >= the sum of the components' maps, for every real "
          "d_in >= 0", lambda: z3.And(*[as_real(float_model.plain(v)) >= z3.Sum(z3.RealVal(0), *p)
                                         for v, p in zip(values, parts)]),
          [d >= 0, *(part(n, i, d) >= 0 for own, i in owned for n in own), *model.facts])
    at_infinity = map_values(RULE, taken, built, math.inf, len(names))
    wanted = [sum((Fraction(AT_INFINITY[j]) if AT_INFINITY[j] != math.inf else math.inf
                   for own, _ in owned if j < len(own)), Fraction(0)) for j in range(len(names))]
    require(RULE, all(at_least(v, w) for v, w in zip(at_infinity, wanted)),
            f"{taken}: map(+inf) = {at_infinity} is below the sum of the components' {wanted}")


def map_values(rule: str, taken: str, built: Any, d_in: Any, count: int) -> list[Any]:
    """``built.map(d_in)`` as a list of ``count`` numbers or terms; ``rule`` refuses otherwise (a
    map that tests for solver terms too)."""
    map_one_body(rule, taken, built)
    try:
        with no_branches():
            value = built.map(d_in)
    except Exception as error:  # noqa: BLE001 - the map, on a term or a number
        raise RuleRefused(rule, f"{taken}: map({d_in}) raises ({type(error).__name__}: "
                          f"{error})") from None
    values = list(value) if count > 1 and isinstance(value, (tuple, list)) else [value]
    require(rule, len(values) == count, f"{taken}: map({d_in}) = {value!r} is not {count} "
            "number(s)")
    return values
