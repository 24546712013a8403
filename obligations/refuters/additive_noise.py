"""Refutation *exact loss of additive noise*: the privacy statement of a measurement that adds one
draw of a known law (:mod:`obligations.kernel.noise_laws`) is refuted exactly.

On two concrete inputs (datasets, or two ints of a measurement under the absolute distance, the
shape of :mod:`obligations.kernel.coordinate_noise`) the output is ``c + N`` and ``c' + N``
(proved on the running code, checked on seeded runs), so the log-ratio of their laws at one
output is a rational the map must reach; on two vectors of ints, or one int released as a tuple
(a composition of noise measurements), each coordinate is ``c_i + N_i`` with a draw of its own,
and the losses of the coordinates add (:func:`_refuted_coordinates`).
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Sequence

import z3

from mechanisms.core import Measurement
from mechanisms.domains import AtomDomain, ProductDomain, VectorDomain
from mechanisms.measures import (FixedSmoothedMaxDivergence, MaxDivergence,
                                 ZeroConcentratedDivergence)
from mechanisms.metrics import AbsoluteDistance
from obligations.kernel.additive_noise import dataset_shape, scalar_shape, vector_shape
from obligations.kernel.code_checks import KNOWN_LAW_MODULE, one_body_no_randomness
from obligations.kernel.draws import agrees, fresh, read
from obligations.kernel.goals import GOAL_SECONDS, bare, int_term, prove, require
from obligations.kernel.noise_laws import LAWS, Law
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, Statement
from obligations.kernel.theorems import _REFUTER, Refutation
from obligations.refuters.base import refuters, shown

REFUTE_RULE = "exact loss of additive noise"


def product_shape(subject: str, built: Any) -> None:
    """One int in under the absolute distance, a tuple of ints out (a composition of noise
    measurements of one int); the code checked as the kernel's shapes check it."""
    require(REFUTE_RULE, type(built) is Measurement and type(built.input_metric) is
            AbsoluteDistance and type(built.input_domain) is AtomDomain and
            built.input_domain.carrier is int and type(built.output_domain) is ProductDomain and
            all(type(d) is AtomDomain and d.carrier is int
                for d in built.output_domain.components),
            f"{subject} is not a Measurement from one int under the absolute distance into tuples "
            "of ints")
    one_body_no_randomness(REFUTE_RULE, [built.function], f"the function of {subject}",
                           trusted=(KNOWN_LAW_MODULE,))


def refutable_shape(subject: str, built: Any) -> None:
    """The shapes refuted: datasets of ints (:func:`~obligations.kernel.additive_noise.
    dataset_shape`), one int into one (``scalar_shape``) or into a tuple (:func:`product_shape`),
    vectors of ints (``vector_shape``, under any metric)."""
    if type(getattr(built, "output_domain", None)) is ProductDomain:
        product_shape(subject, built)
    elif type(getattr(built, "input_domain", None)) is AtomDomain:
        scalar_shape(REFUTE_RULE, subject, built)
    elif type(getattr(built, "output_domain", None)) is VectorDomain:
        vector_shape(REFUTE_RULE, subject, built)
    else:
        dataset_shape(REFUTE_RULE, subject, built)


def worst_output(law: Law, centre: int, other: int, parameter: Fraction, above: Fraction) -> int:
    """An integer output ``y`` at which ``law.log_ratio(y, centre, other)`` exceeds ``above``
    when one exists (``centre != other``): the centre for the discrete Laplace, whose log-ratio
    is largest there; for the discrete Gaussian, whose log-ratio ``(c - c')(2y - c - c') /
    (2 sigma^2)`` is linear in ``y``, far enough on the centre's side."""
    if law.name == "discrete Laplace" or centre == other:
        return centre
    reach = Fraction(above) * 2 * parameter ** 2 / abs(centre - other)  # |2y - c - c'| > reach
    middle = Fraction(centre + other, 2)
    if centre > other:
        return math.floor(middle + reach / 2) + 1
    return math.ceil(middle - reach / 2) - 1


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
    return Refutation(_REFUTER, statement, REFUTE_RULE, f"{found.witness}; map({d_in}) = "
                      f"{stated!r} is (epsilon, 0), and with delta 0 approximate DP bounds the "
                      f"log-ratio at every single output by epsilon ({PURE_AS_APPROXIMATE})",
                      found.loss, stated)


PURE_AS_APPROXIMATE = "Dwork and Roth 2014, Definition 2.4, with delta = 0"


def _refuted_at(statement: Statement, subject: str, built: Any, dataset: Sequence[int] | int,
                other: Sequence[int] | int, distance: Any, d_in: int,
                claimed: Any) -> Refutation:
    """:func:`_refuted` once the inputs and the claimed number are checked: by coordinates, in
    zCDP, or at one output (a max divergence, or approximate DP with delta 0)."""
    if type(built.output_domain) in (VectorDomain, ProductDomain):
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
    return Refutation(_REFUTER, statement, REFUTE_RULE, witness, divergence / 2, claimed)


def _coordinates(subject: str, built: Any, v: list[int] | int) -> list[_Output]:
    """``built``'s output on ``v`` (a vector, or one int for a tuple of coordinates), each
    coordinate ``c_i + N_i`` with a draw of its own (proved on terms, checked on seeded runs)."""
    output, drawn = read(REFUTE_RULE, f"{subject} on {v}", built.function, v)
    product = type(built.output_domain) is ProductDomain
    count = len(built.output_domain.components) if product else len(v)
    require(REFUTE_RULE, type(output) is (tuple if product else list) and
            len(output) == len(drawn) == count,
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
    agrees(REFUTE_RULE, f"{subject} on {v}", built.function, v,
           type(output)(r.output for r in readings), drawn, [])
    return readings


def _refuted_coordinates(statement: Statement, subject: str, built: Any, x: list[int],
                         x2: list[int], distance: Any, d_in: int, claimed: Any) -> Refutation:
    """Vectors (or tuples) released coordinate by coordinate as ``c_i + N_i``, independent draws
    (laws and parameters may differ by coordinate): the laws
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
    laws = {(p.law.name, p.parameter) for p in one}
    drawn = (f"the {one[0].law.name} law of parameter {one[0].parameter}" if len(laws) == 1 else
             "the laws " + ", ".join(f"{p.law.name} of parameter {p.parameter}" for p in one))
    witness = (f"{subject}: {shown(x)} and {shown(x2)} at distance {distance} <= d_in = {d_in}; "
               f"the outputs are {[c for c, _ in centres]} + N and {[c for _, c in centres]} + N, "
               f"N of independent coordinates of {drawn}; {how} > map({d_in}) = {claimed!r}")
    return Refutation(_REFUTER, statement, REFUTE_RULE, witness, loss, claimed)


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
    return Refutation(_REFUTER, statement, REFUTE_RULE, witness, loss, claimed)


refute_object, refute_constructor = refuters(REFUTE_RULE, _refuted)
"""The refutation at two inputs (datasets, or ints) of the privacy of one object, or of a
constructor at arguments it admits."""
