"""Look-ups by bisection over a document's sorted offsets, in place of scans."""
from __future__ import annotations

from bisect import bisect_right

from extractor.ingest import Document


class SectionLookup:
    """`Document.section_at` for many offsets: its answer changes only at a section's start or body end,
    so it is asked once per stretch between those and looked up by bisection."""

    def __init__(self, d: Document):
        self.bounds = sorted({0, *(s.start for s in d.sections), *(s.body_end for s in d.sections)})
        self.sections = [d.section_at(b) for b in self.bounds]

    def __call__(self, offset: int) -> int | None:
        return self.sections[bisect_right(self.bounds, offset) - 1]


def own_ends(d: Document) -> list[int]:
    """Where each section's own text ends: at the first heading inside its body, else at its body end.
    One bisection per section when the sections are in text order (as ingestion makes them)."""
    starts = [s.start for s in d.sections]
    if any(a > b for a, b in zip(starts, starts[1:])):
        return [next((s.start for s in d.sections if sec.start < s.start < sec.body_end), sec.body_end)
                for sec in d.sections]
    ends = []
    for sec in d.sections:
        k = bisect_right(starts, sec.start)
        ends.append(starts[k] if k < len(starts) and starts[k] < sec.body_end else sec.body_end)
    return ends
