"""Obligations of ``make_randomized_response_bitvec``, for every ``m`` and ``size`` the
constructor's preconditions admit (the catalogue's: ``m >= 1``, ``size >= 1``) and every float
``f`` in ``(0, 1]``.

The specification, written here apart from the mechanism's constants: a bit is kept with
probability ``1 - f`` and otherwise replaced by a fair coin, so
``Pr[y_i = x_i] = 1 - f/2`` and ``Pr[y_i != x_i] = f/2`` (:func:`stated_bit_probability`), the
bits independent; the law of the vector is the product (:func:`stated_law`). Neighbours are any
two different members of the built input domain (vectors of ``size`` bools, at most
``max_weight`` of them ``True``). The privacy proof is per bit:

1. **per bit** (from the running code, for every admitted ``f``): the running ``__call__`` is run
   on the one-bit vectors ``(True,)`` and ``(False,)`` with its coin's probability carried as a
   term (the path enumeration of :mod:`obligations.make_randomized_response`: each exact coin on
   both sides); the law it draws is proved equal to the stated per-bit law, and for
   ``x_i != x'_i`` every ratio ``Pr[y_i | x_i] / Pr[y_i | x'_i]`` is at most the stated odds
   ``q = (1 - f/2)/(f/2)``; for ``x_i = x'_i`` the two laws are one;
2. **product** (the product lemma, by hand in the proof): the running function is
   ``RandomizedResponseBitvec``'s own ``__call__``, which applies ``respond_bit`` to each bit in
   order with fresh draws, so its law is the product of the per-bit laws and a ratio is the
   product of per-bit ratios, at most ``q^h`` for ``h`` the number of differing bits. Checked on
   the running code: its law is enumerated on every vector of length 2 and proved equal to the
   product, for every admitted ``f``;
3. **counting** (by induction on the length, Z3): ``h <= min(size, 2 max_weight)``, the domain's
   own fields;
4. **map**: ``map(d_in) >= min(size, 2 max_weight) ln q`` for ``d_in >= 1`` (``ln_up`` above
   ``ln``, ``ln`` monotone) and ``map(0) >= 0``.

The replays compute exact laws of the real code at small sizes (every member of the domain) by the
same enumeration at a concrete ``f`` (:func:`exact_distribution`).
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterator

import z3

from mechanisms import float_model, ops
from mechanisms.core import Constructor, Measurement
from mechanisms.domains import AtomDomain, BitVectorDomain, SizedDomain, VectorDomain
from mechanisms.make_randomized_response_bitvec import (RandomizedResponseBitvec,
                                                        make_randomized_response_bitvec)
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import DiscreteVectorMetric
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.kernels import trusted_kernel_goal
from obligations.path_enumeration import (Context, NotEnumerable, OutsidePathMethod, Path, Rational,
                                          built, enumerate_paths, enumerated_law, exact_loss,
                                          exact_loss_replay, float_at_least, loss_violation,
                                          running_loss_goal)
from obligations.exponential import ln_up_applications, ln_up_domain_goal
from obligations.running_laws import (drawn_law, output_violation, replay_constructor,
                                      seeded_misbehaviour, seeded_output_replay)
from obligations.noise import exact_noise_goal
from obligations.reports import (claim_assertion, constructor_call, import_line, literal,
                                 plain_report, reproducer, returns)
from obligations.rounding import (Candidates, exact_floats, map_rounding_obligation, natural_d_in,
                                  replay_rounding)
from obligations.symbols import natural
from obligations.witnesses import excluded_goals, witness_goal
from obligations.kernel.reviewed import reviewed

BITS = (True, False)
"""The values of one bit."""

LN = z3.Function("ln", z3.RealSort(), z3.RealSort())
"""The natural logarithm, uninterpreted; the proof uses only ``ln 1 = 0``, its monotonicity and
``ln_up(r) >= ln(r)`` for ``r >= 1`` (obligation ``arith.ln_up``: ``exp(ln_up(r)) >= r``)."""

PRODUCT_LENGTH = 2
"""The running ``__call__``'s law is enumerated, for every admitted ``f``, on every vector of
this length and proved equal to the product of the per-bit laws."""

SYMBOLIC_DRAW_LIMIT = 16
"""On solver terms, a uniform draw below a concrete bound up to this is followed on each value."""

PRODUCT_ASSUMPTION = ("the law of the running RandomizedResponseBitvec.__call__ (its own code: "
                      "respond_bit on each bit in order, fresh draws per bit) is the product of "
                      "its per-bit laws (product lemma, proved by hand in the proof; its "
                      f"enumerated law equals the product on every vector of length "
                      f"{PRODUCT_LENGTH}, for every f)")


# --------------------------------------------------------------------------- the specification

def stated_bit_probability(same: bool, f: Any) -> Any:
    """``Pr[y_i = x_i] = (1 - f) + f/2`` (kept, or replaced by a fair coin that agrees) and
    ``Pr[y_i != x_i] = f/2`` (replaced by a fair coin that disagrees)."""
    replaced = f / 2
    return (1 - f) + replaced if same else replaced


def stated_odds(f: Any) -> Any:
    """``Pr[y_i = x_i] / Pr[y_i != x_i]``: the largest per-bit ratio between two inputs."""
    return stated_bit_probability(True, f) / stated_bit_probability(False, f)


def stated_law(f: Any, arg: tuple[bool, ...]) -> dict[tuple[bool, ...], Fraction]:
    """The law stated for ``make_randomized_response_bitvec(m, f, len(arg))`` on ``arg``: the
    product of the per-bit laws, over every bit vector of its length."""
    p = Fraction(f)
    return {y: math.prod((stated_bit_probability(a == b, p) for a, b in zip(arg, y)),
                         start=Fraction(1))
            for y in itertools.product(BITS, repeat=len(arg))}


def stated_distribution(m: Measurement, arg: tuple[bool, ...]) -> dict[tuple[bool, ...], Fraction]:
    """The stated law at the ``f`` the running function holds (for the empirical test)."""
    return stated_law(m.function.f, tuple(arg))


def members(size: int, max_weight: int) -> list[tuple[bool, ...]]:
    """Every member of ``BitVectorDomain(size, max_weight)`` (the specification's domain)."""
    return [v for v in itertools.product(BITS, repeat=size) if sum(v) <= max_weight]


def outcomes(law: dict[Any, Any]) -> dict[Any, Any]:
    """``law`` without zero entries, each output keyed by its entries' ``(type name, value)``: an
    int 1 is not the bit ``True``."""
    def key(y: Any) -> Any:
        if isinstance(y, tuple):
            return tuple((type(b).__name__, b) for b in y)
        return (type(y).__name__, y)
    return {key(y): q for y, q in law.items() if q}


# ------------------------------------------------------------------- the law of the running call

def _running_function(f: Any, context: Context) -> Any:
    """A copy of the running function whose ``f`` field carries its value as a
    :class:`~obligations.make_randomized_response.Rational` (a solver term or a number)."""
    if "f" not in getattr(f, "__dict__", {}):
        raise OutsidePathMethod(f"{type(f).__qualname__} has no f field")
    clone = object.__new__(type(f))  # not copy.copy, which caches __slotnames__ on the class
    clone.__dict__.update(f.__dict__)
    object.__setattr__(clone, "f", Rational(ops.exact(f.f), context))
    return clone


def exact_paths(m: Measurement, arg: tuple[bool, ...]) -> list[Path]:
    """Every path of the running ``m.function(arg, rng)`` at its concrete ``f``."""
    context = Context([])
    try:
        clone = _running_function(m.function, context)
        return enumerate_paths(lambda rng: clone(arg, rng), context)
    except OutsidePathMethod as outside:
        raise NotEnumerable(f"the running sampler leaves the path method: {outside}") from None


def exact_distribution(m: Measurement, arg: Any) -> dict[Any, Fraction]:
    """The running function's exact output law on ``arg`` (every path, summed per output);
    the code's own exception if a path raises; :class:`NotEnumerable` outside the method."""
    return enumerated_law(lambda: exact_paths(m, tuple(arg)), outcomes)


@dataclass(frozen=True)
class RunningLaw:
    """The running call enumerated, for every admitted ``f``, on each vector of ``inputs``: its
    paths, and ``law[x][y]`` (Z3 terms) when every path returns a tuple of bools of ``x``'s
    length and none raises (else None)."""

    paths: dict[tuple[bool, ...], list[Path]]
    law: dict[tuple[bool, ...], dict[tuple[bool, ...], Any]] | None


def running_law(m: Measurement, assumptions: list[Any],
                inputs: list[tuple[bool, ...]]) -> RunningLaw:
    """:class:`RunningLaw` of the symbolic build ``m`` on ``inputs``;
    :class:`OutsidePathMethod` when its code leaves the path method."""
    context = Context(assumptions)
    clone = _running_function(m.function, context)
    paths: dict[tuple[bool, ...], list[Path]] = {}
    for x in inputs:
        found = enumerate_paths(lambda rng, x=x: clone(x, rng), context,
                                limit=SYMBOLIC_DRAW_LIMIT, most=256)
        if any(path.draws for path in found):
            raise OutsidePathMethod("a uniform draw below a solver term")
        paths[x] = found
    clean = all(path.raised is None and _is_bits(path.output, len(x))
                for x, found in paths.items() for path in found)
    law = None
    if clean:
        law = {x: {y: sum((path.weight for path in paths[x]
                           if tuple(path.output) == y and _is_bits(path.output, len(x))),
                          z3.RealVal(0))
                   for y in itertools.product(BITS, repeat=len(x))} for x in inputs}
    return RunningLaw(paths, law)


def _is_bits(output: Any, length: int) -> bool:
    return isinstance(output, tuple) and len(output) == length \
        and all(type(b) is bool for b in output)


# ------------------------------------------------------------------------------------- replays

def _parameters(counterexample: dict[str, Any]) -> list[tuple[int, float, int]]:
    """``(m, f, size)`` to replay: the model's (``f`` rounded up to a float, ``m`` and ``size``
    at most 3), then :data:`SMALL_PARAMETERS`."""
    found: list[tuple[int, float, int]] = []
    if {"f", "m", "size"} <= set(counterexample):
        q, m, size = (Fraction(counterexample[k]) for k in ("f", "m", "size"))
        if 0 < q <= 2 and m >= 0 and size >= 0:
            found.append((int(min(m, 3)), float_at_least(q), int(min(size, 3))))
    found += SMALL_PARAMETERS
    return list(dict.fromkeys(found))


SMALL_PARAMETERS = [(1, 0.5, 2), (1, 1.0, 2), (2, 0.25, 2), (1, 0.75, 1), (1, 0.1, 3),
                    (2, 0.5, 3), (3, 0.9, 3), (1, 1.0, 3), (2, 1.0, 1)]
"""Small ``(m, f, size)``: both ``size < 2m`` and ``size >= 2m``, ``f`` at 1 and below."""


def _arguments(point: tuple[int, float, int]) -> dict[str, Any]:
    m, f, size = point
    return {"m": m, "f": f, "size": size}


def _built(constructor: Constructor, point: tuple[int, float, int]
           ) -> tuple[Measurement | None, str]:
    return built(constructor, **_arguments(point))


def _inputs(built_m: Measurement, point: tuple[int, float, int]) -> list[tuple[bool, ...]]:
    """The members of the specification's domain at ``point`` that the built domain admits."""
    m, _, size = point
    return [x for x in members(size, m) if built_m.input_domain.member(x)]


def _output_violation(m: Measurement, point: tuple[int, float, int]) -> str:
    return output_violation(m, _inputs(m, point), exact_distribution)


def _law_violation(m: Measurement, point: tuple[int, float, int]) -> str:
    for arg in _inputs(m, point):
        drawn, raised = drawn_law(m, arg, exact_distribution)
        if drawn is None:
            return raised
        stated = stated_law(point[1], arg)
        if outcomes(drawn) != outcomes(stated):
            return f"on input {arg!r} the sampler draws {drawn}, the stated law is {stated}"
    return ""


def _replay(constructor: Constructor,
            violation: Callable[[Measurement, tuple[int, float, int]], str],
            check: str, message: str) -> Callable[[dict], Replay]:
    """At the model's parameters and small ones: confirmed when ``violation`` finds one on the
    real code; the reproducer asserts ``check`` (about ``drawn``) on every member."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        for point in _parameters(counterexample):
            m, _ = _built(constructor, point)
            found = violation(m, point) if m is not None else ""
            if found:
                call = constructor_call(constructor, **_arguments(point))
                return plain_report(True, call, found, *reproducer(
                    import_line(constructor),
                    "from obligations.make_randomized_response_bitvec import (exact_distribution,"
                    " members, outcomes, stated_law)",
                    f"m = {call}", f"for arg in members({point[2]}, {point[0]}):",
                    *[f"    {line}" for line in returns("drawn = exact_distribution(m, arg)",
                                                     "the running call")],
                    "    " + claim_assertion(check.format(f=literal(point[1])), message)))
        return plain_report(False, "the real sampler draws the stated law on every probe")
    return replay


SEEDED_RUNS = 10
"""Seeded runs of the real call per input that an output replay tries before the exact law."""


def _replay_output(constructor: Constructor) -> Callable[[dict], Replay]:
    """Seeded runs of the real call, then its exact law: confirmed on a raise or an output
    outside the domain."""
    exact = _replay(constructor, _output_violation,
                    "all(m.output_domain.member(y) for y in drawn)",
                    "on input {arg!r} the function returns {drawn}, outside {m.output_domain}")

    return seeded_output_replay(
        constructor, exact, _parameters, _arguments, _built,
        lambda m, point: seeded_misbehaviour(m, _inputs(m, point), SEEDED_RUNS))


def _replay_law(constructor: Constructor) -> Callable[[dict], Replay]:
    return _replay(constructor, _law_violation,
                   "outcomes(drawn) == outcomes(stated_law({f}, arg))",
                   "on input {arg!r} the sampler draws {drawn}, not the stated law")


def _privacy_loss(constructor: Constructor, m: Measurement, point: tuple[int, float, int],
                  d_in: int) -> tuple[bool, list[str]]:
    """The exact loss of the running sampler at ``d_in`` over every pair of members (discrete
    distance: 0 iff equal) against ``m.map(d_in)``."""
    cache: dict[tuple[bool, ...], dict[Any, Fraction]] = {}

    def law(built_m: Measurement, x: Any) -> dict[Any, Fraction]:
        if x not in cache:
            cache[x] = exact_distribution(built_m, x)
        return cache[x]
    return exact_loss(constructor, _arguments(point), m, d_in, _inputs(m, point), law,
                      lambda m: MaxDivergence(), "MaxDivergence()", "",
                      ["from mechanisms.measures import MaxDivergence",
                       "from obligations.make_randomized_response_bitvec import "
                       "exact_distribution"])


def _privacy_violation(constructor: Constructor, m: Measurement,
                       point: tuple[int, float, int]) -> str:
    return loss_violation(lambda d_in: _privacy_loss(constructor, m, point, d_in), (1, 0))


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(counterexample: dict[str, Any]) -> Replay:
        d_in = Fraction(counterexample.get("d_in", 1))
        return exact_loss_replay(
            int(d_in) if d_in.denominator == 1 else 1, _parameters(counterexample),
            lambda point: _built(constructor, point)[0],
            lambda m, point, d_in: _privacy_loss(constructor, m, point, d_in),
            lambda error: f"no exact law: {type(error).__name__}: {error} "
                          "(output_domain and runtime_errors report a raise)")
    return replay


def _rounding_candidates() -> Candidates:
    """``m``, ``size`` ints and a float ``f`` in ``(0, 1]``: the model's, then seeded."""
    def arguments(counterexample: dict[str, Any], rng: random.Random
                  ) -> Iterator[tuple[dict, Any]]:
        if {"f", "m", "size"} <= set(counterexample):
            yield {"m": int(Fraction(counterexample["m"])),
                   "f": float(Fraction(counterexample["f"])),
                   "size": int(Fraction(counterexample["size"]))}, 1
        while True:
            f = rng.choice([rng.uniform(0.0, 1.0), 2.0 ** -rng.randint(1, 60) * rng.uniform(1, 2)])
            yield {"m": rng.randint(1, 8), "f": f, "size": rng.randint(1, 20)}, 1
    return Candidates(arguments, exact_floats)


# ----------------------------------------------------------------------------------- obligations

def _symbolic(constructor: Constructor) -> tuple[Measurement, dict[str, Any], list[Any]]:
    m, m_natural = natural("m")
    size, size_natural = natural("size")
    f = z3.Real("f")
    arguments = {"m": m, "f": f, "size": size}
    return (constructor.build(**arguments), {"m": m, "f": f, "size": size},
            [*m_natural, *size_natural, *constructor.assumptions(**arguments)])


def _float_symbolic(constructor: Constructor) -> tuple[Measurement, dict[str, Any], list[Any]]:
    """The build on a float ``f`` and int ``m``, ``size`` (:mod:`mechanisms.float_model`)."""
    m = float_model.int_parameter("m")
    size = float_model.int_parameter("size")
    f = float_model.float_parameter("f")
    arguments = {"m": m, "f": f, "size": size}
    return (constructor.build(**arguments),
            {"m": float_model.plain(m), "f": float_model.plain(f),
             "size": float_model.plain(size)}, constructor.assumptions(**arguments))


def excluded_parameters(constructor: Constructor) -> list[ComputedGoal]:
    """Parameters the solver goals cannot stand for are refused: ``f`` outside ``(0, 1]`` (at
    ``f = 0`` the odds ``(1 - f/2)/(f/2)`` divide by zero, which Z3's total division leaves
    unconstrained; above 1 a coin is above 1/2), NaN and infinities (not reals), an ``f`` that is
    not a float, and an ``m`` or ``size`` that is not an int. ``m = 0`` and ``size = 0`` are not
    required to be refused: every goal is quantified over the constructor's own preconditions
    (``m``, ``size`` Z3 integers under them), so a constructor admitting them is proved or
    refuted on its merits (one member, the map at least 0)."""
    return excluded_goals(constructor, [
        ({"m": 1, "f": 0.0, "size": 2}, "f = 0 (the bits released as they are)"),
        ({"m": 1, "f": -0.5, "size": 2}, "a negative f"),
        ({"m": 1, "f": math.nextafter(1.0, 2.0), "size": 2}, "f > 1 (a coin above 1/2)"),
        ({"m": 1, "f": math.nan, "size": 2}, "a NaN f"),
        ({"m": 1, "f": math.inf, "size": 2}, "an infinite f"),
        ({"m": 1, "f": Fraction(1, 2), "size": 2}, "an f that is not a float"),
        ({"m": True, "f": 0.5, "size": 2}, "an m that is not an int"),
        ({"m": 1, "f": 0.5, "size": 2.0}, "a size that is not an int")],
        inputs=[(True, False), (False, False), (True,)], draws=5)


@reviewed
def randomized_response_bitvec_obligations(
        constructor: Constructor = make_randomized_response_bitvec,
        prefix: str = "randomized_response_bitvec") -> tuple[Obligation, ...]:
    found: dict[str, tuple[RunningLaw | None, str]] = {}
    one_bit = [(x,) for x in BITS]
    two_bits = list(itertools.product(BITS, repeat=PRODUCT_LENGTH))

    def route(name: str, inputs: list[tuple[bool, ...]]) -> tuple[RunningLaw | None, str]:
        """The running call's :class:`RunningLaw` on ``inputs``, or why it is outside."""
        if name not in found:
            m, _, assumptions = _symbolic(constructor)
            try:
                found[name] = running_law(m, assumptions, inputs), ""
            except OutsidePathMethod as outside:
                found[name] = None, str(outside) or type(outside).__name__
        return found[name]

    def trusted() -> list[Any]:
        """The running function is the kernel's own ``__call__`` (respond_bit and
        flip_probability may differ: they are run on the object itself)."""
        return [trusted_kernel_goal(
            "the bit-vector randomized response function",
            lambda: constructor(m=1, f=0.5, size=2).function, RandomizedResponseBitvec,
            checked=("respond_bit", "flip_probability")),
            trusted_kernel_goal(
            "the symbolic build's function", lambda: _symbolic(constructor)[0].function,
            RandomizedResponseBitvec, checked=("respond_bit", "flip_probability"))]

    def enumerated(what: str, replay: Callable[[dict], Replay], bools: bool = True) -> list[Any]:
        """On each one-bit input, no path of the running call raises and (``bools``) every path
        returns a one-bit vector of a bool, for every admitted ``f``."""
        bits, outside = route("one", one_bit)
        if bits is None:
            return [ComputedGoal(f"{what}: the running call runs on a symbolic f, every path "
                                 "enumerated", "structure",
                                 lambda: Decision(False, {"outside": outside}, "the running "
                                                  "function's code leaves the path method: "
                                                  f"{outside}", unsupported=True))]
        goals: list[Any] = []
        for x in one_bit:
            def decide(x: tuple[bool, ...] = x) -> Decision:
                for path in bits.paths[x]:
                    if path.raised is not None:
                        return Decision(False, {"x": x, "path probability": str(path.weight)},
                                        f"on input {x!r} the path of probability {path.weight} "
                                        f"raises {type(path.raised).__name__}: {path.raised}")
                    if bools and not _is_bits(path.output, 1):
                        return Decision(False, {"x": x, "path probability": str(path.weight),
                                                "output": repr(path.output)},
                                        f"on input {x!r} the path of probability {path.weight} "
                                        f"returns {path.output!r}, not a one-bit vector")
                return Decision(True, detail=f"{len(bits.paths[x])} paths")
            claim = "returns a tuple of one bool and none raises" if bools else "none raises"
            goals.append(ComputedGoal(
                f"{what}: on input {x!r} every path of the running call (its coins on both "
                f"sides, for every admitted f) {claim}", "structure", decide, replay))
        return goals

    def coin_goal(what: str) -> list[Any]:
        m, params, assumptions = _symbolic(constructor)
        coin = getattr(m.function, "flip_probability", None)
        if coin is None:
            return []
        prob = ops.exact(coin())
        return [Z3Goal(f"{what}: the running coin probability function.flip_probability() is in "
                       "[0, 1], so the exact Bernoulli never raises", z3.And(0 <= prob, prob <= 1),
                       assumptions, {**params, "running coin": prob}, _replay_output(constructor))]

    def domain_goals(what: str) -> list[Any]:
        """The built domains are the bit-vector domains the proof is about: the input a
        ``BitVectorDomain`` (any size and weight: the goals read its fields), the output
        vectors of bools of the input's size."""
        m, params, assumptions = _symbolic(constructor)

        def decide() -> Decision:
            if type(m.input_domain) is not BitVectorDomain:
                return Decision(False, {"input domain": str(m.input_domain)}, "the proof is for "
                                "a BitVectorDomain input", unsupported=True)
            return Decision(True, detail=str(m.input_domain))
        goals: list[Any] = [ComputedGoal(f"{what}: the input domain is a BitVectorDomain",
                                         "structure", decide)]
        out = m.output_domain
        if type(m.input_domain) is BitVectorDomain and isinstance(out, SizedDomain) \
                and out.inner == VectorDomain(AtomDomain(bool)):
            goals.append(Z3Goal(f"{what}: the output domain's size is the input domain's",
                                out.size == m.input_domain.size, assumptions, params,
                                _replay_output(constructor)))
        else:
            goals.append(ComputedGoal(
                f"{what}: the output domain is vectors of bools of the input's size",
                "structure", lambda: Decision(False, {"output domain": str(out)},
                                              f"the output domain is {out}, not a SizedDomain of "
                                              "bools", unsupported=True)))
        return goals

    def output_domain_goals() -> list[Any]:
        return [witness_goal(constructor, {"m": 1, "f": 0.5, "size": 4},
                             inputs=[(True, False, False, False), (False,) * 4], draws=10),
                witness_goal(constructor, {"m": 2, "f": 1.0, "size": 3},
                             inputs=[(True, True, False), (False, True, False)], draws=10),
                *trusted(), *domain_goals("output"), *coin_goal("output"),
                *enumerated("output", _replay_output(constructor)),
                *excluded_parameters(constructor)]

    def runtime_error_goals() -> list[Any]:
        return [*trusted(), *domain_goals("no error")[:1], *coin_goal("no error"),
                *enumerated("no error", _replay_output(constructor), bools=False)]

    def per_bit_law() -> dict[tuple[bool, ...], dict[tuple[bool, ...], Any]] | None:
        bits, _ = route("one", one_bit)
        return None if bits is None else bits.law

    def distribution_goals() -> list[Any]:
        replay = _replay_law(constructor)
        _, params, assumptions = _symbolic(constructor)
        f = params["f"]
        goals: list[Any] = [
            *trusted(), *domain_goals("law")[:1],
            Z3Goal("the stated per-bit probabilities lie in [0, 1] and add up to 1",
                   z3.And(*[z3.And(0 <= stated_bit_probability(s, f),
                                   stated_bit_probability(s, f) <= 1) for s in BITS],
                          stated_bit_probability(True, f) + stated_bit_probability(False, f) == 1),
                   assumptions, params),
            *enumerated("law", replay)]
        law = per_bit_law()
        if law is not None:
            goals += [Z3Goal(f"the running call's Pr[M(({x!r},)) = ({y!r},)] is the stated "
                             f"{'1 - f/2' if x == y else 'f/2'}",
                             law[(x,)][(y,)] == stated_bit_probability(x == y, f),
                             assumptions, params, replay) for x in BITS for y in BITS]
        return goals + product_goals(replay)

    def product_goals(replay: Callable[[dict], Replay]) -> list[Any]:
        """The running ``__call__`` on every vector of length 2: its law is the product of the
        stated per-bit laws, for every admitted ``f``."""
        pairs, outside = route("two", two_bits)
        _, params, assumptions = _symbolic(constructor)
        f = params["f"]
        if pairs is None or pairs.law is None:
            why = outside or "a path raises or returns other than a tuple of bools"
            return [ComputedGoal(f"the running call's law on vectors of length {PRODUCT_LENGTH}"
                                 " is the product of the per-bit laws", "structure",
                                 lambda: Decision(False, {"outside": why}, why,
                                                  unsupported=True), replay)]
        return [Z3Goal(f"the running call's law on {x!r} is the product of the stated per-bit "
                       "laws (all four outputs)",
                       z3.And(*[pairs.law[x][y] == math.prod(
                           (stated_bit_probability(a == b, f) for a, b in zip(x, y)),
                           start=z3.RealVal(1)) for y in pairs.law[x]]),
                       assumptions, params, replay) for x in two_bits]

    def privacy_goals() -> list[Any]:
        m, params, assumptions = _symbolic(constructor)
        f = params["f"]
        d_in, d_in_natural = natural("d_in")
        epsilon = m.map(d_in)
        names = {**params, "d_in": d_in}
        replay = _replay_privacy(constructor)
        goals: list[Any] = [
            exact_noise_goal(lambda: constructor(m=1, f=0.5, size=3)),
            metric_premise(lambda: m, DiscreteVectorMetric, MaxDivergence,
                           "the privacy proof (d_in = 0 iff x = x')"),
            *trusted(), *domain_goals("privacy")[:1],
            ln_up_domain_goal("the map", epsilon, [*assumptions, *d_in_natural], names,
                              replay_constructor(constructor, _parameters, _arguments, _built)),
            *enumerated("privacy", replay), _running_loss_goal(constructor),
            *counting_goals(m, params, assumptions)]
        law = per_bit_law()
        if law is None:
            return goals
        q = stated_odds(f)
        goals += [Z3Goal(f"per bit, x_i = {x!r} != x'_i = {not x!r}, y_i = {y!r}: "
                         "Pr[y_i | x_i] <= q Pr[y_i | x'_i], q = (1 - f/2)/(f/2) (the running "
                         "call's law)", law[(x,)][(y,)] <= q * law[(not x,)][(y,)],
                         assumptions, params, replay) for x in BITS for y in BITS]
        goals += map_goals(m, params, assumptions, d_in, d_in_natural, epsilon, replay)
        return goals + product_goals(replay)

    def counting_goals(m: Measurement, params: dict[str, Any],
                       assumptions: list[Any]) -> list[Any]:
        """``h <= min(size, 2 max_weight)`` for two members of the built domain, by induction on
        the length: ``h_n <= w_n`` (``w`` the two weights' sum) and ``h_n <= n``."""
        domain = m.input_domain
        if type(domain) is not BitVectorDomain:
            return []
        h, w, n = z3.Ints("h w n")
        a, b = z3.Bools("a b")
        one = lambda c: z3.If(c, 1, 0)  # noqa: E731
        differ = one(z3.Xor(a, b))
        step = z3.Implies(z3.And(0 <= h, h <= w, h <= n),
                          z3.And(h + differ <= w + one(a) + one(b), h + differ <= n + 1))
        size, weight = domain.size, domain.max_weight
        hr, wr = z3.Reals("h_n w_n")
        bound = z3.If(size <= 2 * weight, size, 2 * weight)
        return [
            Z3Goal("counting, step: a position adds to h only where one of the two bits is "
                   "True, and at most 1", step, [], {"h": h, "w": w, "n": n, "a": a, "b": b}),
            Z3Goal("counting, conclusion: h <= w <= 2 max_weight and h <= size give "
                   "h <= min(size, 2 max_weight), the domain's own fields",
                   hr <= bound, [*assumptions, 0 <= hr, hr <= wr, hr <= size, wr <= 2 * weight],
                   {**params, "h": hr, "w": wr})]

    def map_goals(m: Measurement, params: dict[str, Any], assumptions: list[Any], d_in: Any,
                  d_in_natural: list[Any], epsilon: Any, replay: Callable[[dict], Replay]
                  ) -> list[Any]:
        """``map(d_in) >= min(size, 2 max_weight) ln q`` for ``d_in >= 1``; ``map(0) >= 0``."""
        domain = m.input_domain
        if type(domain) is not BitVectorDomain:
            return []
        q = stated_odds(params["f"])
        bound = z3.If(domain.size <= 2 * domain.max_weight, domain.size, 2 * domain.max_weight)
        facts = [LN(z3.RealVal(1)) == 0]
        arguments = [q, z3.RealVal(1)]
        for application in ln_up_applications(epsilon):
            r = application.arg(0)
            facts.append(z3.Implies(r >= 1, application >= LN(r)))
            arguments.append(r)
        facts += [z3.Implies(r >= s, LN(r) >= LN(s)) for r in arguments for s in arguments
                  if r is not s]
        names = {**params, "d_in": d_in}
        return [
            Z3Goal("d_in >= 1: map(d_in) >= min(size, 2 max_weight) ln q, q = (1 - f/2)/(f/2)",
                   epsilon >= bound * LN(q), [*assumptions, *d_in_natural, d_in >= 1, *facts],
                   names, replay),
            Z3Goal("d_in = 0 (x = x', one law): map(0) >= 0", epsilon >= 0,
                   [*assumptions, *d_in_natural, d_in == 0, *facts], names, replay)]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every member of the input domain the running call returns a tuple of "
                   "size bools: its own __call__ maps each bit to respond_bit's output, every "
                   "path of which returns a bool and none raises (its coin's probability is in "
                   "[0, 1]); the output domain is vectors of bools of the input's size. "
                   "Parameters outside the preconditions are refused.",
                   r"\forall x \in \{0,1\}^{\mathtt{size}}:\ \mathtt{function}(x) \in "
                   r"\{0,1\}^{\mathtt{size}}", output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "The discrete metric on whole vectors is defined on the bit-vector domain.",
                   r"d_{Discrete} \sim \mathrm{BitVectorDomain}(\mathtt{size}, m)",
                   lambda: [compatibility_goal(
                       constructor, lambda: [_symbolic(constructor)[0],
                                             constructor(m=1, f=0.5, size=2)],
                       {"m": 1, "f": 0.5, "size": 2})]),
        Obligation(f"{prefix}.runtime_errors", Kind.RUNTIME_ERRORS,
                   "function(x) raises for no input x: the exact coin's probability is in [0, 1] "
                   "and no path of the running call raises on either bit; so whether it errs "
                   "(only on entropy failure) cannot depend on the data.",
                   r"\forall x, x':\ \mathtt{function}(x) \text{ errs} \iff "
                   r"\mathtt{function}(x') \text{ errs}", runtime_error_goals),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "The running call draws the stated law: each bit is kept with probability "
                   "1 - f/2 and flipped with probability f/2, independently, f the argument, "
                   "for every admitted f; the per-bit law is the sum of the probabilities of "
                   "the paths of its own __call__ on a one-bit vector, the product law checked "
                   f"on every vector of length {PRODUCT_LENGTH}.",
                   r"\Pr[M(x) = y] = \prod_{i} \left(1 - \tfrac{f}{2}\right)^{[y_i = x_i]} "
                   r"\left(\tfrac{f}{2}\right)^{[y_i \ne x_i]}", distribution_goals,
                   assumes=PRODUCT_ASSUMPTION),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "For two members x != x' and every output y, Pr[M(x) = y] <= exp(map(d_in)) "
                   "Pr[M(x') = y]: the ratio is a product of per-bit ratios, 1 where the bits "
                   "agree and at most q = (2 - f)/f where they differ (the running call's law), "
                   "so at most q^h with h <= min(size, 2 max_weight) differing bits (counting, "
                   "by induction), and map(1) >= min(size, 2 max_weight) ln q (ln_up rounds up).",
                   r"\frac{\Pr[M(x) = y]}{\Pr[M(x') = y]} \le \left(\frac{2-f}{f}\right)^{h} "
                   r"\le e^{\min(\mathtt{size}, 2m) \ln\frac{2-f}{f}} \le e^{\mathtt{map}(1)}",
                   privacy_goals, uses=("arith.ln_up", f"{prefix}.map_rounding"),
                   assumes=PRODUCT_ASSUMPTION),
        map_rounding_obligation(prefix, lambda: _float_symbolic(constructor), natural_d_in,
                                replay_rounding(constructor, _rounding_candidates()),
                                "min(size, 2m) ln((2 - f)/f) (0 at d_in = 0)",
                                uses=("arith.ln_up",)),
    )


