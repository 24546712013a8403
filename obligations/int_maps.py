"""Obligation ``<prefix>.map_rounding`` for maps of integer parameters (int sums, count, resize).

In Python an integer map is exact only while it stays in ``int``: ``d_in * (U - L) / 2`` is a true
division, a float rounded to nearest, which can fall below the exact value once it passes
``2^53``; ``d_in * 0.5`` or ``1.0 / n`` are float operations too. The map is run on
:class:`mechanisms.float_model.IntTerm` parameters and ``d_in`` (Z3 integers with Python's
arithmetic) under the rounding model and under the exact model (:mod:`obligations.rounding`):
an all-integer map is the same term under both and is proved; a map that goes through a float
must be rounded up (``float_up``, ``mul_up``, ...) to be proved.

A refutation is replayed on large integers: the real map at ``d_in`` against its exact value (the
same code on Z3 numerals, read exactly); where ``pair`` gives two inputs at distance ``d_in`` of a
size that can be built, their observed distance above the map confirms it as a stability
violation; otherwise the map's value below the exact one is what is confirmed (and the report
says no pair of buildable size realizes it).
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from typing import Any, Callable, Iterator

import z3

from mechanisms import float_model
from mechanisms.core import Constructor
from mechanisms.errors import DPCertError
from obligations.base import ComputedGoal, Decision, Obligation, Replay
from obligations.reports import (claim_assertion, constructor_report, import_line, literal,
                                 literal_imports, plain_report, reproducer, show)
from obligations.rounding import map_rounding_obligation
from obligations.symbols import natural_int

Pair = Callable[[Any, dict[str, Any], int], "tuple[list[Any], list[Any]] | None"]
"""``pair(built, arguments, d_in)``: two inputs at symmetric distance ``<= d_in`` whose outputs
are as far apart as the exact map allows, or ``None`` when none of buildable size exists."""
Candidates = Callable[[dict[str, Any], random.Random], Iterator[tuple[dict[str, Any], int]]]

REPLAY_TRIES = 300
LARGE = (2 ** 53 + 1, 2 ** 53 + 3, 2 ** 54 + 2, 2 ** 54 + 6, 3 * 2 ** 53 + 1, 2 ** 60 + 1,
         2 ** 64 + 3, 10 ** 17 + 1)
"""Integers above ``2^53`` that no float holds: where a map rounded to nearest can drop."""


def _numeral(value: Any) -> Any:
    """An int as a Z3 integer numeral with Python's int semantics, a float as the Z3 real numeral
    of the rational it denotes; anything else (a type, a string) unchanged."""
    if isinstance(value, int) and not isinstance(value, bool):
        return float_model.as_int(z3.IntVal(value))
    if isinstance(value, float):
        return float_model.float_value(z3.RealVal(Fraction(value)))
    return value


def exact_map(constructor: Constructor, arguments: dict[str, Any], d_in: int) -> Fraction | None:
    """The map's exact value: the same code on Z3 numerals (ints with Python's int semantics,
    floats as the rationals they denote), no rounding (:func:`float_model.exact_model`),
    simplified to a rational; ``None`` when it does not simplify to one (an uninterpreted
    function)."""
    with float_model.exact_model():
        value = constructor.build(**{k: _numeral(v) for k, v in arguments.items()}).map(
            _numeral(d_in))
    value = z3.simplify(float_model.plain(value) if z3.is_expr(value) else z3.RealVal(value))
    if z3.is_int_value(value):
        return Fraction(value.as_long())
    if not z3.is_rational_value(value):
        return None
    return Fraction(value.numerator_as_long(), value.denominator_as_long())


def large_candidates(integers: tuple[str, ...], fixed: dict[str, Any],
                     admissible: Callable[[dict[str, Any]], dict[str, Any]] = dict) -> Candidates:
    """The model's own integers, then large values (``LARGE``, and seeded ones of 54 to 70 bits)
    for each of ``integers``, with small or ``LARGE`` ``d_in``; ``admissible`` adjusts a choice (e.g. orders
    the bounds)."""
    def candidates(model: dict[str, Any], rng: random.Random
                   ) -> Iterator[tuple[dict[str, Any], int]]:
        if all(name in model for name in integers):
            yield admissible({**{n: int(model[n]) for n in integers}, **fixed}), \
                int(model.get("d_in", 1))
        while True:
            chosen = {n: rng.choice([0, 1, -1, rng.choice(LARGE), -rng.choice(LARGE),
                                     rng.getrandbits(rng.randint(54, 70)) | 1])
                      for n in integers}
            yield admissible({**chosen, **fixed}), rng.choice([1, 2, 3, 4, 6, rng.choice(LARGE),
                                                              int(model.get("d_in", 2) or 2)])
    return candidates


Below = tuple[Any, dict[str, Any], int, Any, Fraction]
"""``(built, arguments, d_in, map(d_in) as computed, exact value)`` with the computed map below."""


def _first_below(constructor: Constructor, candidates: Candidates, model: dict[str, Any]
                 ) -> Below | None:
    """The first of ``REPLAY_TRIES`` candidates on which the real map falls below its exact
    value, or ``None``."""
    rng = random.Random(0)
    for count, (arguments, d_in) in enumerate(candidates(model, rng)):
        if count >= REPLAY_TRIES:
            break
        try:
            built = constructor(**arguments)
            code = built.map(d_in)
        except (DPCertError, ArithmeticError):
            continue  # outside the preconditions, or an overflow before any map value
        exact = exact_map(constructor, arguments, d_in)
        if exact is not None and Fraction(code) < exact:
            return built, arguments, d_in, code, exact
    return None


def replay_int_map(constructor: Constructor, candidates: Candidates, pair: Pair
                   ) -> Callable[[dict], Replay]:
    """Integers on which the real map falls below its exact value, confirmed by an observed
    distance above the map where ``pair`` builds one."""
    def replay(model: dict[str, Any]) -> Replay:
        found = _first_below(constructor, candidates, model)
        if found is None:
            return plain_report(False, f"no integers found (of {REPLAY_TRIES} tried) on which "
                                       "the map falls below its exact value")
        built, arguments, d_in, code, exact = found
        inputs = pair(built, arguments, d_in)
        if inputs is not None:
            v, w = inputs
            distance = built.input_metric.distance(v, w)
            observed = built.output_metric.distance(built(v), built(w))
            if Fraction(observed) > Fraction(code):
                return constructor_report(constructor, arguments, v, w, distance, code,
                                          observed, True)
        return plain_report(
            True, f"the map rounds below its exact value: {constructor.name}("
            + ", ".join(f"{k}={show(v)}" for k, v in arguments.items()) + ")",
            f"d_in = {d_in}", f"map(d_in) = {code!r} (computed)", f"exact value = {exact}",
            "no pair of inputs of buildable size at this d_in shows it as a distance",
            *reproducer(import_line(constructor), *literal_imports(arguments),
                        "from obligations.int_maps import exact_map",
                        f"arguments = {literal(arguments)}",
                        f"computed = {constructor.name}(**arguments).map({literal(d_in)})",
                        f"exact = exact_map({constructor.name}, arguments, {literal(d_in)})",
                        claim_assertion("Fraction(computed) >= exact",
                                        f"map({literal(d_in)}) = {{computed!r}} (computed) is "
                                        "below its exact value {exact}")))
    return replay


def running_map_goal(constructor: Constructor, candidates: Candidates,
                     replay: Callable[[dict], Replay]) -> ComputedGoal:
    """Goal: the map run on numbers (the body that runs) is at or above the same code on solver
    numerals (the body the symbolic goal proves), at ``REPLAY_TRIES`` seeded parameters (ints,
    large ones included, or floats: whatever ``candidates`` yields). A map that branches on solver terms (two bodies) and drops below on
    numbers is refuted here, and ``replay`` shows the violation; this evaluates, it proves
    nothing beyond the values tried."""
    def decide() -> Decision:
        found = _first_below(constructor, candidates, {})
        if found is None:
            return Decision(True, detail=f"at or above on {REPLAY_TRIES} seeded parameters")
        _, arguments, d_in, code, exact = found
        return Decision(False, {**arguments, "d_in": d_in},
                        f"map({d_in}) = {code!r} on numbers, below {exact} on solver numerals")
    return ComputedGoal(f"the map run on numbers is not below the code on solver numerals, at "
                        f"{REPLAY_TRIES} seeded parameters", "exact", decide, replay)


def int_map_rounding(constructor: Constructor, prefix: str, formula: str,
                     integers: tuple[str, ...], fixed: dict[str, Any], candidates: Candidates,
                     pair: Pair) -> Obligation:
    """``<prefix>.map_rounding`` of a map whose parameters ``integers`` are Python ints (others
    ``fixed``), at every integer ``d_in >= 0``; and the map that runs on numbers evaluated
    against the proved one (:func:`running_map_goal`)."""
    def symbolic() -> tuple[Any, dict[str, Any], list[Any]]:
        params = {**{n: float_model.int_parameter(n) for n in integers}, **fixed}
        names = {n: params[n] for n in integers}
        return constructor.build(**params), names, constructor.assumptions(**params)

    replay = replay_int_map(constructor, candidates, pair)
    proved = map_rounding_obligation(prefix, symbolic, lambda: natural_int("d_in"), replay,
                                     formula)
    return replace(proved, goals=lambda: [*proved.goals(),
                                          running_map_goal(constructor, candidates, replay)])
