"""``dpcert report``: HTML opened in headless Chromium, JUnit XML, Markdown, baseline, shards,
escaping. Chromium is Debian's package, installed by ``make test`` (tests/install-chromium.sh)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from pathlib import Path

import pytest

from obligations.catalogue import builtin_catalogue
from tests.helpers import chromium

CLAMP_HALF = ("from mechanisms.make_clamp import make_clamp\n"
              "from obligations.base import Entry\n"
              "from obligations.make_clamp import clamp_obligations\n"
              "from tests.wrong_variants import make_clamp_half_map\n")


class Dom(HTMLParser):
    """Text by element id, obligation rows, and every element name of a serialized DOM."""

    def __init__(self) -> None:
        super().__init__()
        self.by_id: dict[str, str] = {}
        self.rows: dict[str, str] = {}
        self.tags: set[str] = set()
        self.h2: list[str] = []
        self._open: list[tuple[str, str | None, str | None]] = []
        self._text: list[list[str]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.add(tag)
        if tag in ("meta", "link", "br", "img", "input", "path", "use", "rect", "line"):
            return
        self._open.append((tag, attributes.get("id"), attributes.get("data-verdict")
                           if attributes.get("class") == "obligation" else None))
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
            self.by_id[key] = text.strip()
        if tag == "h2":
            self.h2.append(text.strip())

    def handle_data(self, data):
        if self._text:
            self._text[-1].append(data)


def dom_of(page: Path, tmp_path: Path) -> Dom:
    dom = Dom()
    dom.feed(chromium(str(page), "--dump-dom", profile=str(tmp_path / "profile")))
    return dom


@pytest.mark.slow
def test_html_report_in_headless_chromium(run_cli, tmp_path):
    out = tmp_path / "report"
    result = run_cli("report", "--out", str(out), "--jobs", "2")
    assert result.returncode == 0, result.stdout + result.stderr
    document = json.loads((out / "report.json").read_text())
    dom = dom_of(out / "report.html", tmp_path)
    obligations = sum(len(e.obligations) for e in builtin_catalogue())
    assert dom.by_id["count-proved"] == str(document["counts"]["proved"]) == str(obligations)
    assert dom.by_id["count-refuted"] == "0"
    assert dom.by_id["gate"].startswith("gate passed")
    assert dom.rows["clamp.stability"] == "proved"
    assert "math" in dom.tags and "svg" in dom.tags  # MathML statements and inline plots
    screenshot = tmp_path / "report.png"
    chromium(str(out / "report.html"), "--window-size=1280,2200", f"--screenshot={screenshot}",
             profile=str(tmp_path / "profile-shot"))
    assert screenshot.stat().st_size > 50_000


def test_junit_has_one_case_per_obligation_and_failures(run_cli, tmp_path):
    module = tmp_path / "half.py"
    module.write_text(CLAMP_HALF + "MECHANISMS = [Entry('make_clamp_half_map', make_clamp_half_map, "
                      "clamp_obligations(make_clamp_half_map, 'clamp_half_map'))]\n")
    out = tmp_path / "report"
    assert run_cli("report", str(module), "--out", str(out)).returncode == 1
    suites = ElementTree.parse(out / "junit.xml").getroot()
    cases = suites.findall(".//testcase")
    document = json.loads((out / "report.json").read_text())
    assert len(cases) == sum(len(m["obligations"]) for m in document["mechanisms"])
    failed = {c.get("name"): c.find("failure").get("type") for c in cases if c.find("failure") is not None}
    assert failed == {"clamp_half_map.stability": "refuted"}
    assert suites.get("failures") == "1" and suites.get("tests") == str(len(cases))
    assert "VIOLATION: make_clamp_half_map" in (out / "report.md").read_text()


def test_unknown_is_a_junit_failure(run_cli, tmp_path):
    module = tmp_path / "slow.py"
    module.write_text("import time\n"
                      "from obligations.base import ComputedGoal, Decision, Entry, Kind, Obligation\n"
                      "def slow():\n    time.sleep(60)\n    return Decision(True)\n"
                      "MECHANISMS = [Entry('slow', None, (Obligation('slow.proof', Kind.LEMMA, 's', 'x',"
                      " lambda: [ComputedGoal('sleep', 'sympy', slow)]),))]\n")
    out = tmp_path / "report"
    assert run_cli("report", str(module), "--out", str(out), "--timeout", "1").returncode == 1
    [case] = ElementTree.parse(out / "junit.xml").getroot().findall(".//testcase")
    assert case.find("failure").get("type") == "unknown"


def test_baseline_passes_unchanged_and_fails_on_a_regression(run_cli, tmp_path):
    old = tmp_path / "old"
    assert run_cli("report", "clamp", "--out", str(old)).returncode == 0
    same = run_cli("report", "clamp", "--out", str(tmp_path / "same"),
                   "--baseline", str(old / "report.json"))
    assert same.returncode == 0 and "nothing got worse" in same.stdout
    module = tmp_path / "regressed.py"  # the same obligation ids, on a clamp whose map is halved
    module.write_text(CLAMP_HALF + "MECHANISMS = [Entry('make_clamp', make_clamp_half_map, "
                      "clamp_obligations(make_clamp_half_map))]\n")
    worse = run_cli("report", str(module), "--out", str(tmp_path / "worse"),
                    "--baseline", str(old / "report.json"))
    assert worse.returncode == 1
    assert "regression: clamp.stability: was proved, now refuted" in worse.stdout
    assert run_cli("report", "--out", str(tmp_path / "x"), "--baseline",
                   str(module)).returncode == 2  # not a report


@pytest.mark.slow
def test_shards_split_the_catalogue(run_cli, tmp_path):
    ids = []
    for shard in ("1/2", "2/2"):
        out = tmp_path / shard.replace("/", "-")
        assert run_cli("report", "--out", str(out), "--shard", shard).returncode == 0
        ids.append({o["id"] for m in json.loads((out / "report.json").read_text())["mechanisms"]
                    for o in m["obligations"] if not o["id"].startswith(("lemma.", "arith."))})
    own = {o.id for e in builtin_catalogue() if e.constructor is not None for o in e.obligations}
    used = {u for e in builtin_catalogue() for o in e.obligations for u in o.uses}
    assert ids[0] and ids[1] and ids[0] | ids[1] == own
    assert ids[0] & ids[1] <= used  # only what both shards rely on is checked twice
    assert run_cli("report", "--out", str(tmp_path / "y"), "--shard", "3/2").returncode == 2


def test_names_from_a_mechanism_are_escaped(run_cli, tmp_path):
    hostile = "<script>alert(1)</script>"
    module = tmp_path / "hostile.py"
    module.write_text("from mechanisms import make_clamp\n"
                      "from obligations.base import Entry, Example\n"
                      "from obligations.make_clamp import clamp_obligations\n"
                      f"MECHANISMS = [Entry({hostile!r}, make_clamp, clamp_obligations(make_clamp, 'x'),"
                      f" '<img src=x onerror=alert(2)>', (Example({hostile!r}, lambda: make_clamp(0.0, 1.0)),))]\n")
    out = tmp_path / "report"
    assert run_cli("report", str(module), "--out", str(out)).returncode == 0
    page = (out / "report.html").read_text()
    assert hostile not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    dom = dom_of(out / "report.html", tmp_path)
    assert hostile in dom.h2 and "script" not in dom.tags and "img" not in dom.tags
    markdown = (out / "report.md").read_text()
    assert hostile not in markdown and "&lt;script&gt;" in markdown


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
