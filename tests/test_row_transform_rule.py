"""The kernel's row-transform rule (obligations/kernel/row_transform.py): a new row transformation,
built by hand, is proved from its own object, and each premise has a wrong twin that is not."""

from __future__ import annotations

import textwrap

import pytest

from checker.cli import main

ROWS = textwrap.dedent("""
    import random

    from mechanisms import ops
    from mechanisms.core import Constructor, Map, RowTransform, Transformation
    from mechanisms.domains import AtomDomain, VectorDomain
    from mechanisms.metrics import SymmetricDistance
    from obligations.base import Entry, example


    def one():
        return 1


    def half(d_in):
        return d_in / 2


    def row(kernel, inp=AtomDomain(int), out=AtomDomain(int), rule=None):
        return Transformation(VectorDomain(inp), VectorDomain(out), SymmetricDistance(),
                              SymmetricDistance(), RowTransform(kernel),
                              Map(rule=rule) if rule else Map(constant=one))


    def shifted(x):
        return x + 1


    def no_nan(x):
        return ops.where(ops.is_nan(x), 0.0, x)


    def nan_kept(x):
        return ops.where(ops.lt(x, 0.0), 0.0, x)


    def reciprocal(x):
        return 1.0 / x


    def noisy(x):
        return x + random.randint(0, 1)


    def typed(x):
        if isinstance(x, int):
            return x + 1
        return x


    shift = row(shifted)
    imputed = row(no_nan, AtomDomain(float, nan=True), AtomDomain(float))
    half_map = row(shifted, rule=half)
    bounded_output = row(shifted, out=AtomDomain(int, bounds=(0, 10)))
    nan_out = row(nan_kept, AtomDomain(float, nan=True), AtomDomain(float))
    random_kernel = row(noisy)
    raises = row(reciprocal, AtomDomain(float), AtomDomain(float))
    two_bodies = row(typed)


    def build_shift(step: int) -> Transformation:
        return row(shifted)


    make_shift = Constructor("make_shift", build_shift)
    make_half = Constructor("make_half", lambda: row(shifted, rule=half))
    MECHANISMS = [
        Entry("shift", make_shift, examples=(example("make_shift(1)", "from rows import make_shift"),
                                             example("make_shift(5)", "from rows import make_shift"))),
        Entry("half", make_half, examples=(example("make_half()", "from rows import make_half"),)),
        Entry("no_example", Constructor("make_no_example", build_shift)),
    ]
    """)


@pytest.fixture
def rows(tmp_path):
    (tmp_path / "rows.py").write_text(ROWS)
    return tmp_path / "rows.py"


@pytest.mark.parametrize("name", ["shift", "imputed"])
def test_a_new_row_transformation_is_proved_from_its_object(rows, name, capsys):
    assert main(["check", f"{rows}:{name}"]) == 0
    assert "stability: proved by row transform" in capsys.readouterr().out


WHY = {"half_map": "map(d_in) >= d_in for every natural d_in: refuted",
       "bounded_output": "kernel(x) is in the output atom domain: refuted",
       "nan_out": "kernel(x) is in the output atom domain: refuted",
       "random_kernel": "the kernel's code draws randomness",
       "two_bodies": "the kernel tests the type of a solver term",
       "raises": "the kernel raises on the admitted row 0.0 (ZeroDivisionError"}


@pytest.mark.parametrize("name", sorted(WHY))
def test_each_premise_of_the_rule_has_a_wrong_twin(rows, name, capsys):
    why = WHY[name]
    assert main(["check", f"{rows}:{name}"]) == 1
    out = capsys.readouterr().out
    assert "stability: NOT PROVED" in out or "output domain: NOT PROVED" in out
    assert why in out


def test_a_constructor_is_proved_at_its_examples_only_and_says_so(rows, tmp_path, capsys,
                                                                    monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["check", str(rows), "--json", str(tmp_path / "r.json")]) == 1
    out = capsys.readouterr().out
    unproved = {line.split(" ")[0] for line in out.splitlines() if ": not proved:" in line}
    assert unproved == {"half", "no_example"}
    import json
    document = json.loads((tmp_path / "r.json").read_text())
    [shift] = [m for m in document["mechanisms"] if m["name"] == "shift"]
    assert {s["rule"] for s in shift["statements"]} == {"proved at its examples"}
    assert {"kind": "bounded", "text": "make_shift: only at the arguments of its examples "
            "(make_shift(1), make_shift(5))"} in shift["statements"][0]["rests_on"]


def test_a_row_transform_into_longer_vectors_than_it_keeps_is_not_proved(tmp_path, capsys):
    """A row transform keeps the length: an output domain that demands more entries than the
    input domain guarantees is not met (``[]`` maps to ``[]``)."""
    (tmp_path / "longer.py").write_text(textwrap.dedent("""
        from mechanisms.core import Map, RowTransform, Transformation
        from mechanisms.domains import AtomDomain, VectorDomain
        from mechanisms.metrics import SymmetricDistance


        def shifted(x):
            return x + 1


        def one(d_in):
            return d_in


        longer = Transformation(VectorDomain(AtomDomain(int)),
                                VectorDomain(AtomDomain(int), min_size=1), SymmetricDistance(),
                                SymmetricDistance(), RowTransform(shifted), Map(rule=one))
        """))
    assert main(["check", f"{tmp_path / 'longer.py'}:longer"]) == 1
    out = capsys.readouterr().out
    assert "a row transform keeps the length" in out
    assert "output domain: REFUTED (confirmed on the running code)" in out
