"""The law of a running ``__call__`` computed path by path, for the proofs of the randomized
responses and the conversions and compositions that replay them: the code is run with a
generator that scripts every coin (``randrange``, ``random()`` on the ``2^-53`` grid) and every
path is taken, the probability field a solver term whose branches are decided under the
preconditions (:class:`Context`), the categories symbolic (:class:`Categories`). A path's weight is
the product of its coins' probabilities, so ``Pr[M(x) = y]`` is an exact sum; code the method does
not model raises :class:`OutsidePathMethod`. Also the exact-loss replays built on those laws."""

from __future__ import annotations

import builtins
import copy
import math
import numbers
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Iterator

import mpmath
import z3

from mechanisms import float_model, ops
from mechanisms.core import Constructor, Measurement
from obligations.base import ComputedGoal, Decision, Replay
from obligations.reports import (bound_assertion, constructor_call, import_line, log_lines,
                                 plain_report, reproducer, returns)


def float_at_least(q: Fraction) -> float:
    """The least float ``>= q``: ``float(q)``, or the float after it when that rounded down."""
    p = float(q)
    return math.nextafter(p, 1.0) if Fraction(p) < q else p


def built(constructor: Constructor, **arguments: Any) -> tuple[Measurement | None, str]:
    """``constructor(**arguments)``, or None and the error it raised (``"Type: message"``)."""
    try:
        return constructor(**arguments), ""
    except Exception as error:  # any failure: the replay reports it
        return None, f"{type(error).__name__}: {error}"


def loss_violation(loss: Callable[[int], tuple[bool, list[str]]], d_ins: Iterable[int]) -> str:
    """The first ``d_in`` of ``d_ins`` at which ``loss(d_in)`` (an :func:`exact_loss`) is above
    the map, as its first four report lines joined by ``"; "``; ``""`` when none is, or as soon as
    ``loss`` raises (a draw raises or is not enumerable: no law to compare, output_domain and
    runtime_errors report it)."""
    for d_in in d_ins:
        try:
            confirmed, lines = loss(d_in)
        except Exception:  # a draw raises: no law to compare; output_domain refutes it
            return ""
        if confirmed:
            return "; ".join(lines[:4])
    return ""


def exact_loss_replay(d_model: int, points: Iterable[Any],
                      build: Callable[[Any], Measurement | None],
                      loss: Callable[[Measurement, Any, int], tuple[bool, list[str]]],
                      no_law: Callable[[Exception], str]) -> Replay:
    """The privacy replay shared by the randomized responses: for each parameter point of
    ``points`` that ``build`` builds (None: skipped), ``loss(m, point, d_in)`` (an
    :func:`exact_loss`) at the model's ``d_model`` (1 when outside ``[0, 10]``), then 1 and 0.
    Confirmed with the loss's report lines at the first loss above the map; not confirmed with
    ``no_law(error)`` as soon as a loss raises (a draw raises or is not enumerable), or with the
    last report lines when every loss is within the map."""
    lines: list[str] = ["no admitted parameters to replay"]
    for point in points:
        m = build(point)
        if m is None:
            continue
        for d_in in dict.fromkeys([d_model if 0 <= d_model <= 10 else 1, 1, 0]):
            try:
                confirmed, lines = loss(m, point, d_in)
            except Exception as error:  # a draw of the real function raises: no law
                return plain_report(False, no_law(error))
            if confirmed:
                return plain_report(True, *lines)
    return plain_report(False, *lines)


def running_loss_goal(name: str, points: list[Any], violation: Callable[[Any], str],
                      witness: Callable[[Any], dict[str, Any]], detail: str,
                      replay: Callable[[dict], Replay]) -> ComputedGoal:
    """The exact goal ``name``: ``violation(point)`` (the running map below the running sampler's
    exact loss, or ``""``) is empty at every parameter point of ``points``; refuted at the first
    that is not, with ``witness(point)`` as the counterexample and ``replay`` to confirm it,
    proved with ``detail`` otherwise. It evaluates the code that runs on numbers at these points
    only."""
    def decide() -> Decision:
        for point in points:
            found = violation(point)
            if found:
                return Decision(False, witness(point), found)
        return Decision(True, detail=detail)
    return ComputedGoal(name, "exact", decide, replay)


