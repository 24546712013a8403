"""The additive-noise rule per coordinate, for every argument a constructor admits.

A measurement on one int under the absolute distance releasing ``h(T(x) + N)`` (or
``h(T(x) - N)`` for a law symmetric about 0), ``N`` one draw of a known law (:mod:`.noise_laws`)
at a parameter ``s > 0``, is as private as that law shifted by ``|T(x) - T(x')|``
(post-processing by ``h``). On a vector of ints under the L1 or L2 distance, each coordinate
``i`` released as ``h_i(T_i(v) + N_i)`` with its own draw, the coordinates are independent and
their losses add (max divergence: the log-ratio of a product is the sum; zCDP: Renyi
divergences of independent products add). A run that draws nothing tells inputs apart with
certainty: the map must be ``+inf`` where they are within ``d_in``.

Premises: declared sorts, preconditions that admit only finite floats; the build, on one real per
float and one integer per int, has the shape :func:`_shape` checks and a measure the law has a
loss in. The function runs on a solver input (one int; or vectors of ``0 .. LENGTHS`` ints)
along every path of its branches on the arguments (:mod:`.paths`; a branch on the input
refuses), the samplers replaced by a solver draw; on each path, under the preconditions and its
condition, Z3 proves:

- with draws: ``s > 0``; one draw per coordinate, each read only by its coordinate, which reads
  ``v`` and ``N_i`` only through ``T_i(v) + N_i``; the output is in the output domain; the law's
  log-ratio is at most its loss; ``map(d) >= sum_i loss(|T_i(v) - T_i(v')|)`` for every real
  ``d`` at least the metric's distance, the map's floats rounded as IEEE-754 does;
- with no draw: the output is in the output domain; the arguments are pinned to a few values (an
  argument the path leaves free takes its hard values), at which the running map is ``+inf`` at
  :data:`FAR`, unless Z3 shows that no two inputs' outputs differ there, and ``>= 0`` at
  :data:`NEAR` (the privacy theorem is then *bounded*).

For vectors every theorem is *bounded*: vectors of at most :data:`LENGTHS` coordinates are read,
and ``map(+inf) = +inf`` (vectors of different lengths) is checked at the admitted arguments.
At hard arguments admitted, seeded calls on hard inputs draw as their path says and return what
its term gives for the draws they made.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, Sequence

import z3

from mechanisms import float_model
from mechanisms.measures import ZeroConcentratedDivergence
from mechanisms.metrics import AbsoluteDistance, L1Distance, L2Distance
from obligations.base import is_true
from obligations.kernel.additive_noise import scalar_shape, vector_shape
from obligations.kernel.code_checks import map_one_body
from obligations.kernel.draws import agrees, read, statistic
from obligations.kernel.every_argument import (HARD_VALUES, REAL_SYMBOLS, admitted, assembled,
                                               built_on_terms, finite_floats, leaf_values, leaves,
                                               signatures, subterms)
from obligations.kernel.goals import as_real, bare, int_term, no_branches, prove, require
from obligations.kernel.noise_laws import LAWS
from obligations.kernel.paths import Path, every_path
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, ObjectKind, standard_statements
from obligations.kernel.theorems import _KERNEL, Premise, PremiseKind, Theorem

RULE = "additive noise per coordinate from a known law"
FAR = (1, 1.5, 2, 10 ** 6, 2.0 ** 1023)
"""Where a run with no draw needs ``map(d_in) = +inf``: inputs one apart are within ``d_in``."""
NEAR = (0, 0.5)
"""Where it needs ``map(d_in) >= 0``: only equal inputs are within ``d_in``."""
PINNED = 4
"""The most argument values a path with no draw may leave."""
LENGTHS = 4
"""Vectors of ``0 .. LENGTHS`` coordinates are read on terms: the rule's bound for vectors."""
ADDITIVE = ("van Erven and Harremoes 2014 (arXiv:1206.2459): the Renyi divergence of independent "
            "product laws is the sum of their Renyi divergences")


