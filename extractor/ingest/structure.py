"""Structure helpers shared by the ingesters: section nesting and caption detection."""
from __future__ import annotations

import re

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
    for table in tables:
        near = [b for b in caps if 0 <= table.start - b.end <= gap or 0 <= b.start - table.end <= gap
                or table.start <= b.start < table.end]
        near.sort(key=lambda b: not (table.start <= b.start < table.end))   # its own <caption> first
        if near:
            table.caption = Node(start=near[0].start, end=near[0].end)
