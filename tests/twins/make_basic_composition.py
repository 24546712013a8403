"""Wrong twins of ``make_basic_composition``: one per obligation; each precondition dropped
(refuted, confirmed on real components) or all inverted (never proved); a map over the distinct
components (keyed by ``id``: refuted on a list holding one component twice); maps of other rules
than a left fold with ``combine`` (the bounded method for any rule): a right fold that drops the
last component, a right fold of ``max``, a right fold with round-to-nearest ``+``, and a rule that
takes the ``max`` on Python floats only (a second body on numbers); and, outside the proof, a
repeated draw and an overriding subclass of the composed function."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import reduce
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


def _right_fold(step: Callable[[Any, Any], Any], values: list[Any]) -> Any:
    """``step(v_1, step(v_2, ... step(v_(k-1), v_k)))``: the values folded right to left."""
    return reduce(lambda total, value: step(value, total), reversed(values[:-1]), values[-1])


def right_fold_without_last(d_in, maps):
    """Wrong: the right fold (``add_up``) of every component map but the last, as if the last
    component were free (one component: its own map)."""
    values = [m(d_in) for m in maps]
    return _right_fold(ops.add_up, values[:-1] or values)


def right_fold_max(d_in, maps):
    """Wrong: the right fold of ``max``, as if only the worst component released information."""
    return _right_fold(ops.maximum, [m(d_in) for m in maps])


def right_fold_nearest(d_in, maps):
    """Wrong: the right fold of float ``+`` (rounded to nearest), which can fall below the exact
    sum of the component maps."""
    return _right_fold(lambda a, b: a + b, [m(d_in) for m in maps])


def max_on_floats(d_in, maps):
    """Wrong: the sum (``add_up``) on solver terms, but ``max`` when the component maps are Python
    floats: a second body the solver never runs."""
    values = [m(d_in) for m in maps]
    if all(isinstance(v, float) for v in values):
        return max(values)
    return _right_fold(ops.add_up, values)


def _with_rule(rule: Callable[..., Any]) -> Callable[..., Any]:
    def build(measurements):
        return replace(build_basic_composition(measurements), privacy_map=Map(
            rule=rule, params={"maps": tuple(m.privacy_map for m in measurements)}))
    return build


RULE_TWINS = {"composition_rf_without_last": (right_fold_without_last, ("privacy", "privacy_zcdp")),
              "composition_rf_max": (right_fold_max, ("privacy", "privacy_zcdp")),
              "composition_rf_nearest": (right_fold_nearest, ("map_rounding",)),
              "composition_max_on_floats": (max_on_floats, ("map_rounding",))}
"""Maps of other rules than a left fold with ``combine``, so they go through the bounded method
for any rule: each refuted, confirmed on real components, where listed."""
for _prefix, (_rule, _) in RULE_TWINS.items():
    globals()[f"make_{_prefix}"] = make_basic_composition.variant(f"make_{_prefix}",
                                                                  _with_rule(_rule))
MECHANISMS += [Entry(f"make_{prefix}", globals()[f"make_{prefix}"],
                     composition_obligations(globals()[f"make_{prefix}"], prefix))
               for prefix in RULE_TWINS]
EXPECTED_REFUTATIONS |= {f"{prefix}.{suffix}" for prefix, (_, suffixes) in RULE_TWINS.items()
                         for suffix in suffixes}