def _distance_within(metric: type, gaps: Sequence[Any], d: Any) -> Any:
    """Vectors whose coordinates differ by ``gaps`` (real terms) are within ``d`` under
    ``metric``, as the kernel states it: the absolute or L1 distance ``sum |g_i|``, or the L2
    distance ``sqrt(sum g_i^2)``."""
    if metric is L2Distance:
        return z3.And(d >= 0, z3.Sum(z3.RealVal(0), *[g * g for g in gaps]) <= d * d)
    return z3.Sum(z3.RealVal(0), *[z3.If(g < 0, -g, g) for g in gaps]) <= d


def _shape(subject: str, built: Any) -> type:
    """One int in under the absolute distance and one int out (:func:`~.additive_noise.
    scalar_shape`), or vectors of ints in and out under the L1 or L2 distance (:func:`~.
    additive_noise.vector_shape`); returns the metric's class."""
    metric = type(built.input_metric)
    if metric is AbsoluteDistance:
        scalar_shape(RULE, subject, built)
    else:
        require(RULE, metric in (L1Distance, L2Distance), f"the input metric of {subject} is not "
                "the absolute, the L1 or the L2 distance")
        vector_shape(RULE, subject, built)
    return metric


def _inputs(metric: type) -> list[Any]:
    """The solver inputs read: one int, or vectors of each length up to :data:`LENGTHS`."""
    if metric is AbsoluteDistance:
        return [float_model.int_parameter("x")]
    return [[float_model.int_parameter(f"x{i}") for i in range(n)] for n in range(LENGTHS + 1)]


def coordinate_noise_for_every_argument(constructor: Any) -> list[Theorem]:
    """Every standard statement of the measurements ``constructor`` builds, for every argument
    it admits; raises :class:`~obligations.kernel.rules.RuleRefused` naming the first premise
    that fails."""
    premises: list[Premise] = []  # the privacy theorem's
    everywhere: list[Premise] = []  # every theorem's
    for signature in signatures(RULE, constructor):
        finite_floats(RULE, constructor, signature)
        with float_model.rounding_model() as model:
            subject, built, facts = built_on_terms(RULE, constructor, signature, REAL_SYMBOLS)
            metric = _shape(subject, built)
            readings = [(x, every_path(RULE, f"the function of {subject}",
                                       lambda x=x: _read(subject, built, x), facts))
                        for x in _inputs(metric)]
            d = z3.Real("d_in")
            map_one_body(RULE, subject, built)
            try:
                with no_branches():
                    claimed = float_model.plain(built.map(d))
            except Exception as error:  # noqa: BLE001 - the map on solver terms
                raise RuleRefused(RULE, f"the map of {subject} does not run on a solver d_in "
                                  f"({type(error).__name__}: {error})") from None
            facts = [*facts, *model.facts]
        for x, paths in readings:
            for path in paths:
                premises += _path_goals(subject, constructor, signature, built, path, x, d,
                                        claimed, facts, metric)
        _agrees(constructor, signature, readings, metric)
        if metric is not AbsoluteDistance:
            everywhere.append(Premise(PremiseKind.BOUNDED, f"vectors of at most {LENGTHS} "
                                      "coordinates read on terms; map(+inf) = +inf checked at "
                                      "the admitted arguments"))
    premises = list(dict.fromkeys(premises))
    return [Theorem(_KERNEL, statement, RULE, tuple(dict.fromkeys(everywhere + [
        p for p in premises if statement.claim is Claim.PRIVACY or p.kind is not PremiseKind.BOUNDED])))
        for statement in standard_statements(constructor, ObjectKind.MEASUREMENT)]


def _read(subject: str, built: Any, x: Any) -> tuple[Any, list[tuple[str, Any, Any]]]:
    """The function on the solver input ``x``, its draws replaced by terms: ``(output, draws)``."""
    return read(RULE, f"the function of {subject}", built.function, x)


