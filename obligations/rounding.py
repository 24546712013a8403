"""Obligation ``<prefix>.map_rounding``: the map the code computes in floats is never below its
exact formula, for every parameter the preconditions admit.

The map is run twice on the same Z3 constants (:mod:`mechanisms.float_model`): under the rounding
model (each float operation rounded within the standard model, each rounding-up primitive a
fresh float at or above its exact value) and under the exact model (no rounding). The goal is
``rounded >= exact``, componentwise for an ``(epsilon, delta)`` pair. A map that rounds to nearest
anywhere (a plain ``/`` instead of ``div_up``) is refuted: the solver picks the rounding errors
that push it below; the replay then looks for floats on which the real code does fall below the
exact value, computed in rationals (``ln`` and ``sqrt`` to 120 digits).

The privacy and stability proofs reason about the exact formula; together with this obligation
they hold for the floats the code returns (a larger epsilon or sensitivity is still valid).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterator, Sequence

import mpmath
import z3

from mechanisms import float_model
from mechanisms.core import Constructor, Map
from mechanisms.errors import DPCertError
from obligations.base import ComputedGoal, Decision, Kind, Obligation, Replay, Z3Goal
from obligations.reports import (claim_assertion, code_setup, import_line, literal,
                                 literal_imports, plain_report, reproducer, show)
from obligations.symbols import natural

ROUNDING_LEMMA = "arith.round_up"
REPLAY_TRIES = 400
"""Seeded candidate parameter sets a replay tries before it reports "not confirmed"."""

Symbolic = Callable[[], tuple[Any, dict[str, Any], list[Any]]]
"""Builds, under the active model, ``(mechanism, named constants, preconditions)``."""


def at_least(rounded: Any, exact: Any) -> Any:
    """``rounded >= exact``, componentwise for pairs."""
    if isinstance(rounded, tuple):
        return z3.And(*[at_least(r, e) for r, e in zip(rounded, exact, strict=True)])
    return float_model.plain(rounded) >= float_model.plain(exact)


def map_values(symbolic: Symbolic, d_in: Callable[[], tuple[Any, list[Any]]]
               ) -> tuple[Any, Any, dict[str, Any], list[Any]]:
    """``(rounded, exact, names, assumptions)``: the map at a symbolic ``d_in`` under both models."""
    with float_model.rounding_model() as model:
        mechanism, names, preconditions = symbolic()
        distance, distance_facts = d_in()
        rounded = mechanism.map(distance)
        facts = list(model.facts)
    with float_model.exact_model() as model:
        mechanism, _, _ = symbolic()
        exact = mechanism.map(float_model.plain(distance))
        facts += model.facts
    return rounded, exact, {**names, "d_in": float_model.plain(distance)}, \
        [*preconditions, *distance_facts, *facts]


def natural_d_in() -> tuple[Any, list[Any]]:
    """An integer distance ``d_in >= 0`` (an integer-valued real, so maps divide exactly)."""
    return natural("d_in")


def real_d_in() -> tuple[Any, list[Any]]:
    """A distance ``d_in >= 0`` the map reads exactly (an int, or a float read as its rational)."""
    d_in = z3.Real("d_in")
    return d_in, [d_in >= 0]


def float_d_in() -> tuple[Any, list[Any]]:
    """A float distance ``d_in >= 0``."""
    d_in = float_model.float_parameter("d_in")
    return d_in, [float_model.plain(d_in) >= 0]


def symbolic_build(constructor: Constructor, floats: tuple[str, ...] = (),
                   integers: tuple[str, ...] = (), fixed: dict[str, Any] | None = None) -> Symbolic:
    """The constructor's build on Z3 constants: ``floats`` as float parameters, ``integers`` as
    Z3 integers, ``fixed`` as given; with its preconditions."""
    def symbolic() -> tuple[Any, dict[str, Any], list[Any]]:
        params = {**{name: float_model.float_parameter(name) for name in floats},
                  **{name: z3.Int(name) for name in integers}, **(fixed or {})}
        names = {name: float_model.plain(params[name]) for name in (*floats, *integers)}
        return constructor.build(**params), names, constructor.assumptions(**params)
    return symbolic


def _float_valued(d_in: Any, f: Any) -> Any:
    return float_model.float_value(f(float_model.plain(d_in)))


def float_valued_map(name: str) -> Map:
    """A component's map about which nothing is known but that it returns a float: an
    uninterpreted ``R -> R`` function, its value a float term under the rounding model."""
    return Map(rule=_float_valued,
               params={"f": z3.Function(f"{name}_map", z3.RealSort(), z3.RealSort())})


def random_float(rng: random.Random) -> float:
    """A positive float with a random 53-bit significand, between ``2^-20`` and ``2^20``."""
    return float(Fraction(rng.getrandbits(53) | 1 << 52, 1 << 52) * Fraction(2) ** rng.randint(-20, 20))


def parameter_candidates(floats: tuple[str, ...] = (), integers: tuple[str, ...] = (),
                         fixed: dict[str, Any] | None = None, float_distance: bool = False
                         ) -> Candidates:
    """The counterexample's values (floats rounded to the nearest float), then seeded random
    positive floats, integers in ``[1, 100]`` and distances in ``[0, 1000]``."""
    def arguments(counterexample: dict[str, Any], rng: random.Random
                  ) -> Iterator[tuple[dict[str, Any], Any]]:
        def distance(value: Any) -> Any:
            return float(Fraction(value)) if float_distance else int(Fraction(value))
        given = {**{n: float(Fraction(counterexample[n])) for n in floats if n in counterexample},
                 **{n: int(counterexample[n]) for n in integers if n in counterexample}}
        if len(given) == len(floats) + len(integers):
            yield {**given, **(fixed or {})}, distance(counterexample.get("d_in", 1))
        while True:
            chosen = {**{n: random_float(rng) for n in floats},
                      **{n: rng.randint(1, 100) for n in integers}, **(fixed or {})}
            d_in = random_float(rng) if float_distance else rng.randint(1, 1000)
            yield chosen, d_in
    return Candidates(arguments, exact_floats)


def _as_number(value: Any) -> Any:
    """A map value (float, rational or mpmath number) as an mpmath number at 120 digits."""
    with mpmath.workdps(120):
        if isinstance(value, Fraction):
            return mpmath.mpf(value.numerator) / value.denominator
        return mpmath.mpf(value)


def below(code: Any, exact: Any) -> bool:
    """The code's value lies below the exact one (componentwise for pairs)."""
    if isinstance(code, tuple):
        return any(below(c, e) for c, e in zip(code, exact, strict=True))
    with mpmath.workdps(120):
        return _as_number(code) < _as_number(exact)


