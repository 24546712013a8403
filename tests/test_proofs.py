"""Proofs bound to obligations and to code: every failure names what is wrong."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from checker.proofs import documents
from checker.proofs.binding import (PROOFS, Seal, check_proof, check_proofs, code_of, macros,
                                    orphans, text_hash, vet)
from checker.proofs.documents import (PDF_CURRENT, PDF_MISSING, PDF_OUTDATED, code_listing,
                                      compile_pdfs, pdf_state, tex_escape)
from checker.proofs.sources import SourceError, closure, constructor_roots, fingerprint, locate
from obligations.catalogue import builtin_catalogue

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = builtin_catalogue()
CLAMP = next(e for e in CATALOGUE if e.name == "make_clamp")
IMPUTE = next(e for e in CATALOGUE if e.name == "make_impute_constant")  # no obligations
KNOWN = {o.id for e in CATALOGUE for o in e.obligations}


@pytest.fixture
def proofs(tmp_path):
    """A copy of proofs_tex/ to break."""
    folder = tmp_path / "proofs_tex"
    shutil.copytree(PROOFS, folder, ignore=shutil.ignore_patterns("build", "generated"))
    return folder


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace the first ``count`` occurrences (all of them with ``count=-1``)."""
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, count))


def test_every_catalogue_proof_is_bound_and_fresh():
    statuses, orphan_proofs = check_proofs(CATALOGUE, CATALOGUE, whole_catalogue=True)
    assert orphan_proofs == []
    for status in statuses:
        assert status.problems == [], status.problems
        assert status.stale is None, status.stale


def test_removing_a_citation_names_the_obligation(proofs):
    edit(proofs / "make_clamp.tex", r"\obligation{clamp.stability}", "", count=-1)
    problems = check_proof(CLAMP, KNOWN, proofs).problems
    assert any("obligation clamp.stability is not cited" in p for p in problems)


def test_a_commented_out_citation_does_not_count(proofs):
    edit(proofs / "make_clamp.tex", r"\obligation{clamp.stability}", "", count=-1)
    edit(proofs / "make_clamp.tex", r"\section{Verdicts}", "% \\obligation{clamp.stability}\n\\section{Verdicts}")
    assert any("clamp.stability" in p for p in check_proof(CLAMP, KNOWN, proofs).problems)


def test_citing_an_unknown_id_names_it(proofs):
    edit(proofs / "make_clamp.tex", r"\obligation{clamp.stability}",
         r"\obligation{clamp.stability} \obligation{clamp.sturdiness}")
    assert any("cites clamp.sturdiness, which is no obligation" in p
               for p in check_proof(CLAMP, KNOWN, proofs).problems)


def test_a_mechanism_without_obligations_must_cite_each_statement_it_owes(proofs):
    assert not IMPUTE.obligations and check_proof(IMPUTE, KNOWN, proofs).problems == []
    edit(proofs / "make_impute_constant.tex", r"\statement{stability}", "", count=-1)
    assert check_proof(IMPUTE, KNOWN, proofs).problems == [
        "statement stability is not cited by make_impute_constant.tex (cite it with "
        "\\statement{stability})"]


def test_a_statement_the_mechanism_does_not_owe_is_named(proofs):
    edit(proofs / "make_impute_constant.tex", r"\statement{stability}", r"\statement{privacy}")
    problems = check_proof(IMPUTE, KNOWN, proofs).problems
    assert ("make_impute_constant.tex cites \\statement{privacy}, which make_impute_constant does "
            "not owe (it owes output_domain, compatibility, stability)") in problems


def test_a_mechanism_without_proof_and_a_proof_without_mechanism(proofs):
    (proofs / "make_clamp.tex").unlink()
    (proofs / "make_teleport.tex").write_text("\\documentclass{article}")
    assert check_proof(CLAMP, KNOWN, proofs).problems[0].startswith("no proof: make_clamp.tex")
    assert orphans(CATALOGUE, proofs) == ["make_teleport.tex"]