def _coordinates(taken: str, x: Any, output: Any) -> tuple[list[Any], list[Any]]:
    """``(inputs, outputs)``, each a list of bare int terms: one of each for a scalar, as many
    outputs as inputs for a vector."""
    if not isinstance(x, list):
        found = int_term(output)
        require(RULE, found is not None, f"{taken}: the function does not return an int")
        return [bare(x)], [found]
    require(RULE, isinstance(output, list) and len(output) == len(x),
            f"{taken}: the function does not return a list as long as its input")
    found = [int_term(o) for o in output]
    require(RULE, all(o is not None for o in found), f"{taken}: an output coordinate is no int")
    return [bare(v) for v in x], found


def _path_goals(subject: str, constructor: Any, signature: dict[str, type], built: Any,
                path: Path, x: Any, d: Any, claimed: Any, facts: Sequence[Any],
                metric: type) -> list[Premise]:
    """Proves the path's goals; returns the premises its theorem rests on."""
    (output, drawn), condition = path.result, list(path.condition)
    n = len(x) if isinstance(x, list) else None
    taken = (f"{subject}{'' if n is None else f' on {n} coordinates'}, on the path "
             f"{z3.And(*condition) if condition else 'with no branch'}")
    xs, outputs = _coordinates(taken, x, output)
    require(RULE, not any(t.eq(v) for c in condition for t in subterms(c) for v in xs),
            f"the function of {subject} branches on its input: {taken}")
    x2 = [z3.Int(f"{v}!other") for v in xs]
    element = built.input_domain if n is None else built.input_domain.element
    given = [*facts, *condition, *[is_true(element.contains(v)) for v in (*xs, *x2)]]
    within = built.output_domain if n is None else built.output_domain.element
    prove(RULE, f"{taken}: the output is in the output domain",
          lambda: z3.And(True, *[is_true(within.contains(o)) for o in outputs]), given)
    if not drawn:
        moved = z3.Or(False, *[o != z3.substitute(o, *zip(xs, x2)) for o in outputs])
        return _no_draw(taken, constructor, signature, condition, facts, given, moved) \
            if xs else []
    require(RULE, len(drawn) == len(outputs), f"{taken}: the function draws {len(drawn)} times "
            f"for {len(outputs)} output coordinates, not once for each")
    name, parameter = drawn[0][:2]
    require(RULE, all(n2 == name and as_real(float_model.plain(p)).eq(as_real(float_model.plain(
        parameter))) for n2, p, _ in drawn), f"{taken}: the draws are not all of one law and "
        "parameter")
    law, noises = LAWS[name], [bare(t) for _, _, t in drawn]
    loss = law.losses.get(type(built.output_measure))
    require(RULE, loss is not None, f"the {law.name} has no loss in "
            f"{type(built.output_measure).__name__} that this rule knows")
    s = as_real(float_model.plain(parameter))
    prove(RULE, f"{taken}: the {law.name}'s parameter is > 0", lambda: s > 0, given)
    gaps = []
    for i, (out, noise) in enumerate(zip(outputs, noises)):
        require(RULE, not any(t.eq(other) for t in subterms(out) for other in noises
                              if not other.eq(noise)),
                f"{taken}: output coordinate {i} reads another coordinate's draw")
        t = statistic(out, drawn[i][2])
        other = z3.substitute(t, *zip(xs, x2))
        _released(f"{taken}, coordinate {i}", law, s, out, noise, t, other, xs, x2, given)
        gaps.append(z3.ToReal(t - other))
    if loss.cites is None:
        a, b, y = z3.Ints("a b y")
        prove(RULE, f"the {law.name}'s log-ratio at any output is at most its loss",
              lambda: law.log_ratio(y, a, b, s) <= loss.bound(z3.If(a < b, b - a, a - b), s),
              [s > 0])
    cited = [c for c in (law.cites, loss.cites) if c is not None]
    if len(outputs) > 1 and type(built.output_measure) is ZeroConcentratedDivergence:
        cited.append(ADDITIVE)
    if isinstance(claimed, float) and claimed == math.inf:
        return [Premise(PremiseKind.CITES, c) for c in cited]
    within = [*given, d >= 0, _distance_within(metric, [z3.ToReal(a - b) for a, b in zip(xs, x2)],
                                               d)]
    total = z3.Sum(z3.RealVal(0), *[loss.bound(z3.If(g < 0, -g, g), s) for g in gaps])
    if len(gaps) > 1:  # in two steps, each within the solver's reach
        u = [z3.Real(f"u{i}") for i in range(len(gaps))]
        prove(RULE, f"the {law.name}'s losses at {len(u)} shifts within d_in under "
              f"{metric.__name__} add up to at most its loss at d_in",
              lambda: z3.Sum(z3.RealVal(0), *[loss.bound(v, s) for v in u]) <= loss.bound(d, s),
              [s > 0, d >= 0, *[v >= 0 for v in u], _distance_within(metric, u, d)])
        prove(RULE, f"{taken}: the shifts T_i(x) - T_i(x') are within d_in under "
              f"{metric.__name__}", lambda: _distance_within(metric, gaps, d), within)
        total = loss.bound(d, s)
    prove(RULE, f"{taken}: map(d_in) >= the sum of the {law.name}'s losses at |T_i(x) - "
          "T_i(x')|, for every d_in at least the distance of x and x'",
          lambda: as_real(claimed) >= total, within)
    return [Premise(PremiseKind.CITES, c) for c in cited]