def exact_loss(constructor: Constructor, arguments: dict[str, Any], m: Measurement, d_in: int,
               inputs: list[Any], distribution: Callable[[Measurement, Any], dict[Any, Fraction]],
               measure: Callable[[Measurement], Any], measure_text: str, note: str,
               imports: list[str]) -> tuple[bool, list[str]]:
    """The exact privacy loss of ``m = constructor(**arguments)`` at ``d_in`` against its map:
    the largest ``measure(m).max_ratio`` of the exact laws ``distribution(m, x)`` and
    ``distribution(m, x')`` over the pairs of ``inputs`` at discrete distance ``d_in`` (equal iff
    0), its log computed at 50 digits. Returns whether that log is above ``m.map(d_in)``
    (confirmed) and the report: the call, the worst pair (``note`` after its ``d_in``), claimed
    and observed, and a reproducer (the constructor's import, then ``imports``) that recomputes
    the ratio with ``measure_text``, the source text of ``measure``."""
    claimed = m.map(d_in)
    worst, pair = Fraction(1), (inputs[0], inputs[0])
    for x in inputs:
        for x_prime in inputs:
            if (x == x_prime) != (d_in == 0):
                continue
            ratio = measure(m).max_ratio(distribution(m, x), distribution(m, x_prime))
            if ratio > worst:
                worst, pair = ratio, (x, x_prime)
    with mpmath.workdps(50):
        observed = mpmath.inf if worst == math.inf else \
            mpmath.log(mpmath.mpf(worst.numerator) / worst.denominator)
        confirmed = bool(observed > mpmath.mpf(claimed))
    call = constructor_call(constructor, **arguments)
    return confirmed, [
        call, f"inputs x = {pair[0]!r}, x' = {pair[1]!r} (d_in = {d_in}{note})",
        f"claimed  map(d_in) = {claimed!r}",
        f"observed max ln(Pr[M(x)=y] / Pr[M(x')=y]) = {mpmath.nstr(observed, 17)}"
        + ("  > claimed" if confirmed else ""),
        *reproducer(import_line(constructor), *imports,
                    f"m = {call}", f"claimed = m.map({d_in})",
                    *log_lines(f"{measure_text}.max_ratio(exact_distribution(m, {pair[0]!r}), "
                               f"exact_distribution(m, {pair[1]!r}))"),
                    bound_assertion("max ln(Pr[M(x)=y] / Pr[M(x')=y])", f"map({d_in})"))]


def admitted_build_report(constructor: Constructor, call: str, m: Measurement | None,
                          error: str) -> Replay:
    """The replay of a build ``call`` the preconditions admit: confirmed, with a reproducer that
    builds it, when it failed (``m`` None, ``error`` what it raised); else not confirmed, with
    its ``map(1)``."""
    if m is None:
        return plain_report(True, call, "the preconditions admit these parameters, yet "
                            f"the constructor raises {error}",
                            *reproducer(import_line(constructor),
                                        *returns(call, "building, though the "
                                                 "preconditions admit the arguments,")))
    return plain_report(False, call, f"builds; map(1) = {m.map(1)!r}")


class NotEnumerable(Exception):
    """The running sampler's exact law cannot be enumerated (:class:`OutsidePathMethod`)."""


class OutsidePathMethod(BaseException):
    """The running ``__call__`` did something the path enumeration does not model exactly (an
    undecided branch on a term, an unknown draw, arithmetic on a coin's parts ...). A
    ``BaseException``, so that the code's own ``except Exception`` cannot swallow it."""


class Context:
    """Decides a Python condition on solver terms under the parameters' assumptions: a branch
    that takes one side for every admitted parameter is that side; any other is outside.
    ``unit_draws`` counts the float coins (``rng.random()``) the enumeration met: their law needs
    the compared probability on the ``2^-53`` grid, so the caller must check its premise."""

    def __init__(self, assumptions: list[Any]) -> None:
        self.assumptions = assumptions
        self.unit_draws = 0

    def decide(self, condition: Any) -> bool:
        if not ops.is_z3(condition):
            return bool(condition)
        for value, claim in ((True, z3.Not(condition)), (False, condition)):
            solver = z3.Solver()
            solver.set("timeout", 5000)
            solver.add(*self.assumptions, claim)
            if solver.check() == z3.unsat:
                return value
        raise OutsidePathMethod(f"a branch on {condition} depends on the parameters")


