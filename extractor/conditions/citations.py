"""Citations that credit a figure by where it sits rather than by a cue word (see `Places.cited_from`): a source
link in parentheses at the end of its sentence or list item ("... up to 3x faster ([source](https://...))"), the
text of a link to another site ("it [offers ~2x performance](https://...)"), a section that reviews other work
("Related work", "Prior work", "Related papers"), and a table note that credits the compared systems' rows or the
marked cells to their own reports ("* Scores of the other models are copied from their technical reports.")."""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from extractor.conditions.rules import ScopeRules
from extractor.ingest import Document
from extractor.ingest.model import Cell, Table
from extractor.ingest.segment import Passage


class PlacedCitations:
    """Reads the citation a figure's place gives (rules `source_link`, `cited_sections` of scopes.yaml)."""

    def __init__(self, scopes: ScopeRules):
        self.source_link = re.compile(scopes.source_link)
        self.cited_sections = re.compile(scopes.cited_sections)
        self.external_page = re.compile(r"https?://(?!(?:www\.)?(?:github|gitlab)\.com/)")
        self.linked_finding = re.compile(scopes.linked_finding)
        self.paragraph_source = re.compile(scopes.paragraph_source)
        self.reference_marker = re.compile(scopes.reference_marker)
        self.reference_own = re.compile(scopes.reference_own)
        self.footnote_source = re.compile(scopes.footnote_source)

    def source(self, d: Document, passage: Passage) -> str | None:
        """The target of a source link in parentheses in the passage, else (in a list item) in its item, else of
        an image or table source its paragraph names: the figures of the sentence, item or paragraph are that
        source's. A link to a code host (the post's own repository
        or benchmark script) is none."""
        spans = [(passage.start, passage.end)]
        if passage.kind == "list_item" and passage.block >= 0:
            b = d.blocks[passage.block]
            spans.append((b.start, b.end))
        for start, end in spans:
            for m in self.source_link.finditer(d.text, start, end):
                return m.group("url") or m.group("url2")
        if passage.kind == "paragraph" and passage.block >= 0:   # "The table below (Image source: [..](https://..))"
            b = d.blocks[passage.block]
            if m := self.paragraph_source.search(d.text, b.start, b.end):
                return m.group("url")
        return None

    def finding(self, d: Document, passage: Passage) -> str | None:
        """What the sentence credits its figures to as its subject or its closing reference: the target of a link to
        another site that opens the sentence and reports a finding ("For example, X's [suite](https://...) shows 2x"),
        else the definition of a footnote it marks when that names a source ("[^2]: Source: ..."), else a numbered or
        author-year reference that ends a sentence not about the post's own work ("... 4x over the older part [4].",
        "(Lee et al., 2024)"), with its entry in the post's reference list when there is one."""
        if passage.kind == "cell":
            return None
        if m := self.linked_finding.match(d.text, passage.start, passage.end):
            return m.group("url")
        sentence = d.text[passage.start:passage.end]
        for marker in _FOOTNOTE_MARKER.finditer(sentence):   # "... 3x faster[^2]." and "[^2]: Source: ..."
            note = re.search(rf"(?m)^[ \t]*\[\^{re.escape(marker.group(1))}\]:[ \t]*(\S[^\n]{{0,160}})", d.text)
            if note and self.footnote_source.search(note.group(1)):
                return " ".join(_LINK_TARGET.sub("", note.group(1)).replace("[", "").split())[:120]
        m = self.reference_marker.search(sentence, max(0, len(sentence) - 160))
        if m is None or self.reference_own.search(sentence, 0, m.start()):
            return None
        ref = m.group("ref")
        if entry := re.search(rf"(?m)^[ \t]*{re.escape(ref)}[ \t]+(\S[^\n]{{0,100}})", d.text):
            return f"{ref} {entry.group(1).strip()}"
        return " ".join(ref.split())

    def link_text(self, d: Document, start: int, end: int) -> str | None:
        """The target of the link whose visible text holds the figure at [start, end) ("it [offers ~2x
        performance in Llama 3](https://vendor.example/article)"): a page of another site states it. None for a
        relative link or a code host (the project's own), or when the figure lies in no link's text."""
        for link in d.links:
            if link.start <= start and end <= link.end and self.external_page.match(link.target):
                return link.target
        return None

    def section(self, d: Document, passage: Passage) -> str | None:
        """The title of the section reviewing other work that the passage lies in, else None."""
        return next((t for t in d.section_path(passage.section) if self.cited_sections.search(t)), None)


NOTE_REACH = 300   # a note under a table starts this close after the table's end
NOTE_BLOCKS = 2    # and is one of the first blocks after it
NOTE_KINDS = ("paragraph", "caption", "quote", "list_item")
_EMPHASIS = re.compile(r"\*\*|__|(?<![\\*])\*(?=\S)([^*\n]*?\S)\*(?!\*)")
_FOOTNOTE_MARKER = re.compile(r"\[\^([\w-]{1,40})\](?!:)")
_LINK_TARGET = re.compile(r"\]\([^)\s]*\)?")
_BOLD = re.compile(r"(?:\*\*|__|<(?:b|strong)>)\s*$")   # before a cell's text: the cell is set in bold