def _released(taken: str, law: Any, s: Any, output: Any, noise: Any, statistic: Any,
              other: Any, xs: Sequence[Any], x2: Sequence[Any], given: Sequence[Any]) -> None:
    """The output is ``h(T(x) + N)``, or ``h(T(x) - N)`` for a law symmetric about 0 (then
    ``-N`` has the law of ``N``)."""
    z, k = z3.Int("z"), z3.Int("k")

    def through(sign: int) -> Any:  # the output as a function of T(x) + sign N does not read x
        return z3.substitute(output, (noise, sign * (z - statistic))) == z3.substitute(
            output, *zip(xs, x2), (noise, sign * (z - other)))
    try:
        prove(RULE, f"{taken}: the output is h(T(x) + N)", lambda: through(1), given)
    except RuleRefused:
        prove(RULE, f"the {law.name} is symmetric about 0",
              lambda: law.exponent(k, s) == law.exponent(-k, s), [s > 0])
        prove(RULE, f"{taken}: the output is h(T(x) - N)", lambda: through(-1), given)


def _no_draw(taken: str, constructor: Any, signature: dict[str, Any], condition: list[Any],
             facts: Sequence[Any], given: Sequence[Any], moved: Any) -> list[Premise]:
    """A path that draws nothing: at the arguments it allows, built, the map is infinite where
    inputs one apart are close, unless Z3 shows that no two inputs' outputs differ (``moved``
    unsatisfiable under ``given``): then it is ``>= 0``."""
    pinned = _pinned(taken, signature, [*facts, *condition])
    checked = 0
    for values in pinned:
        arguments = assembled(signature, values)
        try:
            built = constructor(**arguments)
        except Exception:  # noqa: BLE001 - not admitted (the real model covers more than floats)
            continue
        checked += 1
        solver = z3.Solver()
        solver.add(*given, moved, *_pins(signature, values))
        infinite = () if solver.check() == z3.unsat else FAR
        for d_in in (*FAR, *NEAR):
            try:
                value = built.map(d_in)
            except Exception as error:  # noqa: BLE001 - the running map
                raise RuleRefused(RULE, f"{taken}: map({d_in}) raises ({type(error).__name__}: "
                                  f"{error})") from None
            require(RULE, value == math.inf if d_in in infinite else value >= 0,
                    f"{taken}: no noise is drawn, yet {constructor.name}({arguments}).map({d_in})"
                    f" = {value!r}, not {'+inf' if d_in in infinite else '>= 0'}")
    require(RULE, checked > 0, f"{taken}: no noise is drawn, and {constructor.name} admits none "
            f"of the arguments this path allows ({pinned}): nothing was checked")
    return [Premise(PremiseKind.BOUNDED, f"{constructor.name} with no noise drawn "
                    f"({'; '.join(map(str, pinned))}): map(d_in) = +inf checked at d_in in "
                    f"{FAR} where two inputs' outputs may differ, >= 0 at {NEAR} and where "
                    "they never do")]