@dataclass(frozen=True)
class _Scaled:
    """``coeff * D``, ``D`` the unknown positive denominator of the probability ``source``: what
    ``Fraction(prob).numerator`` (``coeff = prob``) and ``.denominator`` (``coeff = 1``) are
    inside the exact Bernoulli. Only scaling and comparisons with a ``_Scaled`` of the same
    ``source`` (``D`` cancels) are exact; anything else is outside the method."""

    coeff: Any
    context: Context
    source: object

    def __mul__(self, k: Any) -> "_Scaled":
        if isinstance(k, bool) or not isinstance(k, (int, Fraction)):
            raise OutsidePathMethod(f"a coin's numerator or denominator times {k!r}")
        return _Scaled(self.coeff * k, self.context, self.source)

    __rmul__ = __mul__

    def _compare(self, other: Any, op: Callable[[Any, Any], Any]) -> bool:
        if not isinstance(other, _Scaled) or other.source is not self.source:
            raise OutsidePathMethod(f"a coin's numerator or denominator compared with {other!r}")
        return self.context.decide(op(self.coeff, other.coeff))

    def __lt__(self, other: Any) -> bool:
        return self._compare(other, lambda a, b: a < b)

    def __le__(self, other: Any) -> bool:
        return self._compare(other, lambda a, b: a <= b)

    def __gt__(self, other: Any) -> bool:
        return self._compare(other, lambda a, b: a > b)

    def __ge__(self, other: Any) -> bool:
        return self._compare(other, lambda a, b: a >= b)

    def __eq__(self, other: Any) -> bool:  # type: ignore[override]
        return self._compare(other, lambda a, b: a == b)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{self.coeff} * D"

    def __index__(self) -> int:
        raise OutsidePathMethod("a coin's numerator or denominator used as an integer")


class Rational:
    """The running function's probability field, carried so that ``Fraction(prob)`` and the
    exact Bernoulli can run on it: its value is the field's (a number or a solver term);
    arithmetic with numbers gives another ``Rational``, comparisons are decided
    (:class:`Context`); its numerator and denominator are :class:`_Scaled`."""

    def __init__(self, value: Any, context: Context) -> None:
        self.value, self.context = value, context

    @property
    def numerator(self) -> _Scaled:
        return _Scaled(self.value, self.context, self)

    @property
    def denominator(self) -> _Scaled:
        return _Scaled(1, self.context, self)

    def _operand(self, other: Any) -> Any:
        if isinstance(other, Rational):
            return other.value
        if isinstance(other, (int, float, Fraction)) and not isinstance(other, bool):
            return ops.exact(other)
        raise OutsidePathMethod(f"the probability combined with {other!r}")

    def _new(self, value: Any) -> "Rational":
        return Rational(value, self.context)

    def __add__(self, other: Any) -> "Rational":
        return self._new(self.value + self._operand(other))

    def __radd__(self, other: Any) -> "Rational":
        return self._new(self._operand(other) + self.value)

    def __sub__(self, other: Any) -> "Rational":
        return self._new(self.value - self._operand(other))

    def __rsub__(self, other: Any) -> "Rational":
        return self._new(self._operand(other) - self.value)

    def __mul__(self, other: Any) -> "Rational":
        return self._new(self.value * self._operand(other))

    def __rmul__(self, other: Any) -> "Rational":
        return self._new(self._operand(other) * self.value)

    def __truediv__(self, other: Any) -> "Rational":
        divisor = self._operand(other)
        if not self.context.decide(divisor != 0):
            raise OutsidePathMethod(f"the probability divided by {other!r}, which may be 0")
        return self._new(self.value / divisor)

    def __lt__(self, other: Any) -> bool:
        if isinstance(other, _UnitDraw):
            return NotImplemented
        return self.context.decide(self.value < self._operand(other))

    def __le__(self, other: Any) -> bool:
        if isinstance(other, _UnitDraw):
            return NotImplemented
        return self.context.decide(self.value <= self._operand(other))

    def __gt__(self, other: Any) -> bool:
        if isinstance(other, _UnitDraw):
            return NotImplemented
        return self.context.decide(self.value > self._operand(other))

    def __ge__(self, other: Any) -> bool:
        if isinstance(other, _UnitDraw):
            return NotImplemented
        return self.context.decide(self.value >= self._operand(other))

    def __eq__(self, other: Any) -> bool:  # type: ignore[override]
        return self.context.decide(self.value == self._operand(other))

    __hash__ = None  # type: ignore[assignment]

    def __float__(self) -> float:
        raise OutsidePathMethod("the probability converted to a float")


