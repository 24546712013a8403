"""``make bench``'s pieces, fast (no StatDP run): the pair-length fix for pystatdp, one NumPy
stream per pool worker, and each wrong benchmark mechanism differing from its correct partner in
the documented way."""

from __future__ import annotations

import functools
import importlib.util

import numpy as np
import pytest

from bench import statdp_side as sd
from bench import targets as T

needs_pystatdp = pytest.mark.skipif(importlib.util.find_spec("pystatdp") is None,
                                    reason="pystatdp is not installed (make bench installs it)")


class _Sensitivity:
    def __init__(self, name: str) -> None:
        self.name = name


@pytest.mark.parametrize("n", [2, 5, 10, 11])
def test_patched_pairs_have_the_requested_length_and_are_neighbours(n):
    pairs = sd.neighbouring_databases(sd.sd_svt, n, {"epsilon": 0.7, "N": 1, "T": 0.5})
    assert len(pairs) == len(sd.PATTERNS) == 8
    for d1, d2, kwargs in pairs:
        assert len(d1) == len(d2) == n
        assert np.abs(d1 - d2).max() == 1
        assert kwargs == {"epsilon": 0.7, "N": 1, "T": 0.5}
    one = sd.neighbouring_databases(sd.sd_histogram, n, {"epsilon": 0.7}, _Sensitivity("ONE_DIFFER"))
    assert [int(np.count_nonzero(d1 != d2)) for d1, d2, _ in one] == [1, 1]
    half = dict(zip(sd.PATTERNS, pairs))["half-half"]
    assert half[1].tolist() == [2] * (n // 2) + [0] * (n - n // 2)


def test_patched_pairs_need_the_privacy_budget():
    with pytest.raises(ValueError, match="'epsilon'"):
        sd.neighbouring_databases(sd.sd_svt, 5, {"N": 1, "T": 0.5})


@needs_pystatdp
@pytest.mark.parametrize("n, wrong", [(5, 7), (10, 12)])
def test_unpatched_pystatdp_pairs_have_the_wrong_length(n, wrong):
    """The workaround stays needed: pystatdp's own half-half and x-shape pairs are too long."""
    from pystatdp.generators import ALL_DIFFER, generate_databases
    pairs = generate_databases(sd.sd_svt, n, {"epsilon": 0.7}, ALL_DIFFER)
    lengths = {(len(d1), len(d2)) for d1, d2, _ in pairs}
    assert (n, wrong) in lengths and (wrong, wrong) in lengths  # half-half, x-shape


@needs_pystatdp
def test_patch_replaces_the_generator_detect_counterexample_calls():
    import pystatdp
    from pystatdp.generators import generate_databases
    try:
        assert sd.patch_pystatdp().generate_databases is sd.neighbouring_databases
    finally:
        pystatdp.generate_databases = generate_databases


def test_pool_workers_draw_different_streams():
    streams = sd.worker_streams()
    assert len(streams) == 2 and len(set(streams.values())) == 2
    inherited = sd.worker_streams(reseed=False)
    assert len(set(inherited.values())) == 1  # why seed_this_process is needed


def _runs(f, dataset, n=4000, seed=1, **kwargs):
    np.random.seed(seed)
    return [f(dataset, T.CLAIM, **kwargs) for _ in range(n)]


def test_noisy_max_wrong_variants_release_the_value_of_the_same_maximum():
    q = [1.0, 3.0, 0.0, 2.0, 1.0]
    for index, value in ((T.noisy_max_laplace_index, T.noisy_max_laplace_value),
                         (T.noisy_max_exponential_index, T.noisy_max_exponential_value)):
        np.random.seed(3)
        i = index(q, T.CLAIM)
        np.random.seed(3)
        v = value(q, T.CLAIM)
        assert isinstance(i, int) and isinstance(v, float) and 0 <= i < 5
    assert min(_runs(T.noisy_max_exponential_value, q, 500)) >= 3.0  # one-sided noise


def test_histogram_eps_has_scale_eps_instead_of_one_over_eps():
    q = [0.0] * 5
    right = np.array(_runs(T.histogram, q))
    wrong = np.array(_runs(T.histogram_eps, q))
    assert right.shape == wrong.shape == (4000, 5)
    # mean absolute deviation of Lap(b) is b
    assert np.abs(right).mean() == pytest.approx(1 / T.CLAIM, rel=0.05)
    assert np.abs(wrong).mean() == pytest.approx(T.CLAIM, rel=0.05)
    assert isinstance(sd.sd_histogram_eps(q, T.CLAIM), float)


def test_sparse_vectors_answer_as_documented():
    svt = _runs(T.svt, [5.0, -5.0, 5.0, 5.0, 5.0], **T.SVT_KWARGS)
    assert all(a[-1] is True and a.count(True) == 1 for a in svt if len(a) < 5)  # stops at N = 1
    isvt1 = _runs(T.isvt1, [0.0, 3.0, 0.0, 3.0, 0.0], **T.ISVT_KWARGS)
    assert all(len(a) == 5 for a in isvt1)  # no cutoff
    assert all(a[1] == a[3] for a in isvt1)  # no query noise: equal queries answer alike
    isvt2 = _runs(T.isvt2, [10.0] * 5, **T.ISVT_KWARGS)
    assert all(len(a) == 5 for a in isvt2) and max(a.count(True) for a in isvt2) == 5
    isvt3 = _runs(T.isvt3, [10.0] * 5, **T.ISVT_KWARGS)
    assert max(a.count(True) for a in isvt3) == 1 and all(a[-1] is True or len(a) == 5
                                                          for a in isvt3)
    isvt4 = _runs(T.isvt4, [1.0, 1.0, 1.0, 1.0, 1.0], **T.ISVT_KWARGS)
    stopped = [a for a in isvt4 if isinstance(a[-1], float)]
    assert stopped and all(all(x is False for x in a[:-1]) for a in stopped)
    assert all(all(x is False for x in a) and len(a) == 5 for a in isvt4 if a not in stopped)
    assert {len(a) for a in stopped} == {1, 2, 3, 4, 5}  # the float sits where it stopped


def test_statdp_post_processing():
    assert sd._hamming_to_half_true((True, True, False, False, False), 5) == 0
    assert sd._hamming_to_half_true((False, True), 5) == 4  # missing positions differ
    np.random.seed(0)
    count, last = sd.sd_isvt4([1, 1, 1, 1, 1], T.CLAIM, **T.ISVT_KWARGS)
    assert isinstance(count, int) and isinstance(last, float)
    assert isinstance(sd.sd_svt([1] * 5, T.CLAIM, **T.SVT_KWARGS), int)


def test_per_key_count_wrong_variant_counts_a_record_towards_every_key_it_touches():
    records = [(0, 1, 2), (3,), (0, 4)]
    np.random.seed(0)
    noise = np.random.laplace(0.0, 1 / T.CLAIM, T.KEYS)
    np.random.seed(0)
    wrong = np.array(T.count_per_key(records, T.CLAIM)) - noise
    np.random.seed(0)
    right = np.array(T.count_first_key(records, T.CLAIM)) - noise
    assert wrong == pytest.approx([2, 1, 1, 1, 1])
    assert right == pytest.approx([2, 0, 0, 1, 0])
    for bad in (0, 0.0, [0.0] * 5, "a", [()], [(5,)]):
        with pytest.raises((TypeError, ValueError)):
            T.count_per_key(bad, T.CLAIM)


def test_bench_pairs_are_neighbours():
    from bench.__main__ import one_query_pairs
    from checker.empirical.pairs import default_pairs
    rows = default_pairs(functools.partial(T.count_per_key, epsilon=T.CLAIM), 0)
    assert all(len(y) == len(x) + 1 and y[:len(x)] == x for x, y in rows)
    assert max(len(r) for _, y in rows for r in y) == T.KEYS
    for x, y in one_query_pairs():
        assert sum(a != b for a, b in zip(x, y)) == 1 and max(abs(a - b) for a, b in zip(x, y)) == 1


def test_dpcert_targets_take_one_dataset():
    from bench.__main__ import CORRECT, WRONG
    for case in WRONG + CORRECT:
        target = case.dpcert_target()
        dataset = [(0, 1), (2,)] if case.pairs == "rows" else [1.0] * 5
        assert target(dataset) is not None
        assert isinstance(target, functools.partial)
