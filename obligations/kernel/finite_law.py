"""The finite-law rule, for one built measurement: the law of a measurement whose randomness is
finitely many uniform integers (``rng.randrange``), computed whole from its ``__call__``.

The function is run on a concrete input with a scripted rng: each ``randrange(a, b)`` is one of
``b - a`` equally likely values, and every path through those draws is taken (depth first, the
function run again along each prefix), so ``Pr[M(x) = y]`` is the sum over the paths that return
``y`` of the product of their ``1 / (b - a)``: an exact rational. A path longer than
:data:`DRAWS` draws, more than :data:`PATHS` paths, or any other use of the rng, and the law is
not computed: the rule refuses (and :mod:`obligations.refuters.finite_law` makes no refutation
from part of a law).

Rule *finite law*: a measurement on a finite input domain (``AtomDomain(bool)``, or an int
``AtomDomain`` with at most :data:`VALUES` values) under the discrete metric, in the max
divergence: the law of every input is computed whole; every output of every path is in the
output domain and no path raises; the largest ratio ``R`` of two inputs' probabilities at one
output is finite, and ``map(d_in) >= ln R`` for every ``d_in >= 1`` (certified with the
rational lower bound ``exp_lower_bound(map(1)) >= R`` and ``map(d_in) >= map(1)``, Z3 under the
rounding model), ``map(d_in) >= 0`` below 1 (only equal inputs are that close).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms import float_model
from mechanisms.arith import exp_lower_bound
from mechanisms.core import Measurement
from mechanisms.domains import AtomDomain
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import DiscreteMetric
from obligations.kernel.code_checks import KNOWN_LAW_MODULE, map_one_body, one_body_no_randomness
from obligations.kernel.goals import as_real, prove, require
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import object_statements
from obligations.kernel.theorems import _KERNEL, Theorem

LAW_RULE = "finite law from the coin paths"
DRAWS = 32
"""The most draws one path may make."""
PATHS = 4096
"""The most paths one law may have."""
VALUES = 16
"""The most values of a finite int input domain."""


class _Stop(BaseException):
    """Ends a scripted run (a ``BaseException``, so that the function's own ``except Exception``
    cannot swallow it): past the script, with the next draw's range known, or on a use of the
    rng the rule does not model (``why``)."""

    def __init__(self, why: str = "") -> None:
        super().__init__(why)
        self.why = why


class _Scripted:
    """An rng whose ``randrange`` follows ``script``; past it, records the range and stops the
    run. Any other use of the rng is refused."""

    def __init__(self, script: list[int]) -> None:
        self.script, self.ranges, self.used = script, [], 0

    def randrange(self, start: int, stop: int | None = None) -> int:
        low, high = (0, start) if stop is None else (start, stop)
        if type(low) is not int or type(high) is not int or high <= low:
            raise _Stop(f"randrange({start}, {stop}) is not a range of ints")
        if self.used == len(self.script):
            self.ranges.append((low, high))
            raise _Stop
        value = low + self.script[self.used]
        self.used += 1
        return value

    def __getattr__(self, name: str) -> Any:
        raise _Stop(f"the function uses its rng's {name}, not randrange: its law is not computed")


def exact_law(rule: str, function: Callable[[Any, Any], Any], x: Any) -> dict[Any, Fraction]:
    """``{output: Pr[function(x) = output]}``, every path taken; raises :class:`RuleRefused` for
    a path that raises, is too long, or too many paths."""
    law: dict[Any, Fraction] = {}
    pending: list[tuple[list[int], list[int]]] = [([], [])]  # (script, each draw's range size)
    paths = 0
    while pending:
        script, sizes = pending.pop()
        rng = _Scripted(script)
        try:
            output = function(x, rng)
        except _Stop as stop:
            require(rule, not stop.why, stop.why)
            low, high = rng.ranges[-1]
            require(rule, len(script) < DRAWS, f"a path of the function on {x!r} makes more than "
                    f"{DRAWS} draws: its law is not computed whole")
            require(rule, paths + len(pending) + high - low <= PATHS, f"the function has more "
                    f"than {PATHS} paths on {x!r}: its law is not computed whole")
            pending += [([*script, k], [*sizes, high - low]) for k in range(high - low)]
            continue
        except Exception as error:  # noqa: BLE001 - a path that raises
            raise RuleRefused(rule, f"the function raises on {x!r} along the draws {script} "
                              f"({type(error).__name__}: {error})") from None
        paths += 1
        require(rule, paths <= PATHS, f"the function has more than {PATHS} paths on {x!r}: its "
                "law is not computed whole")
        require(rule, rng.used == len(script) and not rng.ranges, f"the function on {x!r} "
                "did not follow its scripted draws")
        probability = Fraction(1, math.prod(sizes))
        key = (type(output), output)
        law[key] = law.get(key, Fraction(0)) + probability
    require(rule, sum(law.values()) == 1, f"the paths of the function on {x!r} do not sum to 1")
    return law


def _inputs(domain: Any) -> list[Any] | None:
    if type(domain) is not AtomDomain:
        return None
    if domain.carrier is bool:
        return [False, True]
    if domain.carrier is int and domain.bounds is not None:
        lower, upper = domain.bounds
        if type(lower) is int and type(upper) is int and upper - lower < VALUES:
            return list(range(lower, upper + 1))
    return None


def shape(rule: str, subject: str, built: Any) -> None:
    require(rule, type(built) is Measurement and type(built.input_metric) is DiscreteMetric
            and type(built.output_measure) is MaxDivergence,
            f"{subject} is not a Measurement under the discrete metric in the max divergence")
    one_body_no_randomness(rule, [built.function], f"the function of {subject}",
                           trusted=(KNOWN_LAW_MODULE,))  # its samplers draw from the rng passed


def _largest_ratio(laws: dict[Any, dict[Any, Fraction]]) -> Fraction | float:
    worst: Fraction | float = Fraction(1)
    for p in laws.values():
        for q in laws.values():
            for y in p.keys() | q.keys():
                a, b = p.get(y, Fraction(0)), q.get(y, Fraction(0))
                if a > 0 and b == 0:
                    return math.inf
                if b > 0:
                    worst = max(worst, a / b)
    return worst


def finite_law(subject: str, built: Any) -> list[Theorem]:
    """Every standard statement of the one measurement ``built``; raises :class:`RuleRefused`
    naming the first premise that fails."""
    shape(LAW_RULE, subject, built)
    inputs = _inputs(built.input_domain)
    require(LAW_RULE, inputs is not None, f"the input domain of {subject} is not finite (bool, "
            f"or ints between bounds at most {VALUES} apart)")
    laws = {x: exact_law(LAW_RULE, built.function, x) for x in inputs}
    for x, law in laws.items():
        for _, y in law:
            require(LAW_RULE, built.output_domain.member(y), f"{subject} returns {y!r} on {x!r}, "
                    "outside its output domain")
    ratio = _largest_ratio(laws)
    require(LAW_RULE, ratio != math.inf, f"an output of {subject} is reachable from one input "
            "and not from another: no finite privacy loss")
    map_one_body(LAW_RULE, subject, built)
    at_one = built.map(1)
    require(LAW_RULE, isinstance(at_one, (int, float, Fraction)) and math.isfinite(at_one)
            and at_one >= 0 and exp_lower_bound(Fraction(at_one)) >= ratio,
            f"map(1) = {at_one!r} is not certified at least ln {ratio}")
    with float_model.rounding_model() as model:
        d = z3.Real("d_in")

        def claim() -> Any:  # the map runs inside prove, guarded; its rounding facts join model's
            value = as_real(float_model.plain(built.map(d)))
            return z3.Implies(d >= 0, z3.If(d >= 1, value >= as_real(at_one), value >= 0))
        prove(LAW_RULE, f"{subject}: map(d_in) >= map(1) for every d_in >= 1, and >= 0 below",
              claim, model.facts)
    return [Theorem(_KERNEL, statement, LAW_RULE, ())
            for statement in object_statements(subject, built)]