def _running_loss_goal(constructor: Constructor) -> ComputedGoal:
    """Goal: at the small parameters of :func:`_parameters`, the built object's map, as it runs
    on numbers, is at or above the exact privacy loss of its running sampler over every pair of
    members (``d_in`` 0 and 1). It proves nothing beyond these parameters."""
    points = _parameters({})

    def violation(point: tuple[int, float, int]) -> str:
        m, _ = _built(constructor, point)
        return _privacy_violation(constructor, m, point) if m is not None else ""
    return running_loss_goal(
        f"the running map bounds the running sampler's exact loss at {len(points)} small "
        "parameters (size <= 3, every pair of members)", points, violation,
        lambda point: {"m": point[0], "f": Fraction(point[1]), "size": point[2]},
        f"the exact loss is within the map at {len(points)} parameters",
        _replay_privacy(constructor))


IMPORT = "from mechanisms.make_randomized_response_bitvec import make_randomized_response_bitvec"


def catalogue_entry() -> Entry:
    return Entry("make_randomized_response_bitvec", make_randomized_response_bitvec,
                 randomized_response_bitvec_obligations(),
                 "RAPPOR randomized response on a bit vector",
                 (example("make_randomized_response_bitvec(1, 0.5, 3)", IMPORT,
                          distribution=stated_distribution),
                  example("make_randomized_response_bitvec(2, 0.25, 3)", IMPORT,
                          distribution=stated_distribution)), proof=True)
