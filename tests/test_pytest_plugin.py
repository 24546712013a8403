"""The pytest plugin's fixtures, used as a project would use them (pytester runs inner suites)."""

from __future__ import annotations

pytest_plugins = ["pytester"]

INNER = '''
from bench import targets
from mechanisms import make_clamp
from tests.wrong_variants import make_clamp_half_map


def test_clamp_is_stable(assert_stable):
    assert_stable(make_clamp(0.0, 1.0), examples=50)


def test_half_map_is_not(assert_stable):
    assert_stable(make_clamp_half_map(0.0, 1.0), call="make_clamp_half_map(0.0, 1.0)")


def test_laplace_is_private(assert_private):
    assert_private(targets.laplace_correct, 1.0, samples=3000)


def test_half_noise_is_not(assert_private):
    assert_private(targets.laplace_half_noise, 1.0, samples=3000)
'''


def test_fixtures_pass_and_fail_with_reports(pytester, pytestconfig):
    pytester.makepyfile(test_inner=INNER)
    installed = pytestconfig.pluginmanager.has_plugin("dpcert")  # the pytest11 entry point
    options = [] if installed else ["-p", "checker.empirical.pytest_plugin"]
    result = pytester.runpytest_inprocess(*options)
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(["*VIOLATION: make_clamp_half_map(0.0, 1.0)*",
                                 "*VIOLATION: privacy loss*"])
