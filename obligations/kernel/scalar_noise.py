"""The scalar additive-noise rule, for every argument a constructor admits.

A measurement on one int under the absolute distance releasing ``h(T(x) + N)`` (or
``h(T(x) - N)`` for a law symmetric about 0), ``N`` one draw of a known law (:mod:`.noise_laws`)
at a parameter ``s > 0``, is as private as that law shifted by ``|T(x) - T(x')|``
(post-processing by ``h``). A run that draws nothing tells inputs apart with certainty: the map
must be ``+inf`` where they are within ``d_in``.

Premises: declared sorts, preconditions that admit only finite floats; the build, on one real per
float and one integer per int, has the shape :func:`~.additive_noise.scalar_shape` checks and a
measure the law has a loss in. The function runs on a solver input ``x`` along every path of its
branches on the arguments (:mod:`.paths`; a branch on ``x`` refuses), the samplers replaced by a
solver draw; on each path, under the preconditions and its condition, Z3 proves:

- with a draw: ``s > 0``; the output reads ``x`` and ``N`` only through ``T(x) + N``; it is in
  the output domain; the law's log-ratio is at most its loss; ``map(d) >= loss(|T(x) - T(x')|)``
  for every real ``d >= |x - x'|``, the map's floats rounded as IEEE-754 does;
- with no draw: the output is in the output domain; the arguments are pinned to a few values, at
  which the running map is ``+inf`` at :data:`FAR` and ``>= 0`` at :data:`NEAR` (the privacy
  theorem is then *bounded*).

At hard arguments admitted, seeded calls on hard inputs draw as their path says and return what
its term gives for the draw they made.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction
from typing import Any, Sequence

import z3

from mechanisms import float_model
from mechanisms.core import Exactly
from mechanisms.samplers import draws_replaced
from obligations.base import is_true
from obligations.kernel.additive_noise import SEEDS, Draws, UnusableRng, scalar_shape
from obligations.kernel.every_argument import (HARD_VALUES, REAL_SYMBOLS, admitted,
                                               built_on_terms, finite_floats, signatures,
                                               subterms)
from obligations.kernel.goals import as_real, bare, int_term, no_branches, on_terms, prove, require
from obligations.kernel.noise_laws import LAWS
from obligations.kernel.paths import Path, every_path
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, ObjectKind, standard_statements
from obligations.kernel.theorems import _KERNEL, Premise, PremiseKind, Theorem

RULE = "scalar additive noise from a known law"
FAR = (1, 1.5, 2, 10 ** 6, 2.0 ** 1023)
"""Where a run with no draw needs ``map(d_in) = +inf``: inputs one apart are within ``d_in``."""
NEAR = (0, 0.5)
"""Where it needs ``map(d_in) >= 0``: only equal inputs are within ``d_in``."""
PINNED = 4
"""The most argument values a path with no draw may leave."""


def scalar_noise_for_every_argument(constructor: Any) -> list[Theorem]:
    """Every standard statement of the measurements ``constructor`` builds, for every argument
    it admits; raises :class:`~obligations.kernel.rules.RuleRefused` naming the first premise
    that fails."""
    premises: list[Premise] = []
    for signature in signatures(RULE, constructor):
        finite_floats(RULE, constructor, signature)
        with float_model.rounding_model() as model:
            subject, built, facts = built_on_terms(RULE, constructor, signature, REAL_SYMBOLS)
            scalar_shape(RULE, subject, built)
            x = float_model.int_parameter("x")
            paths = every_path(RULE, f"the function of {subject}",
                               lambda: _read(subject, built, x), facts)
            d = z3.Real("d_in")
            try:
                with no_branches():
                    claimed = float_model.plain(built.map(d))
            except Exception as error:  # noqa: BLE001 - the map on solver terms
                raise RuleRefused(RULE, f"the map of {subject} does not run on a solver d_in "
                                  f"({type(error).__name__}: {error})") from None
            facts = [*facts, *model.facts]
        for path in paths:
            premises += _path_goals(subject, constructor, signature, built, path, x, d, claimed,
                                    facts)
        _agrees(constructor, signature, paths, x)
    premises = list(dict.fromkeys(premises))
    return [Theorem(_KERNEL, statement, RULE, tuple(
        p for p in premises if statement.claim is Claim.PRIVACY or p.kind is not PremiseKind.BOUNDED))
        for statement in standard_statements(constructor, ObjectKind.MEASUREMENT)]


def _read(subject: str, built: Any, x: Any) -> tuple[Any, list[tuple[str, Any, Any]]]:
    """The function on the solver input ``x``, its draws replaced by terms: ``(output, draws)``."""
    draws = Draws([])
    try:
        with on_terms() as watch, draws_replaced(draws):
            output = built.function(x, UnusableRng())
    except Exception as error:  # noqa: BLE001 - whatever the function raises on terms
        raise RuleRefused(RULE, f"the function of {subject} does not run on a solver input "
                          f"({type(error).__name__}: {error})") from None
    require(RULE, not watch.found, f"the function of {subject} tests the type of a solver term "
            f"({'; '.join(sorted(watch.found))})")
    return output, list(draws.drawn)


def _path_goals(subject: str, constructor: Any, signature: dict[str, type], built: Any,
                path: Path, x: Any, d: Any, claimed: Any, facts: Sequence[Any]) -> list[Premise]:
    """Proves the path's goals; returns the premises its theorem rests on."""
    (output, drawn), condition = path.result, list(path.condition)
    taken = f"{subject}, on the path {z3.And(*condition) if condition else 'with no branch'}"
    require(RULE, not any(t.eq(bare(x)) for c in condition for t in subterms(c)),
            f"the function of {subject} branches on its input: {taken}")
    require(RULE, len(drawn) <= 1, f"{taken}: the function draws {len(drawn)} times, not once")
    output = int_term(output)
    require(RULE, output is not None, f"{taken}: the function does not return an int")
    x2 = z3.Int("x!other")
    inputs = [is_true(built.input_domain.contains(v)) for v in (x, x2)]
    given = [*facts, *condition, *inputs]
    prove(RULE, f"{taken}: the output is in the output domain",
          lambda: is_true(built.output_domain.contains(output)), given)
    if not drawn:
        return _no_draw(taken, constructor, signature, condition, facts)
    name, parameter, noise = drawn[0]
    law, noise = LAWS[name], bare(noise)
    loss = law.losses.get(type(built.output_measure))
    require(RULE, loss is not None, f"the {law.name} has no loss in "
            f"{type(built.output_measure).__name__} that this rule knows")
    s = as_real(float_model.plain(parameter))
    prove(RULE, f"{taken}: the {law.name}'s parameter is > 0", lambda: s > 0, given)
    added = [int_term(a) for a in getattr(drawn[0][2], "addends", [])]
    statistic = added[0] if len(added) == 1 and added[0] is not None else \
        z3.substitute(output, (noise, z3.IntVal(0)))
    other = z3.substitute(statistic, (bare(x), x2))
    _released(taken, law, s, output, noise, statistic, other, x, x2, given)
    if loss.cites is None:
        a, b, y = z3.Ints("a b y")
        prove(RULE, f"the {law.name}'s log-ratio at any output is at most its loss",
              lambda: law.log_ratio(y, a, b, s) <= loss.bound(z3.If(a < b, b - a, a - b), s),
              [s > 0])
    shift = z3.If(statistic < other, other - statistic, statistic - other)
    if isinstance(claimed, float) and claimed == math.inf:
        return [Premise(PremiseKind.CITES, c) for c in (law.cites, loss.cites) if c is not None]
    prove(RULE, f"{taken}: map(d_in) >= the {law.name}'s loss at |T(x) - T(x')|, for every "
          "d_in >= |x - x'|",
          lambda: as_real(claimed) >= loss.bound(z3.ToReal(shift), s),
          [*given, d >= 0, z3.ToReal(z3.If(bare(x) < x2, x2 - bare(x), bare(x) - x2)) <= d])
    return [Premise(PremiseKind.CITES, c) for c in (law.cites, loss.cites) if c is not None]


