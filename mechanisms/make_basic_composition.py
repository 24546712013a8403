"""``make_basic_composition(measurements)``: run ``k >= 1`` measurements on the same input.

``function(x, rng) = (M_1(x, rng), ..., M_k(x, rng))``: each component draws its own fresh
randomness from ``rng`` in turn, so the outputs are independent given ``x`` and the output
distribution is the product ``P(y_1, ..., y_k) = prod_i P_i(y_i)``. Input domain and metric are
the components' common ones, the output domain is the product of theirs, the output measure their
common measure, which must be ``MaxDivergence`` (pure DP) or ``ZeroConcentratedDivergence``
(zCDP). Privacy map ``d_in -> sum_i M_i.map(d_in)``, summed left to right with each float addition
rounded up (``ops.add_up``), so never below the exact sum. Pure DP: the product of
``P_i(y_i) <= exp(eps_i) P'_i(y_i)`` gives ``exp(sum_i eps_i)``. zCDP: Renyi divergences of
independent products add (Bun and Steinke 2016, composition lemma).

Preconditions: every component has the first one's input domain, input metric and output
measure (``CombinatorError`` carrying the position and both values otherwise). OpenDP's
``make_basic_composition`` has the same map for these two measures (it also composes
approximate-DP measures, not supported here) and returns a list rather than a tuple.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import ProductDomain
from mechanisms.errors import CombinatorError
from mechanisms.make_partition_map import partition_bound
from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence

COMPOSABLE_MEASURES = (MaxDivergence, ZeroConcentratedDivergence)


@dataclass(frozen=True)
class CompositionFunction:
    """``(x, rng) -> (f_1(x, rng), ..., f_k(x, rng))``: the components in order, each with its
    own draws from the shared random source."""

    functions: tuple[Callable[..., Any], ...]

    def __call__(self, arg: Any, rng: Any = None) -> tuple[Any, ...]:
        return tuple(f(arg, rng) for f in self.functions)


def _first_difference(measurements: Sequence[Measurement], attribute: str) -> int | None:
    """The first position whose ``attribute`` differs from component 0's, or ``None``."""
    first = getattr(measurements[0], attribute)
    return next((i for i, m in enumerate(measurements) if getattr(m, attribute) != first), None)


def _agree_on(attribute: str) -> Callable[..., Any]:
    def holds(measurements: Sequence[Measurement]) -> Any:
        return ops.all_of(*[getattr(m, attribute) == getattr(measurements[0], attribute)
                            for m in measurements])
    holds.__doc__ = f"every component has component 0's {attribute}"
    return holds


def _mismatch(attribute: str) -> Callable[..., CombinatorError]:
    def error(measurements: Sequence[Measurement]) -> CombinatorError:
        position = _first_difference(measurements, attribute)
        return CombinatorError(f"cannot compose: component {position} has {attribute} "
                               f"{getattr(measurements[position], attribute)}, component 0 has "
                               f"{getattr(measurements[0], attribute)}", position=position,
                               first=getattr(measurements[0], attribute),
                               other=getattr(measurements[position], attribute))
    return error


COMPOSITION_PRECONDITIONS = tuple(
    Precondition(f"every measurement has the same {attribute}", _agree_on(attribute),
                 _mismatch(attribute))
    for attribute in ("input_domain", "input_metric", "output_measure"))


def validate_composition(measurements: Sequence[Measurement]) -> None:
    if not isinstance(measurements, (list, tuple)) or not measurements:
        raise CombinatorError("make_basic_composition needs a non-empty list of measurements",
                              measurements=measurements)
    for position, m in enumerate(measurements):
        if not isinstance(m, Measurement):
            raise CombinatorError(f"component {position} is {m!r}, not a Measurement",
                                  position=position)
        if not isinstance(m.output_measure, COMPOSABLE_MEASURES):
            raise CombinatorError(f"component {position} has output measure {m.output_measure}; "
                                  "only MaxDivergence and ZeroConcentratedDivergence compose here",
                                  position=position, measure=m.output_measure)


def build_basic_composition(measurements: Sequence[Measurement]) -> Measurement:
    return Measurement(
        input_domain=measurements[0].input_domain,
        output_domain=ProductDomain(tuple(m.output_domain for m in measurements)),
        input_metric=measurements[0].input_metric,
        output_measure=measurements[0].output_measure,
        function=CompositionFunction(tuple(m.function for m in measurements)),
        privacy_map=Map(rule=partition_bound, params={
            "maps": tuple(m.privacy_map for m in measurements), "combine": ops.add_up}),
    )


make_basic_composition = Constructor("make_basic_composition", build_basic_composition,
                                     COMPOSITION_PRECONDITIONS, validate_composition)
