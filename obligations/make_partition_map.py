"""Obligations of ``make_partition_map``, by assume-guarantee over arbitrary components.

Each component ``t_i`` is assumed to meet its own guarantee: inputs at distance ``d_i`` give
outputs at distance ``o_i <= t_i.map(d_i)``. The partition map's ``map(d_in)`` is a left fold of
the component maps with ``combine`` (``ops.fold``); the stability proof is an induction on the
number of partitions ``k``, with Z3 discharging the base case, the fold's recurrence on the
constructor's own map, and the step adding one partition, for any ``k``.

Stand-in components carry symbolic maps: ``c_i * d`` with a Z3 real ``c_i >= 0`` (linear), or an
uninterpreted function ``f_i`` (any map). Component lists are taken as given, one component
repeated included (``[a, a]``, ``[a, b, a]``), so code that keys components by identity is seen.
The function is ``PartitionFunction``'s own code holding the components' functions in order.
"""

from __future__ import annotations

import random
from itertools import product
from typing import Any, Callable, Iterator

import z3

from mechanisms.core import Constructor, Map, RowTransform, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_partition_map import PartitionFunction, make_partition_map, partition_bound
from mechanisms.make_sized_bounded_float_checked_sum import make_sized_bounded_float_checked_sum
from mechanisms.metrics import ProductMetric, SymmetricDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example)
from obligations.compatibility import compatibility_goal
from obligations.kernels import trusted_kernel_goal
from obligations.rounding import combine_rounding_obligation, random_float, replay_combined
from obligations.reports import (Code, constructor_report, import_line, literal, member_assertion,
                                 plain_report, reproducer)
from obligations.symbols import natural
from obligations.witnesses import excluded_goals, make_count_capped, make_count_scaled, witness_goal
from obligations.kernel.reviewed import reviewed
from obligations.stand_ins import applied, shifted

MAX_PARTITIONS_CHECKED = 4
LINEAR_MAP_LEMMA = "arith.linear_map_up"


def _float_sum_components(rng: random.Random) -> list[tuple[str, Transformation]]:
    """Two to five float sums of seeded sizes and bounds (their maps are not linear), each with
    its call."""
    def one() -> tuple[str, Transformation]:
        lower = -random_float(rng)
        arguments = (rng.randint(1, 50), lower, lower + random_float(rng))
        return (f"make_sized_bounded_float_checked_sum{literal(arguments)}",
                make_sized_bounded_float_checked_sum(*arguments))
    return [one() for _ in range(rng.randint(2, 5))]


def _value(value: Any) -> Any:
    return value


def stand_in(index: int, linear: bool) -> Transformation:
    """Component ``i``: adds ``100 (i + 1)`` to every entry of ``[0, 99]``, so each component's
    outputs are its own; its map is symbolic, ``c_i * d_in`` (linear) or ``f_i(d_in)`` (any)."""
    offset = 100 * (index + 1)
    stability_map = (Map(constant=_value, params={"value": z3.Real(f"c{index}")}) if linear
                     else Map(rule=applied, params={"f": z3.Function(f"f{index}", z3.RealSort(),
                                                                      z3.RealSort())}))
    return Transformation(VectorDomain(AtomDomain(int, bounds=(0, 99))),
                          VectorDomain(AtomDomain(int, bounds=(offset, offset + 99))),
                          SymmetricDistance(), SymmetricDistance(),
                          RowTransform(shifted, {"offset": offset}), stability_map)


REPEATS = ((0, 0), (0, 1, 0))
"""Lists holding one stand-in twice, by index."""


def _routing(constructor: Constructor, lists: list[list[Transformation]]) -> Decision:
    """The function holds the components' functions in order, repeats included: partition ``i``
    goes through ``t_i``."""
    for components in lists:
        function = constructor.build(transformations=components).function
        if getattr(function, "functions", None) != tuple(t.function for t in components):
            return Decision(False, {"k": len(components)}, "the function does not hold the "
                            "components' functions in order", unsupported=True)
    return Decision(True, detail=f"t_i's function on partition i, {len(lists)} lists")


