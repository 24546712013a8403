"""``dpcert report``: HTML opened in headless Chromium, JUnit XML that agrees with the gate,
Markdown read by a CommonMark parser, the conditions and identity of a run, the trust base, proof
PDFs, baselines, shards, escaping. Chromium is Debian's package, installed by ``make test``
(tests/install-chromium.sh). The CLI runs in this process (``checker.cli.main``)."""

from __future__ import annotations

import functools
import hashlib
import json
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from importlib import metadata
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from markdown_it import MarkdownIt

from checker import gate
from checker.cli import main
from checker.proofs import binding
from checker.proofs.binding import PROOFS, macros
from checker.report import writing
from checker.report.baseline import check_baseline, regressions
from checker.report.identity import REPOSITORY, shown_path, working_tree_dirty
from checker.report.markdown import code
from checker.report.rest import Span, inline, parse
from checker.report.wording import VERDICT_TRUSTS, conditions, gate_sentence
from obligations.catalogue import builtin_catalogue
from tests.helpers import chromium

CLAMP_HALF = ("from mechanisms.make_clamp import make_clamp\n"
              "from obligations.base import Entry\n"
              "from obligations.make_clamp import clamp_obligations\n"
              "from tests.wrong_variants import make_clamp_half_map\n")
TRIVIAL = ("from mechanisms.make_clamp import make_clamp\n"
           "from obligations.base import ComputedGoal, Decision, Entry, Kind, Obligation\n"
           "def holds():\n    return [ComputedGoal('holds', 'sympy', lambda: Decision(True))]\n"
           "def claim(id, **qualifiers):\n"
           "    return Obligation(id, Kind.LEMMA, 'a claim', 'x', holds, **qualifiers)\n")
"""A module header: ``claim(id, bound=..., cites=..., ...)`` is an obligation proved at once."""
README = Path(__file__).resolve().parent.parent / "README.md"


class Run(NamedTuple):
    code: int
    stdout: str
    stderr: str


@pytest.fixture
def dpcert(tmp_path, monkeypatch, capsys):
    """``dpcert ARGS`` in this process, run from ``tmp_path``."""
    monkeypatch.chdir(tmp_path)

    def run(*args: Any) -> Run:
        exit_code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return Run(exit_code, captured.out, captured.err)
    return run