def _pins(signature: dict[str, Any], values: dict[str, Any]) -> list[Any]:
    """The int and float leaves of the arguments equal to ``values``."""
    sorts = {n: s for name, sort in signature.items() for n, s in leaves(name, sort)}
    return [_constant(n, sorts[n]) == (as_real(v) if sorts[n] is float else z3.IntVal(v))
            for n, v in values.items()]


def _constant(name: str, sort: Any) -> Any:
    return z3.Real(name) if sort is float else z3.Int(name)


def _pinned(taken: str, signature: dict[str, Any], given: Sequence[Any]) -> list[dict[str, Any]]:
    """The values of the int and float :func:`~.every_argument.leaves` of the arguments that
    ``given`` allows, as floats and ints (both zeros for a float 0): every value of those it
    pins to at most :data:`PINNED` values together, and, for those it leaves free, their hard
    values; refuses when no leaf is pinned."""
    numeric = [(n, s) for name, sort in signature.items() for n, s in leaves(name, sort)
               if s in (int, float)]
    values = {n: _values(_constant(n, s), s, given) for n, s in numeric}
    pinned = [(n, s) for n, s in numeric if values[n] is not None]
    require(RULE, bool(pinned) and math.prod(len(values[n]) for n, _ in pinned) <= PINNED,
            f"{taken}: no noise is drawn for more than {PINNED} values of the arguments")
    solver = z3.Solver()
    solver.add(*given)
    combinations = itertools.product(*(values[n] or HARD_VALUES[s] for n, s in numeric))
    return [values for c in combinations if solver.check(*_pins(signature, values := dict(
        zip([n for n, _ in numeric], c)))) == z3.sat]


def _values(constant: Any, sort: Any, given: Sequence[Any]) -> list[Any] | None:
    """Every value of ``constant`` that ``given`` allows (both zeros for a float 0), or None when
    there are more than :data:`PINNED`."""
    solver = z3.Solver()
    solver.add(*given)
    found: list[Any] = []
    while solver.check() == z3.sat and len(found) <= PINNED:
        value = solver.model().eval(constant, model_completion=True)
        found.append((float if sort is float else int)(Fraction(value.as_string())))
        solver.add(constant != value)
    if solver.check() != z3.unsat or len(found) > PINNED:
        return None
    return [*found, *([-0.0] if sort is float and 0 in found else [])]


def _agrees(constructor: Any, signature: dict[str, type],
            readings: Sequence[tuple[Any, Sequence[Path]]], metric: type) -> None:
    """The module's last premises (hard arguments, hard inputs, seeded calls; for vectors, the
    map at ``+inf``)."""
    for arguments, call, built in admitted(RULE, constructor, signature):
        if metric is not AbsoluteDistance:
            require(RULE, built.map(math.inf) == math.inf, f"{call}: map(+inf) = "
                    f"{built.map(math.inf)!r}, yet vectors of different lengths are at distance "
                    "+inf and their outputs never meet")
        values = [(_constant(n, s), as_real(v) if s is float else z3.IntVal(v))
                  for name, argument in arguments.items()
                  for n, s, v in leaf_values(name, signature[name], argument) if s in (int, float)]
        for x, paths in readings:
            taken = [p for p in paths
                     if z3.is_true(z3.simplify(z3.substitute(z3.And(*p.condition), *values)))]
            require(RULE, len(taken) == 1, f"{call}: its arguments take {len(taken)} of the paths")
            (output, drawn), = [p.result for p in taken]
            for value in _hard_inputs(x):
                xs, vs = (x, value) if isinstance(x, list) else ([x], [value])
                agrees(RULE, call, built.function, value, output, drawn,
                       [*values, *((bare(v), z3.IntVal(w)) for v, w in zip(xs, vs))],
                       built.output_domain)


def _hard_inputs(x: Any) -> list[Any]:
    """Hard ints for an int input; for a vector of ``n`` coordinates, two vectors of hard ints."""
    hard = HARD_VALUES[int]
    if not isinstance(x, list):
        return list(hard)
    return [[hard[(i + shift) % len(hard)] for i in range(len(x))] for shift in (0, 3)]
