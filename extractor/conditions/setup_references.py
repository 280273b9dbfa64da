"""Sections a post points to for the set-up of other results: "The charts below plot the same benchmark sweep
summarized in [Overview](#overview)", "see [Experimental details](#experimental-details) for the full
configuration". The linked section sets up the results of the section that points to it, after the pointer, like a
setup section (places.py `covering_setup`)."""
from __future__ import annotations

import re
from bisect import bisect_right

from extractor.conditions.neighbours import SENTENCE_END
from extractor.ingest import Document

_NOT_SLUG = re.compile(r"[^\w\- ]+")


def slug(title: str) -> str:
    """The anchor a Markdown renderer gives a heading ("5. Stage Replicas: Scaling" -> "5-stage-replicas-scaling")."""
    return _NOT_SLUG.sub("", title.strip().lower()).replace(" ", "-")


def setup_references(d: Document, cue: re.Pattern[str]) -> dict[int, list[tuple[int, int]]]:
    """Per section, the (offset, section) pairs of the links to a section's anchor in a sentence that says that
    section holds the set-up (`cue`: rules/scopes.yaml `setup_reference`); not a link to the section itself."""
    anchors: dict[str, int] = {}
    for i, sec in enumerate(d.sections):
        anchors.setdefault(slug(sec.title), i)
    found: dict[int, list[tuple[int, int]]] = {}
    if not anchors:
        return found
    view, starts = d.view, [b.start for b in d.blocks]
    for link in d.links:
        target = anchors.get(link.target[1:].lower()) if link.target.startswith("#") else None
        if target is None:
            continue
        i = bisect_right(starts, link.start) - 1
        block = d.blocks[i] if i >= 0 and link.start < d.blocks[i].end else None
        if block is None or block.kind not in ("paragraph", "list_item", "caption") or block.section == target:
            continue
        lo = max((m.end() for m in SENTENCE_END.finditer(view, block.start, link.start)), default=block.start)
        end = SENTENCE_END.search(view, link.end, block.end)
        if cue.search(view, lo, end.start() if end else block.end):
            found.setdefault(block.section, []).append((link.start, target))
    return found

