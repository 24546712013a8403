"""The chain rule, for every pair of components a constructor admits.

``outer ∘ inner`` runs a transformation ``inner``, then ``outer``, a transformation or a
measurement whose input domain and metric are ``inner``'s output domain and metric. If
``d(x, x') <= d``, ``inner``'s outputs are ``s(d)``-close (its stability), so ``outer``'s guarantee
at ``s(d)`` bounds the chain's distance or divergence by ``m(s(d))``; the chain returns ``outer``'s
outputs, and raises only where ``outer`` raises on ``inner``'s output, which ``outer``'s own
statement makes data-independent (OpenDP's ``make_chain_tt`` and ``make_chain_mt``).

Premises, read on stand-ins (:mod:`.composition`'s: a function that records its call and returns a
token; a map that is an unknown real function of ``d`` on solver terms and a known affine one on
numbers): the constructor takes two arguments; given a stand-in transformation ``A`` from ``D0``
to ``D1`` and a stand-in ``B`` from ``D1`` (a transformation to ``D2``, or a measurement in each
measure), in either order, and one transformation from ``D0`` to ``D0`` given twice, it either
refuses or builds an object of ``B``'s kind with ``A``'s input domain and metric and ``B``'s output
domain and metric or measure, whose function, run on a token and on a few inputs (with an unusable
rng), calls ``A`` once on exactly that input and no rng, then ``B`` once on ``A``'s token (and the
rng), returns ``B``'s token and loads no random module; and whose map Z3 proves at least
``m_B(m_A(d))`` for every real ``d >= 0`` (floats rounded as IEEE-754 does), and which returns at
least that at :data:`NUMBERS` and ``+inf``, each pair built after the others. A pair whose meeting
domains or metrics differ, whose first component is a measurement, or that holds something else
(a function, a number), is refused; every pair admitted builds one kind of object. The theorem
is *bounded* to what was read.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Iterator

import z3

from mechanisms import float_model
from mechanisms.core import Map, Measurement, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.measures import FixedSmoothedMaxDivergence, MaxDivergence
from mechanisms.metrics import AbsoluteDistance, DiscreteMetric, SymmetricDistance
from obligations.kernel import composition
from obligations.kernel.code_checks import one_body_no_randomness
from obligations.kernel.composition import (HARD_INPUTS, MEASURES, Opaque, Recorder, at_least,
                                            built_or_none, map_values, stand_in_map, token_runs)
from obligations.kernel.goals import as_real, prove, require
from obligations.kernel.statements import ObjectKind, object_kind, standard_statements
from obligations.kernel.theorems import _KERNEL, Premise, PremiseKind, Theorem

RULE = "chain read from code"
D0 = (VectorDomain(AtomDomain(int)), SymmetricDistance())
D1 = (AtomDomain(int), AbsoluteDistance())
D2 = (AtomDomain(str), DiscreteMetric())
"""The domains and metrics the stand-ins go through, each pair distinct in both: ``A`` from ``D0``
to ``D1``, ``B`` from ``D1`` to ``D2``."""
MISMATCHED = ((AtomDomain(int, bounds=(0, 1)), AbsoluteDistance()),
              (AtomDomain(int), DiscreteMetric()))
"""Where an ``A`` that does not meet ``B`` ends instead of ``D1``: another domain, another
metric."""
NUMBERS = (0, 1, 2.5, 7)
"""The finite ``d`` at which the map is also run on numbers."""


class _Step(Recorder):
    """A stand-in transformation's function: it takes its input alone."""

    def __call__(self, x: Any) -> Opaque:  # type: ignore[override]
        return super().__call__(x)


