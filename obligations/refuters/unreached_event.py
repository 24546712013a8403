"""Refutation *an event the neighbour never reaches*: on some path of its draws the function
releases, from ``x``, outputs that no run from ``x'`` ever releases. The event ``S``, "an output of
that path", has probability ``p > 0`` under ``M(x)`` and 0 under ``M(x')``, so

- in the max divergence and in zCDP the divergence is infinite;
- ``(epsilon, delta)``-DP needs ``p <= e^epsilon * 0 + delta`` (Dwork and Roth 2014,
  Definition 2.2), so ``delta >= p``;
- delta-approximate rho-zCDP (Bun and Steinke 2016, Definition 8.1) needs events ``E, E'`` of
  probability at least ``1 - delta``; when ``p > delta``, ``M(x) | E`` reaches ``S`` (``Pr[S and
  E] >= p - delta > 0``) and ``M(x') | E'`` never does, so every Renyi divergence of order above
  1 between them is infinite: ``delta >= p``.

How: the function runs on ``x`` and on ``x'`` with the known samplers replaced by solver integers
(:mod:`obligations.kernel.draws`) and the rng unusable, every branch on a draw taken both ways
(:func:`obligations.kernel.paths.every_path`); the code loads no random module. A path of ``x`` is
kept when Z3 shows, for every path of ``x'``, that no draws of the two meet both conditions with
equal outputs (dicts key by key, lists and tuples place by place, ints as terms; anything else
may be equal). ``p`` is 1 when Z3 proves the path's condition always holds; else ``p >=
Pr[N = n]`` at one draw vector ``n`` meeting it, the draws independent, bounded below with
mpmath's interval arithmetic: the discrete Laplace of scale ``s`` has ``Pr[N = k] = (1 - q) / (1 +
q) q^|k|``, ``q = e^(-1/s)``; the discrete Gaussian of ``sigma`` has ``Pr[N = k] = e^(-k^2 / (2
sigma^2)) / Z`` with ``Z <= 1 + sigma sqrt(2 pi)`` (each term ``k != 0`` is at most the integral of
``e^(-t^2 / (2 sigma^2))`` over the unit interval towards 0). Seeded runs of the real function on
both inputs follow one of the paths and return what its terms give.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any, Sequence

import mpmath
import z3

from mechanisms.core import Measurement
from mechanisms.measures import (ApproximateZeroConcentratedDivergence,
                                 FixedSmoothedMaxDivergence, MaxDivergence,
                                 ZeroConcentratedDivergence)
from mechanisms.samplers import draws_replaced
from obligations.kernel.code_checks import KNOWN_LAW_MODULE, one_body_no_randomness
from obligations.kernel.draws import Draws, fresh, read
from obligations.kernel.goals import GOAL_SECONDS, bare, int_term, require
from obligations.kernel.paths import Path, every_path
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, Statement
from obligations.kernel.theorems import _REFUTER, Refutation
from obligations.refuters.base import METRICS_MODULE, exact, refuters, shown

REFUTE_RULE = "an event the neighbour never reaches"
WITH_DELTA = (FixedSmoothedMaxDivergence, ApproximateZeroConcentratedDivergence)
"""Measures whose ``d_out`` is a pair ``(epsilon or rho, delta)``."""
CITES = {FixedSmoothedMaxDivergence: "Dwork and Roth 2014, Definition 2.2",
         ApproximateZeroConcentratedDivergence: "Bun and Steinke 2016, Definition 8.1"}
SEEDS = 3
"""Seeded running calls per input compared with the paths."""


def _paths(subject: str, built: Any, x: Any) -> list[Path]:
    """The paths of the function on ``x``, each with its ``(output, draws)``."""
    what = f"{subject} on {shown(x)}"
    return every_path(REFUTE_RULE, what, lambda: read(REFUTE_RULE, what, built.function, x), [])


def _renamed(path: Path) -> Path:
    """``path`` with its draws renamed apart from those of another reading."""
    output, drawn = path.result
    pairs = [(bare(t), z3.Int(f"{bare(t)}!other")) for _, _, t in drawn]
    return Path((_substituted(output, pairs), [(law, parameter, new) for (law, parameter, _),
                                                (_, new) in zip(drawn, pairs)]),
                tuple(z3.substitute(c, *pairs) if pairs else c for c in path.condition))


def _substituted(output: Any, pairs: Sequence[tuple[Any, Any]]) -> Any:
    """``output`` (a dict, list or tuple of int terms and other values) with ``pairs``
    substituted in its int terms, simplified."""
    if isinstance(output, dict):
        return {k: _substituted(v, pairs) for k, v in output.items()}
    if isinstance(output, (list, tuple)):
        return type(output)(_substituted(v, pairs) for v in output)
    if isinstance(output, z3.ExprRef) and int_term(output) is not None:
        return z3.simplify(z3.substitute(int_term(output), *pairs) if pairs else int_term(output))
    return output


def _value(output: Any) -> Any:
    """``output`` with its int terms, once constants, as Python ints."""
    if isinstance(output, dict):
        return {k: _value(v) for k, v in output.items()}
    if isinstance(output, (list, tuple)):
        return type(output)(_value(v) for v in output)
    return output.as_long() if z3.is_int_value(output) else output


def _identical(a: Any, b: Any) -> bool:
    """Equal, and of the same types throughout."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_identical(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_identical(u, v) for u, v in zip(a, b))
    return bool(a == b)