def _released(taken: str, law: Any, s: Any, output: Any, noise: Any, statistic: Any,
              other: Any, x: Any, x2: Any, given: Sequence[Any]) -> None:
    """The output is ``h(T(x) + N)``, or ``h(T(x) - N)`` for a law symmetric about 0 (then
    ``-N`` has the law of ``N``)."""
    z, k = z3.Int("z"), z3.Int("k")

    def through(sign: int) -> Any:  # the output as a function of T(x) + sign N does not read x
        return z3.substitute(output, (noise, sign * (z - statistic))) == z3.substitute(
            output, (bare(x), x2), (noise, sign * (z - other)))
    try:
        prove(RULE, f"{taken}: the output is h(T(x) + N)", lambda: through(1), given)
    except RuleRefused:
        prove(RULE, f"the {law.name} is symmetric about 0",
              lambda: law.exponent(k, s) == law.exponent(-k, s), [s > 0])
        prove(RULE, f"{taken}: the output is h(T(x) - N)", lambda: through(-1), given)


def _no_draw(taken: str, constructor: Any, signature: dict[str, type], condition: list[Any],
             facts: Sequence[Any]) -> list[Premise]:
    """A path that draws nothing: the arguments it allows, built, have an infinite map where
    inputs one apart are close."""
    pinned = _pinned(taken, signature, [*facts, *condition])
    exact = {n: sort.value for n, sort in signature.items() if isinstance(sort, Exactly)}
    checked = 0
    for arguments in pinned:
        try:
            built = constructor(**arguments, **exact)
        except Exception:  # noqa: BLE001 - not admitted (the real model covers more than floats)
            continue
        checked += 1
        for d_in in (*FAR, *NEAR):
            try:
                value = built.map(d_in)
            except Exception as error:  # noqa: BLE001 - the running map
                raise RuleRefused(RULE, f"{taken}: map({d_in}) raises ({type(error).__name__}: "
                                  f"{error})") from None
            require(RULE, value == math.inf if d_in in FAR else value >= 0,
                    f"{taken}: no noise is drawn, yet {constructor.name}({arguments}).map({d_in})"
                    f" = {value!r}, not {'+inf' if d_in in FAR else '>= 0'}")
    require(RULE, checked > 0, f"{taken}: no noise is drawn, and {constructor.name} admits none "
            f"of the arguments this path allows ({pinned}): nothing was checked")
    return [Premise(PremiseKind.BOUNDED, f"{constructor.name} with no noise drawn "
                    f"({'; '.join(map(str, pinned))}): map(d_in) = +inf checked at d_in in "
                    f"{FAR}, >= 0 at {NEAR}")]


