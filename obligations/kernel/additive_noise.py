"""The additive-noise rule, for one built measurement, and its refutation.

A measurement whose function releases ``h(T(x) + N)``, with ``N`` one draw of a sampler whose law
the kernel knows (:mod:`.noise_laws`) and ``h`` not reading ``x``, is as private as ``N`` shifted
by ``T``'s sensitivity: a dataset at symmetric distance ``d`` is ``d`` added or removed rows
away, each moving ``T`` by at most ``Delta``, so ``map(d) >= loss(d * Delta)`` suffices
(post-processing by ``h``, group privacy along the path).

Premises, checked on the running object: the exact classes (``Measurement``, ``VectorDomain``
of an int ``AtomDomain``, ``SymmetricDistance``, a measure the law has a loss in); code that
tests no solver term and loads no random module; on datasets of ``n <= ROWS`` rows of Z3
integers, the known samplers replaced by a Z3 integer and the rng unusable, one draw from one
law and parameter for every ``n``; running answers on hard datasets equal to those on terms;
and Z3 proves, for every ``n``, the output ``h(T(x) + N)`` (``T(x)`` the output at ``N = 0``),
``T`` blind to the order of rows, one added row moving ``T`` by at most ``Delta``, the output
domain, and ``map(d) >= loss(d * Delta)`` for every natural ``d``, floats rounded as IEEE-754
does. The rule is *bounded*: ``T`` is read on datasets of at most :data:`ROWS` rows.

:func:`refute_object` and :func:`refute_constructor` refute the privacy statement exactly: on two
concrete inputs (datasets, or two ints of a measurement under the absolute distance, the shape of
:mod:`.coordinate_noise`) the output is ``c + N`` and ``c' + N`` (proved on the running code, checked
on seeded runs), so the log-ratio of their laws at one output is a rational the map must reach; on
two vectors of ints each coordinate is ``c_i + N_i`` with a draw of its own, and the losses of the
coordinates add (:func:`_refuted_coordinates`).
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Sequence

import z3

from mechanisms import float_model
from mechanisms.core import Measurement
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.measures import (FixedSmoothedMaxDivergence, MaxDivergence,
                                 ZeroConcentratedDivergence)
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import is_true
from obligations.kernel.code_checks import KNOWN_LAW_MODULE, one_body_no_randomness
from obligations.kernel.draws import agrees, fresh, read
from obligations.kernel.goals import (GOAL_SECONDS, bare, int_term, largest_move, map_at_least,
                                      prove, refuters, require, shown)
from obligations.kernel.noise_laws import LAWS, Law, worst_output
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, Statement, object_statements
from obligations.kernel.theorems import _KERNEL, Premise, PremiseKind, Refutation, Theorem

NOISE_RULE = "additive noise from a known law"
REFUTE_RULE = "exact loss of additive noise"
ROWS = 4
"""Datasets of ``0 .. ROWS`` rows are read on terms: the rule's bound."""

@dataclass(frozen=True)
class _Reading:
    """The function on one dataset: its output as a term of the rows and of the draw ``noise``."""

    output: Any
    law: Law
    parameter: Fraction
    noise: Any
    statistic: Any
    """What the draw was added to, when it was added to one int term once; else the output at
    ``N = 0``."""


def _read(rule: str, subject: str, function: Any, rows: Sequence[Any]) -> _Reading:
    """Run ``function`` on ``rows`` with the known samplers replaced by a term."""
    output, drawn = read(rule, f"the function of {subject} on {len(rows)} rows", function, rows)
    require(rule, len(drawn) == 1, f"the function of {subject} draws {len(drawn)} "
             f"times from a known sampler on {len(rows)} rows, not once")
    law, parameter, noise = drawn[0]
    output = int_term(output)
    require(rule, output is not None, f"the function of {subject} does not return an int on "
             f"{len(rows)} rows")
    added = [int_term(a) for a in noise.addends]
    statistic = added[0] if len(added) == 1 and added[0] is not None else \
        z3.substitute(output, (bare(noise), z3.IntVal(0)))
    return _Reading(output, LAWS[law], parameter, bare(noise), z3.simplify(statistic))


