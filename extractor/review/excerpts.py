"""Where a quoted span sits in its post, for a reviewer who has not opened it.

An `Excerpt` is the sentence that holds a span (or, for a table cell, the cell with its row header,
column header and caption), with the quote's place marked, and the section path. It is read from the
document text when the file the record was extracted from still has the record's content hash
(`source="document"`); otherwise it is built from what the record stored (quote, section, block,
headers: `source="record"`).

Sentences are the extractor's own: the same ingest and sentence splitter (`extractor.ingest`), so an
excerpt shows the unit the claim was read from. Display text is the masked view (markup blanked) with
blank runs collapsed; marks are offsets into that display text.
"""
from __future__ import annotations

import hashlib
from bisect import bisect_right
from pathlib import Path

from extractor.records import Claim, ClaimContext
from extractor.review.views import Excerpt, Place, Span

_CLOSING = frozenset(",.;:!?)]")
MAX_EXCERPT = 600     # characters of display text kept around a mark in a long sentence or line


def squeeze(text: str, marks: list[Span]) -> tuple[str, list[Span]]:
    """`text` with blank runs collapsed to one space (none before closing punctuation) and ends trimmed;
    marks moved along with it."""
    out: list[str] = []
    new_pos = [0] * (len(text) + 1)
    blank = True      # drop leading blanks
    run = 0           # where the current blank run began
    for i, ch in enumerate(text):
        new_pos[i] = len(out)
        if ch.isspace():
            if not blank:
                out.append(" ")
                run = i
            blank = True
        else:
            ends = i + 1 == len(text) or text[i + 1].isspace()
            if ch in _CLOSING and ends and out and out[-1] == " " and blank:
                out.pop()       # "Analysis ," where a link's target was blanked out
                for j in range(run, i + 1):
                    new_pos[j] = min(new_pos[j], len(out))
            out.append(ch)
            blank = False
    new_pos[len(text)] = len(out)
    while out and out[-1] == " ":
        out.pop()
    n = len(out)
    return "".join(out), [(min(new_pos[s], n), min(new_pos[e], n)) for s, e in marks]