def test_code_must_be_shown_and_must_exist(proofs):
    edit(proofs / "make_clamp.tex", r"\code{mechanisms.make_clamp.unit_constant}",
         r"\code{mechanisms.make_clamp.unit_constants}")
    problems = check_proof(CLAMP, KNOWN, proofs).problems
    assert any("does not show mechanisms.make_clamp.unit_constant " in p for p in problems)
    assert any("defines no 'unit_constants'" in p for p in problems)


def test_a_proof_vetted_against_other_code_is_stale_until_vetted(proofs):
    vetted = macros((proofs / "make_clamp.tex").read_text(), "vetted")[0]
    code = Seal.parse(vetted).code
    edit(proofs / "make_clamp.tex", code, "0123456789abcdef")
    status = check_proof(CLAMP, KNOWN, proofs)
    assert status.stale.startswith(f"proof stale: the code changed (fingerprint {code}, vetted "
                                   "0123456789abcdef); re-read the proof, then run dpcert vet")
    assert vet(CLAMP, proofs) == status.current == vetted
    assert check_proof(CLAMP, KNOWN, proofs).stale is None


def test_a_proof_whose_text_changed_is_stale_until_vetted(proofs):
    """The body replaced by "Trivial.", every citation and shown definition kept: still bound,
    but stale; vetting records the new text and clears it."""
    path = proofs / "make_clamp.tex"
    text = path.read_text()
    start, end = text.index(r"\begin{proof}"), text.rindex(r"\end{proof}")
    kept = " ".join(f"\\obligation{{{i}}}" for i in macros(text, "obligation"))
    path.write_text(text[:start] + "\\begin{proof}Trivial. " + kept + text[end:])
    status = check_proof(CLAMP, KNOWN, proofs)
    assert status.problems == []
    assert "the proof text changed" in status.stale and "the code changed" not in status.stale
    assert status.stale.endswith("re-read the proof, then run dpcert vet make_clamp")
    assert vet(CLAMP, proofs) == status.current
    assert check_proof(CLAMP, KNOWN, proofs).stale is None
    assert macros(path.read_text(), "vetted") == [status.current]


def test_a_comment_or_a_space_changes_the_text_hash_the_seal_line_does_not(proofs):
    path = proofs / "make_clamp.tex"
    text = path.read_text()
    assert text_hash(text) == text_hash(text.replace(macros(text, "vetted")[0], "anything"))
    assert text_hash(text) != text_hash(text + "% a comment\n")
    assert text_hash(text) != text_hash(text.replace("\\section", " \\section", 1))


def test_a_code_only_fingerprint_is_stale_and_vet_adds_the_missing_seal(proofs):
    path = proofs / "make_clamp.tex"
    vetted = macros(path.read_text(), "vetted")[0]
    edit(path, vetted, Seal.parse(vetted).code)  # the form recorded before texts were bound
    assert "is not a seal of the form 'code <16 hex>, text <16 hex>'" in \
        check_proof(CLAMP, KNOWN, proofs).stale
    edit(path, f"\\vetted{{{Seal.parse(vetted).code}}}\n", "")
    assert check_proof(CLAMP, KNOWN, proofs).stale.startswith("proof stale: never vetted")
    assert vet(CLAMP, proofs) == vetted  # the macro inserted does not change the text hash
    assert check_proof(CLAMP, KNOWN, proofs).stale is None