CONTAINERS = (dict, list, tuple)
SCALARS = (int, float, str, bool, type(None))
"""Python's own types, whose equality is known here; a value of any other type may equal
anything."""


def _same(a: Any, b: Any) -> Any:
    """A Z3 boolean that holds where the outputs ``a`` and ``b`` (terms of draws) are equal as
    Python values; True (may be equal) where that is not decided here."""
    if type(a) in CONTAINERS and type(b) in CONTAINERS:
        if type(a) is not type(b) or len(a) != len(b):
            return z3.BoolVal(False)  # a dict, a list and a tuple never equal one another
        if type(a) is dict:
            if any(isinstance(k, z3.ExprRef) for k in (*a, *b)):
                return z3.BoolVal(True)
            if set(a) != set(b):
                return z3.BoolVal(False)
            return z3.And(True, *[_same(a[k], b[k]) for k in a])
        return z3.And(True, *[_same(u, v) for u, v in zip(a, b)])
    one, two = int_term(a), int_term(b)
    if one is not None and two is not None:
        return one == two
    known = [type(v) in (*CONTAINERS, *SCALARS) or int_term(v) is not None for v in (a, b)]
    if all(known) and (type(a) in CONTAINERS or type(b) in CONTAINERS):
        return z3.BoolVal(False)  # a container against a number, a string or None
    if type(a) in SCALARS and type(b) in SCALARS:
        return z3.BoolVal(bool(a == b))
    return z3.BoolVal(True)


def _possible(claim: Any) -> bool:
    """Z3 does not show ``claim`` impossible (sat, or undecided in time)."""
    solver = z3.Solver()
    solver.set("timeout", int(GOAL_SECONDS * 1000))
    solver.add(claim)
    return solver.check() != z3.unsat


def _probability_at_least(path: Path) -> tuple[Any, str]:
    """A lower bound of the probability of ``path``'s condition over its independent draws (an
    mpmath interval's lower end), and how it was found."""
    _, drawn = path.result
    condition = z3.And(True, *path.condition)
    if not _possible(z3.Not(condition)):
        return mpmath.mpf(1), "its condition always holds"
    noises = [bare(t) for _, _, t in drawn]
    optimizer = z3.Optimize()
    optimizer.set("timeout", int(GOAL_SECONDS * 1000))
    optimizer.add(condition)
    optimizer.minimize(z3.Sum(z3.IntVal(0), *[z3.If(n < 0, -n, n) for n in noises]))
    require(REFUTE_RULE, optimizer.check() == z3.sat, "no draws meeting the path's condition "
            "were found")
    model = optimizer.model()
    point = [model.eval(n, model_completion=True).as_long() for n in noises]
    context = mpmath.iv
    saved, context.prec = context.prec, 256
    try:
        bound = context.mpf(1)
        for (law, parameter, _), k in zip(drawn, point):
            bound *= _probability(context, law, Fraction(parameter), k)
        return bound.a, f"at least Pr[draws = {point}]"
    finally:
        context.prec = saved


def _probability(context: Any, law: str, parameter: Fraction, k: int) -> Any:
    """An interval holding a lower bound of ``Pr[N = k]`` for one draw of ``law``."""
    require(REFUTE_RULE, parameter > 0, f"the {law} is drawn with parameter {parameter}")
    p = context.mpf(parameter.numerator) / context.mpf(parameter.denominator)
    if law == "discrete Laplace":
        q = context.exp(-1 / p)
        return (1 - q) / (1 + q) * q ** abs(k)
    require(REFUTE_RULE, law == "discrete Gaussian", f"the {law} has no probability here")
    return context.exp(-context.mpf(k) ** 2 / (2 * p * p)) / (1 + p * context.sqrt(2 * context.pi))


