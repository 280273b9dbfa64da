"""Plain-text ingestion: paragraphs split at blank lines; underlined or numbered short lines are headings
(an underlined one also when text follows it without a blank line); lines opening with a bullet ("* ", "- ",
"• ") are list items; pipe tables are recognised as in Markdown."""
from __future__ import annotations

import re

from extractor.ingest.model import Block, Document, Section
from extractor.ingest.structure import CAPTION, finish_sections

_PARA = re.compile(r"\S(?:.*\S)?(?:\n(?!\s*\n)[^\n]*\S)*", re.M)
_UNDERLINE = re.compile(r"\n[=\-~]{3,}\s*$")
_HEADING_LINE = re.compile(r"^(?:\d+(?:\.\d+)*\.?\s+)?[A-Z][^\n.!?:]{0,80}$")
_UNDERLINED_FIRST = re.compile(r"[^\n]+\n[ \t]*([=\-~]{3,})[ \t]*\n")   # "Results\n-------\n" then text
_TITLE_MAX = 120
_BULLET = re.compile(r"^[ \t]*[-*+\u2022][ \t]+", re.M)


def parse(text: str, name: str) -> Document:
    """Ingest a plain-text document."""
    chars = list(text)
    sections: list[Section] = []
    blocks: list[Block] = []
    current = None
    for m in _PARA.finditer(text):
        start, end = m.start(), m.end()
        para = m.group()
        first = _UNDERLINED_FIRST.match(para)
        if first:
            for i in range(start + first.start(1), start + first.end(1)):
                chars[i] = " "
            head_end = start + para.index("\n")
            sections.append(Section(start=start, end=head_end, title=text[start:head_end].strip(),
                                    level=1 if first.group(1).startswith("=") else 2, body_end=len(text)))
            current = len(sections) - 1
            blocks.append(Block(kind="heading", start=start, end=head_end, section=current))
            start = start + first.end()
            while start < end and text[start].isspace():
                start += 1
            para = text[start:end]
        if _BULLET.match(para):
            blocks.extend(_items(text, start, end, current))
            continue
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
    lead = blocks[0] if blocks else None
    if lead is not None and lead.kind == "paragraph" and "\n" not in text[lead.start:lead.end] \
            and lead.end - lead.start <= _TITLE_MAX:
        # a post that opens with one short line ("Release notes: FastServe 2.3") is titled by it
        title, title_span = text[lead.start:lead.end].strip(), (lead.start, lead.end)
    return Document(name=name, fmt="text", text=text, view="".join(chars), title=title, title_span=title_span,
                    sections=sections, blocks=blocks)


def _items(text: str, start: int, end: int, section: int | None) -> list[Block]:
    """The list items of a paragraph that opens with a bullet: each from its bullet to the next one."""
    starts = [start + b.start() for b in _BULLET.finditer(text[start:end])]
    out = []
    for a, b in zip(starts, starts[1:] + [end]):
        while b > a and text[b - 1].isspace():
            b -= 1
        out.append(Block(kind="list_item", start=a, end=b, section=section))
    return out