def _fake_latexmk(monkeypatch, ok: bool = True) -> list[str]:
    """``latexmk`` replaced by a stand-in that writes a PDF (or fails); returns the proofs run."""
    compiled: list[str] = []

    def run(command, cwd, **_):
        compiled.append(command[-1])
        if ok:
            (Path(cwd) / "build").mkdir(exist_ok=True)
            (Path(cwd) / "build" / command[-1].replace(".tex", ".pdf")).write_bytes(b"%PDF-1.5")
        return subprocess.CompletedProcess(command, 0 if ok else 12, stdout="", stderr="")
    monkeypatch.setattr(documents.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(documents.subprocess, "run", run)
    return compiled


def test_a_pdf_is_current_only_while_its_tex_is_the_one_it_was_built_from(proofs, monkeypatch):
    tex = proofs / "make_clamp.tex"
    assert pdf_state(tex) == PDF_MISSING
    _fake_latexmk(monkeypatch)
    [compilation] = compile_pdfs(["make_clamp"], proofs)
    assert compilation.ok and compilation.pdf == proofs / "build" / "make_clamp.pdf"
    source = proofs / "build" / "make_clamp.pdf.source"
    assert source.read_text().strip() == hashlib.sha256(tex.read_bytes()).hexdigest()
    assert pdf_state(tex) == PDF_CURRENT
    tex.write_text(tex.read_text() + "% edited\n")
    assert pdf_state(tex) == PDF_OUTDATED
    compile_pdfs(["make_clamp"], proofs)
    assert pdf_state(tex) == PDF_CURRENT
    source.unlink()  # a PDF built before sources were recorded
    assert pdf_state(tex) == PDF_OUTDATED


def test_parallel_builds_report_each_proof_in_the_order_asked(proofs, monkeypatch):
    compiled = _fake_latexmk(monkeypatch)
    found = compile_pdfs(["make_clamp", "no_such_proof", "definitions"], proofs, jobs=2)
    assert [c.proof for c in found] == ["make_clamp", "no_such_proof", "definitions"]
    assert [c.ok for c in found] == [True, False, True]
    assert found[1].log_tail == "no proof file no_such_proof.tex"
    assert sorted(compiled) == ["definitions.tex", "make_clamp.tex"]


def test_a_failed_build_records_no_source(proofs, monkeypatch):
    _fake_latexmk(monkeypatch, ok=False)
    [compilation] = compile_pdfs(["make_clamp"], proofs)
    assert not compilation.ok
    assert not (proofs / "build" / "make_clamp.pdf.source").exists()
    assert pdf_state(proofs / "make_clamp.tex") == PDF_MISSING


def test_the_code_of_a_mechanism_follows_its_names():
    names = {d.qualified for d in code_of(CLAMP)}
    assert names == {f"mechanisms.make_clamp.{n}" for n in
                     ("build_clamp", "clamp_kernel", "unit_constant", "validate_bounds",
                      "BOUND_PRECONDITIONS")}
    mean = next(e for e in CATALOGUE if e.name == "make_bounded_mean")
    assert "mechanisms.make_clamp.BOUND_PRECONDITIONS" in {d.qualified for d in code_of(mean)}


def test_listings_use_the_real_line_range():
    definition = locate("mechanisms.make_clamp.clamp_kernel")
    lines = definition.path.read_text().splitlines()[definition.first - 1:definition.last]
    assert lines[0].startswith("def clamp_kernel") and definition.text == "\n".join(lines)
    listing = code_listing("mechanisms.make_clamp.clamp_kernel", PROOFS)
    assert f"firstline={definition.first},lastline={definition.last}" in listing
    assert "{../mechanisms/make_clamp.py}" in listing
    with pytest.raises(SourceError):
        locate("mechanisms.make_clamp.no_such_thing")


def test_fingerprint_changes_with_one_character():
    definitions = closure(constructor_roots(CLAMP.constructor))
    changed = [d if d.name != "unit_constant" else type(d)(d.module, d.name, d.path, d.first, d.last,
                                                          d.text.replace("return 1", "return 2"))
               for d in definitions]
    assert fingerprint(definitions) != fingerprint(changed)
    assert tex_escape("a_b%c") == r"a\_b\%c"


@pytest.mark.slow
def test_changing_one_character_of_a_map_makes_only_that_proof_stale(tmp_path):
    """End to end, in a copy of the repository: dpcert check --strict fails with "proof stale"
    for exactly the proofs that show clamp's map constant (clamp's, and those of the 1-stable
    transformations that reuse it); dpcert vet clears them."""
    copy = tmp_path / "repo"
    for part in ("mechanisms", "obligations", "checker", "proofs_tex"):
        shutil.copytree(ROOT / part, copy / part,
                        ignore=shutil.ignore_patterns("build", "generated", "__pycache__"))
    edit(copy / "mechanisms" / "make_clamp.py", "    return 1\n", "    return 2\n")
    env = {**os.environ, "PYTHONPATH": str(copy), "COLUMNS": "200"}

    def dpcert(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "checker", *args], cwd=copy, env=env,
                              capture_output=True, text=True, timeout=300)

    showing = sorted(e.name for e in CATALOGUE
                     if "mechanisms.make_clamp.unit_constant" in {d.qualified for d in code_of(e)})
    assert "make_clamp" in showing and len(showing) < len(CATALOGUE) - 1
    not_showing = ["make_resize", "make_discrete_laplace", "make_bounded_mean"]
    assert not set(not_showing) & set(showing)
    checked = [*showing, *not_showing]  # the whole catalogue is what `make check` runs
    stale = dpcert("check", "--strict", "--jobs", "2", *checked)
    assert stale.returncode == 1, stale.stdout
    stale_lines = [line.strip() for line in stale.stdout.splitlines() if "proof stale:" in line]
    assert sorted(line.split(":")[0] for line in stale_lines) == showing
    assert dpcert("check", "--jobs", "2", *checked).returncode == 0  # not --strict: a warning
    for name in showing:
        assert dpcert("vet", name).returncode == 0
    assert dpcert("check", "--strict", "--jobs", "2", *checked).returncode == 0
    edit(copy / "proofs_tex" / "make_bounded_mean.tex", r"\obligation{bounded_mean.compatibility}",
         r"\obligation{bounded_mean.comparability}", count=-1)
    unbound = dpcert("check", "--jobs", "2", "make_bounded_mean")
    assert unbound.returncode == 1
    assert "obligation bounded_mean.compatibility is not cited" in unbound.stdout
    assert "cites bounded_mean.comparability, which is no obligation" in unbound.stdout


