"""Where an offset of a post sits, for the set-aside rules (`extractor.claims.set_aside`): the innermost block or
table cell, a code block's language, a body or label cell's column header and row label, the section title, the
paragraph that leads a code block or table, and the text before a figure in its sentence."""
from __future__ import annotations

import bisect
import re

from extractor.ingest.model import Document
from extractor.regex_starts import searchable

WINDOW = 400   # characters of the line read before and after a figure


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
        # the code blocks, tables and list items, by start, with their index in `d.blocks` (for the paragraph that
        # leads them; a list item's is the paragraph before its list)
        self.leads = [(b.start, b.end, i) for i, b in enumerate(d.blocks) if b.kind in ("code", "table", "list_item")]
        self.lead_starts = [s for s, _, _ in self.leads]
        self._lead_found: dict[tuple[str, int], bool] = {}
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

    def block_lead(self, offset: int) -> str:
        """The text of the paragraph, list item or caption right before the code block or table holding `offset`,
        in the same section ('' when there is none, or `offset` is in no code block or table)."""
        i = bisect.bisect_right(self.lead_starts, offset) - 1
        if i < 0 or offset >= self.leads[i][1] or (j := self.leads[i][2]) == 0:
            return ""
        b, before = self.d.blocks[j], self.d.blocks[j - 1]
        if b.kind == "list_item":
            while j > 1 and before.kind == "list_item" and before.section == b.section:
                j -= 1
                before = self.d.blocks[j - 1]
            if before.section != b.section or before.kind != "paragraph":
                return ""
            return self.d.view[before.start:before.end]
        if before.section != b.section or before.kind not in ("paragraph", "list_item", "caption"):
            return ""
        return self.d.view[before.start:before.end]

    def lead_has(self, pattern: re.Pattern, offset: int) -> bool:
        """Whether `pattern` occurs in `block_lead(offset)`; read once per rule and block (a block of a thousand
        printed figures reads its lead once)."""
        i = bisect.bisect_right(self.lead_starts, offset) - 1
        key = (pattern.pattern, i if i >= 0 and offset < self.leads[i][1] else -1)
        found = self._lead_found.get(key)
        if found is None:
            found = self._lead_found[key] = pattern.search(self.block_lead(offset)) is not None
        return found

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


_CONTINUED = re.compile(r"[ \t>]*[a-z(]")          # a hard-wrapped line goes on with a lower-case word
_NEW_BLOCK = re.compile(r"[ \t>]*(?:[-*+|#]|\d{1,3}[.)])")
_WRAPS = 3                                        # lines of one sentence read before the figure's own


def sentence_lead(text: str, lo: int, start: int) -> tuple[str, int, int]:
    """The text before a figure in its sentence, as (string, start, end to search in): its own line, and when
    that line goes on a hard-wrapped sentence (it starts with a lower-case word, the line before is not blank
    and does not end the sentence), up to `_WRAPS` lines before it joined with blanks; at most `WINDOW`
    characters. "the default\n   is 10 seconds" is read as "the default is 10 seconds"."""
    first = lo
    for _ in range(_WRAPS):
        if first == 0 or not _CONTINUED.match(text, first) or _NEW_BLOCK.match(text, first):
            break
        prev = text.rfind("\n", 0, first - 1) + 1
        line = text[prev:first - 1].rstrip()
        if not line.strip() or line.endswith((".", "!", "?", ":", "|", "```")):
            break
        first = prev
    if first == lo:
        return text, max(lo, start - WINDOW), start
    joined = re.sub(r"[ \t]*\n[ \t>]*", " ", text[max(first, start - WINDOW):start])
    return joined, 0, len(joined)
