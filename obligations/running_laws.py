"""The exact law of a running measurement at concrete parameters, path by path
(:mod:`obligations.path_enumeration` with the probability a number), and the replays that build a
constructor at a counterexample's parameters and compare that law, or seeded runs, with what was
claimed: shared by the proofs of the boolean and bit-vector randomized responses."""

from __future__ import annotations

import copy
import dataclasses
import math
import random
from fractions import Fraction
from typing import Any, Callable, Iterable

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from obligations.base import Replay
from obligations.path_enumeration import (Context, NotEnumerable, OutsidePathMethod, Path, Rational,
                                          admitted_build_report, built, enumerate_paths,
                                          enumerated_law, float_at_least)
from obligations.reports import constructor_call, literal, plain_report
from obligations.witnesses import Misbehaviour, misbehaviour_reproducer


INPUTS = (True, False)
"""The members of ``AtomDomain(bool)``: every input the proof must cover."""


def outcomes(law: dict[Any, Any]) -> dict[tuple[str, Any], Any]:
    """``law`` without its zero entries, keyed by ``(type name, value)``: an ``int`` 1 is not the
    output ``True`` (``1 == True`` in Python, so a plain dict would merge them)."""
    return {(type(y).__name__, y): q for y, q in law.items() if q}


def running_measurement(m: Measurement, context: Context) -> Measurement:
    """``m`` with its function replaced by a copy whose ``prob`` field carries the same value as a
    :class:`~obligations.make_randomized_response.Rational`, so that ``Fraction(prob)`` and the
    exact Bernoulli run on it (a solver term, or a concrete rational)."""
    f = m.function
    if "prob" not in getattr(f, "__dict__", {}):
        raise OutsidePathMethod(f"{type(f).__qualname__} has no prob field")
    clone = copy.copy(f)
    object.__setattr__(clone, "prob", Rational(ops.exact(f.prob), context))
    try:
        return dataclasses.replace(m, function=clone)
    except TypeError as error:
        raise OutsidePathMethod(f"the measurement cannot be rebuilt around the copy: {error}") \
            from None


def exact_paths(m: Measurement, arg: Any) -> list[Path]:
    """Every path of the running ``m(arg, rng)`` at its concrete ``prob``: each exact coin on both
    sides with its probability, each uniform draw on each value; :class:`NotEnumerable` if the
    code leaves the path method."""
    context = Context([])
    try:
        running = running_measurement(m, context)
        return enumerate_paths(lambda rng: running(arg, rng), context)
    except OutsidePathMethod as outside:
        raise NotEnumerable(f"the running sampler leaves the path method: {outside}") from None


def exact_distribution(m: Measurement, arg: Any) -> dict[Any, Fraction]:
    """The running measurement's exact output law on ``arg`` (:func:`exact_paths`, summed per
    output); the code's own exception if a path raises. Enumerated twice: a call that draws
    elsewhere than from its ``rng`` or keeps state is :class:`NotEnumerable`."""
    return enumerated_law(lambda: exact_paths(m, arg), outcomes)


def replayed_probs(counterexample: dict[str, Any]) -> list[float]:
    """``prob`` values to replay: the model's (rounded up to a float), then 1/2, 3/4, 0.6, 0.9,
    0.99, the float after 1/2 and the float before 1."""
    found: list[float] = []
    if "p" in counterexample:
        q = Fraction(counterexample["p"])
        if 0 <= q <= 2:
            found.append(float_at_least(q))
    found += [0.5, 0.75, 0.6, 0.9, 0.99, math.nextafter(0.5, 1.0), math.nextafter(1.0, 0.0)]
    return list(dict.fromkeys(found))


def built_at_prob(constructor: Constructor, prob: float) -> tuple[Measurement | None, str]:
    """``constructor(prob=prob)``, or None and the error it raised."""
    return built(constructor, prob=prob)


def drawn_law(m: Measurement, arg: Any,
              law: Callable[[Measurement, Any], dict[Any, Fraction]] = exact_distribution
              ) -> tuple[dict[Any, Fraction] | None, str]:
    """The exact law on ``arg`` (by ``law``, this module's enumeration unless told), or None and
    why none: a path raises (a violation: no output), or the code is not enumerable (nothing to
    confirm: ``""``). Shared with ``make_randomized_response_bitvec``."""
    try:
        return law(m, arg), ""
    except NotEnumerable:
        return None, ""
    except Exception as error:  # the real function raises on a draw
        return None, f"on input {arg!r} a draw raises {type(error).__name__}: {error}"


