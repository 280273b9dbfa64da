"""Structure helpers shared by the ingesters: section nesting and caption detection."""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from extractor.ingest.model import Block, Node, Section, Table

# A caption opens with the name of what it captions and its number ("Figure 2:", "Table 1.").
CAPTION = re.compile(r"(?:figure|fig\.|table|chart|graph)\s*\d+\s*[:.\-–—]", re.I)


def finish_sections(sections: list[Section], length: int) -> None:
    """Set each section's parent and body end from the heading levels, in place."""
    stack: list[int] = []
    for i, sec in enumerate(sections):
        while stack and sections[stack[-1]].level >= sec.level:
            sections[stack.pop()].body_end = sec.start
        sec.parent = stack[-1] if stack else None
        stack.append(i)
    for i in stack:
        sections[i].body_end = length


def attach_captions(tables: list[Table], blocks: list[Block], gap: int) -> None:
    """A caption block within `gap` characters before or after a table becomes its caption."""
    caps = [b for b in blocks if b.kind == "caption"]
    # the captions by start and by end, for bisection: a table looks only at those near it
    by_start = sorted((b.start, i) for i, b in enumerate(caps))
    by_end = sorted((b.end, i) for i, b in enumerate(caps))
    for table in tables:
        lo, hi = table.start, max(table.end - 1, table.end + gap)
        found = {i for _, i in by_start[bisect_left(by_start, (lo, -1)):bisect_right(by_start, (hi, len(caps)))]}
        found.update(i for _, i in by_end[bisect_left(by_end, (table.start - gap, -1)):
                                          bisect_right(by_end, (table.start, len(caps)))])
        near = [b for b in (caps[i] for i in sorted(found))
                if 0 <= table.start - b.end <= gap or 0 <= b.start - table.end <= gap
                or table.start <= b.start < table.end]
        near.sort(key=lambda b: not (table.start <= b.start < table.end))   # its own <caption> first
        if near:
            table.caption = Node(start=near[0].start, end=near[0].end)
