"""Wrong twins of ``make_basic_composition``: one per obligation; each precondition dropped
(refuted, confirmed on real components) or all inverted (never proved); a map over the distinct
components (keyed by ``id``: refuted on a list holding one component twice); and, outside the
proof, a repeated draw and an overriding subclass of the composed function."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from mechanisms import ops
from mechanisms.core import Constructor, Map
from mechanisms.errors import CombinatorError
from mechanisms.make_basic_composition import (COMPOSITION_PRECONDITIONS, CompositionFunction,
                                               _mismatch, build_basic_composition,
                                               make_basic_composition, validate_composition)
from mechanisms.make_partition_map import partition_bound
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry
from obligations.make_basic_composition import composition_obligations
from tests.twins.make_chain_tt import _differ, twin_entries


def build_composition_reversed(measurements):
    """Wrong: outputs in reverse order, against the product of the domains in order."""
    return replace(build_basic_composition(measurements), function=CompositionFunction(
        tuple(m.function for m in reversed(measurements))))


def build_composition_symmetric_in(measurements):
    """Wrong: the symmetric distance (of datasets) as the metric on atoms."""
    return replace(build_basic_composition(measurements), input_metric=SymmetricDistance())


def build_composition_max(measurements):
    """Wrong: ``max_i m_i(d_in)``, as if only one component could release information."""
    return replace(build_basic_composition(measurements), privacy_map=Map(
        rule=partition_bound, params={"maps": tuple(m.privacy_map for m in measurements),
                                      "combine": ops.maximum}))


@dataclass(frozen=True)
class Repeated:
    """``(x, rng) -> (f(x, rng),) * k``: one draw repeated, the outputs are not independent."""

    function: Callable[..., Any]
    k: int

    def __call__(self, arg: Any, rng: Any = None) -> tuple[Any, ...]:
        return (self.function(arg, rng),) * self.k


def build_composition_repeated(measurements):
    """Outside the proof: the first component's draw repeated (correct map for equal components,
    but the output distribution is not a product)."""
    return replace(build_basic_composition(measurements),
                   function=Repeated(measurements[0].function, len(measurements)))


TWINS = {"output_domain": ("composition_reversed", build_composition_reversed),
         "compatibility": ("composition_symmetric_in", build_composition_symmetric_in),
         "privacy": ("composition_max", build_composition_max),
         "privacy_zcdp": ("composition_max_zcdp", build_composition_max)}

make_composition_reversed = make_basic_composition.variant("make_composition_reversed",
    build_composition_reversed)
make_composition_symmetric_in = make_basic_composition.variant("make_composition_symmetric_in",
    build_composition_symmetric_in)
make_composition_max = make_basic_composition.variant("make_composition_max",
    build_composition_max)
make_composition_max_zcdp = make_basic_composition.variant("make_composition_max_zcdp",
    build_composition_max)
make_composition_repeated = make_basic_composition.variant("make_composition_repeated",
    build_composition_repeated)

MECHANISMS = twin_entries(globals(), composition_obligations, TWINS)
EXPECTED_REFUTATIONS = {f"{prefix}.{suffix}" for suffix, (prefix, _) in TWINS.items()}
TWIN_OF = {f"basic_composition.{suffix}": f"{prefix}.{suffix}"
           for suffix, (prefix, _) in TWINS.items()}
UNSUPPORTED = [Entry("make_composition_repeated", make_composition_repeated,
                     composition_obligations(make_composition_repeated, "composition_repeated"))]


def build_composition_by_identity(measurements):
    """Wrong: the maps of the distinct components (keyed by ``id``), as if a measurement run twice
    released nothing more."""
    distinct = {id(m): m.privacy_map for m in measurements}
    return replace(build_basic_composition(measurements), privacy_map=Map(
        rule=partition_bound, params={"maps": tuple(distinct.values()), "combine": ops.add_up}))


@dataclass(frozen=True)
class OverriddenComposition(CompositionFunction):
    """Outside the proof: overrides ``__call__`` (here harmlessly; the checker cannot tell)."""

    def __call__(self, arg: Any, rng: Any = None) -> tuple[Any, ...]:
        return tuple(f(arg, rng) for f in self.functions)


def build_composition_overridden(measurements):
    return replace(build_basic_composition(measurements),
                   function=OverriddenComposition(tuple(m.function for m in measurements)))


def _without(position: int) -> Constructor:
    kept = tuple(p for i, p in enumerate(COMPOSITION_PRECONDITIONS) if i != position)
    name = ("domain", "metric", "measure")[position]
    return Constructor(f"make_composition_{name}_unchecked", build_basic_composition, kept,
                       validate_composition)


make_composition_domain_unchecked = _without(0)
make_composition_metric_unchecked = _without(1)
make_composition_measure_unchecked = _without(2)
make_composition_inverted = Constructor(
    "make_composition_inverted", build_basic_composition,
    tuple(_differ(p.text, p.holds, lambda measurements: CombinatorError("components agree"))
          for p in COMPOSITION_PRECONDITIONS), validate_composition)
make_composition_crashing_refusal = Constructor(
    "make_composition_crashing_refusal", build_basic_composition,
    tuple(_differ(p.text, p.holds, _mismatch(attribute))
          for p, attribute in zip(COMPOSITION_PRECONDITIONS,
                                  ("input_domain", "input_metric", "output_measure"))),
    validate_composition)
"""Inverted preconditions whose refusal message cannot be formatted (no position differs): every
list is refused by a TypeError, so no witness builds; unknown (vacuous), never an error."""
make_composition_by_identity = make_basic_composition.variant("make_composition_by_identity",
                                                              build_composition_by_identity)
make_composition_overridden = make_basic_composition.variant("make_composition_overridden",
                                                             build_composition_overridden)

MORE_TWINS = {"composition_domain_unchecked": "output_domain",
              "composition_metric_unchecked": "privacy",
              "composition_measure_unchecked": "privacy",
              "composition_by_identity": "privacy"}
MECHANISMS += [Entry(f"make_{prefix}", globals()[f"make_{prefix}"],
                     composition_obligations(globals()[f"make_{prefix}"], prefix))
               for prefix in MORE_TWINS]
EXPECTED_REFUTATIONS |= {f"{prefix}.{suffix}" for prefix, suffix in MORE_TWINS.items()}
UNSUPPORTED += [Entry(f"make_{prefix}", globals()[f"make_{prefix}"],
                      composition_obligations(globals()[f"make_{prefix}"], prefix))
                for prefix in ("composition_inverted", "composition_crashing_refusal",
                               "composition_overridden")]
