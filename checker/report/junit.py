"""JUnit XML: one test case per obligation, per proof and per empirical test, so that the totals
agree with the gate: whenever the gate fails, some case fails.

* an obligation refuted or unknown is a failure (skipped when unknown and not needed, with the
  reason), in error an error; proved only under exact
  arithmetic, a failure under ``--arithmetic ieee``;
* a proof not bound is a failure, a stale one a failure under ``--strict`` and skipped (with the
  reason) otherwise; a proof file with no mechanism is a failure;
* an empirical test with a violation, an error or nothing tested is a failure.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from typing import Any

from checker.empirical.runner import NONE_FOUND

PROOFS_SUITE, EMPIRICAL_SUITE = "proofs", "empirical"
EXACT_ONLY = "proved only under exact arithmetic"


def _details(obligation: dict[str, Any]) -> str:
    lines = [obligation["statement"], ""]
    for goal in obligation["goals"]:
        if goal["verdict"] != "proved":
            lines.append(f"{goal['verdict']}: {goal['name']} ({goal['message']})")
            if goal["counterexample"]:
                lines.append("counterexample: " + ", ".join(
                    f"{k} = {v}" for k, v in goal["counterexample"].items()))
            if goal["report"]:
                lines.append(goal["report"])
    if obligation["message"]:
        lines.append(obligation["message"])
    return "\n".join(lines)


class _Suites:
    """The ``testsuites`` element being built, with each suite's counts."""

    def __init__(self) -> None:
        self.root = ElementTree.Element("testsuites", name="dpcert")
        self.suites: dict[str, ElementTree.Element] = {}

    def case(self, suite: str, classname: str, name: str,
             seconds: float = 0.0) -> ElementTree.Element:
        """A new test case in ``suite`` (created on first use)."""
        if suite not in self.suites:
            self.suites[suite] = ElementTree.SubElement(self.root, "testsuite", name=suite)
        return ElementTree.SubElement(self.suites[suite], "testcase", classname=classname,
                                      name=name, time=f"{seconds:.3f}")

    def xml(self) -> str:
        totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
        for suite in self.suites.values():
            counts = {"tests": len(suite),
                      "failures": len(suite.findall("testcase/failure")),
                      "errors": len(suite.findall("testcase/error")),
                      "skipped": len(suite.findall("testcase/skipped"))}
            suite.attrib.update({k: str(v) for k, v in counts.items()})
            for key, value in counts.items():
                totals[key] += value
        self.root.attrib.update({k: str(v) for k, v in totals.items()})
        ElementTree.indent(self.root)
        return ('<?xml version="1.0" encoding="utf-8"?>\n'
                + ElementTree.tostring(self.root, encoding="unicode"))


def _outcome(case: ElementTree.Element, kind: str, message: str, type_: str, text: str) -> None:
    """Mark ``case`` as ``failure``, ``error`` or ``skipped``."""
    ElementTree.SubElement(case, kind, message=message, type=type_).text = text


def _obligation(suites: _Suites, mechanism: str, o: dict[str, Any], ieee: bool,
                not_needed: bool) -> None:
    case = suites.case(mechanism, mechanism, o["id"], o["seconds"])
    if not_needed:
        _outcome(case, "skipped", f"{o['label']}, not needed: the kernel proved every standard "
                 "statement without it", "not needed", _details(o))
    elif o["verdict"] in ("refuted", "unknown"):
        _outcome(case, "failure", o["label"], o["verdict"], _details(o))
    elif o["verdict"] == "error":
        _outcome(case, "error", o["label"], "error", _details(o))
    elif ieee and o["under_exact_arithmetic"]:
        _outcome(case, "failure", f"{o['label']}: --arithmetic ieee fails it", EXACT_ONLY,
                 f"{o['statement']}\n\nThe proof reads floats as reals: {o['arithmetic']}")
    else:
        ElementTree.SubElement(case, "system-out").text = o["label"]


def _statement(suites: _Suites, mechanism: str, statement: dict[str, Any]) -> None:
    case = suites.case(mechanism, mechanism, f"standard statement: {statement['claim']}")
    if statement.get("refuted"):
        _outcome(case, "failure", f"{statement['claim']}: refuted (confirmed)", "refuted",
                 f"{statement['text']}\n\n{statement['refuted']['witness']}")
    elif not statement["proved"]:
        _outcome(case, "failure", f"{statement['claim']}: no theorem of the kernel", "unproved",
                 f"{statement['text']}\n\n{statement['why']}")
    else:
        ElementTree.SubElement(case, "system-out").text = (
            f"proved by {statement['rule']}; rests on: "
            + "; ".join(f"{p['kind']}: {p['text']}" for p in statement["rests_on"]))


def _proof(suites: _Suites, proof: dict[str, Any], strict: bool) -> None:
    case = suites.case(PROOFS_SUITE, proof["mechanism"], f"proof {proof['file']}")
    if proof["problems"]:
        _outcome(case, "failure", f"{len(proof['problems'])} binding problem(s)", "not bound",
                 "\n".join(proof["problems"]))
    elif proof["stale"] and strict:
        _outcome(case, "failure", "proof stale (--strict)", "stale", proof["stale"])
    elif proof["stale"]:
        _outcome(case, "skipped", "proof stale, not counted without --strict", "stale",
                 proof["stale"])
    else:
        ElementTree.SubElement(case, "system-out").text = f"bound and fresh ({proof['seal']})"


def _empirical(suites: _Suites, test: dict[str, Any]) -> None:
    case = suites.case(EMPIRICAL_SUITE, test["mechanism"], f"{test['example']} ({test['test']})",
                       test["seconds"])
    if test["verdict"] != NONE_FOUND:
        _outcome(case, "failure", test["verdict"], test["verdict"], test["summary"])
    else:
        ElementTree.SubElement(case, "system-out").text = test["summary"]


def junit_xml(document: dict[str, Any]) -> str:
    suites = _Suites()
    options = document["options"]
    for mechanism in document["mechanisms"]:
        for o in mechanism["obligations"]:
            _obligation(suites, mechanism["name"], o, options["arithmetic"] == "ieee",
                        o["id"] in document["gate"]["not_needed"])
        for statement in mechanism["statements"]:
            _statement(suites, mechanism["name"], statement)
    for proof in document["proofs"]:
        _proof(suites, proof, options["strict"])
    for orphan in document["orphan_proofs"]:
        _outcome(suites.case(PROOFS_SUITE, "orphan", f"proof {orphan}"), "failure",
                 "a proof with no mechanism", "orphan",
                 f"{orphan} belongs to no mechanism of the catalogue")
    for mechanism in document["mechanisms"]:
        for test in mechanism["empirical"]:
            _empirical(suites, test)
    return suites.xml()