def _pinned(taken: str, signature: dict[str, type], given: Sequence[Any]) -> list[dict[str, Any]]:
    """Every value of the arguments that ``given`` allows, as floats and ints (both zeros for a
    float 0); refuses past :data:`PINNED`."""
    names = [n for n, sort in signature.items() if sort in (int, float)]
    constants = [z3.Real(n) if signature[n] is float else z3.Int(n) for n in names]
    solver = z3.Solver()
    solver.add(*given)
    found: list[dict[str, Any]] = []
    while solver.check() == z3.sat and len(found) <= PINNED:
        model = solver.model()
        values = [model.eval(c, model_completion=True) for c in constants]
        found.append({n: (float if signature[n] is float else int)(Fraction(v.as_string()))
                      for n, v in zip(names, values)})
        solver.add(z3.Or(*[c != v for c, v in zip(constants, values)]))
    require(RULE, solver.check() == z3.unsat and len(found) <= PINNED,
            f"{taken}: no noise is drawn for more than {PINNED} values of the arguments")
    return [*found, *({**a, n: -0.0} for a in found for n in names
                      if signature[n] is float and a[n] == 0)]


def _agrees(constructor: Any, signature: dict[str, type], paths: Sequence[Path], x: Any) -> None:
    """The module's last premise (hard arguments, hard inputs, seeded calls)."""
    for arguments, call, built in admitted(RULE, constructor, signature):
        values = [(z3.Real(n) if signature[n] is float else z3.Int(n), as_real(v)
                   if signature[n] is float else z3.IntVal(v))
                  for n, v in arguments.items() if signature[n] in (int, float)]
        taken = [p for p in paths
                 if z3.is_true(z3.simplify(z3.substitute(z3.And(*p.condition), *values)))]
        require(RULE, len(taken) == 1, f"{call}: its arguments take {len(taken)} of the paths")
        (output, drawn), = [p.result for p in taken]
        for value, seed in itertools.product(HARD_VALUES[int], range(SEEDS)):
            recorded = Draws([], running=True)
            try:
                with draws_replaced(recorded):
                    running = built.function(value, random.Random(seed))
            except Exception as error:  # noqa: BLE001 - an admitted input that raises
                raise RuleRefused(RULE, f"{call} raises on {value} ({type(error).__name__}: "
                                  f"{error})") from None
            require(RULE, [n for n, _, _ in recorded.drawn] == [n for n, _, _ in drawn],
                    f"{call} draws otherwise on {value} than on terms")
            pairs = [*values, (bare(x), z3.IntVal(value))]
            for (_, parameter, term), (_, real_parameter, real_draw) in zip(drawn, recorded.drawn):
                stated = z3.simplify(z3.substitute(as_real(float_model.plain(parameter)), *values))
                require(RULE, z3.is_true(z3.simplify(stated == as_real(real_parameter))),
                        f"{call} draws at parameter {real_parameter} on {value}, {stated} on terms")
                pairs.append((bare(term), z3.IntVal(real_draw)))
            solved = z3.simplify(z3.substitute(int_term(output), *pairs))
            require(RULE, type(running) is int and solved.eq(z3.IntVal(running))
                    and built.output_domain.member(running),
                    f"{call} computes otherwise on terms than when run on {value} (seed {seed}): "
                    f"{running!r} when run, {solved} on terms")
