"""Headline claims: those the post leads with (title, summary, TL;DR, introduction),
and the same figures where the body states them again."""
from __future__ import annotations

import math
import re

from extractor.claims.rules import ClaimRules
from extractor.ingest import Document
from extractor.records import Claim
from extractor.ingest.segment import Passage

_NUMBERING = re.compile(r"^[\s\d.)#:-]+")


def _norm_heading(title: str) -> str:
    return _NUMBERING.sub("", title).strip(" :.").lower()


def front_matter_units(d: Document, rules: ClaimRules) -> list[Passage]:
    """Headline fields of the front matter (and an HTML <title>) as text units of the original text."""
    found: list[Passage] = []
    if d.meta_span:
        lo, hi = d.meta_span
        for name in rules.headline_fields:
            value = d.meta.get(name)
            if isinstance(value, str) and value.strip():
                pos = d.text.find(value, lo, hi)
                if pos >= 0:
                    found.append(Passage(pos, pos + len(value), "front_matter", -1, None))
    if d.title_span and not d.view[d.title_span[0]:d.title_span[1]].strip() \
            and not any(u.start == d.title_span[0] for u in found):
        found.append(Passage(d.title_span[0], d.title_span[1], "front_matter", -1, None))
    return found


class HeadlineMarker:
    """Marks claims in the headline zone, and body claims restating a headline figure."""

    def __init__(self, rules: ClaimRules):
        self.rules = rules
        self.sections = {s.lower() for s in rules.headline_sections}

    def zones(self, d: Document) -> list[tuple[int, int]]:
        """The [start, end) ranges the post leads with."""
        zones: list[tuple[int, int]] = []
        if d.meta_span:
            zones.append(d.meta_span)
        if d.title_span:
            zones.append(d.title_span)
        first_heading = min((s.start for s in d.sections if not (d.title_span and s.start == d.title_span[0])),
                            default=len(d.text))
        # notes and call-outs ("> [!NOTE] Originally posted on ...") are not part of the lead
        intro = [b for b in d.blocks if b.end <= first_heading and b.kind in ("paragraph", "list_item", "caption")]
        # the first paragraphs before any heading; a list counts as one paragraph
        groups: list[list] = []
        for b in intro:
            if groups and b.kind == "list_item" and groups[-1][-1].kind == "list_item":
                groups[-1].append(b)
            else:
                groups.append([b])
        if groups:
            last = groups[min(len(groups), self.rules.intro_paragraphs) - 1][-1]
            zones.append((groups[0][0].start, last.end))
        for s in d.sections:
            if _norm_heading(s.title) in self.sections:
                zones.append((s.start, s.body_end))
        return zones

    def mark(self, d: Document, claims: list[Claim]) -> None:
        zones = self.zones(d)
        leads = [c for c in claims if any(a <= c.span[0] < b for a, b in zones)]
        for c in leads:
            c.headline = True
        for c in claims:
            if not c.headline and any(same_figure(c, h) for h in leads):
                c.headline = True


def same_figure(a: Claim, b: Claim) -> bool:
    """Same metric and unit, and values equal once rounding to the shorter form is allowed."""
    if a.metric != b.metric or a.unit != b.unit or a.value == 0 or b.value == 0:
        return False
    if (a.value_max is None) != (b.value_max is None):
        return False
    tol = 0.02 if max(abs(a.value), abs(b.value)) >= 1000 else 1e-6
    same = math.isclose(a.value, b.value, rel_tol=tol)
    if a.value_max is not None:
        same = same and math.isclose(a.value_max, b.value_max, rel_tol=tol)
    return same
