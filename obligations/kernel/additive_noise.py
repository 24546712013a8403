"""The additive-noise rule, for one built measurement (its refutation is
:mod:`obligations.refuters.additive_noise`).

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
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import z3

from mechanisms import float_model
from mechanisms.core import Measurement
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import is_true
from obligations.kernel.code_checks import KNOWN_LAW_MODULE, one_body_no_randomness
from obligations.kernel.draws import agrees, read, statistic
from obligations.kernel.goals import (bare, int_term, largest_move, map_at_least, prove,
                                      require)
from obligations.kernel.noise_laws import LAWS, Law
from obligations.kernel.statements import object_statements
from obligations.kernel.theorems import _KERNEL, Premise, PremiseKind, Theorem

NOISE_RULE = "additive noise from a known law"
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
    return _Reading(output, LAWS[law], parameter, bare(noise),
                    z3.simplify(statistic(output, noise)))


def _rows(n: int) -> list[Any]:
    return [float_model.int_parameter(f"row!{i}") for i in range(n)]


def _plain(rows: Sequence[Any]) -> list[Any]:
    return [bare(r) for r in rows]


def dataset_shape(rule: str, subject: str, built: Any) -> AtomDomain:
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
    proves); the code checked as :func:`dataset_shape` checks it."""
    require(rule, type(built) is Measurement and type(built.input_metric) is AbsoluteDistance
            and all(type(d) is AtomDomain and d.carrier is int
                    for d in (built.input_domain, built.output_domain)),
            f"{subject} is not a Measurement from one int under the absolute distance into ints")
    one_body_no_randomness(rule, [built.function], f"the function of {subject}",
                           trusted=(KNOWN_LAW_MODULE,))


def vector_shape(rule: str, subject: str, built: Any) -> None:
    """Vectors of ints of any length in and out (the other shape :mod:`.coordinate_noise`
    proves); the code checked as :func:`dataset_shape` checks it."""
    require(rule, type(built) is Measurement and all(
        type(d) is VectorDomain and type(d.element) is AtomDomain and d.element.carrier is int
        and d.element.bounds is None and d.min_size == 0
        for d in (built.input_domain, built.output_domain)),
        f"{subject} is not a Measurement from vectors of ints of any length into the same")
    one_body_no_randomness(rule, [built.function], f"the function of {subject}",
                           trusted=(KNOWN_LAW_MODULE,))


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
    element = dataset_shape(NOISE_RULE, subject, built)
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
    statistics = [r.statistic for r in readings]
    z = z3.Int("z")
    released = z3.substitute(readings[0].output, (readings[0].noise, z - statistics[0]))
    delta = _sensitivity(subject, statistics, element)
    for n, (reading, t) in enumerate(zip(readings, statistics)):
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


def _sensitivity(subject: str, statistics: Sequence[Any], element: AtomDomain) -> int:
    """The largest move of ``T`` when one row is added to ``n < ROWS`` rows."""
    return max(largest_move(NOISE_RULE, f"{subject}: the move of T when a row is added to {n} rows",
                            statistics[n + 1] - statistics[n],
                            [is_true(element.contains(r)) for r in _rows(n + 1)])
               for n in range(len(statistics) - 1))


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