def _agrees(subject: str, built: Any, x: Any, paths: Sequence[Path]) -> None:
    """Seeded running calls on ``x`` take one of ``paths`` (its condition holds at the draws
    they made) and return exactly what its output gives there."""
    for seed in range(SEEDS):
        recorded = Draws([], running=True)
        try:
            with draws_replaced(recorded):
                running = built.function(fresh(x), random.Random(seed))
        except Exception as error:  # noqa: BLE001 - an admitted input that raises
            raise RuleRefused(REFUTE_RULE, f"{subject} raises on {shown(x)} ("
                              f"{type(error).__name__}: {error})") from None
        found = []
        for path in paths:
            output, drawn = path.result
            if [law for law, _, _ in drawn] == [law for law, _, _ in recorded.drawn]:
                at = [(bare(t), z3.IntVal(value)) for (_, _, t), (_, _, value)
                      in zip(drawn, recorded.drawn)]
                held = z3.simplify(z3.substitute(z3.And(True, *path.condition), *at) if at
                                   else z3.And(True, *path.condition))
                if z3.is_true(held):
                    found.append(_value(_substituted(output, at)))
        require(REFUTE_RULE, len(found) == 1 and _identical(found[0], running),
                f"{subject} computes otherwise on {shown(x)} (seed {seed}) than on terms: "
                f"{running!r} when run, {found} on the paths its draws take")


def shape(subject: str, built: Any) -> None:
    """A measurement in a measure refuted here, under a metric of the catalogue's, whose code
    loads no random module (its randomness is the known samplers' draws)."""
    require(REFUTE_RULE, type(built) is Measurement and type(built.output_measure) in (
        MaxDivergence, ZeroConcentratedDivergence, *WITH_DELTA), f"{subject} is not a "
        "measurement in the max divergence, zCDP, approximate DP or approximate zCDP")
    require(REFUTE_RULE, type(built.input_metric).__module__ == METRICS_MODULE,
            f"the input metric of {subject} is not the catalogue's")
    one_body_no_randomness(REFUTE_RULE, [built.function], f"the function of {subject}",
                           trusted=(KNOWN_LAW_MODULE,))


def _refuted(statement: Statement, built: Any, x: Any, other: Any, d_in: Any,
             call: str) -> Refutation:
    subject = call or statement.subject
    require(REFUTE_RULE, statement.claim is Claim.PRIVACY,
            f"the statement refuted is not the privacy of {subject}")
    shape(subject, built)
    measure = type(built.output_measure)
    require(REFUTE_RULE, built.input_domain.member(fresh(x)) and
            built.input_domain.member(fresh(other)), f"{shown(x)} or {shown(other)} is not in "
            f"the input domain of {subject}")
    distance = built.input_metric.distance(fresh(x), fresh(other))
    within = getattr(built.input_metric, "within", None)
    require(REFUTE_RULE, within(distance, d_in) if within is not None else
            exact(distance) is not None and exact(d_in) is not None and
            exact(distance) <= exact(d_in), f"{shown(x)} and {shown(other)} are at distance "
            f"{distance}, not within {d_in}")
    claimed = built.map(d_in)
    if measure in WITH_DELTA:
        require(REFUTE_RULE, isinstance(claimed, tuple) and len(claimed) == 2 and
                exact(claimed[0]) is not None and exact(claimed[1]) is not None,
                f"map({d_in}) = {claimed!r} is no pair of a finite epsilon (or rho) and a "
                "finite delta (an infinite one bounds nothing: every event meets it)")
        delta = exact(claimed[1])
    else:
        require(REFUTE_RULE, exact(claimed) is not None, f"map({d_in}) = {claimed!r} is not a "
                "finite number")
        delta = Fraction(0)
    mine, theirs = _paths(subject, built, x), _paths(subject, built, other)
    _agrees(subject, built, x, mine)
    _agrees(subject, built, other, theirs)
    theirs = [_renamed(q) for q in theirs]
    for path in mine:
        output, _ = path.result
        if any(_possible(z3.And(*path.condition, *q.condition, _same(output, q.result[0])))
               for q in theirs):
            continue
        low, how = _probability_at_least(path)
        limit = mpmath.iv.mpf(delta.numerator) / mpmath.iv.mpf(delta.denominator)
        if not low > limit.b:
            continue
        condition = " and ".join(map(str, path.condition)) or "always"
        cited = f" ({CITES[measure]})" if measure in CITES else ""
        witness = (f"{subject}: {shown(x)} and {shown(other)} at distance {distance} within "
                   f"d_in = {d_in}; from {shown(x)}, where {condition}, the function returns "
                   f"{output} ({how}: about {float(low):.6g}), and Z3 shows that no run from "
                   f"{shown(other)} returns any of these ({len(theirs)} paths); so this event "
                   f"has probability 0 there, and map({d_in}) = {claimed!r} would need "
                   f"{'delta' if measure in WITH_DELTA else 'an infinite divergence'} >= its "
                   f"probability{cited}")
        return Refutation(_REFUTER, statement, REFUTE_RULE, witness, math.inf, claimed)
    raise RuleRefused(REFUTE_RULE, f"no path of {subject} on {shown(x)} whose outputs "
                      f"{shown(other)} never gives, with probability above the claimed delta")


refute_object, refute_constructor = refuters(REFUTE_RULE, _refuted)
"""The refutation at two inputs of the privacy of one object, or of a constructor."""
