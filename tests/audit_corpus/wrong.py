"""Wrong mechanisms: each claims pure epsilon-DP, and the claim is false.

Written as a DP library author would write them, from the README's description of the auditor
only (never its source). Every docstring gives the claim, the neighbouring relation, the pair on
which the loss is larger and why, and the true loss (derived, or simulated with numpy at 10^6+ runs
by ``tests/audit_corpus/simulate.py``).

Neighbouring relations (the README's default pairs): a *number* is a count, neighbours differ by at
most 1; a *query vector* holds answers of sensitivity-1 queries, neighbours differ by at most 1 in
every coordinate (all may move, in either direction: the classic one-above / all-above / half-half /
x-shape patterns); a *record dataset* is a list of records (tuples of keys 0..4), neighbours add or
remove one record. Mechanisms on other datasets get explicit pairs in ``CASES.py``.
"""

from __future__ import annotations

import math

import numpy as np

try:
    from tests.audit_corpus._inputs import KEYS, key_counts, number, records, values01, vector
except ModuleNotFoundError:  # loaded by path: dpcert audit tests/audit_corpus/FILE.py:name
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tests.audit_corpus._inputs import KEYS, key_counts, number, records, values01, vector

THRESHOLD = 1.0  # the sparse-vector threshold
TOP_K = 3


# --- numbers -----------------------------------------------------------------------------------

def averaged_laplace(x):
    """Noisy count whose noise is the mean of two Laplace(1) draws ("same scale, less variance").

    Claim: 1.0-DP for counts (neighbours |x - x'| <= 1). Wrong: (L1 + L2) / 2 has tails
    ~ (1 + 2|z|) e^{-2|z|}, twice as steep as Laplace(1). Pair (0, 1), event ``output > c``:
    Pr = e^{-2(c-x)} (1 + c - x) / 2, ratio ln = 2 + ln(c / (1 + c)) -> 2.0 as c grows
    (1.595 at c = 2 where Pr[x=0] = 2.7 %, simulated 1.598 at 10^7 runs; 1.71 at c = 3). True loss
    sup = 2.0 = 2x the claim.
    """
    x = number(x)
    return x + 0.5 * (np.random.laplace(0.0, 1.0) + np.random.laplace(0.0, 1.0))


def geometric_wrong_p(x):
    """Discrete-Laplace count from two geometric draws, with the success probability confused.

    Claim: 0.5-DP for integer counts. ``np.random.geometric(p)`` difference gives
    Pr[k] ~ (1 - p)^{|k|}; the author passed p = exp(-eps), so the decay is a = 1 - e^{-0.5} = 0.393
    instead of e^{-0.5}. Pair (0, 1), event ``output == 1`` (or any value >= 1): ratio exactly
    1 / a, true loss ln(1 / (1 - e^{-0.5})) = 0.9328 = 1.87x the claim
    (simulated 0.9332, 10^7 runs).
    """
    x = int(number(x))
    p = math.exp(-0.5)
    return x + int(np.random.geometric(p)) - int(np.random.geometric(p))


def noisy_threshold_half_scale(x):
    """Is the count positive? Answered as ``x + Laplace(1 / (2 eps)) > 0``, "two-sided: halve".

    Claim: 1.0-DP for counts. Output a bool. Pair (-1, 0) (or (0, 1)), event ``True``:
    Pr = 0.5 e^{-2} vs 0.5, true loss exactly 2.0 = 2x the claim (the Laplace scale is 1/2).
    """
    x = number(x)
    return bool(x + np.random.laplace(0.0, 0.5) > 0)


def shared_noise_pair(x):
    """Noisy count and noisy complement (out of 100) released with one shared Laplace(1) draw.

    Claim: 1.0-DP for counts ("each coordinate is a sensitivity-1 count with Laplace(1)": each
    marginal alone is exactly 1.0-DP, so no single-coordinate event exceeds the claim). Wrong
    jointly: first - second = 2x - 100 exactly. Pair (0, 1), event ``o[0] - o[1] < -99``:
    Pr 1 vs 0, true loss infinite.
    """
    x = number(x)
    noise = np.random.laplace(0.0, 1.0)
    return (x + noise, (100 - x) + noise)


def noisy_log_count(x):
    """Noisy log-count: ``log(x) + Laplace(ln 2)`` ("log has sensitivity ln 2 for counts >= 1").

    Claim: 1.0-DP for counts. Wrong at the bottom: log(0) = -inf (and log(-1) = NaN), so on the
    pair (0, 1) the output is -inf with probability 1 vs 0; on (-1, 0) NaN vs -inf. True loss
    infinite (a leak through inf/NaN); on counts >= 1 the claim holds.
    """
    x = number(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.log(np.float64(x)) + np.random.laplace(0.0, math.log(2.0)))


