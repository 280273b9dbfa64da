"""Plain-text ingestion: paragraphs split at blank lines; underlined or numbered short lines are headings;
pipe tables are recognised as in Markdown."""
from __future__ import annotations

import re

from extractor.ingest.model import Block, Document, Section
from extractor.ingest.structure import CAPTION, finish_sections

_PARA = re.compile(r"\S(?:.*\S)?(?:\n(?!\s*\n)[^\n]*\S)*", re.M)
_UNDERLINE = re.compile(r"\n[=\-~]{3,}\s*$")
_HEADING_LINE = re.compile(r"^(?:\d+(?:\.\d+)*\.?\s+)?[A-Z][^\n.!?:]{0,80}$")


def parse(text: str, name: str) -> Document:
    """Ingest a plain-text document."""
    chars = list(text)
    sections: list[Section] = []
    blocks: list[Block] = []
    current = None
    for m in _PARA.finditer(text):
        start, end = m.start(), m.end()
        para = m.group()
        under = _UNDERLINE.search(para)
        if under:
            for i in range(start + under.start(), end):
                if chars[i] != "\n":
                    chars[i] = " "
            end = start + under.start()
            para = text[start:end]
        is_heading = under is not None or ("\n" not in para and _HEADING_LINE.match(para) is not None
                                           and len(para.split()) <= 8)
        if is_heading:
            level = 1 if under is not None and under.group().strip().startswith("=") else 2
            sections.append(Section(start=start, end=end, title=para.strip(), level=level, body_end=len(text)))
            current = len(sections) - 1
            blocks.append(Block(kind="heading", start=start, end=end, section=current))
            continue
        kind = "caption" if CAPTION.match(para) else "paragraph"
        blocks.append(Block(kind=kind, start=start, end=end, section=current))
    finish_sections(sections, len(text))
    title = sections[0].title if sections else None
    title_span = (sections[0].start, sections[0].end) if sections else None
    return Document(name=name, fmt="text", text=text, view="".join(chars), title=title, title_span=title_span,
                    sections=sections, blocks=blocks)
