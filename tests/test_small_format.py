"""The float sum's map checked bit for bit in Z3's FP theory, in the small proxy format."""

from fractions import Fraction

import pytest

from checker.results import Verdict
from checker.runner import Task, check_obligation
from mechanisms.make_sized_bounded_float_checked_sum import make_sized_bounded_float_checked_sum
from obligations.base import Kind, Obligation
from obligations.small_format import (PROXY, case_goal, differences_exact, largest,
                                      map_coefficients, neighbours, overflow_power,
                                      small_format_obligation)
from tests.twins.make_sized_bounded_float_checked_sum import make_sized_float_sum_naive_map


def test_the_proxy_format_and_its_neighbours():
    assert largest(PROXY) == 14 and overflow_power(PROXY, 2) == 4
    assert differences_exact().proved
    assert len(list(neighbours(2))) == 7  # 2 orders x (no row, row 0, row 1 replaced) + both


def test_map_coefficients_are_read_from_the_code():
    sensitivity, rounding = map_coefficients(make_sized_bounded_float_checked_sum, 2, "sequential")
    assert sensitivity == [0, 1, 2] and rounding == Fraction(2)  # 2 n^2 2^(1-p), p = 3


@pytest.mark.slow
def test_catalogue_float_sum_is_proved_in_the_small_format():
    obligation = small_format_obligation("sum", make_sized_bounded_float_checked_sum, ("sequential",))
    result = check_obligation(Task(make_sized_bounded_float_checked_sum, obligation), seconds=600)
    assert result.verdict is Verdict.PROVED, [(g.name, g.verdict) for g in result.goals]
    assert len(result.goals) == 1 + 2 + 7  # the exactness premise, n = 1 and n = 2


@pytest.mark.slow
def test_real_number_map_is_refuted_with_a_small_format_counterexample():
    """One row replaced, n = 2: the naive map's bound U - L is exceeded by rounding."""
    one_case = Obligation("naive.small_format", Kind.STABILITY, "one neighbour case", "x",
                          lambda: [case_goal(make_sized_float_sum_naive_map, "sequential", 2,
                                             (0, 1), (0,))])
    result = check_obligation(Task(make_sized_float_sum_naive_map, one_case), seconds=600)
    assert result.verdict is Verdict.REFUTED
    [goal] = result.goals
    assert goal.confirmed and "small format e=3, p=3" in goal.report
    assert "|difference|" in goal.report and goal.counterexample["U"] > goal.counterexample["L"]