def _combine_of(constructor: Constructor, pattern: tuple[bool, ...]) -> Callable[[Any, Any], Any] | None:
    built = constructor.build(transformations=[stand_in(i, linear) for i, linear in enumerate(pattern)])
    if built.stability_map.rule is not partition_bound:
        return None
    return built.stability_map.params["combine"]


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as an ordered sum of ``parts`` non-negative integers."""
    return (c for c in product(range(total + 1), repeat=parts) if sum(c) == total)


COUNT_IMPORTS = ("from obligations.witnesses import make_count_capped, make_count_scaled",)


def _shown_list(names: list[str]) -> Code:
    """A list of components as a report writes it: a call named more than once is one object
    (as the replay builds it), assigned to a letter the reproducer defines first."""
    repeated = [name for name in dict.fromkeys(names) if names.count(name) > 1]
    letters = {name: "abcd"[i] for i, name in enumerate(repeated)}
    return Code("[" + ", ".join(letters.get(name, name) for name in names) + "]", *COUNT_IMPORTS,
                *[f"{letter} = {name}" for name, letter in letters.items()])


def _replay_with_counts(constructor: Constructor) -> Callable[[dict], Replay]:
    """Search real partition maps over counting components (linear and capped; a family named
    twice is one object twice) for a d_in-close pair that breaks the claimed map: partition i
    gets ``[]`` versus ``[0] * d_i`` with ``sum d_i = d_in``."""
    families = [("make_count_capped(1)", lambda: make_count_capped(1)),
                ("make_count_capped(2)", lambda: make_count_capped(2)),
                ("make_count_scaled(1)", lambda: make_count_scaled(1)),
                ("make_count_scaled(3)", lambda: make_count_scaled(3))]

    def replay(_: dict) -> Replay:
        for k in (2, 3):
            for names in product(families, repeat=k):
                made: dict[str, Transformation] = {}
                components = [made.setdefault(name, make()) for name, make in names]
                partition_map = constructor(components)
                for d_in in range(1, 5):
                    for split in _compositions(d_in, k):
                        v = tuple([] for _ in split)
                        w = tuple([0] * d for d in split)
                        observed = partition_map.output_metric.distance(partition_map(v), partition_map(w))
                        claimed = partition_map.map(d_in)
                        if observed > claimed:
                            return constructor_report(
                                constructor,
                                {"transformations": _shown_list([n for n, _ in names])},
                                v, w, d_in, claimed, observed, True)
        return plain_report(False, "no violation among partition maps of counting components")
    return replay


def _misrouted(built: Transformation, components: list[Transformation]) -> str | None:
    """Why the partition map does not send partition ``i`` through ``t_i`` into the product of
    the output domains, or ``None``."""
    data = tuple([i] for i in range(len(components)))
    if not built.input_domain.member(data):
        return f"{data!r} is not in {built.input_domain}"
    output = built.function(data)
    expected = tuple(t.function(part) for t, part in zip(components, data))
    if output != expected:
        return f"partition outputs {output!r} are not the components' outputs {expected!r}"
    if not built.output_domain.member(output):
        return f"{output!r} is not in {built.output_domain}"
    return None


def _replay_routing(constructor: Constructor) -> Callable[[dict], Replay]:
    """Counting components with different output domains: a clamp and a count."""
    def replay(_: dict) -> Replay:
        from mechanisms.make_clamp import make_clamp
        built = constructor([make_clamp(0.0, 1.0), make_count_scaled(2)])
        data = ([0.5, 7.0], [1, 2, 3])
        output = built(data)
        confirmed = not built.output_domain.member(output)
        call = f"{constructor.name}([make_clamp(0.0, 1.0), make_count_scaled(2)])"
        return plain_report(confirmed, call, f"input {data!r}", f"output {output!r}",
                            f"in the output domain {built.output_domain}: {not confirmed}",
                            *reproducer(import_line(constructor), *COUNT_IMPORTS,
                                        "from mechanisms.make_clamp import make_clamp",
                                        f"t = {call}", f"output = t({data!r})",
                                        member_assertion("t")))
    return replay


@reviewed
def partition_map_obligations(constructor: Constructor = make_partition_map,
                              prefix: str = "partition_map") -> tuple[Obligation, ...]:
    replay = _replay_with_counts(constructor)
    witnesses = {"transformations": [make_count_capped(1), make_count_scaled(2)]}
    shown = {"transformations": Code("[make_count_capped(1), make_count_scaled(2)]",
                                     *COUNT_IMPORTS)}
    aliased = {"transformations": [make_count_capped(2)] * 2}
    aliased_shown = {"transformations": Code("[make_count_capped(2)] * 2", *COUNT_IMPORTS)}
    builds = witness_goal(constructor, witnesses, shown)
    not_lists = excluded_goals(constructor, [
        ({"transformations": []}, "no components"),
        ({"transformations": {"first": make_count_capped(1)}},
         "a dict of components (not a list or tuple)",
         {"transformations": Code('{"first": make_count_capped(1)}', *COUNT_IMPORTS)})],
        inputs=[(), ([],), ([1, 2],)])
    kernel = trusted_kernel_goal(
        "the partition map's function",
        lambda: constructor.build(transformations=[stand_in(0, True), stand_in(1, False)]).function,
        PartitionFunction)

    def fold_goals(linear: bool) -> list[Any]:
        """Base case and recurrence of the map as a left fold, on the constructor's own map, for
        ``k = 2, 3`` distinct components and for lists holding one twice."""
        d_in, d_in_natural = natural("d_in")
        pool = [stand_in(i, linear) for i in range(3)]
        kind = "linear" if linear else "any"
        combine = _combine_of(constructor, (linear,) * 3)
        one = constructor.build(transformations=pool[:1])
        goals = [Z3Goal(f"base ({kind} maps): one partition's map is its component's",
                        one.map(d_in) == pool[0].map(d_in), d_in_natural, {"d_in": d_in}, replay)]
        for pattern in ((0, 1), (0, 1, 2), *REPEATS):
            components = [pool[i] for i in pattern]
            longer = constructor.build(transformations=components)
            shorter = constructor.build(transformations=components[:-1])
            goals.append(Z3Goal(
                f"recurrence ({kind} maps, components {list(pattern)}): "
                "map_k = combine(map_(k-1), t_k.map)",
                longer.map(d_in) == combine(shorter.map(d_in), components[-1].map(d_in)),
                d_in_natural, {"d_in": d_in}, replay))
        return goals

    def stability_goals() -> list[Any]:
        def is_fold() -> Decision:
            patterns = [(True,), (True, True), (False,), (True, False), (False, True), (False, False)]
            missing = [p for p in patterns if _combine_of(constructor, p) is None]
            if missing:
                return Decision(False, {"pattern": missing[0]},
                                "the map is not partition_bound(d_in, maps, combine)",
                                unsupported=True)
            built = constructor.build(transformations=[stand_in(0, True), stand_in(1, False)])
            if not (isinstance(built.input_metric, ProductMetric)
                    and isinstance(built.output_metric, ProductMetric)):
                return Decision(False, {"metrics": f"{built.input_metric} -> {built.output_metric}"},
                                "the proof is for product metrics (sums over partitions)",
                                unsupported=True)
            general = {_combine_of(constructor, p) for p in patterns[2:]}
            if len(general) != 1:
                return Decision(False, {"combiners": sorted(map(str, general))},
                                "components with non-linear maps are not all combined alike")
            return Decision(True, detail="map = fold(combine, [t_i.map(d_in)])")

        routing = ComputedGoal("partition i goes through t_i, repeated components included",
                               "structure", lambda: _routing(constructor, stand_ins()), replay)
        goals: list[Any] = [kernel, builds, routing,
                            ComputedGoal("the map folds the component maps with one combine "
                                         "per kind of components", "structure", is_fold, replay)]
        if not is_fold().proved:
            return goals
        linear_combine = _combine_of(constructor, (True, True))
        any_combine = _combine_of(constructor, (True, False))
        s, m, dist, a, o, d, c, d_in, f = z3.Reals("S M D A o d c d_in F")
        names = {"S": s, "M": m, "D": dist, "A": a, "o": o, "d": d, "c": c, "d_in": d_in, "F": f}
        grown = linear_combine(m, c)
        goals += fold_goals(linear=True)
        goals += [
            Z3Goal("linear maps, step: adding a partition with o <= c d (exact product) and its "
                   "computed map F >= c d_in keeps S <= M D and A >= M d_in "
                   "(M = combine of the c_i)",
                   z3.And(s + o <= grown * (dist + d), linear_combine(a, f) >= grown * d_in,
                          grown >= 0),
                   [s <= m * dist, a >= m * d_in, f >= c * d_in, m >= 0, dist >= 0, c >= 0,
                    d >= 0, o >= 0, o <= c * d, d_in >= 0], names, replay),
            Z3Goal("linear maps, conclusion: S <= M D, D <= d_in, A >= M d_in give S <= A = map(d_in)",
                   s <= a, [s <= m * dist, dist <= d_in, m >= 0, a >= m * d_in], names, replay),
        ]
        goals += fold_goals(linear=False)
        goals.append(Z3Goal(
            "any maps, step: each d_i <= d_in, so o <= F = t.map(d_in); S <= A gives "
            "S + o <= combine(A, F)",
            any_combine(a, f) >= s + o, [s <= a, s >= 0, o >= 0, o <= f],
            {"S": s, "A": a, "o": o, "F": f}, replay))
        return goals

    def stand_ins() -> list[list[Transformation]]:
        """``k = 1..4`` distinct components (linear and not), and lists with a repeat."""
        pool = [stand_in(i, linear=i % 2 == 0) for i in range(MAX_PARTITIONS_CHECKED)]
        return [pool[:k] for k in range(1, MAX_PARTITIONS_CHECKED + 1)] + \
            [[pool[i] for i in pattern] for pattern in REPEATS]

    def stand_in_builds() -> list[Transformation]:
        return [constructor.build(transformations=components) for components in stand_ins()]

    def output_domain_goals() -> list[Any]:
        def decide() -> Decision:
            for components in stand_ins():
                problem = _misrouted(constructor.build(transformations=components), components)
                if problem:
                    return Decision(False, {"k": len(components)}, problem)
            return Decision(True, detail=f"k = 1..{MAX_PARTITIONS_CHECKED}")
        return [kernel, *not_lists,
                witness_goal(constructor, witnesses, shown, inputs=[([], []), ([1, 2], [3])]),
                witness_goal(constructor, aliased, aliased_shown, inputs=[([1], [2, 3])]),
                ComputedGoal("partition i is fed to t_i and lands in its output domain",
                             "structure", decide, _replay_routing(constructor))]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "If each t_i maps its input domain into its output domain, function maps the "
                   "product of the input domains into the product of the output domains: "
                   "partition i goes through t_i.",
                   r"v \in \prod_i \mathcal{X}_i \implies \mathtt{function}(v) \in \prod_i \mathcal{Y}_i",
                   output_domain_goals,
                   bound=f"k <= {MAX_PARTITIONS_CHECKED} partitions"),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "The product metric of the components' metrics fits the product of their "
                   "domains, on both sides, when each component's metric fits its domain.",
                   r"\prod_i d_i \sim \prod_i \mathcal{X}_i",
                   lambda: [builds,
                            compatibility_goal(constructor, stand_in_builds, witnesses, shown)],
                   bound=f"k <= {MAX_PARTITIONS_CHECKED} partitions"),
        Obligation(f"{prefix}.stability", Kind.STABILITY,
                   "If sum_i d_i(v_i, w_i) <= d_in then sum_i d_i(f_i(v_i), f_i(w_i)) <= map(d_in), "
                   "for any number of partitions, assuming each component meets its own map "
                   "(a linear one, c_i-stable, with the exact product c_i d_i): "
                   "map = max_i t_i.map(d_in) when every component map is linear (each computed "
                   "product rounded up, never below c_i d_in), "
                   "sum_i t_i.map(d_in) otherwise (a float sum rounded up, never below the exact "
                   "sum the proof bounds). The seed's max with arbitrary maps is unsound once "
                   "several partitions change.",
                   r"\sum_i d_i(v_i, w_i) \le d_{in} \implies \sum_i d_i(f_i(v_i), f_i(w_i)) "
                   r"\le \mathtt{map}(d_{in})",
                   stability_goals, uses=(f"{prefix}.map_rounding", LINEAR_MAP_LEMMA)),
        combine_rounding_obligation(
            prefix, lambda: [_combine_of(constructor, (True, True)),
                             _combine_of(constructor, (True, False))],
            replay_combined(constructor, "transformations", _float_sum_components,
                            ("from mechanisms.make_sized_bounded_float_checked_sum import "
                             "make_sized_bounded_float_checked_sum",)),
            "max_i or sum_i of t_i.map(d_in), the component maps as computed"),
    )


def catalogue_entry() -> Entry:
    imports = ("from mechanisms.make_partition_map import make_partition_map",
               "from mechanisms.make_clamp import make_clamp",
               "from obligations.witnesses import make_count_capped")
    return Entry("make_partition_map", make_partition_map, partition_map_obligations(),
                 "apply one transformation per partition",
                 (example("make_partition_map([make_clamp(0.0, 1.0), make_clamp(-3, 3)])", *imports),
                  example("make_partition_map([make_count_capped(1), make_count_capped(2)])",
                          *imports)), proof=True)