def output_violation(m: Measurement, inputs: Iterable[Any] = INPUTS,
                     law: Callable[[Measurement, Any], dict[Any, Fraction]] = exact_distribution
                     ) -> str:
    """A raise or an output outside ``m``'s output domain on one of ``inputs`` (both bools unless
    told), or ``""``. Shared with ``make_randomized_response_bitvec``."""
    for arg in inputs:
        drawn, raised = drawn_law(m, arg, law)
        if drawn is None:
            return raised
        outside = [y for y in drawn if not m.output_domain.member(y)]
        if outside:
            return f"on input {arg!r} the function returns {literal(outside[0])} (probability " \
                   f"{drawn[outside[0]]}), not in the output domain {m.output_domain}"
    return ""


SEEDED_RUNS = 20
"""Seeded runs of the real call per input that an output replay tries before the exact law."""


def seeded_misbehaviour(m: Measurement, inputs: Iterable[Any] = INPUTS,
                        runs: int = SEEDED_RUNS) -> Misbehaviour | None:
    """The first seeded run of the real call (``random.Random(seed)``, ``runs`` seeds per input)
    that raises or returns outside ``m``'s output domain: a coin whose probability leaves [0, 1]
    raises in the exact Bernoulli, where the enumeration, which carries the probability
    symbolically, stops. Shared with ``make_randomized_response_bitvec``."""
    for arg in inputs:
        for seed in range(runs):
            try:
                output = m(arg, random.Random(seed))
            except Exception as error:  # no output at all: the violation
                return Misbehaviour(arg, seed, f"raised {type(error).__name__}: {error}")
            if not m.output_domain.member(output):
                return Misbehaviour(arg, seed, f"returned {literal(output)}, not in "
                                    f"{m.output_domain}")
    return None


def seeded_output_replay(constructor: Constructor, exact: Callable[[dict], Replay],
                         parameters: Callable[[dict[str, Any]], list[Any]] | None = None,
                         arguments: Callable[[Any], dict[str, Any]] | None = None,
                         build: Callable[[Constructor, Any], tuple[Measurement | None, str]]
                         | None = None,
                         misbehaviour: Callable[[Measurement, Any], Misbehaviour | None]
                         | None = None) -> Callable[[dict], Replay]:
    """Seeded runs of the real call at each point of a counterexample (``prob`` unless told, as in
    :func:`replay_constructor`; ``misbehaviour`` finds a bad run at a point,
    :func:`seeded_misbehaviour` on both bools unless told): confirmed on the first raise or output
    outside the domain, else the replay ``exact``. Shared with
    ``make_randomized_response_bitvec``."""
    points = parameters or replayed_probs
    shown_at = arguments or (lambda prob: {"prob": prob})
    built_at = build or built_at_prob
    wrong_at = misbehaviour or (lambda m, prob: seeded_misbehaviour(m))

    def replay(counterexample: dict[str, Any]) -> Replay:
        for point in points(counterexample):
            m, _ = built_at(constructor, point)
            wrong = wrong_at(m, point) if m is not None else None
            if wrong is not None:
                shown = shown_at(point)
                return plain_report(True, f"{constructor_call(constructor, **shown)} on "
                                    f"{wrong.data!r}", f"the running function {wrong.what}",
                                    *misbehaviour_reproducer(constructor, shown, m, wrong))
        return exact(counterexample)
    return replay


def replay_constructor(constructor: Constructor,
                       parameters: Callable[[dict[str, Any]], list[Any]] | None = None,
                       arguments: Callable[[Any], dict[str, Any]] | None = None,
                       build: Callable[[Constructor, Any], tuple[Measurement | None, str]]
                       | None = None) -> Callable[[dict], Replay]:
    """Build at the model's parameters (``prob`` unless told: ``parameters`` reads the points of a
    counterexample, ``arguments`` a point's keyword arguments, ``build`` builds at a point):
    confirmed when the preconditions admit them (no typed error) yet the constructor fails inside
    its body (``ln_up`` of an argument below 1, or a division by ``1 - p = 0``). Shared with
    ``make_randomized_response_bitvec``."""
    points = parameters or replayed_probs
    shown = arguments or (lambda prob: {"prob": prob})
    built_at = build or built_at_prob

    def replay(counterexample: dict[str, Any]) -> Replay:
        for point in points(counterexample)[:1]:
            named = shown(point)
            call = constructor_call(constructor, **named)
            try:
                constructor.validate(**named)
                admitted = all(ops.truthy(c) for c in constructor.assumptions(**named))
            except Exception:  # refused before the preconditions: not admitted
                admitted = False
            if not admitted:
                return plain_report(False, call, "the preconditions refuse these parameters")
            return admitted_build_report(constructor, call, *built_at(constructor, point))
        return plain_report(False, "no parameters to replay")
    return replay
