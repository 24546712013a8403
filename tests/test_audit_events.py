"""The audit's event families, output shapes and per-pair errors (issue 14).

Event-family tests call :func:`checker.empirical.events.best_event` on synthetic selection runs
whose leak only one family can see, with the learned scores left out, so each family is shown to
be needed. Audits are seeded; each audit's false-alarm probability is at most its ``alpha``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import nchypergeom_fisher

from checker.audit import audit
from checker.empirical.events import Projection, best_event
from checker.empirical.learned import cell_statistic, classifier_statistic
from checker.empirical.shapes import NAN, NULL, OutputError, features, key
from checker.empirical.statistics import conditional_loss_lower_bound, fisher_log_tail

RANK = Projection(trials=40_000, alpha=1e-3 / 8)
N = 8_000


def runs(draw, seed: int) -> tuple:
    rng = np.random.default_rng(seed)
    return features([draw(rng, True) for _ in range(N)]), features([draw(rng, False) for _ in range(N)])


def test_equality_on_one_position():
    """Position 1 takes the values 0..5; under x it is 3 twice as often. Thresholds on it can
    only cut 3 off together with its neighbours."""
    def draw(rng, leaky):
        return (float(rng.normal()), int(3 if leaky and rng.random() < 0.2 else rng.integers(6)))
    best = best_event(*runs(draw, 1), RANK)
    assert best.event.description == "output[1] == 3"


def test_a_category_and_a_threshold_together():
    """StatDP's ``k == 2 and v < c``: the value leaks only on outputs whose first entry is True,
    half of them; alone, neither position shows it as strongly."""
    def draw(rng, leaky):
        flag = bool(rng.random() < 0.5)
        return (flag, float(rng.laplace(1.5 if leaky and flag else 0.0, 1.0)))
    best = best_event(*runs(draw, 2), RANK)
    assert best.event.description.startswith("output[0] == True and output[1]")


def test_all_coordinates_above_together():
    """Each of 5 counts moves by 0.7 of its noise scale: a loss of 0.7 per count, 3.5 together
    (a record touching every key). The joint families see what one coordinate cannot."""
    def draw(rng, leaky):
        return tuple(rng.laplace(0.7 if leaky else 0.0, 1.0, 5).tolist())
    x, other = runs(draw, 3)
    best = best_event(x, other, RANK)
    assert best.event.description.startswith(("sum(", "projection", "least quantile rank",
                                              "largest quantile rank"))
    assert best.score > 1.0  # no single count's event can pass its loss of 0.7


def test_learned_scores_find_what_no_fixed_family_does():
    """An XOR leak: under x the two signs differ 80 % of the time, under x' 20 % (a loss of
    ln 4). Each position alone is the same under both, and the sum is the second's alone; the
    fixed families see part of it (a projection, bands on ranks), the learned scores more."""
    def draw(rng, leaky):
        a = float(rng.normal())
        agree = rng.random() < (0.2 if leaky else 0.8)
        b = 10 * abs(float(rng.normal()))  # on another scale, so their sum is b's alone
        return (a, b * (math.copysign(1, a) if agree else -math.copysign(1, a)))
    x, other = runs(draw, 4)
    fixed = best_event(x, other, RANK)
    learned = [s for s in (cell_statistic(x, other), classifier_statistic(x, other, 0)) if s]
    assert len(learned) == 2
    best = best_event(x, other, RANK, learned)
    assert best.score > fixed.score + 0.25
    assert "learned score" in best.event.description or "cell log-ratio" in best.event.description


def test_output_shapes_are_read():
    outputs = [{"b": 2.0, "a": (True, None)}, [1, [2.5, float("inf")]], {3, 1}, b"x",
               (float("nan"), -math.inf), np.float32(0.5), None]
    f = features(outputs)
    assert key(outputs[0]) == (("a", (True, NULL)), ("b", 2.0))
    assert key(outputs[1]) == (1, (2.5, math.inf))
    assert key(float("nan")) is NAN and f.keys[4][0] is NAN
    assert f.numbers[2][1] == math.inf and f.numbers[0][5] == 0.5
    with pytest.raises(OutputError, match="object"):
        features([object()])


def unreadable_on_three(x):
    """Laplace on a number, but an object no one can read when x == 3."""
    return object() if x == 3 else float(x + np.random.laplace(0, 1))


def test_one_bad_pair_is_reported_and_the_others_are_tested():
    result = audit(unreadable_on_three, 1.0, pairs=[(0.0, 1.0), (3, 4.0), (5.0, 6.0)],
                   samples=2_000, seed=0)
    assert result.verdict == "unknown"
    assert {(e.x, e.x_prime) for e in result.errors} == {(3, 4.0), (4.0, 3)}
    assert "cannot read the output" in result.errors[0].message
    assert len(result.results) == 4 and not result.violations


def list_with_leaky_first_entry(x):
    """A list output (once misread by NumPy): its first entry has half the noise it needs."""
    return [float(x + np.random.laplace(0, 0.5)), float(np.random.laplace(0, 1))]


def test_list_outputs_are_audited():
    result = audit(list_with_leaky_first_entry, 1.0, pairs=[(0.0, 1.0)], samples=5_000, seed=0)
    assert result.verdict == "violation"


def isvt4(queries, epsilon=0.7):
    """Lyu, Su and Li's Algorithm 3 (StatDP's iSVT4), c = 1: threshold 0.5 + Lap(2/eps), query
    noise Lap(2/eps), and the noisy query value released in place of True."""
    threshold = 0.5 + np.random.laplace(0, 2 / epsilon)
    out: list = []
    for q in queries:
        noisy = q + np.random.laplace(0, 2 / epsilon)
        if noisy > threshold:
            return tuple(out) + (float(noisy),)
        out.append(False)
    return tuple(out)


@pytest.mark.slow  # over 2 s: make test-slow
def test_isvt4_is_caught_on_statdps_ten_query_x_shape():
    """StatDP's hardest benchmark case: the leak is only in ``k == 5 and v <= c``. Detection is
    borderline (seeds 0-3, since the global generators are reseeded before each run: 2 of 4 at
    30,000 runs per input, 3 of 4 at 40,000); seeded, so the verdict is fixed."""
    x_shape = ([1.0] * 5 + [0.0] * 5, [0.0] * 5 + [1.0] * 5)
    result = audit(isvt4, 0.7, pairs=[x_shape], samples=40_000, seed=0)
    assert result.verdict == "violation"


@pytest.mark.slow  # over 2 s: make test-slow
def test_the_conditional_bound_keeps_its_confidence():
    """Seeded: 500 draws at a true ratio of exactly e^0.7 on a rare event; the bound exceeds
    0.7 in at most its alpha = 10 % of them."""
    rng = np.random.default_rng(1)
    p_other, n = 0.01, 3_000
    counts = zip(rng.binomial(n, p_other * math.exp(0.7), 500), rng.binomial(n, p_other, 500))
    false_alarms = sum(conditional_loss_lower_bound(int(a), int(b), n, 0.1) > 0.7
                       for a, b in counts)
    assert false_alarms <= 0.1 * 500


@pytest.mark.parametrize("count, trials, total", [
    (851, 32_000, 1_189), (3_765, 32_000, 5_733), (5, 100, 7), (1, 10, 1), (50, 50, 60),
    (7, 10, 7), (0, 10, 3)])
def test_the_fisher_tail_matches_scipys_law(count: int, trials: int, total: int) -> None:
    """The conditional bound's tail, summed in logs, against SciPy's ``nchypergeom_fisher``
    wherever SciPy's tail is above its own rounding noise (about 1e-10 absolute)."""
    tail = fisher_log_tail(count, trials, total)
    for log_psi in (-5.0, -1.0, 0.0, 0.3, 1.0, 2.5, 5.0):
        expected = nchypergeom_fisher.sf(count - 1, 2 * trials, trials, total,
                                         math.exp(log_psi))
        if expected > 1e-8:
            assert math.exp(tail(log_psi)) == pytest.approx(expected, rel=1e-6), log_psi