@dataclass(frozen=True)
class Candidates:
    """Concrete arguments for a replay: the counterexample's own first, then seeded variations.

    ``arguments(counterexample, rng)`` yields ``(arguments, d_in)``; ``exact_arguments`` maps them
    to the arguments of the exact evaluation (floats as the rationals they are)."""

    arguments: Callable[[dict[str, Any], random.Random], Iterator[tuple[dict[str, Any], Any]]]
    exact_arguments: Callable[[dict[str, Any]], dict[str, Any]]
    shown: Callable[[dict[str, Any]], dict[str, Any]] = dict
    """The arguments as a reproducer writes them (an object as the :class:`Code` that builds it)."""


def exact_floats(arguments: dict[str, Any]) -> dict[str, Any]:
    """Each float argument as the rational it denotes."""
    return {k: Fraction(v) if isinstance(v, float) else v for k, v in arguments.items()}


def replay_rounding(constructor: Constructor, candidates: Candidates) -> Callable[[dict], Replay]:
    """Search floats on which ``constructor(...).map(d_in)`` falls below the exact formula."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        rng = random.Random(0)
        for count, (arguments, d_in) in enumerate(candidates.arguments(counterexample, rng)):
            if count >= REPLAY_TRIES:
                break
            try:
                code = constructor(**arguments).map(d_in)
            except (DPCertError, ArithmeticError):
                continue  # outside the preconditions, or a float error before any map value
            with float_model.exact_model(), mpmath.workdps(120):  # mpmath sums at 120 digits
                exact = constructor.build(**candidates.exact_arguments(arguments)).map(
                    Fraction(d_in) if isinstance(d_in, float) else d_in)
            if below(code, exact):
                call = ", ".join(f"{k}={show(v)}" for k, v in arguments.items())
                shown = candidates.shown(arguments)
                exact_d_in = literal(Fraction(d_in) if isinstance(d_in, float) else d_in)
                with mpmath.workdps(40):
                    return plain_report(
                        True, f"the map rounds below its exact value: {constructor.name}({call})",
                        f"d_in = {show(d_in)}", f"map(d_in) = {show(code)} (computed)",
                        f"exact value = {_exact_text(exact)}",
                        *reproducer(
                            import_line(constructor), *code_setup(shown),
                            *literal_imports(shown), "import mpmath",
                            "from mechanisms import float_model",
                            "from obligations.rounding import below, exact_floats",
                            f"arguments = {literal(shown)}",
                            f"computed = {constructor.name}(**arguments).map({literal(d_in)})",
                            "with float_model.exact_model(), mpmath.workdps(120):",
                            f"    exact = {constructor.name}.build(**exact_floats(arguments))"
                            f".map({exact_d_in})",
                            claim_assertion("not below(computed, exact)",
                                            f"map({literal(d_in)}) = {{computed!r}} (computed) is "
                                            "below its exact value {exact}")))
        return plain_report(False, f"no float parameters found (of {REPLAY_TRIES} tried) on which "
                                   "the map falls below its exact value")
    return replay


def _exact_text(exact: Any) -> str:
    if isinstance(exact, tuple):
        return "(" + ", ".join(_exact_text(e) for e in exact) + ")"
    return mpmath.nstr(_as_number(exact), 30)


def map_rounding_obligation(prefix: str, symbolic: Symbolic,
                            d_in: Callable[[], tuple[Any, list[Any]]],
                            replay: Callable[[dict], Replay] | None,
                            formula: str, uses: tuple[str, ...] = (ROUNDING_LEMMA,)) -> Obligation:
    """``<prefix>.map_rounding``: the code's float map ``>=`` ``formula`` for all parameters."""
    def goals() -> list[Any]:
        rounded, exact, names, assumptions = map_values(symbolic, d_in)
        return [Z3Goal(f"the map computed in binary64 is >= its exact value {formula}",
                       at_least(rounded, exact), assumptions, names, replay)]

    return Obligation(
        f"{prefix}.map_rounding", Kind.ROUNDING,
        f"For every parameter the preconditions admit and every d_in >= 0, the map the code "
        f"computes in floating point is never below its exact value {formula}: each float "
        f"operation is rounded (standard model), each rounding-up primitive is at or above its "
        f"exact value ({ROUNDING_LEMMA}).",
        r"\forall \text{params}, d_{in}:\ \widehat{\mathrm{map}}(d_{in}) \ge \mathrm{map}(d_{in})",
        goals, uses=uses)