def _rows(n: int) -> list[Any]:
    return [float_model.int_parameter(f"row!{i}") for i in range(n)]


def _plain(rows: Sequence[Any]) -> list[Any]:
    return [bare(r) for r in rows]


def _check_shape(rule: str, subject: str, built: Any) -> AtomDomain:
    """The exact classes the rule covers; returns the row domain."""
    require(rule, type(built) is Measurement, f"{subject} is not a Measurement")
    require(rule, type(built.input_metric) is SymmetricDistance,
             f"the input metric of {subject} is not SymmetricDistance")
    domain = built.input_domain
    require(rule, type(domain) is VectorDomain and type(domain.element) is AtomDomain
             and domain.element.carrier is int and domain.min_size == 0,
             f"the input domain of {subject} is not a VectorDomain of int atoms of any length")
    require(rule, type(built.output_domain) is AtomDomain and built.output_domain.carrier is int,
             f"the output domain of {subject} is not an AtomDomain of int")
    one_body_no_randomness(rule, [built.function], f"the function of {subject}",
                           trusted=(KNOWN_LAW_MODULE,))
    return domain.element


def scalar_shape(rule: str, subject: str, built: Any) -> None:
    """One int in, under the absolute distance, one int out (the shape :mod:`.coordinate_noise`
    proves); the code checked as :func:`_check_shape` checks it."""
    require(rule, type(built) is Measurement and type(built.input_metric) is AbsoluteDistance
            and all(type(d) is AtomDomain and d.carrier is int
                    for d in (built.input_domain, built.output_domain)),
            f"{subject} is not a Measurement from one int under the absolute distance into ints")
    one_body_no_randomness(rule, [built.function], f"the function of {subject}",
                           trusted=(KNOWN_LAW_MODULE,))


def vector_shape(rule: str, subject: str, built: Any) -> None:
    """Vectors of ints of any length in and out (the other shape :mod:`.coordinate_noise`
    proves); the code checked as :func:`_check_shape` checks it."""
    require(rule, type(built) is Measurement and all(
        type(d) is VectorDomain and type(d.element) is AtomDomain and d.element.carrier is int
        and d.element.bounds is None and d.min_size == 0
        for d in (built.input_domain, built.output_domain)),
        f"{subject} is not a Measurement from vectors of ints of any length into the same")
    one_body_no_randomness(rule, [built.function], f"the function of {subject}",
                           trusted=(KNOWN_LAW_MODULE,))


def refutable_shape(subject: str, built: Any) -> None:
    """The shapes refuted: this rule's (datasets of ints), :func:`scalar_shape` or
    :func:`vector_shape` (under any metric)."""
    if type(getattr(built, "input_domain", None)) is AtomDomain:
        scalar_shape(REFUTE_RULE, subject, built)
    elif type(getattr(built, "output_domain", None)) is VectorDomain:
        vector_shape(REFUTE_RULE, subject, built)
    else:
        _check_shape(REFUTE_RULE, subject, built)