numbers.Rational.register(Rational)


class _Input:
    """A symbolic input, opaque to the code: only the categories' membership test and ``index``
    see it (:class:`Categories`). Comparing or hashing it, or inspecting its class through
    ``isinstance`` (which reads ``__class__``), is outside the method; ``type(arg)`` is not
    seen (the inputs are abstracted from the category type)."""

    def __init__(self, index: Any) -> None:
        self.index = index

    def __eq__(self, other: Any) -> bool:  # type: ignore[override]
        raise OutsidePathMethod("the input compared with a value")

    __hash__ = None  # type: ignore[assignment]

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        raise OutsidePathMethod("the input's class inspected")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.index})"


class Member(_Input):
    """The category of index ``index`` (``0 <= index < t``)."""


class Outsider(_Input):
    """An input that is no category (``index`` None)."""


@dataclass(frozen=True)
class Chosen:
    """An output: the category the code indexed, ``categories[index]`` (equal to another output
    iff the indices are: the categories are distinct; hashing it is outside the method)."""

    index: Any

    def __hash__(self) -> int:
        raise OutsidePathMethod("an output hashed")


@dataclass(frozen=True)
class Categories:
    """``t`` symbolic categories: membership of :class:`Member` / :class:`Outsider`, ``index``,
    indexing (an output :class:`Chosen`) and ``len`` (``t``, :func:`_symbolic_builtins`)."""

    length: Any

    def __contains__(self, arg: Any) -> bool:
        if type(arg) in (Member, Outsider):
            return type(arg) is Member
        raise OutsidePathMethod(f"membership of {arg!r}")

    def index(self, arg: Any) -> Any:
        if type(arg) is Member:
            return arg.index
        if type(arg) is Outsider:
            raise ValueError("not a category")
        raise OutsidePathMethod(f"the index of {arg!r}")

    def __getitem__(self, index: Any) -> Chosen:
        if isinstance(index, bool) or not (isinstance(index, int) or z3.is_int(index)):
            raise OutsidePathMethod(f"the categories indexed by {index!r}, not an integer")
        return Chosen(index)

    def __len__(self) -> int:
        raise OutsidePathMethod("len() of the categories outside the builtin")

    def __iter__(self) -> Any:
        raise OutsidePathMethod("iteration over the categories")


@contextmanager
def _symbolic_builtins(context: Context) -> Iterator[None]:
    """While the running code is enumerated: the builtin ``len`` answers ``t`` for
    :class:`Categories` (and delegates otherwise), and a Python truth test of a solver term is
    decided under the assumptions (:meth:`Context.decide`; z3's own is structural equality)."""
    original_len, original_bool = builtins.len, z3.AstRef.__bool__

    def length_of(obj: Any, /) -> Any:
        return obj.length if isinstance(obj, Categories) else original_len(obj)

    def truth(term: Any) -> bool:
        return context.decide(term if z3.is_bool(term) else term != 0)
    builtins.len, z3.AstRef.__bool__ = length_of, truth
    try:
        yield
    finally:
        builtins.len, z3.AstRef.__bool__ = original_len, original_bool


class _NeedChoice(BaseException):
    def __init__(self, options: list[tuple[Any, Any]]) -> None:
        self.options = options


@dataclass
class _CoinDraw:
    """``rng.randrange(Fraction(q).denominator)`` of the exact Bernoulli: compared once with the
    numerator of the same ``q``, the event ``U < q`` for ``U`` uniform on ``[0, 1)``."""

    rng: "_PathRng"
    source: object
    used: bool = False

    def __lt__(self, numerator: Any) -> bool:
        if self.used or not isinstance(numerator, _Scaled) or numerator.source is not self.source:
            raise OutsidePathMethod("a coin's draw used otherwise than once against a numerator")
        self.used = True
        q = numerator.coeff
        if not self.rng.context.decide(z3.And(0 <= q, q <= 1) if ops.is_z3(q) else 0 <= q <= 1):
            raise OutsidePathMethod(f"a coin of probability {q}, not in [0, 1]")
        return self.rng.choose([(True, q), (False, 1 - q)])