class _StandIns:
    """Stand-in components, numbered in the order they are made, recording their calls in
    ``calls``."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, Any, Any]] = []
        self.numbers = itertools.count()

    def transformation(self, source: tuple[Any, Any], target: tuple[Any, Any]) -> Transformation:
        index = next(self.numbers)
        return Transformation(source[0], target[0], source[1], target[1],
                              _Step(index, self.calls, Opaque(f"output{index}", RULE)),
                              Map(rule=stand_in_map, params={"index": index, "approx": False}))

    def measurement(self, source: tuple[Any, Any], measure: Any,
                    output_domain: Any = D2[0]) -> Measurement:
        index = next(self.numbers)
        return Measurement(source[0], output_domain, source[1], measure,
                           Recorder(index, self.calls, Opaque(f"output{index}", RULE)),
                           Map(rule=stand_in_map, params={
                               "index": index,
                               "approx": type(measure) is FixedSmoothedMaxDivergence}))

    def seconds(self) -> Iterator[Any]:
        """A ``B`` from ``D1``: a transformation to ``D2``, a measurement in each measure and in
        one the rule does not know."""
        yield self.transformation(D1, D2)
        for measure in [*MEASURES, composition._OtherMeasure()]:
            yield self.measurement(D1, measure)


def takes_pair(constructor: Any) -> bool:
    """``constructor`` has two arguments and declares no sorts: the shape this rule reads."""
    return len(constructor.signature.parameters) == 2 and not constructor.signatures


def _admitted(constructor: Any, stand_ins: _StandIns) -> Iterator[tuple[Any, Any, Any]]:
    """``(first, second, built)`` for each meeting pair of stand-ins ``constructor`` admits, in
    either order, and for one transformation from ``D0`` to ``D0`` given twice."""
    for second in stand_ins.seconds():
        first = stand_ins.transformation(D0, D1)
        for pair in ((second, first), (first, second)):
            if (built := built_or_none(constructor, *pair)) is not None:
                yield first, second, built
    alone = stand_ins.transformation(D0, D0)
    if (built := built_or_none(constructor, alone, alone)) is not None:
        yield alone, alone, built


def chained_kind(constructor: Any) -> ObjectKind | None:
    """The kind of object ``constructor``, of two arguments, builds from stand-in pairs, when all
    it admits are of one kind; else None."""
    if not takes_pair(constructor):
        return None
    kinds = {object_kind(built) for _, _, built in _admitted(constructor, _StandIns())}
    return kinds.pop() if len(kinds) == 1 else None


def chain_for_every_argument(constructor: Any) -> list[Theorem]:
    """Every standard statement of the objects ``constructor`` chains from two components;
    raises :class:`~obligations.kernel.rules.RuleRefused` naming the first premise that fails."""
    require(RULE, takes_pair(constructor), f"{constructor.name} does not take two arguments, "
            "the components of a chain")
    stand_ins, kinds = _StandIns(), set()
    for first, second, built in _admitted(constructor, stand_ins):
        _chains(constructor.name, built, first, second, stand_ins.calls)
        kinds.add(object_kind(built))
    require(RULE, bool(kinds), f"{constructor.name} admits no pair of stand-in components")
    require(RULE, len(kinds) == 1, f"{constructor.name} builds both transformations and "
            "measurements from pairs of stand-in components")
    for second in stand_ins.seconds():
        for meeting in MISMATCHED:
            first = stand_ins.transformation(D0, meeting)
            require(RULE, built_or_none(constructor, second, first) is None
                    and built_or_none(constructor, first, second) is None,
                    f"{constructor.name} admits a chain whose meeting domains or metrics differ "
                    f"({meeting[0]}, {meeting[1]} into {D1[0]}, {D1[1]})")
        require(RULE, all(built_or_none(constructor, *pair) is None for pair in (
            (second, second.function), (second.function, second), (1, 1))),
            f"{constructor.name} admits an argument that is not a transformation or measurement")
        first = stand_ins.measurement(D0, MaxDivergence(), output_domain=D1[0])
        require(RULE, built_or_none(constructor, second, first) is None
                and built_or_none(constructor, first, second) is None,
                f"{constructor.name} admits a measurement as the first component of a chain")
    premises = (Premise(PremiseKind.BOUNDED, "pairs of stand-in components read (a transformation "
                        "then a transformation or a measurement in each measure, in either order, "
                        "and one transformation twice), each map given by a rule, the function "
                        "run on a token and a few inputs; chains meeting in one other domain or "
                        "one other metric refused"),)
    return [Theorem(_KERNEL, statement, RULE, premises)
            for statement in standard_statements(constructor, kinds.pop())]


def _chains(subject: str, built: Any, first: Any, second: Any,
            calls: list[tuple[int, Any, Any]]) -> None:
    """The premises on one object ``built`` from the stand-ins ``first`` then ``second``."""
    measurement = isinstance(second, Measurement)
    taken = f"{subject} on the stand-in {first.function.index} then {second.function.index}"
    require(RULE, type(built) is type(second) and built.input_domain == first.input_domain
            and built.input_metric == first.input_metric
            and built.output_domain == second.output_domain
            and (built.output_measure == second.output_measure if measurement
                 else built.output_metric == second.output_metric),
            f"{taken}: not a {type(second).__name__} from the first component's input domain and "
            f"metric to the second's output domain and {'measure' if measurement else 'metric'}")
    one_body_no_randomness(RULE, [built.function], f"the function of {taken}",
                           trusted=(__name__, composition.__name__))
    rng = Opaque("the rng", RULE)
    for x, output in token_runs(RULE, taken, built.function, HARD_INPUTS[VectorDomain], calls,
                                rng if measurement else None):
        wanted = [(first.function.index, x, None),
                  (second.function.index, first.function.token, rng if measurement else None)]
        require(RULE, len(calls) == 2 and output is second.function.token
                and all(i == j and got is want and r is s
                        for (i, got, r), (j, want, s) in zip(calls, wanted)),
                f"{taken}: the function does not call the first component on its input {x!r}, "
                f"then the second on that output{' and the rng' if measurement else ''}, and "
                "return the second's output")
    count = 2 if measurement and type(second.output_measure) is FixedSmoothedMaxDivergence else 1
    d = z3.Real("d_in")
    with float_model.rounding_model() as model:
        values = map_values(RULE, taken, built, d, count)
        wanted = _listed(second.map(first.map(d)), count)
    prove(RULE, f"{taken}: map(d_in) >= the second component's map at the first's, for every "
          "real d_in >= 0", lambda: z3.And(*[
              as_real(float_model.plain(v)) >= as_real(float_model.plain(w))
              for v, w in zip(values, wanted)]), [d >= 0, *model.facts])
    for number in (*NUMBERS, math.inf):
        values = map_values(RULE, taken, built, number, count)
        wanted = _listed(second.map(first.map(number)), count)
        require(RULE, all(at_least(v, w) for v, w in zip(values, wanted)),
                f"{taken}: map({number}) = {values} is below the second component's map at the "
                f"first's, {wanted}")


def _listed(value: Any, count: int) -> list[Any]:
    return list(value) if count > 1 else [value]