def module(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def read(out: Path) -> tuple[dict[str, Any], ElementTree.Element, str, str]:
    """report.json, junit.xml's root, report.md and report.html of a report folder."""
    return (json.loads((out / "report.json").read_text()),
            ElementTree.parse(out / "junit.xml").getroot(),
            (out / "report.md").read_text(), (out / "report.html").read_text())


def failing(junit: ElementTree.Element) -> dict[tuple[str, str], str]:
    """(classname, name) of each failing or erring test case, with the failure's type."""
    return {(case.get("classname"), case.get("name")): child.get("type")
            for case in junit.iter("testcase") for child in case if child.tag in ("failure", "error")}


def assert_junit_agrees_with_the_gate(document: dict[str, Any], junit: ElementTree.Element) -> None:
    cases = list(junit.iter("testcase"))
    assert int(junit.get("tests")) == len(cases)
    assert int(junit.get("failures")) == sum(c.find("failure") is not None for c in cases)
    assert int(junit.get("errors")) == sum(c.find("error") is not None for c in cases)
    assert (int(junit.get("failures")) + int(junit.get("errors")) > 0) == (not document["gate"]["passed"])


def proofs_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of proofs_tex/ that the gate reads instead of the repository's."""
    folder = tmp_path / "proofs_tex"
    shutil.copytree(PROOFS, folder, ignore=shutil.ignore_patterns("build", "generated"))
    monkeypatch.setattr(gate, "check_proofs", functools.partial(binding.check_proofs, folder=folder))
    return folder


def trivial_proof(folder: Path) -> None:
    """Replace the body of clamp's proof by "Trivial.", keeping every citation: bound, stale."""
    path = folder / "make_clamp.tex"
    text = path.read_text()
    start, end = text.index(r"\begin{proof}"), text.rindex(r"\end{proof}")
    cited = " ".join(f"\\obligation{{{i}}}" for i in macros(text, "obligation"))
    path.write_text(text[:start] + "\\begin{proof}Trivial. " + cited + text[end:])


class Dom(HTMLParser):
    """Text by element id, obligation rows, every element name, the ``id`` attributes, and the
    ``href`` of every link of a serialized DOM."""

    def __init__(self) -> None:
        super().__init__()
        self.by_id: dict[str, str] = {}
        self.rows: dict[str, str] = {}
        self.tags: set[str] = set()
        self.h2: list[str] = []
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.classes: dict[str, str] = {}
        self._open: list[tuple[str, str | None, str | None]] = []
        self._text: list[list[str]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.add(tag)
        if "id" in attributes:
            self.ids.add(attributes["id"])
            self.classes[attributes["id"]] = attributes.get("class") or ""
        if tag == "a" and "href" in attributes:
            self.hrefs.append(attributes["href"])
        if tag in ("meta", "link", "br", "img", "input", "path", "use", "rect", "line"):
            return
        self._open.append((tag, attributes.get("id"), None))
        self._text.append([])
        if attributes.get("class") == "obligation":
            self._open[-1] = (tag, "row:" + attributes["data-id"], attributes["data-verdict"])

    def handle_endtag(self, tag):
        if not self._open or self._open[-1][0] != tag:
            return
        _, key, verdict = self._open.pop()
        text = "".join(self._text.pop())
        if self._text:
            self._text[-1].append(text)
        if key and key.startswith("row:"):
            self.rows[key[4:]] = verdict
        elif key:
            self.by_id[key] = " ".join(text.split())
        if tag == "h2":
            self.h2.append(text.strip())

    def handle_data(self, data):
        if self._text:
            self._text[-1].append(data)


def dom_of(page: Path, tmp_path: Path) -> Dom:
    dom = Dom()
    dom.feed(chromium(str(page), "--dump-dom", profile=str(tmp_path / "profile")))
    return dom


def parsed(html_text: str) -> Dom:
    dom = Dom()
    dom.feed(html_text)
    return dom


def commonmark(markdown: str) -> str:
    """Markdown as CommonMark (GitHub's tables, raw HTML kept) renders it."""
    return MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown)


# --- the whole catalogue, in a browser ----------------------------------------------------------

@pytest.mark.slow
def test_html_report_in_headless_chromium(dpcert, tmp_path):
    """The whole catalogue under ``--arithmetic ieee`` (no obligation proved only under exact
    arithmetic), its report rendered by a browser."""
    out = tmp_path / "report"
    assert dpcert("report", "--out", out, "--jobs", "2", "--arithmetic", "ieee").code == 0
    document = json.loads((out / "report.json").read_text())
    assert document["schema"] == "dpcert.report/1" and document["gate"]["passed"] is True
    assert document["gate"]["exact_arithmetic_only"] == []
    obligations = [o for m in document["mechanisms"] for o in m["obligations"]]
    assert {"clamp.stability", "randomized_response.privacy", "arith.ln_up"} <= \
        {o["id"] for o in obligations}
    assert all(o["verdict"] == "proved" and not o["under_exact_arithmetic"] for o in obligations)
    mean = next(o for o in obligations if o["id"] == "bounded_mean.stability")
    assert mean["label"].startswith("proved (cites Higham")
    dom = dom_of(out / "report.html", tmp_path)
    obligations = sum(len(e.obligations) for e in builtin_catalogue())
    assert dom.by_id["count-proved"] == str(document["counts"]["proved"]) == str(obligations)
    assert dom.by_id["count-refuted"] == "0"
    assert dom.by_id["gate"].startswith("gate passed")
    assert dom.rows["clamp.stability"] == "proved"
    assert "math" in dom.tags and "svg" in dom.tags  # MathML statements and inline plots
    assert {h[1:] for h in dom.hrefs if h.startswith("#")} <= dom.ids  # no dead anchor
    screenshot = tmp_path / "report.png"
    chromium(str(out / "report.html"), "--window-size=1280,2200", f"--screenshot={screenshot}",
             profile=str(tmp_path / "profile-shot"))
    assert screenshot.stat().st_size > 50_000


# --- JUnit: failures whenever the gate fails ----------------------------------------------------

def test_junit_has_one_case_per_obligation_and_failures(dpcert, tmp_path):
    half = module(tmp_path, "half.py", CLAMP_HALF + "MECHANISMS = [Entry('make_clamp_half_map', "
                  "make_clamp_half_map, clamp_obligations(make_clamp_half_map, 'clamp_half_map'))]\n")
    out = tmp_path / "report"
    assert dpcert("report", half, "--out", out).code == 1
    document, junit, markdown, _ = read(out)
    cases = list(junit.iter("testcase"))
    assert len(cases) == sum(len(m["obligations"]) + len(m["statements"])
                             for m in document["mechanisms"]) + len(document["proofs"])
    assert [p["mechanism"] for p in document["proofs"]] == ["make_clamp"]  # the reference's
    assert failing(junit) == {("make_clamp_half_map", "clamp_half_map.stability"): "refuted",
                              ("make_clamp_half_map", "standard statement: stability"): "refuted"}
    assert junit.get("failures") == "2"
    assert_junit_agrees_with_the_gate(document, junit)
    assert "VIOLATION: make_clamp_half_map" in markdown


@pytest.mark.slow  # over 2 s: make test-slow
def test_unknown_is_a_junit_failure(dpcert, tmp_path):
    slow = module(tmp_path, "slow.py", (
        "import time\n"
        "from obligations.base import ComputedGoal, Decision, Entry, Kind, Obligation\n"
        "def slow():\n    time.sleep(60)\n    return Decision(True)\n"
        "MECHANISMS = [Entry('slow', None, (Obligation('slow.proof', Kind.LEMMA, 's', 'x',"
        " lambda: [ComputedGoal('sleep', 'sympy', slow)]),))]\n"))
    out = tmp_path / "report"
    assert dpcert("report", slow, "--out", out, "--timeout", "1").code == 1
    [case] = read(out)[1].iter("testcase")
    assert case.find("failure").get("type") == "unknown"


@pytest.mark.slow  # over 2 s: make test-slow
def test_a_stale_proof_fails_junit_under_strict_and_is_skipped_otherwise(dpcert, tmp_path,
                                                                        monkeypatch):
    """The issue's repro: a stale proof and --strict exit 1, and JUnit said 4 tests, 0 failures."""
    trivial_proof(proofs_copy(tmp_path, monkeypatch))
    strict = dpcert("report", "clamp", "--out", tmp_path / "strict", "--strict")
    assert strict.code == 1
    document, junit, _, _ = read(tmp_path / "strict")
    assert failing(junit) == {("make_clamp", "proof proofs_tex/make_clamp.tex"): "stale"}
    assert_junit_agrees_with_the_gate(document, junit)
    lenient = dpcert("report", "clamp", "--out", tmp_path / "lenient")
    assert lenient.code == 0
    document, junit, _, _ = read(tmp_path / "lenient")
    assert failing(junit) == {} and junit.get("skipped") == "1"
    [skipped] = junit.iter("skipped")
    assert "the proof text changed" in skipped.text
    assert_junit_agrees_with_the_gate(document, junit)


def test_an_unbound_proof_is_a_junit_failure(dpcert, tmp_path, monkeypatch):
    folder = proofs_copy(tmp_path, monkeypatch)
    path = folder / "make_clamp.tex"
    path.write_text(path.read_text().replace(r"\obligation{clamp.stability}", ""))
    assert dpcert("report", "clamp", "--out", tmp_path / "r").code == 1
    document, junit, _, _ = read(tmp_path / "r")
    assert failing(junit) == {("make_clamp", "proof proofs_tex/make_clamp.tex"): "not bound"}
    assert_junit_agrees_with_the_gate(document, junit)


def test_a_failed_empirical_test_is_a_junit_failure(dpcert, tmp_path):
    """Every obligation proved; the gate fails only because --empirical tested nothing."""
    bare = module(tmp_path, "bare.py", CLAMP_HALF + "MECHANISMS = [Entry('bare', make_clamp, "
                  "clamp_obligations(make_clamp, 'bare'))]\n")
    assert dpcert("report", bare, "--out", tmp_path / "r", "--empirical", "--samples", "100").code == 1
    document, junit, _, _ = read(tmp_path / "r")
    assert document["gate"]["obligations_proved"]
    assert failing(junit) == {("bare", "- (none)"): "not tested"}
    assert_junit_agrees_with_the_gate(document, junit)


def test_an_obligation_proved_only_under_exact_arithmetic_fails_junit_under_ieee(dpcert, tmp_path):
    exact = module(tmp_path, "exact.py", TRIVIAL + "MECHANISMS = [Entry('exact', None, "
                   "(claim('exact.claim', arithmetic='floats read as reals'),))]\n")
    assert dpcert("report", exact, "--out", tmp_path / "exact").code == 0
    document, junit, _, _ = read(tmp_path / "exact")
    assert failing(junit) == {}
    assert gate_sentence(document["gate"]) == ("passed (arithmetic exact: 1 obligation proved only "
                                               "under exact arithmetic accepted)")
    assert dpcert("report", exact, "--out", tmp_path / "ieee", "--arithmetic", "ieee").code == 1
    document, junit, _, _ = read(tmp_path / "ieee")
    assert failing(junit) == {("exact", "exact.claim"): "proved only under exact arithmetic"}
    assert_junit_agrees_with_the_gate(document, junit)


# --- the conditions of a verdict, and what it leaves out ----------------------------------------

@pytest.mark.slow  # over 2 s: make test-slow
def test_a_lenient_pass_with_a_stale_proof_says_what_it_leaves_out(dpcert, tmp_path, monkeypatch):
    trivial_proof(proofs_copy(tmp_path, monkeypatch))
    run = dpcert("report", "clamp", "--out", tmp_path / "r")
    assert run.code == 0
    assert "gate passed (not strict: 1 stale proof not counted)" in run.stdout
    document, _, markdown, page = read(tmp_path / "r")
    dom = parsed(page)
    assert dom.by_id["gate"] == "gate passed (not strict: 1 stale proof not counted)"
    assert dom.classes["gate"] == "gate caveats"  # not the green banner
    assert dom.by_id["conditions"].startswith("not strict: stale proofs do not fail the gate")
    assert markdown.startswith("## dpcert report: gate passed (not strict: 1 stale proof not "
                               "counted)\n\nConditions: not strict: stale proofs do not fail")
    assert "the proof text changed" in markdown
    strict = dpcert("report", "clamp", "--out", tmp_path / "s", "--strict")
    assert "gate failed: 1 stale proof (--strict)" in strict.stdout
    assert parsed(read(tmp_path / "s")[3]).classes["gate"] == "gate failed"


@pytest.mark.slow  # over 2 s: make test-slow
def test_the_options_are_shown_next_to_the_verdict(dpcert, tmp_path):
    assert dpcert("report", "clamp", "--out", tmp_path / "r", "--strict", "--timeout", "7",
                  "--arithmetic", "ieee", "--empirical", "--samples", "200", "--seed", "3").code == 0
    document, _, markdown, page = read(tmp_path / "r")
    expected = ["strict: stale proofs fail the gate",
                "arithmetic ieee: proofs under exact arithmetic fail the gate",
                "timeout 7 s per obligation",
                "empirical tests on: 200 samples per input, alpha 0.001, seed 3", "shard 1/1"]
    assert conditions(document["options"]) == expected
    assert parsed(page).by_id["conditions"] == " ".join(expected)
    assert "Conditions: " + "; ".join(expected) + "." in markdown
    assert conditions({**document["options"], "empirical": False})[3] == "empirical tests off"


# --- identity: commit, dirty flag, every checked module by path and hash ------------------------

@pytest.mark.slow  # over 2 s: make test-slow
def test_every_checked_module_is_recorded_by_path_and_hash(dpcert, tmp_path):
    half = module(tmp_path, "half.py", CLAMP_HALF + "MECHANISMS = [Entry('make_clamp_half_map', "
                  "make_clamp_half_map, clamp_obligations(make_clamp_half_map, 'half'))]\n")
    dpcert("report", half, "clamp", "--out", tmp_path / "r")
    document, _, markdown, page = read(tmp_path / "r")
    modules = {m["path"]: m for m in document["modules"]}
    assert modules["half.py"] == {"path": "half.py", "origin": "external",
                                  "sha256": hashlib.sha256(half.read_bytes()).hexdigest()}
    clamp = REPOSITORY / "mechanisms" / "make_clamp.py"
    assert modules["mechanisms/make_clamp.py"] == {
        "path": "mechanisms/make_clamp.py", "origin": "repository",
        "sha256": hashlib.sha256(clamp.read_bytes()).hexdigest()}
    assert "obligations/make_clamp.py" in modules
    by_name = {m["name"]: m["modules"] for m in document["mechanisms"]}
    assert by_name["make_clamp_half_map"][0] == "half.py"
    assert "half.py" not in by_name["make_clamp"]
    assert isinstance(document["dirty"], bool)
    assert "External modules are not part of the commit above" in markdown
    assert "External modules are not part of the commit above" in page


def test_a_dirty_working_tree_is_reported(tmp_path):
    git = functools.partial(subprocess.run, cwd=tmp_path, check=True, capture_output=True)
    git(["git", "init", "-q"])
    (tmp_path / "a.txt").write_text("a")
    git(["git", "add", "a.txt"])
    git(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "a"])
    assert working_tree_dirty(tmp_path) is False
    (tmp_path / "a.txt").write_text("b")
    assert working_tree_dirty(tmp_path) is True
    git(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam", "b"])
    (tmp_path / "new.txt").write_text("untracked")
    assert working_tree_dirty(tmp_path) is True
    assert working_tree_dirty(tmp_path.parent / "not-a-repository-x") is None


def test_paths_outside_the_repository_and_the_current_folder_show_only_the_file_name(tmp_path,
                                                                                     monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    assert shown_path(tmp_path / "sub" / "m.py") == ("sub/m.py", "external")
    assert shown_path(Path("/usr/lib/python3/dist-packages/m.py")) == ("m.py", "external")
    assert shown_path(REPOSITORY / "checker" / "cli.py") == ("checker/cli.py", "repository")


@pytest.mark.slow  # over 2 s: make test-slow
def test_report_json_holds_no_absolute_local_path(dpcert, tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    half = module(elsewhere, "half.py", CLAMP_HALF + "MECHANISMS = [Entry('make_clamp_half_map', "
                  "make_clamp_half_map, clamp_obligations(make_clamp_half_map, 'half'))]\n")
    boom = module(elsewhere, "boom.py", TRIVIAL + "def explode():\n    return 1 / 0\n"
                  "MECHANISMS = [Entry('boom', None, (Obligation('boom.claim', Kind.LEMMA, 's', "
                  "'x', explode),))]\n")  # an error whose message is a traceback
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)  # the modules are given by absolute paths outside the current folder
    assert dpcert("report", half, boom, "clamp", "--out", tmp_path / "r").code == 1
    strings = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            strings.append(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
    document = json.loads((tmp_path / "r" / "report.json").read_text())
    walk(document)
    [error] = [o for m in document["mechanisms"] for o in m["obligations"] if o["id"] == "boom.claim"]
    assert 'File "boom.py", line' in error["message"] and "ZeroDivisionError" in error["message"]
    assert {m["path"] for m in document["modules"]} >= {"half.py", "boom.py"}
    assert [s for s in strings if s.startswith("/")] == []
    assert [s for s in strings if str(REPOSITORY) in s or str(tmp_path) in s] == []


# --- what an auditor needs ----------------------------------------------------------------------

@pytest.mark.slow  # over 2 s: make test-slow
def test_summary_trust_base_and_not_covered(dpcert, tmp_path):
    qualified = module(tmp_path, "qualified.py", TRIVIAL + (
        "MECHANISMS = [Entry('qualified', None, (claim('q.bounded', bound='k <= 2 evaluated'),"
        " claim('q.cited', cites=('Author 2020, Theorem 1',)),"
        " claim('q.assumed', assumes='parsing is a function')))]\n"))
    assert dpcert("report", qualified, "clamp", "--out", tmp_path / "r").code == 0
    document, _, markdown, page = read(tmp_path / "r")
    assert document["trust_base"] == {
        "cited": [{"text": "Author 2020, Theorem 1", "obligations": ["q.cited"]}],
        "assumed": [{"text": "parsing is a function", "obligations": ["q.assumed"]}],
        "bounded": [{"obligation": "q.bounded", "text": "k <= 2 evaluated"}],
        "exact_arithmetic": []}
    assert document["versions"]["opendp"] == metadata.version("opendp")
    dom = parsed(page)
    for section in ("summary-table", "trust-base", "not-covered"):
        assert section in dom.ids
    summary = dom.by_id["summary-table"]
    assert "clamp.output_domain" in summary and "q.bounded" in summary
    assert "#obligation-clamp.stability" in dom.hrefs and "obligation-clamp.stability" in dom.ids
    assert {h[1:] for h in dom.hrefs if h.startswith("#")} <= dom.ids
    trust = dom.by_id["trust-base"]
    assert f"z3-solver {document['versions']['z3-solver']}" in trust
    assert "Author 2020, Theorem 1 (q.cited)" in dom.by_id["bibliography"]
    assert "parsing is a function" in trust
    assert "q.bounded: k <= 2 evaluated" in dom.by_id["bounded"]
    assert "Timing and other side channels" in dom.by_id["not-covered"]
    assert f"opendp {metadata.version('opendp')}" in dom.by_id["identity"]
    for text in ("### Summary", "### Trust base", "### Not covered", "Author 2020, Theorem 1",
                 f"opendp {metadata.version('opendp')}"):
        assert text in markdown


def test_the_trust_table_is_the_readme_s(tmp_path):
    text = README.read_text()
    table = text[text.index("**What each verdict trusts.**"):].split("\n\n")[1]
    rows = [tuple(cell.strip() for cell in line.strip("|").split(" | "))
            for line in table.splitlines()[2:]]
    assert rows == list(VERDICT_TRUSTS)


@pytest.mark.slow  # over 2 s: make test-slow
def test_descriptions_are_rendered_not_shown_as_rest(dpcert, tmp_path):
    assert dpcert("report", "clamp", "--out", tmp_path / "r").code == 0
    _, _, markdown, page = read(tmp_path / "r")
    assert "<p><code>make_clamp(lower, upper)</code>: clamp every entry" in page
    assert "``" not in page and "``make_clamp" not in markdown
    assert "`make_clamp(lower, upper)`: clamp every entry" in markdown


def test_rest_constructs_the_descriptions_use():
    blocks = parse("``a_b`` and :mod:`m.x`, *em*, **strong**, 2 * 3 * 4.\n\n"
                   "The map is::\n\n    map(d) = d * 2\n\n* one ``x``\n* two\n  continued\n")
    assert [b.kind for b in blocks] == ["paragraph", "paragraph", "literal", "bullets"]
    assert blocks[0].items[0] == (Span("code", "a_b"), Span("text", " and "), Span("code", "m.x"),
                                  Span("text", ", "), Span("em", "em"), Span("text", ", "),
                                  Span("strong", "strong"), Span("text", ", 2 * 3 * 4."))
    assert blocks[1].items[0] == (Span("text", "The map is:"),)
    assert blocks[2].literal == "map(d) = d * 2"
    assert blocks[3].items == ((Span("text", "one "), Span("code", "x")),
                               (Span("text", "two continued"),))
    assert inline("<script>") == (Span("text", "<script>"),)


# --- Markdown, as a CommonMark parser reads it --------------------------------------------------

def test_markdown_ids_in_code_spans_render_without_backslashes(dpcert, tmp_path):
    """``above_threshold.output_domain`` must not render as ``above\\_threshold...``; every link
    points at an anchor of the page or a file of the report folder."""
    mine = module(tmp_path, "mine.py", (
        "from mechanisms import make_clamp\nfrom obligations.base import Entry\n"
        "from obligations.make_clamp import clamp_obligations\n"
        "MECHANISMS = [Entry('my_*clamp*', make_clamp, clamp_obligations(make_clamp, "
        "'my_clamp'))]\n"))
    out = tmp_path / "r"
    assert dpcert("report", mine, "--out", out).code == 0
    rendered = commonmark((out / "report.md").read_text())
    assert "<code>my_clamp.output_domain</code>" in rendered
    assert "my\\_clamp" not in rendered
    assert "my_*clamp*" in rendered and "<em>clamp</em>" not in rendered  # text stays escaped
    dom = parsed(rendered)
    anchors = [h for h in dom.hrefs if h.startswith("#")]
    assert "#obligation-my_clamp.output_domain" in anchors
    assert {h[1:] for h in anchors} <= dom.ids
    assert all((out / h).is_file() for h in dom.hrefs if not h.startswith("#"))


def test_markdown_code_spans_hold_any_text():
    assert code("a_b*c") == "`a_b*c`"
    assert commonmark(code("x`y")) == "<p><code>x`y</code></p>\n"
    assert commonmark(code("`tick")) == "<p><code>`tick</code></p>\n"
    assert commonmark("| a |\n|---|\n| " + code("p|q", in_table=True) + " |\n").count(
        "<code>p|q</code>") == 1


# --- proof PDFs: copied only when built from the current text; no dead link ---------------------

def test_no_dead_proof_link_and_a_reused_folder_keeps_no_old_pdf(dpcert, tmp_path):
    out = tmp_path / "r"
    (out / "proofs").mkdir(parents=True)
    (out / "proofs" / "make_clamp.pdf").write_bytes(b"%PDF from an earlier run")
    assert dpcert("report", "clamp", "--out", out).code == 0
    document, _, markdown, page = read(out)
    [proof] = document["proofs"]
    assert proof["file"] == "proofs_tex/make_clamp.tex"
    if proof["pdf_state"] != "current":  # no PDF built from the present text in this checkout
        assert not (out / "proofs").exists()
        assert "proofs/make_clamp.pdf" not in markdown and "proofs/make_clamp.pdf" not in page
        assert "PDF not built" in markdown and "run make proofs" in page
    assert all((out / h).is_file() for h in parsed(page).hrefs if not h.startswith("#"))


def test_only_pdfs_built_from_the_current_text_are_copied(tmp_path, monkeypatch):
    monkeypatch.setattr(writing, "REPOSITORY", tmp_path)
    (tmp_path / "build").mkdir()
    for name in ("fresh", "old"):
        (tmp_path / "build" / f"{name}.pdf").write_bytes(b"%PDF " + name.encode())
    out = tmp_path / "out"
    (out / "proofs").mkdir(parents=True)
    (out / "proofs" / "gone.pdf").write_bytes(b"%PDF of an earlier run")
    (out / "keep.txt").write_text("not ours to clear")
    document = {"proofs": [
        {"mechanism": "fresh", "pdf": "build/fresh.pdf", "pdf_state": "current"},
        {"mechanism": "old", "pdf": "build/old.pdf", "pdf_state": "outdated"},
        {"mechanism": "none", "pdf": "build/none.pdf", "pdf_state": "missing"}]}
    assert writing.copy_pdfs(document, out) == {"fresh": "proofs/fresh.pdf"}
    assert sorted(p.name for p in (out / "proofs").iterdir()) == ["fresh.pdf"]
    assert (out / "keep.txt").is_file()


# --- baselines ----------------------------------------------------------------------------------

@pytest.mark.slow  # over 2 s: make test-slow
def test_baseline_passes_unchanged_and_fails_on_a_regression(dpcert, tmp_path):
    old = tmp_path / "old"
    assert dpcert("report", "clamp", "--out", old).code == 0
    same = dpcert("report", "clamp", "--out", tmp_path / "same", "--baseline", old / "report.json")
    assert same.code == 0 and "nothing got worse" in same.stdout
    regressed = module(tmp_path, "regressed.py", CLAMP_HALF + "MECHANISMS = [Entry('make_clamp', "
                       "make_clamp_half_map, clamp_obligations(make_clamp_half_map))]\n")
    worse = dpcert("report", regressed, "--out", tmp_path / "worse", "--baseline", old / "report.json")
    assert worse.code == 1
    assert "regression: clamp.stability: was proved, now refuted" in worse.stdout
    assert dpcert("report", "--out", tmp_path / "x", "--baseline", regressed).code == 2  # not JSON


@pytest.mark.parametrize("baseline, named", [
    ({"schema": "dpcert.report/1"}, "'gate' is missing"),
    ({"schema": "dpcert.report/1", "gate": {"proofs_pass": True, "exact_arithmetic_only": []}},
     "'mechanisms' is missing or not a list"),
    ({"schema": "dpcert.report/1", "gate": {"proofs_pass": True, "exact_arithmetic_only": []},
      "mechanisms": [{"name": "make_clamp", "obligations": [{"id": "clamp.stability"}],
                      "empirical": []}]},
     "mechanisms[0] (make_clamp) obligations[0] has no 'verdict' field"),
    ({"schema": "dpcert.report/1", "gate": {"proofs_pass": "yes", "exact_arithmetic_only": []},
      "mechanisms": []}, "'gate': 'proofs_pass' is not a bool (it is str)"),
])
def test_a_malformed_baseline_is_a_usage_error_before_anything_is_written(dpcert, tmp_path,
                                                                         baseline, named):
    path = tmp_path / "old.json"
    path.write_text(json.dumps(baseline))
    run = dpcert("report", "clamp", "--out", tmp_path / "r", "--baseline", path)
    assert run.code == 2 and "Traceback" not in run.stdout + run.stderr
    assert named in run.stderr and "cannot be compared with" in run.stderr
    assert not (tmp_path / "r").exists()


@pytest.mark.slow  # over 4 s: make test-slow
def test_empirical_and_ieee_failures_are_regressions(dpcert, tmp_path):
    qualified = module(tmp_path, "exact.py", TRIVIAL + (
        "from obligations.make_clamp import clamp_obligations\n"
        "MECHANISMS = [Entry('exact', make_clamp, (*clamp_obligations(make_clamp, 'exact'),\n"
        "                                          claim('exact.claim', arithmetic='reals')))]\n"))
    old = tmp_path / "old" / "report.json"
    assert dpcert("report", qualified, "--out", tmp_path / "old").code == 0
    ieee = dpcert("report", qualified, "--out", tmp_path / "ieee", "--arithmetic", "ieee",
                  "--baseline", old)
    assert ieee.code == 1
    assert ("regression: exact.claim: proved under exact arithmetic (reals), which --arithmetic "
            "ieee fails") in ieee.stdout
    empirical = dpcert("report", qualified, "--out", tmp_path / "emp", "--empirical",
                       "--samples", "100", "--baseline", old)
    assert empirical.code == 1
    assert "regression: exact: empirical none of -: not tested" in empirical.stdout
    again = dpcert("report", qualified, "--out", tmp_path / "again", "--empirical", "--samples",
                   "100", "--baseline", tmp_path / "emp" / "report.json")
    assert again.code == 0 and "nothing got worse" in again.stdout  # it failed before too


def test_regressions_compare_what_failed_before():
    def document(verdict: str, refused: list[str], empirical: str) -> dict[str, Any]:
        return {"gate": {"proofs_pass": True, "exact_arithmetic_only": refused},
                "mechanisms": [{"name": "m", "obligations": [
                    {"id": "m.a", "verdict": verdict, "label": verdict}],
                    "empirical": [{"mechanism": "m", "example": "m()", "test": "privacy",
                                   "verdict": empirical}]}]}
    clean = document("proved", [], "no violation found")
    for old in (clean, document("proved", ["m.a"], "violation")):
        check_baseline(old)
    assert regressions(clean, clean) == []
    assert regressions(clean, document("proved", ["m.a"], "violation")) == [
        "m.a: proved, which --arithmetic ieee fails", "m: empirical privacy of m(): violation"]
    assert regressions(document("proved", ["m.a"], "violation"),
                       document("proved", ["m.a"], "violation")) == []


# --- shards and escaping ------------------------------------------------------------------------

SHARDED = ("make_clamp", "make_count", "make_drop_null", "make_resize")
"""Two mechanisms in each of two shards (by the CRC-32 of their names)."""


@pytest.mark.slow
def test_shards_split_the_mechanisms(dpcert, tmp_path):
    ids = []
    for shard in ("1/2", "2/2"):
        out = tmp_path / shard.replace("/", "-")
        assert dpcert("report", *SHARDED, "--out", out, "--shard", shard).code == 0
        document = json.loads((out / "report.json").read_text())
        ids.append({o["id"] for m in document["mechanisms"] for o in m["obligations"]
                    if not o["id"].startswith(("lemma.", "arith."))})
        assert (document["proofs"] != []) == (shard == "1/2")
    chosen = [e for e in builtin_catalogue() if e.name in SHARDED]
    own = {o.id for e in chosen for o in e.obligations}
    used = {u for e in chosen for o in e.obligations for u in o.uses}
    assert ids[0] and ids[1] and ids[0] | ids[1] == own
    assert ids[0] & ids[1] <= used  # only what both shards rely on is checked twice
    assert dpcert("report", "--out", tmp_path / "y", "--shard", "3/2").code == 2


@pytest.mark.slow  # over 2 s: make test-slow
def test_names_from_a_mechanism_are_escaped(dpcert, tmp_path):
    hostile = "<script>alert(1)</script>"
    path = module(tmp_path, "hostile.py", (
        "from mechanisms import make_clamp\n"
        "from obligations.base import Entry, Example\n"
        "from obligations.make_clamp import clamp_obligations\n"
        f"MECHANISMS = [Entry({hostile!r}, make_clamp, clamp_obligations(make_clamp, 'x'),"
        f" '<img src=x onerror=alert(2)>', (Example({hostile!r}, lambda: make_clamp(0.0, 1.0)),))]\n"))
    out = tmp_path / "report"
    assert dpcert("report", path, "--out", out).code == 0
    page = (out / "report.html").read_text()
    assert hostile not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    dom = dom_of(out / "report.html", tmp_path)
    assert hostile in dom.h2 and "script" not in dom.tags and "img" not in dom.tags
    markdown = (out / "report.md").read_text()
    assert f"### {hostile}" not in markdown and "### &lt;script&gt;alert(1)&lt;/script&gt;" in markdown
    rendered = commonmark(markdown)  # inside code spans the text is shown, never markup
    assert "<script>" not in rendered and "<img" not in rendered
    assert "<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>" in rendered


def test_an_example_that_never_returns_is_reported_not_hung(monkeypatch):
    from checker.report import model
    from obligations.base import Entry, Example

    def forever():
        while True:
            pass

    monkeypatch.setattr(model, "EXAMPLE_SECONDS", 0.5)
    entry = Entry("m", None, (), examples=(Example("forever()", forever),))
    structure, curve, problem = model._structure(entry)
    assert structure is None and curve is None
    assert problem == "forever() raised TimeoutError: still running after 0.5 s"
