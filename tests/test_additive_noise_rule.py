"""The kernel's additive-noise rule (obligations/kernel/additive_noise.py): a new noise measurement,
written by hand, is proved from its own object with no claim of its author's; each premise has a
wrong twin that is not proved, and the under-noised ones are refuted with an exact loss computed
on the running code."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path
from fractions import Fraction

import pytest

from checker.cli import main
from tests.helpers import load_module
from mechanisms.samplers import draws_replaced, sample_discrete_laplace
from obligations.kernel.certify import Certified
from obligations.kernel.statements import Claim, object_statements
from obligations.kernel.theorems import Refutation, TheoremForgedError

NOISE = textwrap.dedent("""
    import random
    from fractions import Fraction

    from mechanisms import ops
    from mechanisms.arith import div_up
    from mechanisms.core import Constructor, Map, Measurement
    from mechanisms.domains import AtomDomain, VectorDomain
    from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence
    from mechanisms.metrics import SymmetricDistance
    from mechanisms.samplers import sample_discrete_gaussian, sample_discrete_laplace, system_rng
    from obligations.base import Entry, example

    SCALE = Fraction(2)


    def measurement(function, rule, bounds=(0, 10), measure=MaxDivergence()):
        return Measurement(VectorDomain(AtomDomain(int, bounds=bounds)), AtomDomain(int),
                           SymmetricDistance(), measure, function, Map(rule=rule))


    def sum_map(d_in):
        return div_up(d_in * 10, SCALE)


    def noisy_sum(arg, rng=None):
        return sum(arg) + sample_discrete_laplace(SCALE, system_rng(rng))


    def clamped_count(arg, rng=None):
        return ops.maximum(len(arg) + sample_discrete_laplace(SCALE, system_rng(rng)), 0)


    def count_map(d_in):
        return div_up(d_in, SCALE)


    def gaussian_sum(arg, rng=None):
        return sum(arg) + sample_discrete_gaussian(SCALE, system_rng(rng))


    def rho_map(d_in):
        return div_up(d_in * d_in * 100, 2 * SCALE * SCALE)


    def rho_linear_map(d_in):
        return div_up(d_in * 100, 2 * SCALE * SCALE)


    def under_noised_sum(arg, rng=None):
        return sum(arg) + sample_discrete_laplace(SCALE / 100, system_rng(rng))


    def no_sensitivity_map(d_in):
        return div_up(d_in, SCALE)


    def nearest_map(d_in):
        return d_in * 3 / 10.0


    def sum_of_three(arg, rng=None):
        return sum(arg) + sample_discrete_laplace(Fraction(10), system_rng(rng))


    def twice_drawn(arg, rng=None):
        rng = system_rng(rng)
        return sum(arg) + sample_discrete_laplace(SCALE, rng) + sample_discrete_laplace(SCALE, rng)


    def own_randomness(arg, rng=None):
        return sum(arg) + sample_discrete_laplace(SCALE, system_rng(rng)) + random.randint(0, 1)


    def rng_used(arg, rng=None):
        rng = system_rng(rng)
        return sum(arg) + sample_discrete_laplace(SCALE, rng) + rng.randrange(2)


    def typed(arg, rng=None):
        noise = sample_discrete_laplace(SCALE, system_rng(rng))
        if isinstance(noise, int):
            return sum(arg) + noise * 0
        return sum(arg) + noise


    def first_doubled(arg, rng=None):
        total = sum(arg) + (arg[0] if arg else 0)
        return total + sample_discrete_laplace(SCALE, system_rng(rng))


    def size_scaled(arg, rng=None):
        return sum(arg) + sample_discrete_laplace(SCALE + len(arg), system_rng(rng))


    noisy = measurement(noisy_sum, sum_map)
    clamped = measurement(clamped_count, count_map)
    gaussian = measurement(gaussian_sum, rho_map, measure=ZeroConcentratedDivergence())
    under_noised = measurement(under_noised_sum, sum_map)
    no_sensitivity = measurement(noisy_sum, no_sensitivity_map)
    nearest = measurement(sum_of_three, nearest_map, bounds=(0, 3))
    gaussian_as_pure = measurement(gaussian_sum, rho_map)
    rho_linear = measurement(gaussian_sum, rho_linear_map, measure=ZeroConcentratedDivergence())
    two_draws = measurement(twice_drawn, sum_map)
    own_random = measurement(own_randomness, sum_map)
    uses_rng = measurement(rng_used, sum_map)
    two_bodies = measurement(typed, sum_map)
    ordered = measurement(first_doubled, sum_map)
    data_scale = measurement(size_scaled, sum_map)


    def build_sum(lower: int, upper: int, scale: float) -> Measurement:
        def release(arg, rng=None):
            return sum(arg) + sample_discrete_laplace(Fraction(scale), system_rng(rng))
        return measurement(release, lambda d_in: div_up(d_in * upper, scale), bounds=(lower, upper))


    def validate(lower, upper, scale):
        if not (isinstance(lower, int) and isinstance(upper, int) and lower <= upper and scale > 0):
            raise ValueError("needs int bounds lower <= upper and scale > 0")


    make_nonneg_sum = Constructor("make_nonneg_sum", build_sum, validate=validate)
    MECHANISMS = [Entry("make_nonneg_sum", make_nonneg_sum,
                        examples=(example("make_nonneg_sum(0, 10, 2.0)",
                                          "from noise import make_nonneg_sum"),))]
    """)


@pytest.fixture
def noise(tmp_path):
    (tmp_path / "noise.py").write_text(NOISE)
    return tmp_path / "noise.py"


@pytest.mark.slow  # over 2 s: make test-slow
@pytest.mark.parametrize("name", ["noisy", "clamped", "gaussian"])
def test_a_new_noise_measurement_is_proved_from_its_object(noise, name, capsys):
    assert main(["check", f"{noise}:{name}"]) == 0
    out = capsys.readouterr().out
    assert "privacy: proved by additive noise from a known law" in out
    assert "bounded" in out and "at most 4 rows" in out  # the rule's bound is stated


REFUTED = {"under_noised": "= 500 > map(1) = 5.0",
           "no_sensitivity": "= 5 > map(1) = 0.5",
           "nearest": "= 3/10 > map(1) = 0.3 (exactly 5404319552844595/18014398509481984)",
           "ordered": "= 10 > map(1) = 5.0",
           "gaussian_as_pure": "> map(1) = 12.5",
           "rho_linear": "order-2 Renyi divergence is exactly (-20)^2 / (2)^2 = 100, so rho >= 50 "
                         "> map(2) = 25"}


@pytest.mark.parametrize("name", sorted(REFUTED))
def test_an_under_noised_measurement_is_refuted_with_an_exact_loss(noise, name, capsys):
    """No claim of the author's is involved: the statement is the kernel's, the loss is the
    log-ratio of the two laws the running code samples, at one output, as a rational."""
    assert main(["check", f"{noise}:{name}"]) == 1
    out = capsys.readouterr().out
    assert "privacy: refuted (confirmed on the running code)" in out
    assert "privacy: REFUTED (confirmed on the running code)" in out  # in its certificate
    assert REFUTED[name] in out


WHY = {"two_draws": "draws 2 times from a known sampler",
       "own_random": "draws randomness",
       "uses_rng": "used its rng",
       "two_bodies": "tests the type of a solver term",
       "data_scale": "draws from another law or parameter on another number of rows"}


@pytest.mark.parametrize("name", sorted(WHY))
def test_each_premise_of_the_rule_has_a_wrong_twin(noise, name, capsys):
    assert main(["check", f"{noise}:{name}"]) == 1
    out = capsys.readouterr().out
    assert "privacy: NOT PROVED" in out
    assert WHY[name] in out


@pytest.mark.slow  # over 2 s: make test-slow
def test_a_missing_precondition_is_refuted_at_an_admitted_argument(noise, capsys):
    """Proved at its example's arguments (bounded), the constructor is refuted at another argument
    it admits: the refutation outside the bound makes the statement false."""
    assert main(["check", str(noise)]) == 1
    out = capsys.readouterr().out
    assert "make_nonneg_sum privacy: refuted (confirmed on the running code)" in out
    assert "lower=-100" in out or "lower=-10" in out


def test_only_the_kernel_makes_a_refutation():
    statement = object_statements("m", object())[0]
    with pytest.raises(TheoremForgedError):
        Refutation(object(), statement, "mine", "no witness", 1, 0)


def test_a_refutation_of_another_statement_refutes_nothing(noise):
    module = load_module(noise, "noise_for_refutation")
    from obligations.refuters.additive_noise import refute_object
    owed = [s for s in object_statements("under_noised", module.under_noised)
            if s.claim is Claim.PRIVACY][0]
    refutation = refute_object(owed, module.under_noised, [], [10], 1)
    assert refutation.loss == 500 and refutation.claimed == 5.0
    other = [s for s in object_statements("noisy", module.noisy) if s.claim is Claim.PRIVACY][0]
    assert Certified(other, None, "unproved").refuted_by(refutation).refutation is None
    assert Certified(owed, None, "unproved").refuted_by(refutation).refutation is refutation


def _approximate_privacy(built):
    return [s for s in object_statements("m", built) if s.claim is Claim.PRIVACY][0]


def test_approximate_dp_with_delta_zero_is_refuted_as_pure_dp():
    """The second round's relabelled Gaussian: ``(rho, 0)`` claimed in approximate DP is pure
    DP, which one output's exact log-ratio breaks; a right ``(eps, 0)`` conversion of the discrete
    Laplace is not refuted, and a claim with ``delta > 0`` is not refuted this way."""
    from dataclasses import replace
    from mechanisms.core import Map
    from mechanisms.make_discrete_laplace import make_discrete_laplace
    from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP
    from obligations.refuters.additive_noise import refute_object
    from obligations.kernel.rules import RuleRefused
    module = Path(__file__).parent / "outsiders_new" / "wrong" / "gaussian_as_pure.py"
    relabelled = load_module(module, "gaussian_as_pure_for_refutation").make_gaussian_approx(1.0)
    refutation = refute_object(_approximate_privacy(relabelled), relabelled, 0, 1, 1)
    assert refutation.claimed == (0.5, 0) and refutation.loss == Fraction(3, 2)
    assert "is (epsilon, 0)" in refutation.witness
    right = make_pureDP_to_approxDP(make_discrete_laplace(1.0))
    with pytest.raises(RuleRefused, match="exceeds map"):
        refute_object(_approximate_privacy(right), right, 0, 1, 1)
    with_delta = replace(relabelled, privacy_map=Map(rule=lambda d_in: (0.5, 1e-9)))
    with pytest.raises(RuleRefused, match="only approximate DP with delta 0"):
        refute_object(_approximate_privacy(with_delta), with_delta, 0, 1, 1)


def test_samplers_draw_as_stated_outside_a_replaced_block():
    drawn = []
    with draws_replaced(lambda law, parameter, rng: drawn.append((law, parameter)) or 7):
        assert sample_discrete_laplace(Fraction(3), random.Random(0)) == 7
    assert drawn == [("discrete Laplace", Fraction(3))]
    values = {sample_discrete_laplace(Fraction(3), random.Random(seed)) for seed in range(50)}
    assert len(values) > 3  # real draws vary; the stand-in is gone


def readme_noisy_count() -> str:
    from pathlib import Path
    text = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    start = text.index("# noisy_count.py")
    return text[start:text.index("```", start)]


@pytest.mark.slow  # two searches for a refutation, about 8 s: make test-slow
def test_the_readme_guide_to_a_new_measurement_reproduces(tmp_path, capsys, monkeypatch):
    """README's complete module passes; with the noise divided by 100, as README says, it is
    refuted with the loss README prints."""
    source = readme_noisy_count()
    (tmp_path / "noisy_count.py").write_text(source)
    wrong = source.replace("Fraction(scale), system_rng", "Fraction(scale) / 100, system_rng")
    assert wrong != source
    (tmp_path / "noisy_count_wrong.py").write_text(
        wrong.replace("from noisy_count import", "from noisy_count_wrong import"))
    monkeypatch.chdir(tmp_path)
    assert main(["check", "noisy_count.py"]) == 0
    assert "4 proved by the kernel's rules (0 resting on a reviewed proof module, 4 bounded)" in \
        capsys.readouterr().out
    assert main(["check", "noisy_count_wrong.py"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert ("make_noisy_count(scale=2.0): [2] and [] at distance 1 <= d_in = 1; the output is a "
            "function of one draw N of the discrete Laplace law of parameter 1/50, reaching 1 at "
            "one draw on each side; ln(Pr[M([2]) = 1] / Pr[M([]) = 1]) = 50 > map(1) = 0.5") in out
