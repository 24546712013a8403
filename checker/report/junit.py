"""JUnit XML: one test case per obligation; refuted and unknown are failures, error is an error."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from typing import Any


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


def junit_xml(document: dict[str, Any]) -> str:
    suites = ElementTree.Element("testsuites", name="dpcert")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for mechanism in document["mechanisms"]:
        suite = ElementTree.SubElement(suites, "testsuite", name=mechanism["name"])
        counts = {"tests": 0, "failures": 0, "errors": 0}
        for o in mechanism["obligations"]:
            case = ElementTree.SubElement(suite, "testcase", classname=mechanism["name"],
                                          name=o["id"], time=f"{o['seconds']:.3f}")
            counts["tests"] += 1
            if o["verdict"] in ("refuted", "unknown"):
                counts["failures"] += 1
                failure = ElementTree.SubElement(case, "failure", message=o["label"], type=o["verdict"])
                failure.text = _details(o)
            elif o["verdict"] == "error":
                counts["errors"] += 1
                error = ElementTree.SubElement(case, "error", message=o["label"], type="error")
                error.text = _details(o)
            else:
                ElementTree.SubElement(case, "system-out").text = o["label"]
        suite.attrib.update({k: str(v) for k, v in counts.items()})
        for key in totals:
            totals[key] += counts[key]
    suites.attrib.update({k: str(v) for k, v in totals.items()})
    ElementTree.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(suites, encoding="unicode")