def _hard_rows(element: AtomDomain) -> list[int]:
    lower, upper = element.bounds if element.bounds is not None else (-(10 ** 20), 10 ** 20)
    values = {lower, upper, (lower + upper) // 2, *(v for v in (0, 1, -1) if lower <= v <= upper)}
    return sorted(values)


def _agrees(subject: str, built: Any, readings: Sequence[_Reading], element: AtomDomain) -> None:
    """On hard datasets of each size, seeded running calls (the draws recorded) give the
    output the term gives at those rows and that draw, a member of the output domain."""
    values = _hard_rows(element)
    for n, reading in enumerate(readings):
        for shift in range(len(values)):
            dataset = [values[(i + shift) % len(values)] for i in range(n)]
            agrees(NOISE_RULE, f"the function of {subject}", built.function, dataset,
                   reading.output, [(reading.law.name, reading.parameter, reading.noise)],
                   list(zip(_plain(_rows(n)), map(z3.IntVal, dataset))), built.output_domain)


def additive_noise(subject: str, built: Any) -> list[Theorem]:
    """Every standard statement of the one measurement ``built``; raises :class:`RuleRefused`
    naming the first premise that fails."""
    element = _check_shape(NOISE_RULE, subject, built)
    readings = [_read(NOISE_RULE, subject, built.function, _rows(n)) for n in range(ROWS + 1)]
    law, parameter = readings[0].law, readings[0].parameter
    require(NOISE_RULE, parameter > 0, f"the function of {subject} draws the {law.name} with "
            f"parameter {parameter}, which the sampler refuses")
    require(NOISE_RULE, all((r.law, r.parameter) == (law, parameter) for r in readings),
             f"the function of {subject} draws from another law or parameter on another number "
             "of rows")
    loss = law.losses.get(type(built.output_measure))
    require(NOISE_RULE, loss is not None, f"the {law.name} has no loss in "
             f"{type(built.output_measure).__name__} that this rule knows")
    _agrees(subject, built, readings, element)
    statistic = [r.statistic for r in readings]
    z = z3.Int("z")
    released = z3.substitute(readings[0].output, (readings[0].noise, z - statistic[0]))
    delta = _sensitivity(subject, statistic, element)
    for n, (reading, t) in enumerate(zip(readings, statistic)):
        rows = _plain(_rows(n))
        within = [is_true(element.contains(r)) for r in _rows(n)]
        prove(NOISE_RULE, f"{subject}: on {n} rows the output is h(T(x) + N)",
               lambda: z3.substitute(reading.output, (reading.noise, z - t)) == released, within)
        prove(NOISE_RULE, f"{subject}: on {n} rows the output is in the output domain",
               lambda: is_true(built.output_domain.contains(reading.output)), within)
        for i in range(n - 1):
            swapped = [*rows[:i], rows[i + 1], rows[i], *rows[i + 2:]]
            prove(NOISE_RULE, f"{subject}: T ignores the order of rows {i} and {i + 1} of {n}",
                   lambda: t == z3.substitute(t, *zip(rows, swapped)), within)
    _map_goal(subject, built, loss, law, parameter, delta)
    premises = [Premise(PremiseKind.CITES, law.cites),
                Premise(PremiseKind.BOUNDED, f"{subject}: the statistic read on datasets of at "
                                             f"most {ROWS} rows")]
    if loss.cites is not None:
        premises.append(Premise(PremiseKind.CITES, loss.cites))
    return [Theorem(_KERNEL, statement, NOISE_RULE, tuple(premises))
            for statement in object_statements(subject, built)]


def _sensitivity(subject: str, statistic: Sequence[Any], element: AtomDomain) -> int:
    """The largest move of ``T`` when one row is added to ``n < ROWS`` rows."""
    return max(largest_move(NOISE_RULE, f"{subject}: the move of T when a row is added to {n} rows",
                            statistic[n + 1] - statistic[n],
                            [is_true(element.contains(r)) for r in _rows(n + 1)])
               for n in range(len(statistic) - 1))


def _map_goal(subject: str, built: Any, loss: Any, law: Law, parameter: Fraction,
              delta: int) -> None:
    """``map(d) >= loss(d * delta)`` for every natural ``d``, the map's floats rounded; a loss
    the rule proves is first shown to bound the law's log-ratio at every output."""
    if loss.cites is None:
        a, b, y = z3.Ints("a b y")
        prove(NOISE_RULE, f"the {law.name}'s log-ratio at any output is at most its loss",
              lambda: law.log_ratio(y, a, b, parameter) <= loss.bound(z3.If(a < b, b - a, a - b),
                                                                     parameter))
    map_at_least(NOISE_RULE, subject, built, lambda d: loss.bound(d * delta, parameter),
                 f"the {law.name}'s loss at a shift of d_in * {delta}")


@dataclass(frozen=True)
class _Output:
    """``built``'s output on one dataset as a term ``output`` of one draw ``noise`` of ``law``
    (``law`` None: no draw, ``output`` a constant), proved on terms and checked on seeded runs."""

    output: Any
    law: Law | None
    parameter: Fraction
    noise: Any
    known: dict[int, Any] = field(default_factory=dict, compare=False)
    """The log-probabilities computed so far, by output."""

    def centre(self) -> int:
        """The output at ``N = 0``, a guess of where its law is centred."""
        return z3.simplify(z3.substitute(self.output, (self.noise, z3.IntVal(0)))).as_long()

    def log_probability(self, y: int) -> Any:
        """``ln Pr[output = y]`` up to the law's normaliser: ``-exponent(n)`` at the one draw
        ``n`` that gives ``y``, ``-inf`` when no draw does (0 or ``-inf`` for a constant);
        :data:`POSITIVE` when several draws give ``y`` (every integer has positive probability
        under both laws); None when Z3 does not decide."""
        if y not in self.known:
            self.known[y] = self._log_probability(y)
        return self.known[y]

    def _log_probability(self, y: int) -> Any:
        if self.law is None:
            return 0 if z3.simplify(self.output).eq(z3.IntVal(y)) else -math.inf
        solver = z3.Solver()
        solver.set("timeout", int(GOAL_SECONDS * 1000))
        solver.add(self.output == y)
        answer = solver.check()
        if answer == z3.unsat:
            return -math.inf  # no draw gives y
        if answer != z3.sat:
            return None
        draw = solver.model().eval(self.noise, model_completion=True)
        solver.add(self.noise != draw)
        again = solver.check()
        if again == z3.sat:
            return POSITIVE
        if again != z3.unsat:
            return None
        return -self.law.exponent(draw.as_long(), self.parameter)


POSITIVE = "positive"
"""A probability known to be positive, not computed."""


_LAWS: dict[int, dict[tuple[str, str], Any]] = {}
"""The laws computed so far, by ``id`` of a live object (dropped when it is collected), then by
dataset: a search tries many pairs that share datasets."""


def _law_of(subject: str, built: Any, dataset: Sequence[int] | int,
            computed: Callable[[str, Any, Any], Any] | None = None) -> Any:
    """``computed(subject, built, dataset)`` (:func:`_output_law` by default), once per object,
    input and kind of law."""
    if id(built) not in _LAWS:
        _LAWS[id(built)] = {}
        weakref.finalize(built, _LAWS.pop, id(built), None)
    known, computed = _LAWS[id(built)], computed or _output_law
    key = (computed.__name__, repr(dataset))
    if key not in known:
        known[key] = computed(subject, built, dataset)
    return known[key]


def _output_law(subject: str, built: Any, dataset: Sequence[int] | int) -> _Output:
    output, drawn = read(REFUTE_RULE, f"{subject} on {dataset}", built.function, dataset)
    require(REFUTE_RULE, len(drawn) <= 1, f"{subject} draws more than once on {dataset}")
    output = int_term(output)
    require(REFUTE_RULE, output is not None, f"{subject} does not return an int on {dataset}")
    law, parameter, noise = (LAWS[drawn[0][0]], *drawn[0][1:]) if drawn \
        else (None, Fraction(0), z3.Int("noise!none"))
    reading = _Output(output, law, parameter, bare(noise))
    require(REFUTE_RULE, z3.is_int_value(z3.simplify(z3.substitute(
        output, (reading.noise, z3.IntVal(0))))), f"{subject} on {dataset}: the output reads "
             "more than its draw")
    agrees(REFUTE_RULE, f"{subject} on {dataset}", built.function, dataset, output, drawn, [])
    return reading


def _refuted(statement: Statement, built: Any, dataset: Sequence[int] | int,
             other: Sequence[int] | int, d_in: int, call: str) -> Refutation:
    """At some output ``y`` reached by one draw on each side, ``ln(Pr[M(x) = y] /
    Pr[M(x') = y])`` exceeds ``map(d_in)``; ``statement`` is known to be about ``built``."""
    subject = call or statement.subject
    require(REFUTE_RULE, statement.claim is Claim.PRIVACY,
            f"the statement refuted is not the privacy of {subject}")
    refutable_shape(subject, built)
    measure = type(built.output_measure)
    require(REFUTE_RULE, measure in (MaxDivergence, ZeroConcentratedDivergence,
                                     FixedSmoothedMaxDivergence),
             f"{subject}: only a max divergence, zCDP or approximate DP is refuted")
    require(REFUTE_RULE, built.input_domain.member(fresh(dataset)) and
             built.input_domain.member(fresh(other)), f"{dataset} or {other} is not in the "
             f"input domain of {subject}")
    distance = built.input_metric.distance(fresh(dataset), fresh(other))
    require(REFUTE_RULE, isinstance(d_in, int) and distance <= d_in,
             f"{dataset} and {other} are at distance {distance} > {d_in}")
    stated = claimed = built.map(d_in)
    approximate = measure is FixedSmoothedMaxDivergence
    if approximate:
        require(REFUTE_RULE, isinstance(stated, tuple) and len(stated) == 2 and
                type(stated[1]) in (int, float, Fraction) and stated[1] == 0,
                f"map({d_in}) = {stated!r}: only approximate DP with delta 0 is refuted")
        claimed = stated[0]
    require(REFUTE_RULE, isinstance(claimed, (int, float, Fraction)) and math.isfinite(claimed),
             f"map({d_in}) = {stated!r}: {'its epsilon' if approximate else 'it'} is not a "
             "finite number")
    found = _refuted_at(statement, subject, built, dataset, other, distance, d_in, claimed)
    if not approximate:
        return found
    return Refutation(_KERNEL, statement, REFUTE_RULE, f"{found.witness}; map({d_in}) = "
                      f"{stated!r} is (epsilon, 0), and with delta 0 approximate DP bounds the "
                      f"log-ratio at every single output by epsilon ({PURE_AS_APPROXIMATE})",
                      found.loss, stated)


PURE_AS_APPROXIMATE = "Dwork and Roth 2014, Definition 2.4, with delta = 0"


def _refuted_at(statement: Statement, subject: str, built: Any, dataset: Sequence[int] | int,
                other: Sequence[int] | int, distance: Any, d_in: int,
                claimed: Any) -> Refutation:
    """:func:`_refuted` once the inputs and the claimed number are checked: by coordinates, in
    zCDP, or at one output (a max divergence, or approximate DP with delta 0)."""
    if type(built.output_domain) is VectorDomain:
        return _refuted_coordinates(statement, subject, built, dataset, other, distance, d_in,
                                    claimed)
    first, second = _law_of(subject, built, dataset), _law_of(subject, built, other)
    require(REFUTE_RULE, (first.law, first.parameter) == (second.law, second.parameter),
             f"{subject} draws from other laws on {dataset} and {other}")
    if type(built.output_measure) is ZeroConcentratedDivergence:
        return _refuted_zcdp(statement, subject, (dataset, first), (other, second),
                             distance, d_in, claimed)
    for (x, p), (x2, q) in (((dataset, first), (other, second)),
                            ((other, second), (dataset, first))):
        candidates = [p.centre(), q.centre()]
        if p.law is not None:
            candidates.append(worst_output(p.law, p.centre(), q.centre(), p.parameter,
                                           Fraction(claimed)))
        for y in dict.fromkeys(candidates):
            one, two = p.log_probability(y), q.log_probability(y)
            if one in (None, -math.inf) or two is None:
                continue
            if two == -math.inf:
                loss: Any = math.inf  # y is reachable from x and not from x'
            elif POSITIVE in (one, two):
                continue
            else:
                loss = one - two
            if loss > Fraction(claimed):
                return _refutation(statement, subject, x, x2, distance, d_in, y, loss,
                                   claimed, p)
    raise RuleRefused(REFUTE_RULE, f"no output of {subject} on {dataset} and {other} where the "
                      f"log-ratio of the two laws exceeds map({d_in}) = {claimed}")


def _refuted_zcdp(statement: Statement, subject: str, one: tuple[Any, _Output],
                  two: tuple[Any, _Output], distance: Any, d_in: int, claimed: Any) -> Refutation:
    """zCDP claims ``D_alpha(M(x) || M(x')) <= rho * alpha`` for every ``alpha > 1``. For outputs
    ``c + N`` and ``c' + N``, ``N`` discrete Gaussian of ``sigma``, and integer ``c, c'``, the
    order-2 Renyi divergence is exactly ``(c - c')^2 / sigma^2``: ``sum_y P(y)^2 / Q(y) =
    exp(t^2 / sigma^2) * sum_y exp(-(y - m)^2 / (2 sigma^2)) / Z`` with ``m = 2c - c'`` an integer,
    so the last sum is the normaliser ``Z`` itself. ``rho < t^2 / (2 sigma^2)`` is then false."""
    (x, p), (x2, q) = one, two
    require(REFUTE_RULE, p.law is LAWS["discrete Gaussian"],
            f"{subject}: only discrete Gaussian noise is refuted in zCDP")
    for output in (p, q):
        centre = output.centre()
        prove(REFUTE_RULE, f"{subject}: the output is {centre} + N",
              lambda: output.output == centre + output.noise)
    shift = p.centre() - q.centre()
    divergence = Fraction(shift * shift) / (p.parameter * p.parameter)
    require(REFUTE_RULE, divergence / 2 > Fraction(claimed), f"D_2 / 2 = {divergence / 2} does "
            f"not exceed map({d_in}) = {claimed}")
    witness = (f"{subject}: {shown(x)} and {shown(x2)} at distance {distance} <= d_in = {d_in}; "
               f"the outputs are "
               f"{p.centre()} + N and {q.centre()} + N, N of the discrete Gaussian law of "
               f"parameter {p.parameter}; their order-2 Renyi divergence is exactly "
               f"({shift})^2 / ({p.parameter})^2 = {divergence}, so rho >= {divergence / 2} > "
               f"map({d_in}) = {claimed!r}")
    return Refutation(_KERNEL, statement, REFUTE_RULE, witness, divergence / 2, claimed)


def _coordinates(subject: str, built: Any, v: list[int]) -> list[_Output]:
    """``built``'s output on the vector ``v``, each coordinate ``c_i + N_i`` with a draw of its
    own (proved on terms, checked on seeded runs)."""
    output, drawn = read(REFUTE_RULE, f"{subject} on {v}", built.function, v)
    require(REFUTE_RULE, isinstance(output, list) and len(output) == len(drawn) == len(v),
            f"{subject} on {v} does not return one coordinate, drawn once, per coordinate")
    readings = []
    for i, (term, (name, parameter, noise)) in enumerate(zip(map(int_term, output), drawn)):
        require(REFUTE_RULE, term is not None, f"{subject} on {v}: coordinate {i} is no int")
        reading = _Output(term, LAWS[name], parameter, bare(noise))
        centre = z3.simplify(z3.substitute(term, (reading.noise, z3.IntVal(0))))
        require(REFUTE_RULE, z3.is_int_value(centre), f"{subject} on {v}: coordinate {i} reads "
                "more than its own draw")
        prove(REFUTE_RULE, f"{subject} on {v}: coordinate {i} is {centre} + N_{i}",
              lambda: term == centre + reading.noise)
        readings.append(reading)
    agrees(REFUTE_RULE, f"{subject} on {v}", built.function, v, [r.output for r in readings],
           drawn, [])
    return readings


def _refuted_coordinates(statement: Statement, subject: str, built: Any, x: list[int],
                         x2: list[int], distance: Any, d_in: int, claimed: Any) -> Refutation:
    """Vectors released coordinate by coordinate as ``c_i + N_i``, independent draws: the laws
    are products, so the log-ratio at an output adds over coordinates (max divergence), and so
    does the order-2 Renyi divergence (zCDP: ``sum (c_i - c'_i)^2 / sigma^2`` exactly, as in
    :func:`_refuted_zcdp`)."""
    one, two = _law_of(subject, built, x, _coordinates), _law_of(subject, built, x2, _coordinates)
    require(REFUTE_RULE, [(p.law, p.parameter) for p in one] == [(q.law, q.parameter) for q in two],
            f"{subject} draws from other laws on {x} and {x2}")
    centres = [(p.centre(), q.centre()) for p, q in zip(one, two)]
    if type(built.output_measure) is ZeroConcentratedDivergence:
        require(REFUTE_RULE, all(p.law is LAWS["discrete Gaussian"] for p in one),
                f"{subject}: only discrete Gaussian noise is refuted in zCDP")
        loss = sum(Fraction((c - c2) ** 2) / p.parameter ** 2 for (c, c2), p in zip(centres, one)) / 2
        how = (f"their order-2 Renyi divergence is exactly the sum of (c_i - c'_i)^2 / sigma^2, so "
               f"rho >= {loss}")
    else:
        y = [worst_output(p.law, c, c2, p.parameter, Fraction(claimed))
             for (c, c2), p in zip(centres, one)]
        loss = sum((p.law.log_ratio(yi, c, c2, p.parameter)
                    for yi, (c, c2), p in zip(y, centres, one)), Fraction(0))
        how = f"ln(Pr[M({shown(x)}) = {y}] / Pr[M({shown(x2)}) = {y}]) = {loss}"
    require(REFUTE_RULE, loss > Fraction(claimed), f"{subject}: the loss {loss} on {x} and {x2} "
            f"does not exceed map({d_in}) = {claimed}")
    witness = (f"{subject}: {shown(x)} and {shown(x2)} at distance {distance} <= d_in = {d_in}; "
               f"the outputs are {[c for c, _ in centres]} + N and {[c for _, c in centres]} + N, "
               f"N of independent coordinates of the {one[0].law.name} law of parameter "
               f"{one[0].parameter}; {how} > map({d_in}) = {claimed!r}")
    return Refutation(_KERNEL, statement, REFUTE_RULE, witness, loss, claimed)


def _refutation(statement: Statement, subject: str, x: Any, x2: Any, distance: Any, d_in: int,
                y: int, loss: Any, claimed: Any, law: _Output) -> Refutation:
    exactly = f" (exactly {Fraction(claimed)})" if isinstance(claimed, float) and \
        Fraction(claimed) != Fraction(repr(claimed)) else ""
    x, x2 = shown(x), shown(x2)
    reached = (f"reaching {y} from {x} and not from {x2}" if loss == math.inf
               else f"reaching {y} at one draw on each side")
    how = (f"the output is a function of one draw N of the {law.law.name} law of parameter "
           f"{law.parameter}, {reached}" if law.law is not None
           else "no draw: each output is a point mass")
    witness = (f"{subject}: {x} and {x2} at distance {distance} <= d_in = {d_in}; {how}; "
               f"ln(Pr[M({x}) = {y}] / Pr[M({x2}) = {y}]) = {loss} > map({d_in}) = "
               f"{claimed!r}{exactly}")
    return Refutation(_KERNEL, statement, REFUTE_RULE, witness, loss, claimed)


refute_object, refute_constructor = refuters(REFUTE_RULE, _refuted)
"""The refutation at two inputs (datasets, or ints) of the privacy of one object, or of a
constructor at arguments it admits."""