RANDOM_GRID = 2 ** 53
"""The trusted model of a float coin: CPython's ``random()`` (``random.Random`` and
``SystemRandom``) returns ``k / 2^53`` with ``k`` uniform on ``[0, 2^53)`` (53 random bits times
``2^-53``, as its documentation's "53-bit precision floats" and ``random_random`` in
``_randommodule.c`` have it)."""


@dataclass
class _UnitDraw:
    """``rng.random()``, ``U = k / 2^53``: compared once with a probability ``q`` in ``[0, 1]``.
    ``Pr[U < q] = ceil(q 2^53) / 2^53`` and ``Pr[U <= q] = min(floor(q 2^53) + 1, 2^53) / 2^53``;
    on a solver term ``q`` must lie on the ``2^-53`` grid for every admitted parameter (then they
    are ``q`` and ``q + 2^-53``, or 1 at ``q = 1``), otherwise the draw is outside the method."""

    rng: "_PathRng"
    used: bool = False

    def _below(self, q: Any, inclusive: bool) -> Any:
        """``Pr[U < q]``, or ``Pr[U <= q]`` when ``inclusive``."""
        if self.used:
            raise OutsidePathMethod("a float draw compared more than once")
        self.used = True
        q = q.value if isinstance(q, Rational) else q
        if isinstance(q, bool) or not (ops.is_z3(q) or isinstance(q, (int, float, Fraction))):
            raise OutsidePathMethod(f"a float draw compared with {q!r}")
        context = self.rng.context
        if not ops.is_z3(q):
            scaled = Fraction(q) * RANDOM_GRID
            count = math.floor(scaled) + 1 if inclusive else math.ceil(scaled)
            return Fraction(min(max(count, 0), RANDOM_GRID), RANDOM_GRID)
        if not context.decide(z3.And(0 <= q, q <= 1, z3.IsInt(q * RANDOM_GRID))):
            raise OutsidePathMethod(f"a float draw compared with {q}, not a multiple of 2^-53 "
                                    "in [0, 1] for every admitted parameter")
        context.unit_draws += 1
        if not inclusive:
            return q
        return q + Fraction(1, RANDOM_GRID) if context.decide(q < 1) else z3.RealVal(1)

    def _side(self, probability: Any, when: bool) -> bool:
        """The event of ``probability``, or its complement when ``when`` is False."""
        taken = self.rng.choose([(True, probability), (False, 1 - probability)])
        return taken if when else not taken

    def __lt__(self, q: Any) -> bool:
        return self._side(self._below(q, inclusive=False), True)

    def __le__(self, q: Any) -> bool:
        return self._side(self._below(q, inclusive=True), True)

    def __gt__(self, q: Any) -> bool:
        return self._side(self._below(q, inclusive=True), False)

    def __ge__(self, q: Any) -> bool:
        return self._side(self._below(q, inclusive=False), False)

    def __float__(self) -> float:
        raise OutsidePathMethod("a float draw used otherwise than in one comparison")


class _PathRng:
    """Replays a prefix of choices (a coin's side, or a concrete draw's value); past it, asks for
    the options. A draw below a solver term (symbolic mode) is a fresh solver integer."""

    def __init__(self, prefix: tuple[Any, ...], context: Context, limit: int) -> None:
        self.prefix, self.context, self.limit = prefix, context, limit
        self.position = 0
        self.weights: list[Any] = []
        self.draws: list[tuple[Any, Any]] = []

    def choose(self, options: list[tuple[Any, Any]]) -> Any:
        if self.position == len(self.prefix):
            raise _NeedChoice(options)
        value = self.prefix[self.position]
        self.position += 1
        self.weights.append(dict(options)[value])
        return value

    def random(self) -> _UnitDraw:
        return _UnitDraw(self)

    def randrange(self, bound: Any) -> Any:
        if isinstance(bound, _Scaled):
            if not self.context.decide(bound.coeff == 1):
                raise OutsidePathMethod("a draw below a multiple of a coin's denominator")
            return _CoinDraw(self, bound.source)
        if z3.is_int(bound) or z3.is_real(bound):
            integral = z3.IsInt(bound) if z3.is_real(bound) else z3.BoolVal(True)
            if not self.context.decide(z3.And(integral, bound >= 1)):
                raise OutsidePathMethod(f"randrange({bound}): not an integer >= 1 for every "
                                        "parameter")
            sample = float_model.as_int(z3.Int(f"s{len(self.draws)}"))
            self.draws.append((sample, bound))
            return sample
        if isinstance(bound, bool) or not isinstance(bound, int) or not 1 <= bound <= self.limit:
            raise OutsidePathMethod(f"randrange({bound!r})")
        return self.choose([(v, Fraction(1, bound)) for v in range(bound)])