def parity_rr_and_count(x):
    """A randomized-response bit (parity of the count) together with a Laplace(1) count.

    Claim: 1.0-DP for counts, "each part is 1.0-DP" (RR keeps the truth w.p. e/(1+e)), but the
    two parts compose: 2.0. Output (category 'even'/'odd', float). Each marginal alone is exactly
    1.0; pair (0, 1), event ``category == 'even' and value <= 0``: Pr = (e/(1+e)) 0.5 vs
    (1/(1+e)) 0.5 e^{-1}, true loss exactly 2.0 = 2x the claim.
    """
    x = number(x)
    parity = math.floor(x) % 2
    if np.random.random() >= math.e / (1.0 + math.e):
        parity = 1 - parity
    return ("odd" if parity else "even", x + np.random.laplace(0.0, 1.0))


# --- query vectors -----------------------------------------------------------------------------

def _svt(v, rho_scale, nu_scale, query_noise=True):
    rho = np.random.laplace(0.0, rho_scale)
    noisy = v + np.random.laplace(0.0, nu_scale, v.shape[0]) if query_noise else v
    return noisy, noisy >= THRESHOLD + rho


def svt_no_query_noise(v):
    """Sparse vector (stop at the first above-threshold query, threshold 1) without query noise.

    Claim: 1.0-DP for sensitivity-1 queries ("the threshold noise Laplace(2/eps) hides the
    comparison"; Lyu et al.'s Alg. 5 family). Output a variable-length tuple of bools. Pair
    v = (1, 2, ...) vs v' = (2, 1, ...) (any pair where one query falls and the next rises):
    (False, True) needs 1 < 1 + rho <= 2 under v, but 2 < 1 + rho <= 1 under v' is impossible.
    True loss infinite.
    """
    v = vector(v)
    _, above = _svt(v, 2.0, 0.0, query_noise=False)
    if above.any():
        i = int(above.argmax())
        return (False,) * i + (True,)
    return (False,) * v.shape[0]


def svt_reuses_noise_for_value(v):
    """Sparse vector (c = 1, Lyu's Alg. 1 scales) that also returns the noisy answer it compared.

    Claim: 1.0-DP ("the answer reuses the comparison noise, so it is free"; Lyu et al.'s Alg. 3,
    infinity-DP). Output (False, ..., True, value): mixed types, variable length. Knowing the value
    a pins the threshold noise below a - T, so each query answered False before it leaks through
    the left tail of its Laplace(4) noise; the loss grows with the number of queries. Simulated
    (simulate.py, 4*10^6 runs per input, event chosen on one half, measured on the other): on
    v = (1,)*10 vs v' = (2,)*9 + (0,), event ``len == 11 and value <= 4.95`` (Pr 1.2e-3): ln ratio
    1.617 (real function at 10^6 calls: 1225 vs 254, 1.573); on the auditor's x-shape n = 10
    pair, ``len == 7 and value <= 1.50`` (Pr 2.1e-3): 1.329; rarer events (Pr ~2e-5) exceed 3.
    Among events of probability >= 1e-2 the best is 1.04: the excess lives in rare events only.
    """
    v = vector(v)
    noisy, above = _svt(v, 2.0, 4.0)
    if above.any():
        i = int(above.argmax())
        return (False,) * i + (True, float(noisy[i]))
    return (False,) * v.shape[0]


def svt_no_cutoff(v):
    """Sparse vector that answers every query (no cutoff after the first True), Alg. 1's scales.

    Claim: 1.0-DP (Lyu et al.'s Alg. 6, infinity-DP: each True answer costs again). Output a
    fixed-length tuple of bools. Simulated (simulate.py, 4*10^6 runs per input): x-shape n = 10,
    v = (0,)*5 + (1,)*5 vs v' = (1,)*5 + (0,)*5, event output == (False,)*5 + (True,)*5
    (Pr 1.5e-3): ln ratio 2.083 (real function at 10^6 calls: 1467 vs 200, 1.993); half-half
    n = 10: 1.955 (Pr 3.7e-3). True loss >= 2x the claim.
    """
    v = vector(v)
    _, above = _svt(v, 2.0, 4.0)
    return tuple(bool(a) for a in above)


def rnm_monotone_scale(v):
    """Report noisy max with Laplace(1/eps): the scale proved for *monotone* counting queries.

    Claim: 1.0-DP for sensitivity-1 queries (neighbours may move queries in opposite directions).
    Output an int index. Pair one-above-rest-below, v = (1,)*10 vs v' = (2,) + (0,)*9, event
    ``output == 0``: the winner's gap grows by 2, so in the upper tail the ratio approaches e^2.
    Simulated on one-below-rest-above n = 10, v = (1,)*10 vs (0,) + (2,)*9, event ``output == 0``
    (Pr 0.10): ln ratio 2.005 (real function at 10^6 calls: 99485 vs 13545, 1.994) = 2x the claim.
    """
    v = vector(v)
    return int(np.argmax(v + np.random.laplace(0.0, 1.0, v.shape[0])))