def clip(text: str, mark: Span, width: int = MAX_EXCERPT) -> tuple[str, Span]:
    """A window of at most ~`width` characters of `text` around `mark`, with … where it was cut."""
    if len(text) <= width:
        return text, mark
    lo = max(0, min(mark[0] - width // 3, len(text) - width))
    hi = min(len(text), max(lo + width, mark[1]))
    head, tail = ("…" if lo > 0 else ""), ("…" if hi < len(text) else "")
    return head + text[lo:hi] + tail, (mark[0] - lo + len(head), mark[1] - lo + len(head))


def record_excerpt(quote: str, context: ClaimContext | None, block: str | None = None) -> Excerpt:
    """The fallback: what a record stores about a claim (or condition) without the post's text."""
    ctx = context or ClaimContext()
    text = " ".join(quote.split())
    return Excerpt(source="record", section=list(ctx.section), block=block or ctx.block, text=text,
                   mark=(0, len(text)), row_header=ctx.row_header, column_header=ctx.column_header)


class DocumentText:
    """One post's text, ingested and split as the extractor splits it, to locate spans."""

    def __init__(self, text: str, name: str, abbreviations: frozenset[str]) -> None:
        from extractor.api import detect_format
        from extractor.ingest import ingest
        from extractor.ingest.segment import units

        self.doc = ingest(text, name, detect_format(name, text))
        self.units = units(self.doc, abbreviations)
        self.unit_starts = [u.start for u in self.units]

    # --- locating ---------------------------------------------------------------------------

    def place(self, span: Span) -> Place:
        """The sentence or table cell holding `span`, else the block or line around it."""
        i = bisect_right(self.unit_starts, span[0]) - 1
        for u in self.units[max(0, i - 3): i + 1][::-1]:
            if u.start <= span[0] and span[1] <= u.end:
                if u.kind == "cell":
                    return Place(kind="cell", start=u.start, end=u.end, table=u.table, row=u.row, col=u.col)
                return Place(kind="sentence", start=u.start, end=u.end)
        d = self.doc
        for b in d.blocks:
            if b.start <= span[0] and span[1] <= b.end and b.kind not in ("table", "code"):
                return Place(kind="other", start=b.start, end=b.end)
        start = d.text.rfind("\n", 0, span[0]) + 1
        end = d.text.find("\n", span[1])
        return Place(kind="other", start=start, end=len(d.text) if end < 0 else end)

    def block_kind(self, offset: int) -> str:
        """The kind of the innermost block holding `offset` ('front_matter', 'table', 'line' otherwise)."""
        d = self.doc
        if d.meta_span and d.meta_span[0] <= offset < d.meta_span[1]:
            return "front_matter"
        for t in d.tables:
            if t.start <= offset < t.end:
                return "table"
        kinds = [b.kind for b in d.blocks if b.start <= offset < b.end]
        return kinds[-1] if kinds else "line"

    def display(self, start: int, end: int, marks: list[Span]) -> tuple[str, list[Span]]:
        """View text of [start, end) squeezed, with marks given as document offsets, made relative."""
        rel = [(max(s, start) - start, min(e, end) - start) for s, e in marks]
        return squeeze(self.source_for(marks)[start:end], rel)

    def source_for(self, spans: list[Span]) -> str:
        """The masked view, unless it blanks a span the text holds (front matter, an HTML <title>):
        then the text as written."""
        d = self.doc
        for s, e in spans:
            if not d.view[s:e].strip() and d.text[s:e].strip():
                return d.text
        return d.view

    def cell_text(self, table: int, row: int, col: int) -> str:
        t = self.doc.tables[table]
        cells = t.header if row < 0 else t.rows[row]
        cell = next((c for c in cells if c.col == col), None)
        return "" if cell is None else squeeze(self.doc.view[cell.start:cell.end], [])[0]

    def header_texts(self, table: int) -> list[str]:
        return [squeeze(self.doc.view[c.start:c.end], [])[0] for c in self.doc.tables[table].header]

    def row_texts(self, table: int, row: int) -> list[str]:
        t = self.doc.tables[table]
        cells = t.header if row < 0 else t.rows[row]
        return [squeeze(self.doc.view[c.start:c.end], [])[0] for c in cells]

    def caption(self, table: int) -> str | None:
        cap = self.doc.tables[table].caption
        return squeeze(self.doc.view[cap.start:cap.end], [])[0] or None if cap is not None else None

    def holds(self, span: Span, quote: str) -> bool:
        """True when the post's text at `span` is `quote` (a record's span and quote agree with this text)."""
        return 0 <= span[0] <= span[1] <= len(self.doc.text) and self.doc.text[span[0]:span[1]] == quote

    def excerpt(self, span: Span, context: ClaimContext | None = None) -> tuple[Excerpt, Place]:
        """The excerpt of `span` (inside the text) and where it is; a claim's own context supplies its headers."""
        place = self.place(span)
        section = self.doc.section_path(self.doc.section_at(span[0]))
        if context is not None and context.section:
            section = list(context.section)
        text, [mark] = self.display(place.start, place.end, [span])
        text, mark = clip(text, mark)
        ex = Excerpt(source="document", section=section, text=text, mark=mark, span=(place.start, place.end),
                     block=context.block if context is not None else self.block_kind(span[0]))
        if place.kind == "cell":
            assert place.table is not None and place.row is not None and place.col is not None
            ex.block = "table"
            ex.caption = self.caption(place.table)
            if context is not None and (context.row_header or context.column_header):
                ex.row_header, ex.column_header = context.row_header, context.column_header
            else:
                heads = self.header_texts(place.table)
                row = self.row_texts(place.table, place.row) if place.row >= 0 else []
                ex.column_header = heads[place.col] if place.col < len(heads) and place.row >= 0 else None
                ex.row_header = row[0] if row and place.col > 0 else None
        return ex, place


class TextLibrary:
    """Posts read once per content hash, only when the file still has the hash the record stores."""

    def __init__(self, abbreviations: frozenset[str]) -> None:
        self.abbreviations = abbreviations
        self._by_hash: dict[str, DocumentText | None] = {}

    @classmethod
    def for_rules(cls, rules_dir: str | None = None) -> "TextLibrary":
        """A library splitting sentences with the abbreviations of a rules folder (default: installed)."""
        from extractor.claims.rules import load_claim_rules
        from extractor.rules_io import default_rules_dir

        rules = load_claim_rules(Path(rules_dir) if rules_dir else default_rules_dir())
        return cls(frozenset(a.lower() for a in rules.abbreviations))

    def get(self, path: str | None, sha256: str | None, bases: list[Path]) -> tuple[DocumentText | None, str | None]:
        """The post's text, or None and why not (no path, file gone, content changed, unreadable)."""
        if not path or not sha256:
            return None, "the record has no path"
        if sha256 in self._by_hash and self._by_hash[sha256] is not None:
            return self._by_hash[sha256], None
        found = _resolve(path, bases)
        if found is None:
            return None, f"{path} is not found"
        from extractor.api import decode
        from extractor.errors import DocumentFailure

        try:
            data = found.read_bytes()
            if hashlib.sha256(data).hexdigest() != sha256:
                return None, f"{path} has changed since that run"
            text = DocumentText(decode(data, str(found)), found.name, self.abbreviations)
        except (OSError, DocumentFailure) as err:
            return None, f"{path} cannot be read ({err})"
        self._by_hash[sha256] = text
        return text, None


def _resolve(path: str, bases: list[Path]) -> Path | None:
    p = Path(path)
    if p.is_file():
        return p
    if not p.is_absolute():
        for base in bases:
            if (base / p).is_file():
                return base / p
    return None


def claim_excerpt(text: DocumentText | None, claim: Claim) -> tuple[Excerpt, Place | None]:
    """A claim's excerpt from the post when its text is at hand, else from the record."""
    if text is None or not text.holds(claim.span, claim.quote):
        return record_excerpt(claim.quote, claim.context), None
    return text.excerpt(claim.span, claim.context)
