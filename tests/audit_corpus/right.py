"""Right mechanisms: each claims pure epsilon-DP and the claim holds (derivation in each docstring).

Neighbouring relations as in ``wrong.py``: counts differ by at most 1; query vectors (answers of
sensitivity-1 queries) differ by at most 1 in every coordinate, in any directions; record datasets
(records = tuples of keys 0..4) add or remove one record. Where a mechanism is right only under a
narrower relation, ``CASES.py`` passes explicit pairs under that relation.
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

THRESHOLD = 1.0
TOP_K = 3


# --- numbers -----------------------------------------------------------------------------------

def laplace_count(x):
    """Laplace mechanism on a count: x + Laplace(1/eps), eps = 0.5.

    Claim 0.5-DP for |x - x'| <= 1: density ratio e^{-|z-x|/2} / e^{-|z-x'|/2} <= e^{0.5}.
    """
    x = number(x)
    return x + np.random.laplace(0.0, 2.0)


def geometric_count(x):
    """Discrete Laplace on an integer count, from two geometric draws with p = 1 - e^{-eps}.

    Claim 0.5-DP: G1 - G2 with G ~ Geometric(p) on {1, 2, ...} has Pr[k] ~ (1 - p)^{|k|} =
    e^{-0.5 |k|}, so a shift by 1 changes each probability by a factor <= e^{0.5}.
    """
    x = int(number(x))
    p = 1.0 - math.exp(-0.5)
    return x + int(np.random.geometric(p)) - int(np.random.geometric(p))


def geometric_count_eps2(x):
    """Discrete Laplace on an integer count at eps = 2 (p = 1 - e^{-2}): most outputs are x, x +- 1.

    Claim 2.0-DP for |x - x'| <= 1, as geometric_count: Pr[k] ~ e^{-2 |k|}, ratio <= e^{2} under a
    shift by 1. Not DP at 2.0 for inputs further apart (that is not the relation).
    """
    x = int(number(x))
    p = 1.0 - math.exp(-2.0)
    return x + int(np.random.geometric(p)) - int(np.random.geometric(p))


def rr_parity(x):
    """Randomized response on the parity of the count; a bool, eps = 1.

    Claim 1.0-DP for any two inputs: the truth is kept with probability e/(1+e), so each output's
    probability ratio is at most e/(1+e) / (1/(1+e)) = e.
    """
    x = number(x)
    bit = math.floor(x) % 2 == 1
    return bit if np.random.random() < math.e / (1.0 + math.e) else not bit


def count_with_special_values(x):
    """Laplace(1) count, post-processed: NaN when the noisy count is negative, inf above 1000.

    Claim 1.0-DP: a function of x + Laplace(1) alone (post-processing), outputs float/NaN/inf.
    """
    x = number(x)
    noisy = x + np.random.laplace(0.0, 1.0)
    if noisy < 0:
        return float("nan")
    if noisy > 1000:
        return float("inf")
    return noisy


def parity_rr_and_count_split(x):
    """Randomized response (eps/2) on the count's parity and a Laplace(2/eps) count; eps = 1.

    Claim 1.0-DP: the RR part is 0.5-DP for any inputs, the count part 0.5-DP for |x - x'| <= 1,
    independent draws, so basic composition gives 1.0. Output (category, float).
    """
    x = number(x)
    parity = math.floor(x) % 2
    if np.random.random() >= math.exp(0.5) / (1.0 + math.exp(0.5)):
        parity = 1 - parity
    return ("odd" if parity else "even", x + np.random.laplace(0.0, 2.0))


# --- query vectors -----------------------------------------------------------------------------

def rnm_laplace(v):
    """Report noisy max with Laplace(2/eps), eps = 1.

    Claim 1.0-DP for sensitivity-1 queries moving in any directions: fixing the other noises,
    index i wins iff its noise exceeds r* = max_j (v_j + n_j) - v_i; on a neighbour r* moves by
    at most 2, and Laplace(2) changes a tail probability over a shift of 2 by at most e^{1}.
    """
    v = vector(v)
    return int(np.argmax(v + np.random.laplace(0.0, 2.0, v.shape[0])))


def svt_alg1(v):
    """Sparse vector, c = 1, threshold 1: rho ~ Laplace(2/eps), nu_i ~ Laplace(4/eps), eps = 1.

    Claim 1.0-DP (Lyu, Su, Li 2017, Alg. 1 with eps1 = eps2 = eps/2 and c = 1: rho at Delta/eps1,
    nu at 2 c Delta/eps2). Output (False, ..., False, True) stopping at the first True, or all
    False: a variable-length tuple of bools.
    """
    v = vector(v)
    rho = np.random.laplace(0.0, 2.0)
    above = v + np.random.laplace(0.0, 4.0, v.shape[0]) >= THRESHOLD + rho
    if above.any():
        i = int(above.argmax())
        return (False,) * i + (True,)
    return (False,) * v.shape[0]


def svt_then_fresh_value(v):
    """Sparse vector at eps/2 (Alg. 1, c = 1) then the chosen query with fresh Laplace(2/eps).

    Claim 1.0-DP: the SVT part is 0.5-DP (rho ~ Laplace(4), nu ~ Laplace(8)); the index is then
    public and its answer (sensitivity 1) gets fresh Laplace(2): 0.5-DP; composition gives 1.0.
    Output (False, ..., True, value) or all False: mixed types, variable length.
    """
    v = vector(v)
    rho = np.random.laplace(0.0, 4.0)
    above = v + np.random.laplace(0.0, 8.0, v.shape[0]) >= THRESHOLD + rho
    if above.any():
        i = int(above.argmax())
        return (False,) * i + (True, float(v[i] + np.random.laplace(0.0, 2.0)))
    return (False,) * v.shape[0]


def topk_gumbel(v):
    """Ordered top-3 by Gumbel noise of scale 2k/eps (k = 3, eps = 1).

    Claim 1.0-DP: adding Gumbel(2k/eps) and taking the k largest in order has the law of k rounds
    of the exponential mechanism (utility sensitivity 1, eps/k each, without replacement; Durfee &
    Rogers 2019), and each round is eps/k-DP for queries moving in any direction.
    """
    v = vector(v)
    noisy = v + np.random.gumbel(0.0, 2.0 * TOP_K, v.shape[0])
    return tuple(int(i) for i in np.argsort(-noisy, kind="stable")[:TOP_K])


def nested_pairs_of_queries_scaled(v):
    """Queries in tables of two, Laplace(n/eps) each, eps = 1 ([[q0, q1], [q2, q3], ...]).

    Claim 1.0-DP: every query may move by 1, so the L1 sensitivity of the whole vector is n; the
    Laplace mechanism with scale n is 1.0-DP. Output a nested list.
    """
    v = vector(v)
    n = v.shape[0]
    noisy = v + np.random.laplace(0.0, float(n), n)
    return [list(noisy[i:i + 2]) for i in range(0, n, 2)]


def histogram_one_bin(v):
    """Laplace(1/eps) on each bin of a histogram, eps = 1, when one person changes one bin by 1.

    Claim 1.0-DP under add/remove one person of a histogram (explicit pairs in CASES: exactly one
    coordinate moves by 1), L1 sensitivity 1. The same code as wrong.histogram_laplace, which is
    wrong under the query-vector relation.
    """
    v = vector(v)
    return list(v + np.random.laplace(0.0, 1.0, v.shape[0]))


# --- lists of values and record datasets (add/remove one) --------------------------------------

def noisy_mean_split(d):
    """Mean of values in [0, 1] as noisy sum / noisy count, each Laplace(2/eps), eps = 1.

    Claim 1.0-DP for add/remove one person (explicit pairs in CASES): the sum and the count each
    move by at most 1, each is 0.5-DP, and the ratio (NaN when the noisy count is below 0.5) is
    post-processing.
    """
    d = values01(d)
    s = sum(d) + np.random.laplace(0.0, 2.0)
    c = len(d) + np.random.laplace(0.0, 2.0)
    return s / c if c >= 0.5 else float("nan")


def per_key_counts_first_key(d):
    """Per-key counts where each record contributes to one key only (its smallest), Laplace(1/eps).

    Claim 1.0-DP for add/remove one record, whatever keys the record holds: adding a record
    moves one count by 1 (contribution bounding), L1 sensitivity 1. A dict key -> float.
    """
    counts = np.zeros(KEYS)
    for r in records(d):
        if len(r):
            counts[min(r)] += 1
    noisy = counts + np.random.laplace(0.0, 1.0, KEYS)
    return {k: float(noisy[k]) for k in range(KEYS)}


def per_key_counts_l1(d):
    """Per-key counts (a record counts once per key it holds), Laplace(5/eps) each, eps = 1.

    Claim 1.0-DP for add/remove one record: a record holds at most 5 distinct keys, so the
    count vector moves by at most 5 in L1; Laplace(5) per key is 1.0-DP.
    """
    noisy = key_counts(records(d)) + np.random.laplace(0.0, 5.0, KEYS)
    return {k: float(noisy[k]) for k in range(KEYS)}


def per_key_counts_one_key(d):
    """Per-key counts with Laplace(1/eps), eps = 1, when every record holds exactly one key.

    Claim 1.0-DP for add/remove one single-key record (explicit pairs in CASES): one count moves
    by 1. The same computation as wrong.per_key_counts, which is wrong when a record may touch
    several keys.
    """
    counts = key_counts(records(d))
    noisy = counts + np.random.laplace(0.0, 1.0, KEYS)
    return {k: float(noisy[k]) for k in range(KEYS)}
