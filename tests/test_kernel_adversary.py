"""The proof code is untrusted: replaced by an adversary that applies every rule of the kernel to
everything in the run (:mod:`mutation.adversary`), it still cannot make a wrong case pass, and
right cases still pass (the adversary finds at least what the proposer finds)."""

from __future__ import annotations

import pytest

from checker.cli import main
from mutation.adversary import adversarial_proposer
from tests.test_kernel import AUTHORS_OWN_CLAIMS, COMPOSED, OTHER_CONSTRUCTORS_PROOF, PIPELINES
from tests.test_additive_noise_rule import NOISE, REFUTED, WHY as NOISE_WHY
from tests.test_finite_law_rule import REFUTED as RR_REFUTED, RESPONSES, WHY as RR_WHY
from tests.test_fold_rule import FOLDS, WHY as FOLD_WHY
from tests.test_row_transform_rule import ROWS, WHY
from tests.test_type_tests import KERNELS, MODULE

pytestmark = pytest.mark.slow  # several seconds each: make test-slow

WRONG_MODULES = {"own_claims": AUTHORS_OWN_CLAIMS, "other_constructor": OTHER_CONSTRUCTORS_PROOF,
                 "composed": COMPOSED, "two_body": MODULE.format(kernel=KERNELS["two_body"])}
"""Modules with an entry that must not pass (composed: three of its four entries)."""


@pytest.fixture
def folder(tmp_path):
    for name, source in {**WRONG_MODULES, "pipelines": PIPELINES, "rows": ROWS,
                         "noise": NOISE, "folds": FOLDS, "responses": RESPONSES}.items():
        (tmp_path / f"{name}.py").write_text(source)
    return tmp_path


@pytest.mark.parametrize("name", sorted(WRONG_MODULES))
def test_the_adversary_cannot_pass_a_wrong_entry(name, folder, capsys):
    with adversarial_proposer():
        assert main(["check", str(folder / f"{name}.py")]) == 1
    out = capsys.readouterr().out
    assert ": not proved:" in out


@pytest.mark.parametrize("target", ["make_replaced_map", "make_hand_built"])
def test_the_adversary_cannot_certify_a_changed_pipeline(target, folder, capsys):
    with adversarial_proposer():
        assert main(["check", f"{folder / 'pipelines.py'}:{target}"]) == 1
    assert "privacy: NOT PROVED" in capsys.readouterr().out


def test_the_adversary_passes_what_the_proposer_passes(folder, capsys):
    with adversarial_proposer():
        assert main(["check", f"{folder / 'pipelines.py'}:make_right"]) == 0
        assert main(["check", "clamp", "discrete_laplace"]) == 0


@pytest.mark.parametrize("target", sorted(WHY))
def test_the_adversary_cannot_prove_a_wrong_row_transformation(target, folder, capsys):
    with adversarial_proposer():
        assert main(["check", f"{folder / 'rows.py'}:{target}"]) == 1
    assert "NOT PROVED" in capsys.readouterr().out


@pytest.mark.parametrize("target", sorted({*NOISE_WHY, *REFUTED}))
def test_the_adversary_cannot_prove_a_wrong_noise_measurement(target, folder, capsys):
    with adversarial_proposer():
        assert main(["check", f"{folder / 'noise.py'}:{target}"]) == 1
    out = capsys.readouterr().out
    assert "privacy: NOT PROVED" in out or "privacy: REFUTED" in out


@pytest.mark.parametrize("target", [*sorted(FOLD_WHY), "squares_under"])
def test_the_adversary_cannot_prove_a_wrong_fold(target, folder, capsys):
    with adversarial_proposer():
        assert main(["check", f"{folder / 'folds.py'}:{target}"]) == 1
    out = capsys.readouterr().out
    assert "stability: NOT PROVED" in out or "stability: REFUTED" in out


def test_the_adversary_cannot_pass_a_wrong_constructor_of_a_new_shape(folder, capsys):
    with adversarial_proposer():
        assert main(["check", str(folder / "folds.py")]) == 1
        assert main(["check", str(folder / "noise.py")]) == 1


@pytest.mark.parametrize("target", sorted({*RR_WHY, *RR_REFUTED}))
def test_the_adversary_cannot_prove_a_wrong_randomized_response(target, folder, capsys):
    with adversarial_proposer():
        assert main(["check", f"{folder / 'responses.py'}:{target}"]) == 1
    out = capsys.readouterr().out
    assert "privacy: NOT PROVED" in out or "privacy: REFUTED" in out
