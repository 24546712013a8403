"""Module descriptions are reStructuredText; a report shows them rendered, not as raw markup.

Only the constructs the descriptions use are read: paragraphs, a literal block after ``::``,
bullet lists (``*`` or ``-``), and inline ````literal````, roles such as ``:mod:`x``` and
```x``` (shown as code), ``**strong**`` and ``*emphasis*``. Anything else is kept as plain
text. The result is a list of blocks of typed spans, which each format escapes itself, so a
description cannot inject markup.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

_INLINE = re.compile(r"``(?P<code>.+?)``"
                     r"|:[\w:+-]+:`(?P<role>[^`]+)`"
                     r"|`(?P<default>[^`]+)`"
                     r"|(?<![\w*])\*\*(?=\S)(?P<strong>[^*]+?)(?<=\S)\*\*(?![\w*])"
                     r"|(?<![\w*])\*(?=\S)(?P<em>[^*]+?)(?<=\S)\*(?![\w*])")
_BULLET = re.compile(r"[*-] ")
KIND = {"code": "code", "role": "code", "default": "code", "strong": "strong", "em": "em"}


@dataclass(frozen=True)
class Span:
    """A run of text: ``kind`` is ``text``, ``code``, ``strong`` or ``em``."""

    kind: str
    text: str


@dataclass(frozen=True)
class Block:
    """A paragraph (``items`` has one list of spans), a bullet list (one per item), or a literal
    block (``literal`` holds its text, ``items`` is empty)."""

    kind: str
    items: tuple[tuple[Span, ...], ...] = ()
    literal: str = ""


def inline(text: str) -> tuple[Span, ...]:
    """The spans of one paragraph's text (its lines already joined)."""
    spans: list[Span] = []
    position = 0
    for match in _INLINE.finditer(text):
        if match.start() > position:
            spans.append(Span("text", text[position:match.start()]))
        group = match.lastgroup or "code"
        spans.append(Span(KIND[group], match[group]))
        position = match.end()
    if position < len(text):
        spans.append(Span("text", text[position:]))
    return tuple(spans)


def _chunks(text: str) -> list[list[str]]:
    """Lines grouped into blank-line separated chunks."""
    chunks: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.strip():
            chunks[-1].append(line)
        elif chunks[-1]:
            chunks.append([])
    return [c for c in chunks if c]


def _bullets(lines: list[str]) -> Block:
    items: list[list[str]] = []
    for line in lines:
        if _BULLET.match(line):
            items.append([line[2:].strip()])
        else:
            items[-1].append(line.strip())
    return Block("bullets", tuple(inline(" ".join(item)) for item in items))


def parse(text: str) -> list[Block]:
    """The blocks of a description."""
    blocks: list[Block] = []
    literal_next = False
    for lines in _chunks(textwrap.dedent(text)):
        if literal_next and lines[0].startswith((" ", "\t")):
            blocks.append(Block("literal", literal=textwrap.dedent("\n".join(lines))))
            continue
        literal_next = False
        if _BULLET.match(lines[0]):
            blocks.append(_bullets(lines))
            continue
        joined = " ".join(line.strip() for line in lines)
        if joined.endswith("::"):
            literal_next = True
            joined = joined[:-2].rstrip() + (":" if joined[:-2].strip() else "")
        if joined:
            blocks.append(Block("paragraph", (inline(joined),)))
    return blocks
