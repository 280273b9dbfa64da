"""Passages of text the claim and condition steps read: sentences of prose blocks and table cells (a
`Passage`; not to be confused with a pint unit).

Splitting runs on the masked view (so offsets are those of the original text); the
abbreviations that do not end a sentence come from the rules.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from extractor.ingest.model import Document

PROSE = ("paragraph", "list_item", "caption", "heading", "quote")


@dataclass(frozen=True, slots=True)
class Passage:
    """A sentence (or table cell) with its place in the document."""

    start: int
    end: int
    kind: str           # block kind, or "cell"
    block: int          # index into Document.blocks (-1 for table cells)
    section: int | None
    table: int | None = None
    row: int | None = None   # body row index for cells; -1 for header cells
    col: int | None = None


# End punctuation, blanks, then something that can open a sentence; or a blank line.
# Dot leaders and ellipses ("TTFT p99 ....... 61 ms") do not end a sentence. The end punctuation is
# part of the match (group 1) rather than a lookbehind so the scan can skip to candidate characters.
BOUNDARY = re.compile(r"([.!?])(?<!\.\.)[\"')\]]*\s+(?=[\"'(\[]*[A-Z0-9$~<>*_#(\[])|\n\s*\n")


def split_sentences(view: str, start: int, end: int, abbreviations: frozenset[str]) -> list[tuple[int, int]]:
    """[start, end) of each sentence in view[start:end], trimmed of surrounding blanks."""
    out: list[tuple[int, int]] = []
    s = start
    scan = start - 1 if start > 0 and view[start - 1] in ".!?" else start   # punctuation just before ends one
    for m in BOUNDARY.finditer(view, scan, end):
        cut = m.start() if m.lastindex is None else m.end(1)
        before = view[max(start, cut - 12):cut].split()
        if before and before[-1].lower() in abbreviations and view.count("\n", cut, m.end()) < 2:
            continue
        _push(view, s, cut, out)
        s = m.end()
    _push(view, s, end, out)
    return out


def _push(view: str, s: int, e: int, out: list[tuple[int, int]]) -> None:
    while s < e and view[s].isspace():
        s += 1
    while e > s and view[e - 1].isspace():
        e -= 1
    if e > s:
        out.append((s, e))


def units(doc: Document, abbreviations: frozenset[str], cells: bool = True,
          block_filter: Callable[[str], bool] | None = None) -> list[Passage]:
    """Every sentence of prose blocks and (with `cells`) every table cell, in document order; with
    `block_filter`, only the sentences of the prose blocks whose view text it accepts."""
    found: list[Passage] = []
    view = doc.view
    for i, block in enumerate(doc.blocks):
        if block.kind not in PROSE or block_filter is not None and not block_filter(view[block.start:block.end]):
            continue
        for s, e in split_sentences(view, block.start, block.end, abbreviations):
            found.append(Passage(s, e, block.kind, i, block.section))
    for t, table in enumerate(doc.tables if cells else ()):
        for c in table.header:
            if c.end > c.start:
                found.append(Passage(c.start, c.end, "cell", -1, table.section, t, -1, c.col))
        for r, row in enumerate(table.rows):
            for c in row:
                if c.end > c.start:
                    found.append(Passage(c.start, c.end, "cell", -1, table.section, t, r, c.col))
    found.sort(key=lambda u: (u.start, u.end))
    return found