def rnm_with_noisy_value(v):
    """Report noisy max (Laplace(2/eps), correct alone) that also returns the winner's noisy value.

    Claim: 1.0-DP ("the value is the same noise, free"). Output (int index, float value). The
    value a tells every other query's noise was below a - q_j: the product of n-1 Laplace CDF
    ratios; even on all-above, where the index law does not move, the value is the max of n
    Laplace(2) draws shifted by 1, whose lower tail F^n scales by e^{-n/2}. Simulated (simulate.py,
    4*10^6 runs per input): all-above n = 5, event ``index == 2 and value <= 1.20`` (Pr 1e-2):
    ln ratio 2.448; all-above n = 10, ``index == 0 and value <= 1.60`` (Pr 1e-3): 4.39 (real
    function at 10^6 calls: 985 vs 15, 4.19). True loss >= 2.4x the claim.
    """
    v = vector(v)
    noisy = v + np.random.laplace(0.0, 2.0, v.shape[0])
    i = int(np.argmax(noisy))
    return (i, float(noisy[i]))


def topk_gumbel_unsplit(v):
    """Ordered top-3 by Gumbel noise of scale 2/eps: the one-shot exp. mechanism for ONE pick.

    Claim: 1.0-DP; correct would be scale 2k/eps (peeling k picks at eps/k each). Output a tuple
    of 3 ints. Pair v = (1,)*10 vs v' = (2,)*3 + (0,)*7, event ``output == (0, 1, 2)``:
    1/720 vs prod_j e/((3-j) e + 7) = 0.01096, ln ratio 2.07 (exact, peeling form), sup 3.0.
    On the auditor's patterns (simulate.py, 4*10^6 runs per input): x-shape n = 5, event
    ``output == (3, 4, 2)`` (Pr 3.3e-2): ln ratio 1.585; half-half n = 10, ``output == (0, 2, 3)``
    (Pr 1.4e-3): 2.035 (real function at 10^6 calls: 1379 vs 178, 2.047).
    """
    v = vector(v)
    noisy = v + np.random.gumbel(0.0, 2.0, v.shape[0])
    return tuple(int(i) for i in np.argsort(-noisy, kind="stable")[:TOP_K])


def histogram_laplace(v):
    """Laplace(1) on every bin of a histogram (query vector of bin counts).

    Claim: 1.0-DP, right if one bin changes (see right.histogram_one_bin), but under the default
    relation for query vectors every coordinate may move by 1: on all-above, v = (1,)*n vs
    (2,)*n, the loss is n (5 or 10). Each coordinate alone is exactly 1.0: a joint leak only.
    Output a list of floats.
    """
    v = vector(v)
    return list(v + np.random.laplace(0.0, 1.0, v.shape[0]))


def nested_pairs_of_queries(v):
    """Queries released in tables of two, Laplace(2) each ("L1 sensitivity of a table is 2").

    Claim: 1.0-DP. Output a nested list [[q0, q1], [q2, q3], ...] (last row short when n is odd).
    Under the query-vector relation every query may move: on all-above the loss is n / 2
    (2.5 at n = 5, 5 at n = 10), each coordinate alone 0.5. Joint leak only.
    """
    v = vector(v)
    noisy = v + np.random.laplace(0.0, 2.0, v.shape[0])
    return [list(noisy[i:i + 2]) for i in range(0, noisy.shape[0], 2)]


# --- lists of values and record datasets (add/remove one) --------------------------------------

def noisy_mean_nan(d):
    """Mean of values in [0, 1], NaN for an empty dataset, plus Laplace(1 / (n eps)).

    Claim: 1.0-DP ("the mean has sensitivity 1/n"). Relation: add or remove one person (explicit
    pairs in CASES). Pair ([], [v]): NaN with probability 1 vs 0, true loss infinite: a leak
    through NaN (the 1/n scale also leaks n on non-empty pairs).
    """
    d = values01(d)
    n = len(d)
    if n == 0:
        return float("nan")
    return sum(d) / n + np.random.laplace(0.0, 1.0 / n)


def per_key_counts(d):
    """Per key 0..4, the number of records containing it, plus Laplace(1) each; a dict.

    Claim: 1.0-DP for add/remove one record ("a record adds 1 to a count"). Right only when each
    record touches one key (right.per_key_counts_one_key); a record touching every key moves all
    5 counts: pair (D, D + [(0, 1, 2, 3, 4)]), true loss 5.0 (each key alone exactly 1.0).
    """
    counts = key_counts(records(d))
    noisy = counts + np.random.laplace(0.0, 1.0, KEYS)
    return {k: float(noisy[k]) for k in range(KEYS)}


def perturb_each_record(d):
    """Local-DP release: each record's first key by 5-ary randomized response, sorted list.

    Claim: 1.0-DP ("each record is 1.0-LDP"). Relation: add/remove one record. The output has one
    entry per record: on (D, D + [r]) the length differs with probability 1. True loss infinite:
    a leak through output length.
    """
    d = records(d)
    keep = math.e / (math.e + KEYS - 1)
    out = []
    u = np.random.random(len(d))
    w = np.random.randint(0, KEYS - 1, len(d))
    for r, ui, wi in zip(d, u, w):
        k = min(r) if len(r) else 0  # an empty record reports key 0, perturbed like the rest
        if ui >= keep:
            k = int(wi) if wi < k else int(wi) + 1  # uniform over the other keys
        out.append(k)
    return sorted(out)
