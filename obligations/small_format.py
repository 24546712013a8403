"""Obligation ``<prefix>.small_format``: a float sum's map checked bit for bit in Z3's
floating-point theory, in a small binary format standing in for binary64.

Z3's FP theory does not finish binary64 sums (measured: ``unknown`` after 120 s a query for two
rows with fixed bounds), but it decides a small format exactly: round-to-nearest-even,
subnormals, signed zeros, no standard model assumed. The obligation runs the mechanism's own
summation function on Z3 floats of ``PROXY`` for every vector ``v`` of ``n <= PROXY_LENGTH`` rows
in ``[L, U]``, every pair of bounds ``L <= U`` of the format whose sums cannot overflow, and every
sized neighbour ``w``: a reordering of ``v`` with ``k`` rows replaced (``d_sym = 2k``). Its claim:

    |sum(v) - sum(w)| <= a_k (U - L) + b' M,   M = max(|L|, |U|)

where ``a_k`` and ``b`` are read from the constructor's own map at ``L = -1, U = 1`` (``a_k =
(map(2k) - map(0)) / 2``, ``b = map(0)``: the shape ``floor(d_in/2)(U - L) + 2 error(n)``, with
``error`` linear in ``M``) and ``b' = b 2^(1-p) / 2^-52`` rescales the rounding term from
binary64's ``2u`` to the format's. Differences are exact in ``WIDE`` (a goal checks it), where
the bound is rounded down, so a proved claim is the exact inequality.

What it says: the error analysis that the stability obligation applies to binary64 for every
``n`` agrees with IEEE rounding bit for bit where the solver can enumerate every case; a map with
no rounding term is refuted here with a counterexample of the small format.

Not in the gate's catalogue yet: both summation orders take about 50 s (sequential about 20 s),
over the gate's 30 s per obligation. ``tests/test_small_format.py`` proves the sequential order
and refutes the real-number map.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, permutations
from typing import Any, Callable, Iterator

import mpmath
import z3

from mechanisms import float_model, ops
from mechanisms.core import Constructor
from mechanisms.make_sized_bounded_float_checked_sum import MANTISSA_SCALE
from obligations.base import ComputedGoal, Decision, Kind, Obligation, Replay, Z3Goal
from obligations.reports import plain_report

PROXY = z3.FPSort(3, 3)
"""3 exponent bits, 3 significand bits (hidden bit included): normal exponents -2..3, largest 14."""
WIDE = z3.FPSort(5, 11)
"""binary16: holds the difference of two ``PROXY`` floats exactly."""
PROXY_LENGTH = 2


def _exponent_range(sort: z3.FPSortRef) -> tuple[int, int]:
    """``(emin, emax)`` of the normal exponents."""
    emax = 2 ** (sort.ebits() - 1) - 1
    return 1 - emax, emax


def largest(sort: z3.FPSortRef) -> Fraction:
    """The largest finite float of ``sort``: ``(2 - 2^(1-p)) 2^emax``."""
    return (2 - Fraction(1, 2 ** (sort.sbits() - 1))) * Fraction(2) ** _exponent_range(sort)[1]


def quantum(sort: z3.FPSortRef) -> Fraction:
    """The smallest subnormal, of which every float of ``sort`` is a multiple: ``2^(emin-p+1)``."""
    return Fraction(2) ** (_exponent_range(sort)[0] - sort.sbits() + 1)


def unit2(sort: z3.FPSortRef) -> Fraction:
    """``2u = 2^(1-p)``, the format's counterpart of binary64's ``2^-52``."""
    return Fraction(1, 2 ** (sort.sbits() - 1))


def overflow_power(sort: z3.FPSortRef, size: int) -> Fraction:
    """The largest power of two ``P`` with ``size P <= largest``: ``M <= P`` is the sum's overflow
    precondition ``size 2^ceil(log2 M) <= largest`` in ``sort``."""
    power = quantum(sort)
    while size * power * 2 <= largest(sort):
        power *= 2
    return power


def differences_exact() -> Decision:
    """Every difference of two ``PROXY`` floats is a multiple of the quantum below
    ``2 largest``, so it fits ``WIDE``'s significand and exponent range exactly."""
    steps = int(2 * largest(PROXY) / quantum(PROXY))
    fits = (steps.bit_length() <= WIDE.sbits() and quantum(WIDE) <= quantum(PROXY)
            and 2 * largest(PROXY) <= largest(WIDE))
    return Decision(fits, {} if fits else {"steps": steps},
                    f"|x - y| <= {2 * largest(PROXY)} in steps of {quantum(PROXY)}: "
                    f"{steps.bit_length()} bits, binary16 has {WIDE.sbits()}")


