"""examples/dp_groupby_median.py: the end-to-end release (a group-by count with key selection and
a DP median, composed), its (epsilon, delta) from the chained maps, and its audit."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from mechanisms.arith import add_up
from obligations.catalogue import builtin_catalogue

sys.path.insert(0, str(Path(__file__).parents[1] / "examples"))
import dp_groupby_median as example  # noqa: E402


def test_the_release_prints_the_composed_maps_and_its_outputs(capsys):
    assert example.main(["--seed", "3"]) == 0
    out = capsys.readouterr().out
    epsilon, delta = example.make_release().map(1)
    assert f"(epsilon, delta) = release.map(1) = ({epsilon!r}, {delta!r})" in out
    assert "200 people read" in out and "DP count per city" in out and "DP median age" in out


def test_the_printed_budget_is_the_two_queries_composed():
    """(epsilon, delta) is the composition's: the counts' (epsilon, delta) plus the median's
    (epsilon, 0), each sum rounded up."""
    (eps_c, delta_c), (eps_m, delta_m) = example.make_counts().map(1), example.make_median().map(1)
    assert example.make_release().map(1) == (add_up(eps_c, eps_m), add_up(delta_c, delta_m))
    assert delta_m == 0 and 0 < delta_c < 1e-6


def test_every_constructor_of_the_release_is_in_the_checked_catalogue():
    names = {e.name for e in builtin_catalogue()}
    assert {"make_select_column", "make_count_by", "make_laplace_threshold", "make_cast_default",
            "make_private_quantile", "make_pureDP_to_approxDP", "make_approxDP_composition",
            "make_chain_tt", "make_chain_mt"} <= names


def test_the_worst_case_pair_is_one_person_apart_and_keys_differ():
    release = example.make_release()
    x, x_prime = example.worst_case_pair(release)
    assert release.input_metric.distance(list(x), list(x_prime)) == 1
    assert {r[2] for r in x_prime} - {r[2] for r in x} == {"Oslo"}


@pytest.mark.parametrize("content, message", [
    (None, "does not exist"),
    ("id,age\n1,30\n", "has no column 'city'"),
    ("id,age,city\n", "has no data rows"),
])
def test_a_file_that_cannot_be_used_exits_2(tmp_path, capsys, content, message):
    path = tmp_path / "people.csv"
    if content is not None:
        path.write_text(content)
    assert example.main([str(path)]) == example.EXIT_BAD_INPUT
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_the_audit_finds_no_violation_of_the_claim_and_finds_a_smaller_claim():
    """Seeded (the release draws from the global generator the auditor seeds, so a rerun gives
    the same counts); each audit's false-alarm probability is at most 1e-3. The honest claim is not
    violated; a claim of epsilon = 0 (delta 1e-9) is, on the same pair, so the audit has power
    there (the median's law moves with the eleventh person)."""
    release = example.make_release()
    honest = example.audit_release(release, samples=3000, seed=5)
    assert honest.verdict == "none found", honest.summary()
    again = example.audit_release(release, samples=3000, seed=5)
    assert [(r.count_x, r.count_x_prime) for r in again.results] == \
        [(r.count_x, r.count_x_prime) for r in honest.results]  # the seed decides the runs
    from checker.audit import audit
    x, x_prime = example.worst_case_pair(release)
    smaller = audit(lambda table: example._flat(release(list(table), random)), 0.0,
                    pairs=[(x, x_prime)], samples=3000, seed=5, delta=1e-9)
    assert smaller.verdict == "violation", smaller.summary()
