"""A rule that runs a map, or a build, on solver terms proves what it does on numbers only when
both run one body (obligations/kernel/code_checks.py, ``map_one_body`` and ``build_one_body``): a
map or a build that tests for solver terms and does otherwise on numbers is refused by every rule,
and the wrong one is refuted on the running code."""

from __future__ import annotations

from dataclasses import replace

import pytest

from checker.cli import main
from mechanisms import ops
from mechanisms.core import Map
from mechanisms.make_clamp import build_clamp, make_clamp
from mechanisms.make_count import make_count
from mechanisms.make_discrete_laplace import (build_discrete_laplace, laplace_map,
                                              make_discrete_laplace)
from mechanisms.make_sized_bounded_int_sum import (build_sized_bounded_int_sum,
                                                   make_sized_bounded_int_sum, sized_int_sum_map)
from obligations.kernel.additive_noise import additive_noise
from obligations.kernel.coordinate_noise import coordinate_noise_for_every_argument
from obligations.kernel.fold import fold, fold_for_every_argument
from obligations.kernel.row_transform import row_transform, row_transform_for_every_argument
from obligations.kernel.rules import RuleRefused


def _on_numbers(exact, wrong):
    """A map that answers ``exact`` on solver terms and ``wrong`` on numbers."""
    def two_bodies(d_in, **params):
        if any(ops.is_symbolic(v) for v in (d_in, *params.values())):
            return exact(d_in, **params)
        return wrong(d_in, **params)
    return two_bodies


def u32_map(d_in, lower, upper):
    return (d_in // 2) * ((upper - lower) & 0xFFFFFFFF)


def halved_unit(d_in):
    return d_in // 2


def halved_laplace(d_in, scale):
    return laplace_map(d_in, scale) / 2


def build_sum(size, lower, upper):
    return replace(build_sized_bounded_int_sum(size, lower, upper), stability_map=Map(
        rule=_on_numbers(sized_int_sum_map, u32_map), params={"lower": lower, "upper": upper}))


def build_clamp_halved(lower, upper):
    return replace(build_clamp(lower, upper),
                   stability_map=Map(rule=_on_numbers(lambda d: d, halved_unit)))


def build_laplace_halved(scale):
    return replace(build_discrete_laplace(scale), privacy_map=Map(
        rule=_on_numbers(laplace_map, halved_laplace), params={"scale": scale}))


def build_sum_branching(size, lower, upper):
    """On numbers, the map of a sum over ``[lower, lower]``: 0."""
    built = build_sized_bounded_int_sum(size, lower, upper)
    if ops.is_symbolic(lower):
        return built
    return replace(built, stability_map=Map(rule=sized_int_sum_map,
                                            params={"lower": lower, "upper": lower}))


SUM = make_sized_bounded_int_sum.variant("make_sum_two_bodied_map", build_sum)
SUM_BUILD = make_sized_bounded_int_sum.variant("make_sum_two_bodied_build", build_sum_branching)
CLAMP = make_clamp.variant("make_clamp_two_bodied_map", build_clamp_halved)
LAPLACE = make_discrete_laplace.variant("make_laplace_two_bodied_map", build_laplace_halved)


@pytest.mark.parametrize("rule, constructor", [(fold_for_every_argument, SUM),
                                               (row_transform_for_every_argument, CLAMP),
                                               (coordinate_noise_for_every_argument, LAPLACE)],
                         ids=["fold", "row transform", "noise per coordinate"])
def test_a_constructor_whose_map_has_two_bodies_is_refused(rule, constructor):
    """Its build, which makes the map, is refused: the scan reaches the map's code."""
    with pytest.raises(RuleRefused, match=r"the build of .* tests for solver terms .*is_symbolic"):
        rule(constructor)


@pytest.mark.parametrize("rule, built", [(fold, SUM(3, -2, 5)),
                                         (row_transform, CLAMP(0.0, 1.0)),
                                         (additive_noise, make_count(int) >> LAPLACE(1.0))],
                         ids=["fold", "row transform", "additive noise"])
def test_an_object_whose_map_has_two_bodies_is_refused(rule, built):
    """A rule of one built object runs its map on a solver ``d_in``."""
    with pytest.raises(RuleRefused, match=r"the map of .* tests for solver terms .*is_symbolic"):
        rule("the object", built)


def test_a_build_with_two_bodies_is_refused():
    with pytest.raises(RuleRefused, match=r"the build of make_sum_two_bodied_build tests for "
                       r"solver terms .*is_symbolic"):
        fold_for_every_argument(SUM_BUILD)


def test_the_catalogue_maps_run_one_body():
    for rule, constructor in [(fold_for_every_argument, make_sized_bounded_int_sum),
                              (row_transform_for_every_argument, make_clamp),
                              (coordinate_noise_for_every_argument, make_discrete_laplace)]:
        assert rule(constructor)


@pytest.mark.slow  # a search for each statement: make test-slow
@pytest.mark.parametrize("name", ["SUM", "SUM_BUILD"])
def test_a_sum_with_two_bodies_and_no_claim_fails_the_gate_refuted(name, tmp_path, capsys):
    module = tmp_path / "two_bodies.py"
    module.write_text(
        "from obligations.base import Entry\n"
        f"from tests.test_two_bodies import {name}\n"
        f"MECHANISMS = [Entry('two_bodied_sum', {name})]\n")
    assert main(["check", str(module)]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "two_bodied_sum stability: refuted (confirmed on the running code)" in out
