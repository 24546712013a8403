"""One body at run time: an ``isinstance`` applied to a solver term by mechanism code makes the
obligation unknown (two bodies), since the solver then follows another branch than the running
code."""

from __future__ import annotations

import textwrap

import pytest
import z3

from checker.cli import main
from checker.type_tests import TypeTestWatch, is_mechanism_code
from mechanisms import ops

KERNELS = {
    "two_body": textwrap.dedent("""
        def kernel(x, constant):
            if isinstance(x, float):  # the running code: 7.0 becomes NaN
                return constant if math.isnan(x) else (float("nan") if x == 7.0 else x)
            return ops.where(ops.is_nan(x), constant, x)  # what the solver sees
        """),
    "one_body": textwrap.dedent("""
        def kernel(x, constant):
            return ops.where(ops.is_nan(x), constant, x)
        """),
}
MODULE = textwrap.dedent("""
    import math
    from mechanisms import ops
    from mechanisms.core import Constructor, Map, RowTransform, Transformation
    from mechanisms.domains import AtomDomain, VectorDomain
    from mechanisms.make_impute_constant import IMPUTE_PRECONDITIONS, validate_constant
    from mechanisms.metrics import SymmetricDistance
    from obligations.base import Entry
    {kernel}

    def one(**_):
        return 1


    def build(constant):
        return Transformation(VectorDomain(AtomDomain(float, nan=True)),
                              VectorDomain(AtomDomain(float)), SymmetricDistance(),
                              SymmetricDistance(), RowTransform(kernel, {{"constant": constant}}),
                              Map(constant=one, params={{}}))


    make_imputed = Constructor("make_imputed", build, IMPUTE_PRECONDITIONS, validate_constant,
                               sorts={{"constant": float}})
    MECHANISMS = [Entry("imputed", make_imputed)]
    """)


@pytest.mark.slow  # over 2 s: make test-slow
def test_a_kernel_with_a_type_branch_is_not_proved(tmp_path, capsys):
    for name, kernel in KERNELS.items():
        (tmp_path / f"{name}.py").write_text(MODULE.format(kernel=kernel))
    assert main(["check", str(tmp_path / "one_body.py")]) == 0
    capsys.readouterr()
    assert main(["check", str(tmp_path / "two_body.py")]) == 1
    out = capsys.readouterr().out
    assert "the kernel tests the type of a solver term (two_body.kernel, line 11)" in out
    assert "imputed stability: not proved" in out
    assert "imputed output domain: refuted (confirmed on the running code)" in out


def test_the_watch_records_mechanism_code_only_and_restores_isinstance():
    term = z3.Real("x")
    namespace: dict = {"__name__": "a_users_module"}
    exec(compile("def branch(x):\n    return isinstance(x, float)\n", "/tmp/a_users_module.py",
                 "exec"), namespace)
    with TypeTestWatch() as watch:
        assert namespace["branch"](term) is False and namespace["branch"](1.0) is True
        ops.is_nan(term)  # the shared layer tells terms from numbers: not recorded
    assert watch.found == {"a_users_module.branch, line 2"}
    assert isinstance.__module__ == "builtins" and isinstance.__name__ == "isinstance"
    assert not is_mechanism_code("mechanisms.ops", ops.__file__)
    assert is_mechanism_code("a_users_module", "/tmp/a_users_module.py")


def test_mechanism_code_is_told_by_package_then_by_place():
    """The wheel's mechanisms/ is in a site-packages folder and still mechanism code; a library
    reached through another venv's site-packages (a path entry) is not."""
    assert is_mechanism_code("mechanisms.make_clamp",
                             "/venv/lib/python3.11/site-packages/mechanisms/make_clamp.py")
    assert not is_mechanism_code("mechanisms.ops", "/venv/lib/site-packages/mechanisms/ops.py")
    assert not is_mechanism_code("z3.z3", "/other/venv/lib/python3.11/site-packages/z3/z3.py")
    assert not is_mechanism_code("obligations.base", "/anywhere/obligations/base.py")
