"""Where an offset of a post sits, for the set-aside rules (`extractor.claims.set_aside`): the innermost block or
table cell, a code block's language, a body or label cell's column header and row label, the section title."""
from __future__ import annotations

import bisect
import re

from extractor.ingest.model import Document
from extractor.regex_starts import searchable


class SetAsidePlaces:
    """Where an offset sits: the innermost block (or table cell: header, row label or body) and a code
    block's language; `hidden` for text the view blanks (an HTML comment or tag a reader never sees)."""

    def __init__(self, d: Document):
        spans: list[tuple[int, int, str, str | None]] = [(b.start, b.end, b.kind, (b.lang or "").lower()
                                                          if b.kind == "code" else None) for b in d.blocks]
        if d.meta_span is not None:
            spans.append((d.meta_span[0], d.meta_span[1], "front_matter", None))
        for t in d.tables:
            spans.append((t.start, t.end, "table", None))
            spans.extend((c.start, c.end, "header_cell", None) for c in t.header)
            for row in t.rows:
                if row:
                    spans.append((row[0].start, row[0].end, "label_cell", None))
                spans.extend((c.start, c.end, "body_cell", None) for c in row[1:])
        # the column header over each body or label cell ("| Block size |" over "| 16 KB |"), by the cell's start
        self.cells: list[tuple[int, int, str]] = sorted(
            (c.start, c.end, " ".join(d.view[h.start:h.end].split()))
            for t in d.tables for row in t.rows for c in row
            for h in t.header if h.col == c.col and c.end > c.start)
        self.cell_starts = [c[0] for c in self.cells]
        # the row label over each body cell ("| Frame rate |" beside "| 16 fps |"), by the cell's start
        self.row_labels = sorted((c.start, c.end, " ".join(d.view[row[0].start:row[0].end].split()))
                                 for t in d.tables for row in t.rows for c in row[1:] if c.end > c.start)
        self.row_starts = [c[0] for c in self.row_labels]
        # innermost first: of the spans holding an offset, the one that starts last
        spans.sort(key=lambda s: (s[0], -s[1]))
        self.d = d
        self.spans = spans
        self.starts = [s[0] for s in spans]
        self._folded: str | None = None
        self._line_hits: dict[tuple[re.Pattern[str], int, int], bool] = {}

    def folded(self, text: str) -> str | None:
        """The post's text lowercased, when start strings can be looked for in it (regex_starts.searchable)."""
        if text is not self.d.text:
            return None
        if self._folded is None:
            self._folded = text.lower() if searchable(text) else ""
        return self._folded or None

    def in_line(self, rx: re.Pattern[str], text: str, lo: int, hi: int) -> bool:
        """Whether `rx` occurs in the line [lo, hi) of `text`: of the post's text, searched once per line and
        pattern, however many figures the line holds."""
        if text is not self.d.text:
            return rx.search(text, lo, hi) is not None
        key = (rx, lo, hi)
        hit = self._line_hits.get(key)
        if hit is None:
            hit = self._line_hits[key] = rx.search(text, lo, hi) is not None
        return hit

    def section_title(self, offset: int) -> str:
        """The title of the innermost section holding `offset` ('' before the first heading)."""
        i = self.d.section_at(offset)
        return "" if i is None else self.d.sections[i].title

    def column_header(self, offset: int) -> str:
        """The column header text over the table body or label cell holding `offset` ('' outside them)."""
        i = bisect.bisect_right(self.cell_starts, offset) - 1
        return self.cells[i][2] if i >= 0 and offset < self.cells[i][1] else ""

    def row_label(self, offset: int) -> str:
        """The row label (first cell) of the row of the table body cell holding `offset` ('' outside body
        cells)."""
        i = bisect.bisect_right(self.row_starts, offset) - 1
        return self.row_labels[i][2] if i >= 0 and offset < self.row_labels[i][1] else ""

    def at(self, offset: int) -> tuple[str, str | None]:
        kind, lang = self._holder(offset)
        if kind != "front_matter" and self.d.view[offset:offset + 1].isspace() \
                and not self.d.text[offset:offset + 1].isspace():
            return "hidden", None         # markup the reader never sees (an HTML comment, a tag): blank in the view
        return kind, lang

    def _holder(self, offset: int) -> tuple[str, str | None]:
        i = bisect.bisect_right(self.starts, offset) - 1
        for j in range(i, max(-1, i - 64), -1):      # blocks nest shallowly: the holder starts close by
            s, e, kind, lang = self.spans[j]
            if offset < e:
                return kind, lang
        return "none", None
