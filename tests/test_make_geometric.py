"""mechanisms.make_geometric: refusals, outputs within the bounds, the input and output clamps,
the law (seeded sampling against the stated law, Hoeffding per cell: false-alarm probability at
most 1e-9 per test), the running law's exact loss against the map, and the comparison with opendp
0.16's make_geometric(..., bounds=(L, U)) (equal maps; the same clamping, deterministically at a
tiny scale; the same law, on opendp's unseeded draws, false-alarm probability at most 1e-9)."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

from dataclasses import dataclass, replace
from typing import Any

import mpmath
import pytest

from mechanisms.errors import (BoundsOrderError, BoundsPairError, IntBoundTypeError, ScaleError)
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_geometric import BoundedIntegerNoise, build_geometric, make_geometric
from obligations.base import Entry
from obligations.kernel.statements import Claim
from tests.helpers import statements_by_claim

ALPHA = 1e-9
DIGITS = 60


def hoeffding(n: int, cells: int) -> float:
    """Per-cell deviation of an empirical frequency over ``n`` draws exceeded with probability at
    most ``ALPHA / cells`` (two-sided Hoeffding), so all cells together at most ``ALPHA``."""
    return math.sqrt(math.log(2 * cells / ALPHA) / (2 * n))


# --- the stated law and the running one (test oracles, at DIGITS digits) --------------------

def running_law(f: Any, x: int, radius: int | None = None) -> tuple[dict[Any, Any], Any]:
    """The law of ``f.release(x, Y)``, ``Y`` the discrete Laplace at ``f.scale > 0``
    (``Pr[Y = z] = (1 - a)/(1 + a) a^|z|``, ``a = exp(-1/scale)``, stated here): the mass of each
    output over the draws ``|z| <= radius`` (a lower bound of its probability), and the mass of
    the draws omitted (adding it bounds every probability from above), at :data:`DIGITS`
    digits. The outputs are those the running ``release`` returns."""
    with mpmath.workdps(DIGITS):
        scale = Fraction(f.scale)
        a = mpmath.exp(-mpmath.mpf(scale.denominator) / scale.numerator)
        c = (1 - a) / (1 + a)
        if radius is None:
            radius = min(abs(x) + int(60 * scale) + 80, 20_000)
        law: dict[Any, Any] = {}
        for z in range(-radius, radius + 1):
            y = f.release(x, z)
            law[y] = law.get(y, mpmath.mpf(0)) + c * a ** abs(z)
        return law, 2 * c * a ** (radius + 1) / (1 - a)


def loss_lower_bound(f: Any, x: int, x2: int, y: Any) -> Any:
    """A lower bound of ``ln(Pr[M(x) = y] / Pr[M(x') = y])`` for the running ``f`` (``+inf``
    when the bound on ``Pr[M(x') = y]`` is 0, ``-inf`` when ``y`` is not seen from ``x``)."""
    if Fraction(f.scale) <= 0:
        p, q = (1 if f.release(x, 0) == y else 0), (1 if f.release(x2, 0) == y else 0)
        return math.inf if p and not q else (0 if p else -math.inf)
    (law, _), (law2, tail2) = running_law(f, x), running_law(f, x2)
    with mpmath.workdps(DIGITS):
        p, q = law.get(y, mpmath.mpf(0)), law2.get(y, mpmath.mpf(0)) + tail2
        if p == 0:
            return -math.inf
        return mpmath.log(p / q)


def stated_law(scale: Any, lower: int, upper: int, x: int) -> dict[int, Any]:
    """``clamp(clamp(x) + Y)`` with ``Y`` the discrete Laplace at ``scale > 0``, from its closed
    form: interior points ``Pr[Y = y - c]``, the bounds the tails
    ``Pr[Y <= L - c]`` and ``Pr[Y >= U - c]`` (``c = clamp(x)``)."""
    with mpmath.workdps(DIGITS):
        s = Fraction(scale)
        a = mpmath.exp(-mpmath.mpf(s.denominator) / s.numerator)
        c = (1 - a) / (1 + a)
        point = lambda z: c * a ** abs(z)  # noqa: E731
        def upper_tail(t: int) -> Any:
            return a ** t / (1 + a) if t >= 1 else 1 - a ** (1 - t) / (1 + a)
        centre = min(max(x, lower), upper)
        if lower == upper:
            return {lower: mpmath.mpf(1)}
        law = {y: point(y - centre) for y in range(lower + 1, upper)}
        law[upper] = upper_tail(upper - centre)
        law[lower] = upper_tail(centre - lower)          # Pr[Y <= L - c] = Pr[Y >= c - L]
        return law


def law_difference(f: Any, x: int) -> tuple[Any, Any, Any] | None:
    """An output whose probability under the running ``f`` (bounded from both sides) lies off
    the stated law's at ``f``'s scale and bounds: ``(y, running bounds, stated)``."""
    if Fraction(f.scale) <= 0:
        return None
    law, tail = running_law(f, x)
    stated = stated_law(f.scale, f.lower, f.upper, x)
    with mpmath.workdps(DIGITS):
        margin = mpmath.mpf(10) ** -40
        for y in sorted(law.keys() | stated.keys(), key=repr):
            low = law.get(y, mpmath.mpf(0))
            want = stated.get(y, mpmath.mpf(0))
            if low > want + margin or low + tail < want - margin:
                return y, (low, low + tail), want
    return None


@pytest.mark.parametrize("scale, bounds, error", [
    (1.0, (5, 1), BoundsOrderError), (1, (0, 1), ScaleError), (-1.0, (0, 1), ScaleError),
    (math.inf, (0, 1), ScaleError), (math.nan, (0, 1), ScaleError),
    (1.0, (0.0, 1), IntBoundTypeError), (1.0, (True, 3), IntBoundTypeError),
    (1.0, ("0", "1"), IntBoundTypeError), (1.0, None, BoundsPairError),
    (1.0, (1, 2, 3), BoundsPairError), (1.0, 5, BoundsPairError)])
def test_bad_arguments_are_refused(scale, bounds, error):
    with pytest.raises(error):
        make_geometric(scale, bounds)


def test_domains_measure_and_map():
    m = make_geometric(2.0, (0, 10))
    assert str(m.output_domain) == "AtomDomain(int, bounds=[0, 10])"
    assert m.input_domain.member(10 ** 30) and m.input_domain.member(-5)
    for d_in in (0, 1, 2, 3, 100):
        assert m.map(d_in) == make_discrete_laplace(2.0).map(d_in)
    assert make_geometric(0.0, (0, 10)).map(1) == math.inf


@pytest.mark.parametrize("x", [-10 ** 30, -3, 0, 5, 10, 11, 10 ** 30])
def test_outputs_are_ints_within_the_bounds(x):
    m = make_geometric(3.0, (0, 10))
    outputs = [m(x, random.Random(seed)) for seed in range(40)]
    assert all(type(y) is int and 0 <= y <= 10 for y in outputs)


def test_point_bounds_and_no_noise():
    assert {make_geometric(2.0, (3, 3))(x, random.Random(s)) for x in (-9, 3, 99)
            for s in range(10)} == {3}
    assert [make_geometric(0.0, (0, 10))(x) for x in (-4, 4, 14)] == [0, 4, 10]


@pytest.mark.parametrize("x", [5, -3, 14])
def test_seeded_draws_follow_the_stated_law(x):
    scale, bounds, n = 1.0, (0, 10), 3000
    m = make_geometric(scale, bounds)
    rng = random.Random(20 + x)
    counts = Counter(m(x, rng) for _ in range(n))
    law = stated_law(scale, *bounds, x)
    slack = hoeffding(n, len(law))
    for y, p in law.items():
        assert abs(counts[y] / n - float(p)) <= slack, (y, counts[y] / n, float(p))


@pytest.mark.parametrize("scale", [0.5, 1.0, 3.0])
@pytest.mark.parametrize("x", [-20, 0, 4, 10, 25])
def test_running_law_is_the_stated_law(scale, x):
    assert law_difference(make_geometric(scale, (0, 10)).function, x) is None


def test_stated_law_has_mass_one():
    with mpmath.workdps(60):
        for x in (-5, 0, 3, 10, 20):
            assert abs(mpmath.fsum(stated_law(2.0, 0, 10, x).values()) - 1) < 1e-40


@pytest.mark.parametrize("scale", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("d", [1, 2, 3])
def test_exact_loss_never_exceeds_the_map_and_reaches_it_at_the_lower_bound(scale, d):
    """At x = L, x' = L + d the output L has ratio Pr[Y <= 0] / Pr[Y <= -d] = exp(d / scale):
    the map is attained (the clamp adds no slack there); no output exceeds it."""
    m = make_geometric(scale, (0, 10))
    losses = [loss_lower_bound(m.function, 0, d, y) for y in range(0, 11)]
    assert max(losses) <= m.map(d)
    assert abs(losses[0] - d / scale) < 1e-30


def test_law_window_mass_and_its_tail_sum_to_one():
    law, tail = running_law(make_geometric(1.0, (0, 10)).function, 5)
    with mpmath.workdps(60):
        assert 0 < tail < 1e-30
        assert abs(mpmath.fsum(law.values()) + tail - 1) < 1e-45


@dataclass(frozen=True)
class SubtractsDraw(BoundedIntegerNoise):
    """Right: ``clamp(clamp(x) - z)``, the same law (the discrete Laplace is symmetric)."""

    def release(self, arg: Any, noise: Any) -> Any:
        return self.clamp(self.clamp(arg) - noise)


@dataclass(frozen=True)
class UnclampedInput(BoundedIntegerNoise):
    """Right, another function: ``clamp(x + z)``, the input clamp dropped."""

    def release(self, arg: Any, noise: Any) -> Any:
        return self.clamp(arg + noise)


@dataclass(frozen=True)
class MixesSigns(BoundedIntegerNoise):
    """Wrong: adds positive draws and subtracts negative ones, ``clamp(clamp(x) + |z|)``: never
    below the clamped input."""

    def release(self, arg: Any, noise: Any) -> Any:
        return self.clamp(self.clamp(arg) + abs(noise))


def _variant(kind: type):
    def build(scale, bounds):
        built = build_geometric(scale, bounds)
        f = built.function
        return replace(built, function=kind(f.scale, f.lower, f.upper, f.sampler))
    return make_geometric.variant(f"make_geometric_{kind.__name__.lower()}", build)


def test_a_function_that_subtracts_its_draw_has_the_stated_law_and_is_proved():
    variant = _variant(SubtractsDraw)
    assert law_difference(variant(1.0, (0, 10)).function, 3) is None
    certified = statements_by_claim(Entry(variant.name, variant))
    assert certified and all(c.proved for c in certified.values()), certified


def test_a_function_that_drops_the_input_clamp_is_proved_though_its_law_differs():
    """``clamp(x + Y)``: another law for inputs outside the bounds, and as private (the output
    clamp post-processes ``x + Y``): the kernel proves every statement, and only this test tells
    it from the catalogue's law."""
    variant = _variant(UnclampedInput)
    assert law_difference(variant(1.0, (0, 10)).function, -7) is not None
    certified = statements_by_claim(Entry(variant.name, variant))
    assert certified and all(c.proved for c in certified.values()), certified


def test_a_function_that_mixes_signs_is_refuted_with_its_law():
    variant = _variant(MixesSigns)
    privacy = statements_by_claim(Entry(variant.name, variant))[Claim.PRIVACY]
    assert privacy.refutation is not None, privacy.why
    assert law_difference(variant(1.0, (0, 10)).function, 3) is not None


# --- OpenDP -----------------------------------------------------------------------------------

dp = pytest.importorskip("opendp.prelude")
dp.enable_features("contrib")


def theirs(scale: float, bounds: tuple[int, int]):
    return dp.m.make_geometric(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale,
                               bounds=bounds)


@pytest.mark.parametrize("scale", [0.5, 1.0, 2.0, 3.0, 10.0])
@pytest.mark.parametrize("d_in", [0, 1, 3, 10])
def test_map_equals_opendps(scale, d_in):
    assert make_geometric(scale, (0, 10)).map(d_in) == theirs(scale, (0, 10)).map(d_in)


def test_map_equals_opendps_on_seeded_parameters():
    """200 seeded scales in [0.05, 20], bounds, d_in in 0..20: equal maps every time."""
    rng = random.Random(4)
    for _ in range(200):
        scale, d_in = rng.uniform(0.05, 20), rng.randint(0, 20)
        lower = rng.randint(-5, 5)
        bounds = (lower, lower + rng.randint(0, 10))
        assert make_geometric(scale, bounds).map(d_in) == theirs(scale, bounds).map(d_in)


@pytest.mark.parametrize("x, expected", [(-50, 0), (-1, 0), (0, 0), (7, 7), (10, 10), (11, 10),
                                         (10 ** 6, 10)])
def test_clamping_matches_opendp_at_a_tiny_scale(x, expected):
    """At scale 0.01 the noise is 0 except with probability about 2 exp(-100): both clamp the
    input, add nothing and return the clamped input."""
    assert make_geometric(0.01, (0, 10))(x, random.Random(0)) == expected
    assert theirs(0.01, (0, 10))(x) == expected


def test_opendps_draws_follow_our_stated_law():
    """opendp's bounded geometric (unseeded: it draws from the OS) against our stated law, at
    scale 1, bounds (0, 10), x = 3: every cell within Hoeffding's slack (false alarm <= 1e-9)."""
    m, n = theirs(1.0, (0, 10)), 4000
    counts = Counter(m(3) for _ in range(n))
    law = stated_law(1.0, 0, 10, 3)
    slack = hoeffding(n, len(law))
    for y, p in law.items():
        assert abs(counts[y] / n - float(p)) <= slack, (y, counts[y] / n, float(p))