def neighbours(size: int) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """``(order, replaced)``: ``w[i] = v[order[i]]`` except at the ``replaced`` positions; with
    every row replaced the order does not matter, so it is listed once."""
    for k in range(size + 1):
        orders = [tuple(range(size))] if k == size else list(permutations(range(size)))
        for order in orders:
            for replaced in combinations(range(size), k):
                yield order, replaced


def map_coefficients(constructor: Constructor, size: int, summation: str
                     ) -> tuple[list[Fraction], Fraction]:
    """``([a_0, ..., a_size], b')``: the constructor's map read as ``a_k (U - L) + b M``.

    ``a_k = map(2k) - map(0)`` on Z3 reals at ``L = 0, U = 1`` (the rounding term cancels
    symbolically); ``b = map(0)`` at ``L = -1, U = 1`` computed exactly, rescaled to ``PROXY``'s
    ``2u``. Raises ``ValueError`` when ``a_k`` is not a rational constant."""
    lower, upper = z3.Reals("L U")
    symbolic = constructor.build(size=size, lower=lower, upper=upper, summation=summation)
    sensitivity = []
    for k in range(size + 1):
        change = z3.simplify(z3.substitute(float_model.plain(symbolic.map(2 * k) - symbolic.map(0)),
                                           (lower, z3.RealVal(0)), (upper, z3.RealVal(1))))
        if not z3.is_rational_value(change):
            raise ValueError(f"map({2 * k}) - map(0) at L = 0, U = 1 is {change}, not a constant")
        sensitivity.append(Fraction(change.numerator_as_long(), change.denominator_as_long()))
    with float_model.exact_model(), mpmath.workdps(120):
        built = constructor.build(size=size, lower=Fraction(-1), upper=Fraction(1),
                                  summation=summation)
        rounding = _rational_below(built.map(0))
    return sensitivity, rounding * unit2(PROXY) / MANTISSA_SCALE


def _rational_below(value: Any) -> Fraction:
    """A rational ``<=`` the map value: exact for rationals; a 120-digit ``mpf`` (the exact map
    of a ``ln``) is lowered by a relative ``10^-100``, more than its error."""
    if isinstance(value, mpmath.mpf):
        mantissa, exponent = value.man_exp
        return Fraction(mantissa) * Fraction(2) ** exponent * (1 - Fraction(1, 10 ** 100))
    return Fraction(value)


def _down(q: Fraction) -> z3.FPRef:
    return z3.simplify(z3.fpToFP(z3.RTN(), z3.RealVal(q), WIDE))


def _wide(x: z3.FPRef) -> z3.FPRef:
    return z3.fpFPToFP(z3.RNE(), x, WIDE)


def _proxy_value(x: float) -> z3.FPRef:
    return z3.FPVal(x, PROXY)


