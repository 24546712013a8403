"""The self-contained HTML report: one file, no network. Styles are inline, math is MathML
(converted offline by latex2mathml, rendered natively by the browser), plots are inline SVG.
Everything taken from a mechanism is escaped by Jinja2's autoescaping; the only markup inserted
as is are MathML that passed an element whitelist, SVG that matplotlib wrote (its text is
escaped), and descriptions rendered from reST spans whose text is escaped here."""

from __future__ import annotations

import html
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import jinja2
import latex2mathml.converter
from markupsafe import Markup

from checker.report import rest
from checker.report.plots import loss_svg, map_curve_svg
from checker.report.wording import (NOT_COVERED, VERDICT_TRUSTS, anchor, conditions,
                                    gate_sentence, plural)

MATHML_ELEMENTS = {"math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup",
                   "msubsup", "mfrac", "msqrt", "mroot", "mstyle", "mtable", "mtr", "mtd",
                   "mover", "munder", "munderover", "mpadded", "mphantom", "menclose", "semantics",
                   "annotation", "merror"}


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.names.add(tag)

    def handle_startendtag(self, tag: str, attrs: Any) -> None:
        self.names.add(tag)


def mathml(latex: str) -> Markup:
    """LaTeX as MathML when it converts to MathML elements only; else the escaped source."""
    try:
        converted = latex2mathml.converter.convert(latex)
    except Exception:  # unsupported LaTeX: show the source, escaped
        return Markup(f"<code>{html.escape(latex)}</code>")
    parser = _Elements()
    parser.feed(converted)
    if not parser.names <= MATHML_ELEMENTS:
        return Markup(f"<code>{html.escape(latex)}</code>")
    return Markup(converted)


_TAGS = {"text": "{}", "code": "<code>{}</code>", "strong": "<strong>{}</strong>",
         "em": "<em>{}</em>"}


def _spans(spans: tuple[rest.Span, ...]) -> str:
    return "".join(_TAGS[span.kind].format(html.escape(span.text)) for span in spans)


def description(text: str) -> Markup:
    """A module's reST description as HTML: paragraphs, lists, literal blocks, inline code and
    emphasis; all text escaped."""
    parts = []
    for block in rest.parse(text):
        if block.kind == "literal":
            parts.append(f"<pre>{html.escape(block.literal)}</pre>")
        elif block.kind == "bullets":
            parts.append("<ul>" + "".join(f"<li>{_spans(item)}</li>" for item in block.items)
                         + "</ul>")
        else:
            parts.append(f"<p>{_spans(block.items[0])}</p>")
    return Markup("\n".join(parts))


def backticks(text: str) -> Markup:
    """Our own Markdown-worded text (the trust table) with its `code` spans as ``<code>``."""
    pieces = html.escape(text).split("`")
    return Markup("".join(f"<code>{piece}</code>" if i % 2 else piece
                          for i, piece in enumerate(pieces)))


def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    environment.filters.update(mathml=mathml, description=description, backticks=backticks)
    environment.globals.update(anchor=anchor, conditions=conditions, gate_sentence=gate_sentence,
                               plural=plural, VERDICT_TRUSTS=VERDICT_TRUSTS,
                               NOT_COVERED=NOT_COVERED)
    return environment


def render_html(document: dict[str, Any], pdf_links: dict[str, str]) -> str:
    """The whole report; ``pdf_links`` maps a mechanism to its copied PDF (relative link)."""
    plots: dict[str, dict[str, Markup]] = {}
    for m in document["mechanisms"]:
        entry: dict[str, Markup] = {}
        if m["map_curve"]:
            entry["map"] = Markup(map_curve_svg(m["map_curve"], f"map of {m['map_curve']['example']}"))
        for i, test in enumerate(m["empirical"]):
            if test["pairs"]:
                entry[f"loss{i}"] = Markup(loss_svg(test["pairs"], test["example"]))
        plots[m["name"]] = entry
    return _environment().get_template("report.html.j2").render(
        doc=document, plots=plots, pdf_links=pdf_links)
