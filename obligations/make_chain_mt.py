"""Obligations of ``make_chain_mt``, by assume-guarantee over arbitrary components.

As for ``make_chain_tt`` (stand-ins with uninterpreted functions and maps, each component's own
guarantee assumed where the chain uses it), with a measurement outside: its function takes the
random source ``r`` as a second argument, and its guarantee bounds a divergence, not a distance.
Refutations are replayed on real components: randomized response after a count capped at 1, with
exact output distributions.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

import mpmath
import z3

from mechanisms.core import Constructor, Map, Measurement, Transformation
from mechanisms.domains import AtomDomain
from mechanisms.make_chain_mt import make_chain_mt
from mechanisms.make_randomized_response import make_randomized_response
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import DiscreteMetric
from obligations.base import Entry, Kind, Obligation, Replay, Z3Goal, example
from obligations.compatibility import compatibility_goal
from obligations.make_chain_tt import (bound_goal, counting_pair, metrics_premise,
                                       output_domain_goal, scalar_pair)
from obligations.make_randomized_response import exact_distribution
from obligations.reports import Code, import_line, plain_report
from obligations.witnesses import make_count_capped, scale_constant


def as_measurement(outer: Transformation) -> Measurement:
    """The stand-in ``outer`` as a measurement: function ``(y, r) -> g(y, r)``, uninterpreted, with
    ``r`` the random source; its map (now a privacy map) stays uninterpreted."""
    g = z3.Function("outer_g", z3.RealSort(), z3.RealSort(), z3.RealSort())
    return Measurement(outer.input_domain, outer.output_domain, outer.input_metric,
                       MaxDivergence(), g, outer.stability_map)


def stand_ins(pair: Callable[[], tuple[Transformation, Transformation]]) -> tuple[Measurement, Transformation]:
    outer, inner = pair()
    return as_measurement(outer), inner


@dataclass(frozen=True)
class Constant:
    """``(y, rng) -> value``: ignores its input."""

    value: Any

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        return self.value


def make_constant(value: str) -> Measurement:
    """Integers to the constant string ``value``: 0-DP, privacy map ``d_in * 0``."""
    return Measurement(AtomDomain(int), AtomDomain(str), DiscreteMetric(), MaxDivergence(),
                       Constant(value), Map(constant=scale_constant, params={"scale": 0}))


def make_present() -> Transformation:
    """``v -> min(len(v), 1)``, under the discrete metric on the output (the values are 0 and 1,
    so it equals the absolute distance): map ``min(d_in, 1)``."""
    return replace(make_count_capped(1), output_metric=DiscreteMetric())


RR = "make_randomized_response([0, 1], 0.75)"
WITNESS_IMPORTS = ("from obligations.make_chain_mt import make_constant, make_present",
                   "from mechanisms.make_randomized_response import make_randomized_response")


def _replay_output_domain(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        m = constructor(outer=make_constant("y"), inner=make_present())
        data = [1, 2]
        output = m.function(data, None)
        confirmed = not m.output_domain.member(output)
        return plain_report(confirmed, f"{constructor.name}(make_constant('y'), make_present()) "
                            f"on {data!r}", f"output {output!r}",
                            f"in the output domain {m.output_domain}: {not confirmed}")
    return replay


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """``v = []`` and ``w = [0] * d_in`` reach randomized response as 0 and 1: the exact largest
    log-ratio of their output distributions against ``map(d_in)``."""
    def replay(counterexample: dict) -> Replay:
        rr, inner = make_randomized_response([0, 1], 0.75), make_present()
        m = constructor(outer=rr, inner=inner)
        d_in = 1
        v, w = [], [0] * d_in
        ratio = rr.output_measure.max_ratio(exact_distribution(rr, inner.function(v)),
                                            exact_distribution(rr, inner.function(w)))
        claimed = m.map(d_in)
        with mpmath.workdps(50):
            observed = mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)
            confirmed = observed > mpmath.mpf(claimed)
        return plain_report(confirmed, f"{constructor.name}({RR}, make_present())",
                            f"inputs v = {v!r}, w = {w!r} (d_in = {d_in})",
                            f"claimed  map(d_in) = {claimed!r}",
                            f"observed max ln(Pr[M(v)=y] / Pr[M(w)=y]) = {mpmath.nstr(observed, 17)}"
                            + ("  > claimed" if confirmed else ""),
                            "reproduce:", f"  {import_line(constructor)}",
                            *[f"  {line}" for line in WITNESS_IMPORTS],
                            f"  print({constructor.name}({RR}, make_present()).map({d_in}))")
    return replay


def chain_mt_obligations(constructor: Constructor = make_chain_mt,
                         prefix: str = "chain_mt") -> tuple[Obligation, ...]:
    def output_domain_goals() -> list[Any]:
        outer, inner = stand_ins(scalar_pair)
        x, r = z3.Reals("x r")
        return [output_domain_goal(constructor, outer, inner, x,
                                   outer.function(inner.function(x), r), lambda f: f(x, r),
                                   {"x": x, "r": r}, _replay_output_domain(constructor))]

    def privacy_goals() -> list[Any]:
        outer, inner = stand_ins(scalar_pair)
        built = constructor.build(outer=outer, inner=inner)
        replay = _replay_privacy(constructor)
        x, r = z3.Reals("x r")
        return [metrics_premise(constructor, lambda: stand_ins(scalar_pair), "output_measure"),
                Z3Goal("function(x, r) = outer.function(inner.function(x), r): M(x) is outer's "
                       "distribution at inner(x)",
                       built.function(x, r) == outer.function(inner.function(x), r), [],
                       {"x": x, "r": r}, replay),
                bound_goal(constructor, outer, inner, built.map, "divergence", replay)]

    def builds() -> list[Any]:
        return [constructor.build(outer=o, inner=i)
                for o, i in (stand_ins(scalar_pair), stand_ins(counting_pair))]

    witnesses = {"outer": make_randomized_response([0, 1], 0.75), "inner": make_present()}
    shown = {"outer": Code(RR), "inner": Code("make_present()")}
    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "If inner maps its input domain into outer's input domain and outer's outputs "
                   "lie in its output domain for every random draw, so do the chain's.",
                   r"x \in \mathcal{X} \implies \mathtt{outer}(\mathtt{inner}(x), r) \in \mathcal{Z}",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "The chain's input metric is inner's, which fits inner's input domain.",
                   r"d_{\mathcal{X}} \sim \mathcal{X}",
                   lambda: [compatibility_goal(constructor, builds, witnesses, shown)]),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "If d_X(x, x') <= d_in then inner(x), inner(x') are d' = inner.map(d_in)-close, "
                   "so the divergence of outer's output distributions on them is at most "
                   "outer.map(d') = map(d_in), for any components meeting their own guarantees.",
                   r"d_{\mathcal{X}}(x, x') \le d_{in} \implies D(M(x) \,\|\, M(x')) \le "
                   r"\mathtt{outer.map}(\mathtt{inner.map}(d_{in}))",
                   privacy_goals),
    )


def catalogue_entry() -> Entry:
    """Examples on atoms (the empirical privacy runner draws hashable inputs)."""
    imports = ("from mechanisms.make_chain_mt import make_chain_mt",
               "from mechanisms.make_discrete_laplace import make_discrete_laplace",
               "from obligations.make_chain_tt import make_times")
    return Entry("make_chain_mt", make_chain_mt, chain_mt_obligations(),
                 "chain a transformation into a measurement",
                 (example("make_chain_mt(make_discrete_laplace(2.0), make_times(3))", *imports),),
                 proof=True)