def _replay(function: Callable[[list[Any]], Any], summation: str, size: int,
            order: tuple[int, ...], replaced: tuple[int, ...],
            bound: Callable[[Fraction, Fraction], Fraction]) -> Callable[[dict], Replay]:
    """Run the code's summation on the counterexample's ``PROXY`` floats (constant folding in
    Z3's FP theory) and compare the difference with the bound, in exact rationals."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        try:
            lower, upper = counterexample["L"], counterexample["U"]
            v = [counterexample[f"v{i}"] for i in range(size)]
            fresh = {i: counterexample[f"r{i}"] for i in replaced}
        except KeyError as missing:
            return plain_report(False, f"the counterexample names no {missing}")
        w = [fresh[i] if i in fresh else v[order[i]] for i in range(size)]
        sum_v = ops.numeral_value(function([_proxy_value(x) for x in v]))
        sum_w = ops.numeral_value(function([_proxy_value(x) for x in w]))
        claimed = bound(Fraction(lower), Fraction(upper))
        observed = abs(sum_v - sum_w)
        return plain_report(observed > claimed,
                            f"{summation} sum in the small format e=3, p=3 (not binary64)",
                            f"L = {lower}, U = {upper}, v = {v}, w = {w} ({len(replaced)} replaced)",
                            f"sum(v) = {sum_v}, sum(w) = {sum_w}, |difference| = {observed}",
                            f"bound a_k (U - L) + b' M = {claimed}")
    return replay


def case_goal(constructor: Constructor, summation: str, size: int, order: tuple[int, ...],
               replaced: tuple[int, ...]) -> Z3Goal:
    lower, upper = z3.FP("L", PROXY), z3.FP("U", PROXY)
    v = [z3.FP(f"v{i}", PROXY) for i in range(size)]
    fresh = {i: z3.FP(f"r{i}", PROXY) for i in replaced}
    w = [fresh[i] if i in fresh else v[order[i]] for i in range(size)]
    function = constructor.build(size=size, lower=-1.0, upper=1.0, summation=summation).function
    sensitivity, rounding = map_coefficients(constructor, size, summation)
    a = sensitivity[len(replaced)]
    magnitude = z3.fpMax(z3.fpAbs(_wide(lower)), z3.fpAbs(_wide(upper)))
    bound = z3.fpAdd(z3.RTN(), z3.fpMul(z3.RTN(), _down(a), z3.fpSub(z3.RNE(), _wide(upper), _wide(lower))),
                     z3.fpMul(z3.RTN(), _down(rounding), magnitude))
    difference = z3.fpAbs(z3.fpSub(z3.RNE(), _wide(function(v)), _wide(function(w))))
    rows = [*v, *fresh.values()]
    assumptions = [z3.Not(z3.fpIsInf(lower)), z3.Not(z3.fpIsInf(upper)), z3.fpLEQ(lower, upper),
                   z3.fpLEQ(z3.fpMax(z3.fpAbs(lower), z3.fpAbs(upper)),
                            _proxy_value(float(overflow_power(PROXY, size)))),
                   *[z3.And(z3.fpLEQ(lower, x), z3.fpLEQ(x, upper)) for x in rows]]
    names = {"L": lower, "U": upper, **{f"v{i}": x for i, x in enumerate(v)},
             **{f"r{i}": x for i, x in fresh.items()}}

    def exact_bound(low: Fraction, high: Fraction) -> Fraction:
        return a * (high - low) + rounding * max(abs(low), abs(high))

    return Z3Goal(f"{summation}, n = {size}, w = v reordered {order} with rows {list(replaced)} "
                  f"replaced: |sum(v) - sum(w)| <= {a} (U - L) + {float(rounding):.6g} M",
                  z3.fpLEQ(difference, bound), assumptions, names,
                  _replay(function, summation, size, order, replaced, exact_bound))


def small_format_obligation(prefix: str, constructor: Constructor,
                            summations: tuple[str, ...]) -> Obligation:
    """``<prefix>.small_format`` for a float sum with the given summation orders."""
    def goals() -> list[Any]:
        found: list[Any] = [ComputedGoal("differences of two floats of the small format are "
                                         "exact in binary16", "exact", differences_exact)]
        for summation in summations:
            found += [case_goal(constructor, summation, size, order, replaced)
                      for size in range(1, PROXY_LENGTH + 1)
                      for order, replaced in neighbours(size)]
        return found

    return Obligation(
        f"{prefix}.small_format", Kind.STABILITY,
        "In Z3's floating-point theory, in a small binary format (3 exponent bits, 3 significand "
        "bits) standing in for binary64: for every n <= 2, bounds L <= U whose sums cannot "
        "overflow, v in [L, U]^n and sized neighbour w (reordered, k rows replaced), the code's "
        "float sums differ by at most the map's a_k (U - L) + b M, its rounding term rescaled to "
        "the format's unit roundoff. A bit-exact cross-check of the error analysis, not a "
        "binary64 proof (that is the stability obligation).",
        r"\forall v, w \in [\mathtt{L}, \mathtt{U}]^n,\ n \le 2:\ "
        r"|\hat{S}_{3,3}(v) - \hat{S}_{3,3}(w)| \le a_k (\mathtt{U} - \mathtt{L}) + b' M",
        goals, bound="Z3 FP theory, e=3 p=3 format as a proxy for binary64, n <= 2")