@dataclass(frozen=True)
class Path:
    """One run of the function: the choices' probabilities, the uniform draws ``(s, bound)``
    left symbolic, and the output (or the exception it raised)."""

    weight: Any
    draws: tuple[tuple[Any, Any], ...]
    output: Any
    raised: BaseException | None = None


def enumerate_paths(run: Callable[[Any], Any], context: Context, limit: int = 10_000,
                    most: int = 4096) -> list[Path]:
    """Every path of ``run(rng)`` by depth-first replay; raises :class:`OutsidePathMethod` when
    the code leaves the method. A run that raises another exception is a path that raises."""
    paths: list[Path] = []
    pending: list[tuple[Any, ...]] = [()]
    with _symbolic_builtins(context):
        while pending:
            prefix = pending.pop()
            rng = _PathRng(prefix, context, limit)
            try:
                output, raised = run(rng), None
            except _NeedChoice as need:
                pending.extend(prefix + (value,) for value, _ in reversed(need.options))
                continue
            except (OutsidePathMethod, z3.Z3Exception, TypeError, AttributeError) as error:
                raise OutsidePathMethod(f"{type(error).__name__}: {error}") from error
            except Exception as error:  # the code raises on this path: reported, not handled
                output, raised = None, error
            weight = math.prod(rng.weights, start=1)
            paths.append(Path(weight, tuple(rng.draws), output, raised))
            if len(paths) > most:
                raise OutsidePathMethod(f"more than {most} paths")
    return paths


def running_copy(f: Any, context: Context, categories: Any) -> Any:
    """A copy of the running function whose ``prob`` is carried by :class:`Rational` (same
    value) and whose ``categories`` are ``categories``."""
    if not {"prob", "categories"} <= set(getattr(f, "__dict__", {})):
        raise OutsidePathMethod(f"{type(f).__qualname__} has no prob and categories fields")
    clone = copy.copy(f)
    object.__setattr__(clone, "prob", Rational(ops.exact(f.prob), context))
    object.__setattr__(clone, "categories", categories)
    return clone


def exact_distribution(m: Measurement, arg: Any) -> dict[Any, Fraction]:
    """The running sampler's exact output distribution on ``arg``: its ``__call__`` run on every
    draw sequence (a uniform draw on each of its values, an exact coin on both sides with its
    probability); :class:`NotEnumerable` if it cannot be enumerated, the code's own exception if
    a path raises."""
    f = m.function
    context = Context([])
    clone = running_copy(f, context, f.categories)

    def paths() -> list[Path]:
        try:
            return enumerate_paths(lambda rng: clone(arg, rng), context)
        except OutsidePathMethod as outside:
            raise NotEnumerable(f"the running sampler leaves the path method: {outside}") \
                from None
    return enumerated_law(paths)


def enumerated_law(paths: Callable[[], list[Path]],
                   key: Callable[[dict[Any, Fraction]], Any] = lambda law: law
                   ) -> dict[Any, Fraction]:
    """The exact output law of a running call whose every path ``paths()`` gives: the sum of the
    weights of the paths per output. Enumerated twice (a call drawing elsewhere than from its
    rng, or keeping state, gives two laws whose ``key`` differ: :class:`NotEnumerable`); the
    code's own exception if a path raises."""
    laws: list[dict[Any, Fraction]] = []
    for _ in range(2):
        law: dict[Any, Fraction] = {}
        for path in paths():
            if path.raised is not None:
                raise path.raised
            law[path.output] = law.get(path.output, Fraction(0)) + path.weight
        laws.append(law)
    if key(laws[0]) != key(laws[1]):
        raise NotEnumerable("two enumerations of the running call differ: it draws elsewhere "
                            "than from its rng, or keeps state")
    return laws[0]