def combine_rounding_obligation(prefix: str, combines: Callable[[], list[Callable[[Any, Any], Any]]],
                                replay: Callable[[dict], Replay] | None, formula: str
                                ) -> Obligation:
    """``<prefix>.map_rounding`` for a map that folds component values with ``combine``: one
    step computed in binary64 is ``>=`` the exact step, and the exact step is increasing in the
    accumulated value; by induction over the fold, the map is ``>=`` ``formula``."""
    def goals() -> list[Any]:
        found: list[Any] = []
        for combine in combines():
            if combine is None:
                found.append(ComputedGoal(
                    "the map folds the component values with a combine step", "structure",
                    lambda: Decision(False, {}, "the map has no combine step: the fold's rounding "
                                     "argument does not apply", unsupported=True)))
                continue
            with float_model.rounding_model() as model:
                total, value = float_model.float_parameter("A"), float_model.float_parameter("F")
                rounded = combine(total, value)
                facts = list(model.facts)
            a, f, b = float_model.plain(total), float_model.plain(value), z3.Real("B")
            with float_model.exact_model():
                exact, larger = combine(a, f), combine(b, f)
            name = getattr(combine, "__name__", repr(combine))
            found += [Z3Goal(f"one step {name}(A, F) computed in binary64 is >= the exact step",
                             at_least(rounded, exact), facts, {"A": a, "F": f}, replay),
                      Z3Goal(f"the exact step {name}(A, F) is increasing in A",
                             z3.Implies(a <= b, exact <= larger), [], {"A": a, "B": b, "F": f})]
        return found

    return Obligation(
        f"{prefix}.map_rounding", Kind.ROUNDING,
        f"For all component values, the map the code folds in floating point is never below "
        f"its exact value {formula}: each step computed in binary64 is at least the exact step "
        f"(rounding-up primitives, {ROUNDING_LEMMA}), and the exact step is increasing in the "
        f"value accumulated so far, so by induction over the fold the whole map is.",
        r"\widehat{\mathrm{combine}}(A, F) \ge \mathrm{combine}(A, F),\ "
        r"A \le B \implies \mathrm{combine}(A, F) \le \mathrm{combine}(B, F)",
        goals, uses=(ROUNDING_LEMMA,))


def replay_combined(constructor: Constructor, argument: str,
                    components: Callable[[random.Random], list[tuple[str, Any]]],
                    imports: Sequence[str] = (), d_in: Any = 1) -> Callable[[dict], Replay]:
    """Seeded components (``components(rng)``, each with the expression that builds it;
    ``imports`` for those): the combinator's map at ``d_in`` against the exact sum of the
    component maps as the code computes them (floats read as rationals)."""
    def replay(_: dict[str, Any]) -> Replay:
        rng = random.Random(0)
        for _ in range(REPLAY_TRIES):
            shown, parts = zip(*components(rng))
            values = [part.map(d_in) for part in parts]
            code = constructor(**{argument: list(parts)}).map(d_in)
            exact = sum((Fraction(v) for v in values), Fraction(0))
            if Fraction(code) < exact:
                return plain_report(True, f"the map rounds below the exact sum of its components' "
                                          f"maps: {constructor.name} of {len(parts)} components",
                                    f"d_in = {d_in}", f"component maps = {values!r}",
                                    f"map(d_in) = {code!r} (computed)",
                                    f"exact sum = {exact} = {mpmath.nstr(_as_number(exact), 30)}",
                                    *reproducer(
                                        import_line(constructor), *imports,
                                        f"parts = [{', '.join(shown)}]",
                                        f"computed = {constructor.name}({argument}=parts)"
                                        f".map({literal(d_in)})",
                                        f"exact = sum((Fraction(part.map({literal(d_in)})) for "
                                        "part in parts), Fraction(0))",
                                        claim_assertion("Fraction(computed) >= exact",
                                                        "map(d_in) = {computed!r} (computed) is "
                                                        "below the exact sum of the component "
                                                        "maps, {exact}")))
        return plain_report(False, f"no components found (of {REPLAY_TRIES} tried) whose map the "
                                   "combinator sums below the exact value")
    return replay
