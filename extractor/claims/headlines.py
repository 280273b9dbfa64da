"""Headline claims: those the post leads with (title, summary, TL;DR, introduction). A body figure with the
same value is a restatement, not a headline of its own (`same_figure` tells them, for the conditions step)."""
from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right

from extractor.claims.rules import ClaimRules
from extractor.contracts import StageContract
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
    """Marks the claims in the headline zone."""

    contract = StageContract("headlines", "marks the claims in the lead (title, summary, TL;DR, introduction)",
                             assigns=("headline",), requires=("span",))

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
        headings = [s for s in d.sections if not (d.title_span and s.start == d.title_span[0])]
        first_text = next((b.start for b in d.blocks if b.kind != "heading"), len(d.text))
        if headings and headings[0].level == 1 and headings[0].start < first_text:
            # a level-1 heading above all text is the post's title written again (an HTML page's <h1> under
            # its <title>, a Markdown "# Title" under a front-matter title): it leads, and the lead follows it
            zones.append((headings[0].start, headings[0].end))
            headings = headings[1:]
        first_heading = min((s.start for s in headings), default=len(d.text))
        # notes and call-outs ("> [!NOTE] Originally posted on ...") are not part of the lead; a table or a code
        # block ends it (the results that follow are the body, even in a post without headings)
        intro = []
        for b in d.blocks:
            if b.end > first_heading or b.kind in ("table", "code"):
                break
            if b.kind in ("paragraph", "list_item", "caption"):
                intro.append(b)
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
        for i, s in enumerate(d.sections):
            if _norm_heading(s.title) in self.sections:
                # a top-level "# Summary" that the rest of the post nests under ("## Setup", "## Benchmark
                # results"): its own text leads, its subsections are the body; a deeper one leads with them
                end = s.body_end
                if s.level == 1:
                    end = min([end] + [t.start for t in d.sections[i + 1:] if t.start > s.start][:1])
                zones.append((s.start, end))
        return zones

    def mark(self, d: Document, claims: list[Claim]) -> list[Claim]:
        """Mark the claims in the lead (title, summary, TL;DR, introduction) as headline; returns them."""
        starts, ends = _merged(self.zones(d))
        # a table's cells are the body even under a "Summary" or "Overview" heading: the post leads with what its
        # text says (a cell restated in that text is a headline through the restatement)
        table_starts, table_ends = _merged([(t.start, t.end) for t in d.tables])
        leads = [c for c in claims if _inside(starts, ends, c.span[0]) and not _inside(table_starts, table_ends, c.span[0])]
        for c in leads:
            c.headline = True
        return leads


def _merged(zones: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Zones as sorted disjoint [start, end) intervals (starts, ends), for bisection."""
    starts: list[int] = []
    ends: list[int] = []
    for a, b in sorted(z for z in zones if z[0] < z[1]):
        if ends and a <= ends[-1]:
            ends[-1] = max(ends[-1], b)
        else:
            starts.append(a)
            ends.append(b)
    return starts, ends


def _inside(starts: list[int], ends: list[int], pos: int) -> bool:
    i = bisect_right(starts, pos) - 1
    return i >= 0 and pos < ends[i]


class FigureIndex:
    """Claims grouped by metric, unit and rangedness, sorted by value: the claims `same_figure` pairs with
    a claim are found by bisection over a window as narrow as its tolerance, not by a scan of every claim."""

    def __init__(self, claims: list[Claim]):
        groups: dict[tuple, list[tuple[float, int, Claim]]] = {}
        for i, c in enumerate(claims):
            if c.value != 0:
                groups.setdefault((c.metric, c.unit, c.value_max is None), []).append((c.value, i, c))
        self._groups: dict[tuple, tuple[list[float], list[tuple[float, int, Claim]]]] = {}
        for key, group in groups.items():
            group.sort(key=lambda x: x[:2])
            self._groups[key] = ([v for v, _, _ in group], group)

    def _window(self, a: Claim) -> list[tuple[float, int, Claim]]:
        group = self._groups.get((a.metric, a.unit, a.value_max is None))
        if group is None or a.value == 0:
            return []
        values, items = group
        # same_figure allows 2% of the larger value from 1000 up, else a millionth: in units of |a|, within
        # 2.1% when |a| is near 1000 or more, else within 1.01e-6
        slack = abs(a.value) * (0.021 if abs(a.value) >= 975 else 1.01e-6)
        return items[bisect_left(values, a.value - slack):bisect_right(values, a.value + slack)]

    def same(self, a: Claim, limit: int | None = None) -> list[Claim] | None:
        """The indexed claims other than `a` that state the same figure, in their original order; None when
        more than `limit` claims could (a figure repeated that often is no one restatement)."""
        window = self._window(a)
        if limit is not None and len(window) > limit + 1:
            return None
        found = sorted((i, c) for _, i, c in window if c is not a and same_figure(a, c))
        return [c for _, c in found]


    def states(self, a: Claim) -> bool:
        """Whether an indexed claim other than `a` states the same figure."""
        return any(c is not a and same_figure(a, c) for _, _, c in self._window(a))


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