@dataclass(frozen=True)
class TableCredit:
    """What a table's note credits to other reports: the cells or rows carrying `mark`, else (mark None) the rows
    or columns of the compared systems, every one but `own` (body row indices, or column indices when `by_column`)."""

    party: str
    mark: str | None = None
    own: frozenset[int] = frozenset()
    by_column: bool = False

    def credits(self, d: Document, table: Table, row: int | None, col: int | None) -> bool:
        """Whether the figure in body row `row`, column `col` of `table` is credited."""
        if row is None or row < 0 or row >= len(table.rows):
            return False
        if self.mark is None:
            return (col not in self.own) if self.by_column else (row not in self.own)
        cells = table.rows[row]
        mine = [c for c in cells if c.col == col]
        return any(_carries(_whole_cell(d.text, c), self.mark) for c in mine + cells[:1])


def _party(credit: str) -> str:
    """A note's credit as a reader sees it: links as their text ("from [the paper](https://...)" -> "from the paper")."""
    return " ".join(_LINK_TARGET.sub("", credit).replace("[", "").split()).rstrip(" ,:")


def _whole_cell(text: str, cell: Cell) -> str:
    """A cell's text with the markup around it up to its borders (a cell's span leaves out "**" and a "\\*")."""
    lo = max(text.rfind("|", max(0, cell.start - 20), cell.start), text.rfind(">", max(0, cell.start - 20), cell.start))
    ends = [i for i in (text.find("|", cell.end, cell.end + 20), text.find("<", cell.end, cell.end + 20),
                        text.find("\n", cell.end, cell.end + 20)) if i >= 0]
    return text[max(lo + 1, cell.start - 20):min(ends, default=cell.end + 20)]


def _carries(cell: str, mark: str) -> bool:
    """Whether a cell's text carries the note's mark (a "*" that is no emphasis marker)."""
    if mark in ("*", "\\*"):
        return "\\*" in cell or "*" in _EMPHASIS.sub(r"\1", cell)
    return mark in cell


class TableNotes:
    """Reads the note of a table that credits its compared systems' figures, or its marked cells, to other reports
    (rules `table_note_credit`, `table_note_own`, `table_mark_credit`, `table_own_label` of scopes.yaml)."""

    def __init__(self, scopes: ScopeRules):
        self.note_credit = re.compile(scopes.table_note_credit)
        self.note_own = re.compile(scopes.table_note_own)
        self.mark_credit = re.compile(scopes.table_mark_credit, re.M)
        self.own_label = re.compile(scopes.table_own_label)

    def credit(self, d: Document, t: int, lead: tuple[int, int] | None) -> TableCredit | None:
        """The credit of table `t`'s caption or lead-in (`lead`, its span) or of a note right under it, else None."""
        table = d.tables[t]
        spans = [lead] if lead is not None else []
        first = bisect_right([b.start for b in d.blocks], table.end - 1)
        for b in d.blocks[first:first + NOTE_BLOCKS]:
            if b.start - table.end <= NOTE_REACH and b.kind in NOTE_KINDS and b.section == table.section:
                spans.append((b.start, b.end))
        for start, end in spans:
            text = d.text[start:end]
            if m := self.mark_credit.search(text):
                return TableCredit(_party(m.group("who") or m.group("who2")), mark=m.group("mark") or m.group("mark2"))
            for m in self.note_credit.finditer(text):
                if self._ran_by_the_post(text, m.start(), m.end()):
                    continue
                return self._compared_rows(d, table, _party(m.group("who")))
        return None

    def _ran_by_the_post(self, text: str, start: int, end: int) -> bool:
        """Whether the sentence of the note's match says the post ran the compared systems itself."""
        left = max(text.rfind(".", 0, start), text.rfind("\n", 0, start)) + 1
        right = min([i for i in (text.find(".", end), text.find("\n", end)) if i >= 0] or [len(text)])
        return self.note_own.search(text, left, right) is not None

    def _compared_rows(self, d: Document, table: Table, party: str) -> TableCredit | None:
        """The credit of the compared systems' rows (their label in the first column), else columns (their header):
        those whose label is not the post's own. None when no label, or every label, is the post's own."""
        title = " ".join(filter(None, [d.title] + [s.title for s in d.sections[:1]])).lower()
        labels = [(r, row[0]) for r, row in enumerate(table.rows) if row]
        own = self._own(d, labels, title)
        if own is not None:
            return TableCredit(party, own=own)
        own = self._own(d, [(c.col, c) for c in table.header[1:]], title)
        return None if own is None else TableCredit(party, own=own, by_column=True)

    def _own(self, d: Document, labels: list[tuple[int, Cell]], title: str) -> frozenset[int] | None:
        raw = {k: d.text[c.start:c.end] for k, c in labels}
        plain = {k: d.view[c.start:c.end].strip(" *_`") for k, c in labels}
        bold = {k for k, c in labels if _BOLD.search(d.text[max(0, c.start - 12):c.start])
                or d.text.startswith(("**", "__", "<b>", "<strong>"), c.start)}
        own = {k for k, text in plain.items() if text and (
            self.own_label.search(text) or (k in bold and len(bold) < len(raw))
            or (m := re.match(r"[A-Za-z][\w.]*[A-Za-z]", text)) and re.search(rf"(?<!\w){re.escape(m.group(0).lower())}(?!\w)", title))}
        named = {k for k, text in plain.items() if text}
        return frozenset(own) if own and named - own else None