def test_vet_an_unknown_mechanism_exits_2(run_cli):
    result = run_cli("vet", "make_teleport")
    assert result.returncode == 2 and "unknown mechanism 'make_teleport'" in result.stderr


def test_imported_preconditions_are_located_where_they_are_defined():
    from mechanisms.core import Constructor
    from mechanisms.make_bounded_mean import build_bounded_mean
    from mechanisms.make_clamp import BOUND_PRECONDITIONS
    reused = Constructor("reused", build_bounded_mean, BOUND_PRECONDITIONS)
    assert "mechanisms.make_clamp.BOUND_PRECONDITIONS" in constructor_roots(reused)


def test_preconditions_that_no_proof_can_show_are_an_error_not_skipped():
    from mechanisms.core import Constructor
    from mechanisms.make_bounded_mean import build_bounded_mean
    from mechanisms.make_clamp import BOUND_PRECONDITIONS
    inline = Constructor("inline", build_bounded_mean, list(BOUND_PRECONDITIONS))
    with pytest.raises(SourceError, match="not a module-level tuple"):
        constructor_roots(inline)


def test_a_build_that_exits_while_its_statements_are_derived_is_a_binding_problem(tmp_path):
    """The binding reads the statements a mechanism owes from its build; a build that ends the
    process there ends nothing but its own binding."""
    import sys
    from mechanisms.core import Constructor
    from obligations.base import Entry

    def build(lower, upper):
        sys.exit(0)
    leaving = Entry("make_leaving", Constructor("make_leaving", build), proof=True)
    (tmp_path / "make_leaving.tex").write_text("\\usepackage{dpcert}\n")
    problems = check_proof(leaving, KNOWN, tmp_path).problems
    assert any("the standard statements of make_leaving cannot be derived" in p
               for p in problems), problems
