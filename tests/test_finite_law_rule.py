"""The kernel's finite-law rule (obligations/kernel/finite_law.py): a hand-written randomized
response, whose randomness is finitely many uniform integers, is proved from the law its
``__call__`` computes along every coin path; each premise has a wrong twin; a wrong one is refuted
with the exact probabilities of one output under two inputs."""

from __future__ import annotations

import math
import textwrap
from fractions import Fraction

import pytest

from checker.cli import main
from mechanisms import ops
from mechanisms.core import Map, Measurement
from mechanisms.domains import AtomDomain
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import DiscreteMetric
from mechanisms.samplers import sample_bernoulli_rational, system_rng
from obligations.kernel.finite_law import exact_law, finite_law
from obligations.kernel.rules import RuleRefused

RESPONSES = textwrap.dedent("""
    import random
    from fractions import Fraction

    from mechanisms import ops
    from mechanisms.core import Constructor, Map, Measurement
    from mechanisms.domains import AtomDomain
    from mechanisms.measures import MaxDivergence
    from mechanisms.metrics import DiscreteMetric
    from mechanisms.samplers import sample_bernoulli_rational, system_rng
    from obligations.base import Entry, example

    LN3 = ops.ln_up(3)


    def response(function, epsilon, domain=AtomDomain(bool), output=None):
        return Measurement(domain, output or domain, DiscreteMetric(), MaxDivergence(), function,
                           Map(rule=lambda d_in: ops.where(ops.eq(d_in, 0), 0, epsilon)))


    def truthful_3_in_4(bit, rng=None):
        honest = sample_bernoulli_rational(Fraction(3, 4), system_rng(rng))
        return bit if honest else not bit


    def uniform_lie(value, rng=None):
        rng = system_rng(rng)
        if rng.randrange(4) < 2:   # truthful with probability 1/2, else uniform over all three
            return value
        return rng.randrange(3)


    def next_lie(value, rng=None):
        honest = sample_bernoulli_rational(Fraction(1, 2), system_rng(rng))
        return value if honest else (value + 1) % 3


    def float_coin(bit, rng=None):
        return bit if system_rng(rng).random() < 0.75 else not bit


    def module_coin(bit, rng=None):
        return bit if random.randrange(4) < 3 else not bit


    def fine_coin(bit, rng=None):
        return bit if system_rng(rng).randrange(10 ** 6) < 750000 else not bit


    def as_int(bit, rng=None):
        return int(truthful_3_in_4(bit, rng))


    def raising(bit, rng=None):
        honest = sample_bernoulli_rational(Fraction(3, 4), system_rng(rng))
        return bit if honest else 1 // 0


    bool_rr = response(truthful_3_in_4, LN3)
    int_rr = response(uniform_lie, ops.ln_up(4), AtomDomain(int, bounds=(0, 2)))
    under_claimed = response(truthful_3_in_4, ops.ln_up(2))
    next_category = response(next_lie, LN3, AtomDomain(int, bounds=(0, 2)))
    float_rng = response(float_coin, LN3)
    module_random = response(module_coin, LN3)
    too_many_paths = response(fine_coin, LN3)
    outside_output = response(as_int, LN3)
    raises = response(raising, LN3)
    unbounded_input = response(uniform_lie, LN3, AtomDomain(int))
    """)


@pytest.fixture
def responses(tmp_path):
    (tmp_path / "responses.py").write_text(RESPONSES)
    return tmp_path / "responses.py"


@pytest.mark.parametrize("name", ["bool_rr", "int_rr"])
def test_a_hand_written_randomized_response_is_proved_from_its_law(responses, name, capsys):
    assert main(["check", f"{responses}:{name}"]) == 0
    out = capsys.readouterr().out
    assert "privacy: proved by finite law from the coin paths" in out
    assert "(0 resting on a reviewed proof module, 0 bounded)" in out  # every input, every path


REFUTED = {"under_claimed": "Pr[M(False) = False] = 3/4 and Pr[M(True) = False] = 1/4; their "
                            "log-ratio ln(3) > map(1) = 0.6931471805599454",
           "next_category": "= 0; their log-ratio inf > map(1)"}


@pytest.mark.parametrize("name", sorted(REFUTED))
def test_a_wrong_response_is_refuted_with_exact_probabilities(responses, name, capsys):
    assert main(["check", f"{responses}:{name}"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "privacy: REFUTED (confirmed on the running code)" in out
    assert REFUTED[name] in out


WHY = {"float_rng": "uses its rng's random, not randrange",
       "module_random": "draws randomness",
       "too_many_paths": "more than 4096 paths",
       "outside_output": "returns 1 on False, outside its output domain",
       "raises": "raises on False along the draws [3]",
       "unbounded_input": "is not finite"}


@pytest.mark.parametrize("name", sorted(WHY))
def test_each_premise_of_the_rule_has_a_wrong_twin(responses, name, capsys):
    assert main(["check", f"{responses}:{name}"]) == 1
    out = capsys.readouterr().out
    assert "privacy: NOT PROVED" in out or name in REFUTED_TOO
    assert WHY[name] in out


REFUTED_TOO = {"unbounded_input"}
"""Twins whose claim is also false where the search looks: uniform_lie's loss between 0 and 1 is
ln 4 (Pr[M(0) = 0] = 2/3, Pr[M(1) = 0] = 1/6), above the claimed ln 3."""


def test_an_unbounded_twin_is_refuted_exactly(responses, capsys):
    assert main(["check", f"{responses}:unbounded_input"]) == 1
    out = capsys.readouterr().out
    assert "privacy: REFUTED (confirmed on the running code)" in out
    assert "Pr[M(0) = 0] = 2/3 and Pr[M(1) = 0] = 1/6; their log-ratio ln(4)" in out


def test_the_law_is_computed_whole_or_not_at_all():
    def two_coins(x, rng):
        return x + rng.randrange(2) + rng.randrange(3)

    assert exact_law("test", two_coins, 10) == {(int, 10): Fraction(1, 6), (int, 11): Fraction(1, 3),
                                                (int, 12): Fraction(1, 3), (int, 13): Fraction(1, 6)}

    def geometric(x, rng):
        count = 0
        while rng.randrange(2):
            count += 1
        return count

    with pytest.raises(RuleRefused, match="more than 32 draws"):
        exact_law("test", geometric, 0)

    def swallowing(x, rng):
        try:
            return rng.randrange(2)
        except Exception:  # noqa: BLE001 - the function tries to hide the scripted stop
            return math.inf

    assert exact_law("test", swallowing, 0) == {(int, 0): Fraction(1, 2), (int, 1): Fraction(1, 2)}


def test_a_map_that_branches_on_its_solver_d_in_is_not_read():
    """``if d_in == 5`` on a term is Z3's own bool of ``==`` (the same expression? False): read
    that way, the map's free value at 5 would never reach the goal."""
    def truthful_3_in_4(bit, rng=None):
        return bit if sample_bernoulli_rational(Fraction(3, 4), system_rng(rng)) else not bit

    def free_at_five(d_in):
        if d_in == 5:
            return 0
        return ops.where(ops.eq(d_in, 0), 0, ops.ln_up(3))

    response = Measurement(AtomDomain(bool), AtomDomain(bool), DiscreteMetric(), MaxDivergence(),
                           truthful_3_in_4, Map(rule=free_at_five))
    with pytest.raises(RuleRefused, match="a Python branch on the solver term d_in == 5"):
        finite_law("free_at_five", response)
