"""The ingested document: original text, a same-length cleaned view, and its structure.

`view` has exactly the length of `text`: markup characters are replaced by spaces
and entities by their character padded with spaces, so every offset found in the
view is an offset into the original text as read from the file.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any, Literal

from pydantic import BaseModel, Field, PrivateAttr

BlockKind = Literal["heading", "paragraph", "list_item", "code", "table", "caption", "image", "quote"]


class Node(BaseModel):
    """Something with a [start, end) extent in the original text."""

    start: int
    end: int


class Section(Node):
    """A heading and the body it governs (until the next heading of the same or a higher level)."""

    title: str
    level: int
    body_end: int
    parent: int | None = None


class Block(Node):
    """A structural unit: paragraph, list item, heading, code block, caption..."""

    kind: BlockKind
    section: int | None = Field(None, description="index of its section in `Document.sections` (None: before any)")
    lang: str | None = Field(None, description="a code block's language, as its fence or tag names it")


class Cell(Node):
    """A table cell's content extent."""

    row: int
    col: int


class Table(Node):
    """A table: its header row and body rows, with the caption when one is adjacent."""

    section: int | None = None
    header: list[Cell] = Field(default_factory=list)
    rows: list[list[Cell]] = Field(default_factory=list)
    caption: Node | None = None


def group_label(view: str, row: list[Cell]) -> Cell | None:
    """The cell of a group-label row ("H100", "Speedup" over the rows it groups): the one filled cell of a
    row of several, with no digit in it; None for any other row."""
    filled = [c for c in row if c.end > c.start]
    if len(filled) == 1 and len(row) > 1 and not any(ch.isdigit() for ch in view[filled[0].start:filled[0].end]):
        return filled[0]
    return None


class Link(Node):
    """A hyperlink: its visible text extent and its target."""

    target: str


class Image(Node):
    """An image and its alt text or caption extent."""

    src: str
    alt: Node | None = None


class Document(BaseModel):
    """The ingested document handed to the pipeline."""

    name: str
    fmt: Literal["markdown", "html", "text"]
    text: str
    view: str
    title: str | None = None
    title_span: tuple[int, int] | None = None
    meta: dict[str, Any] = Field(default_factory=dict)
    meta_span: tuple[int, int] | None = None
    sections: list[Section] = Field(default_factory=list)
    blocks: list[Block] = Field(default_factory=list)
    tables: list[Table] = Field(default_factory=list)
    links: list[Link] = Field(default_factory=list)
    images: list[Image] = Field(default_factory=list)
    _section_starts: list[int] | None = PrivateAttr(default=None)
    _block_ends: tuple[int, list[tuple[int, int]]] | None = PrivateAttr(default=None)

    def blocks_ending(self, lo: int, hi: int) -> list[int]:
        """Indices (ascending) of the blocks whose end lies in [lo, hi]: one bisection over the blocks
        sorted by end, built once (again when blocks were added)."""
        index = self._block_ends
        if index is None or index[0] != len(self.blocks):
            index = self._block_ends = (len(self.blocks), sorted((b.end, i) for i, b in enumerate(self.blocks)))
        ends = index[1]
        return sorted(i for _, i in ends[bisect_left(ends, (lo, -1)):bisect_right(ends, (hi, len(ends)))])

    def section_path(self, index: int | None) -> list[str]:
        """Heading titles from the top level down to section `index`."""
        path: list[str] = []
        while index is not None:
            path.append(self.sections[index].title)
            index = self.sections[index].parent
        return path[::-1]

    def section_at(self, offset: int) -> int | None:
        """Index of the innermost section whose heading precedes `offset`."""
        starts = self._section_starts
        if starts is None or len(starts) != len(self.sections):
            starts = [s.start for s in self.sections]
            in_order = all(a <= b for a, b in zip(starts, starts[1:]))
            starts = self._section_starts = starts if in_order else []
        if starts or not self.sections:  # in document order: the last section before it that holds it
            for i in range(bisect_right(starts, offset) - 1, -1, -1):
                if offset < self.sections[i].body_end:
                    return i
            return None
        found = None
        for i, s in enumerate(self.sections):
            if s.start > offset:
                break
            if offset < s.body_end:
                found = i
        return found
