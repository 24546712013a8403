"""The corpus: CASES = [(name, function, claim, pairs_or_None, "wrong" | "right"), ...].

``pairs`` None means the auditor's default pairs (the README's relations: counts one apart, query
vectors in the classic patterns, record datasets add/remove one record); explicit pairs are given
where the relation is narrower (one histogram bin, single-key records) or the dataset is a list
of values in [0, 1] under add/remove one person. SAMPLES fixes the runs per input of each case
(at most 50,000); XFAIL lists cases the auditor gets wrong at those runs, with the measured numbers.
"""

from __future__ import annotations

from tests.audit_corpus import right, wrong

# counts one apart, the README's relation for numbers, for number mechanisms whose output is a
# bool or a small int: the default pairs treat those as category mechanisms (see RESULTS.md)
COUNT_PAIRS = [(0, 1), (-1, 0), (5, 6), (138158, 138159)]
VALUE_PAIRS_EMPTY = [([], [0.0]), ([], [1.0]), ([], [0.5])]
VALUE_PAIRS = [([], [0.0]), ([], [1.0]), ([0.2], [0.2, 0.9]),
               ([0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 1.0]), ([1.0] * 4, [1.0] * 5),
               ([0.0] * 3, [0.0] * 2)]
ONE_BIN_PAIRS = [([3, 1, 4, 1, 5], [4, 1, 4, 1, 5]), ([3, 1, 4, 1, 5], [3, 1, 4, 1, 6]),
                 ([0, 0, 0, 0, 0], [0, 0, 1, 0, 0]), ([10, 0, 2], [10, 0, 1]),
                 ([1] * 10, [1] * 9 + [2])]
ONE_KEY_PAIRS = [([], [(0,)]), ([(1,), (2,)], [(1,), (2,), (2,)]),
                 ([(0,), (1,), (2,), (3,), (4,)], [(0,), (1,), (2,), (3,), (4,), (4,)]),
                 ([(3,)] * 4, [(3,)] * 3)]

CASES = [
    # wrong: the claim is false on some neighbouring pair (docstrings: pair, why, true loss)
    ("averaged_laplace", wrong.averaged_laplace, 1.0, None, "wrong"),
    ("geometric_wrong_p", wrong.geometric_wrong_p, 0.5, None, "wrong"),
    ("geometric_wrong_p_count_pairs", wrong.geometric_wrong_p, 0.5, COUNT_PAIRS, "wrong"),
    ("noisy_threshold_half_scale", wrong.noisy_threshold_half_scale, 1.0, None, "wrong"),
    ("noisy_threshold_half_scale_count_pairs", wrong.noisy_threshold_half_scale, 1.0, COUNT_PAIRS,
     "wrong"),
    ("shared_noise_pair", wrong.shared_noise_pair, 1.0, None, "wrong"),
    ("noisy_log_count", wrong.noisy_log_count, 1.0, None, "wrong"),
    ("noisy_log_count_count_pairs", wrong.noisy_log_count, 1.0, COUNT_PAIRS, "wrong"),
    ("parity_rr_and_count", wrong.parity_rr_and_count, 1.0, None, "wrong"),
    ("svt_no_query_noise", wrong.svt_no_query_noise, 1.0, None, "wrong"),
    ("svt_reuses_noise_for_value", wrong.svt_reuses_noise_for_value, 1.0, None, "wrong"),
    ("svt_no_cutoff", wrong.svt_no_cutoff, 1.0, None, "wrong"),
    ("rnm_monotone_scale", wrong.rnm_monotone_scale, 1.0, None, "wrong"),
    ("rnm_with_noisy_value", wrong.rnm_with_noisy_value, 1.0, None, "wrong"),
    ("topk_gumbel_unsplit", wrong.topk_gumbel_unsplit, 1.0, None, "wrong"),
    ("histogram_laplace", wrong.histogram_laplace, 1.0, None, "wrong"),
    ("nested_pairs_of_queries", wrong.nested_pairs_of_queries, 1.0, None, "wrong"),
    ("noisy_mean_nan", wrong.noisy_mean_nan, 1.0, VALUE_PAIRS_EMPTY, "wrong"),
    ("per_key_counts", wrong.per_key_counts, 1.0, None, "wrong"),
    ("perturb_each_record", wrong.perturb_each_record, 1.0, None, "wrong"),
    # right: the claim holds under the relation of the default pairs or of the explicit pairs
    ("laplace_count", right.laplace_count, 0.5, None, "right"),
    ("geometric_count", right.geometric_count, 0.5, None, "right"),
    ("geometric_count_eps2", right.geometric_count_eps2, 2.0, None, "right"),
    ("geometric_count_eps2_count_pairs", right.geometric_count_eps2, 2.0, COUNT_PAIRS, "right"),
    ("rr_parity", right.rr_parity, 1.0, None, "right"),
    ("rr_parity_count_pairs", right.rr_parity, 1.0, COUNT_PAIRS, "right"),
    ("count_with_special_values", right.count_with_special_values, 1.0, None, "right"),
    ("parity_rr_and_count_split", right.parity_rr_and_count_split, 1.0, None, "right"),
    ("rnm_laplace", right.rnm_laplace, 1.0, None, "right"),
    ("svt_alg1", right.svt_alg1, 1.0, None, "right"),
    ("svt_then_fresh_value", right.svt_then_fresh_value, 1.0, None, "right"),
    ("topk_gumbel", right.topk_gumbel, 1.0, None, "right"),
    ("nested_pairs_of_queries_scaled", right.nested_pairs_of_queries_scaled, 1.0, None, "right"),
    ("histogram_one_bin", right.histogram_one_bin, 1.0, ONE_BIN_PAIRS, "right"),
    ("noisy_mean_split", right.noisy_mean_split, 1.0, VALUE_PAIRS, "right"),
    ("per_key_counts_first_key", right.per_key_counts_first_key, 1.0, None, "right"),
    ("per_key_counts_l1", right.per_key_counts_l1, 1.0, None, "right"),
    ("per_key_counts_one_key", right.per_key_counts_one_key, 1.0, ONE_KEY_PAIRS, "right"),
]

SAMPLES = {name: 50_000 for name, *_ in CASES}
# infinite or >= 2.5x losses on every tested pair: 10,000 runs per input are plenty
SAMPLES.update(dict.fromkeys(["shared_noise_pair", "noisy_log_count", "noisy_log_count_count_pairs",
                              "noisy_mean_nan", "perturb_each_record", "svt_no_query_noise",
                              "histogram_laplace", "nested_pairs_of_queries"], 10_000))

XFAIL: dict[str, str] = {
    # misses at 50,000 runs per input
    "svt_reuses_noise_for_value": (
        "missed at 50,000: none found, best tested loss >= 0.732 (est 1.12, output[6] <= 5.38, "
        "373 vs 122); true loss (simulate.py, 4e6 runs): 1.33 at Pr 2e-3 on the x-shape n=10 pair, "
        "1.62 at Pr 1.2e-3 (rest above, last below), > 3 at Pr 2e-5; events of Pr >= 1e-2 reach "
        "only 1.04: the excess is too rare for 40,000 fresh runs"),
}
