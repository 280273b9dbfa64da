"""Citations that credit a figure by where it sits rather than by a cue word (see `Places.cited_from`): a source
link in parentheses at the end of its sentence or list item ("... up to 3x faster ([source](https://...))"), the
text of a link to another site ("it [offers ~2x performance](https://...)"), a section that reviews other work
("Related work", "Prior work", "Related papers"), and a table note that credits the compared systems' rows or the
marked cells to their own reports ("* Scores of the other models are copied from their technical reports.")."""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from extractor.conditions.rules import ScopeRules
from extractor.ingest import Document
from extractor.ingest.model import Cell, Link, Table
from extractor.ingest.segment import Passage


class PlacedCitations:
    """Reads the citation a figure's place gives (rules `source_link`, `cited_sections` of scopes.yaml)."""

    def __init__(self, scopes: ScopeRules):
        self.source_link = re.compile(scopes.source_link)
        self.cited_sections = re.compile(scopes.cited_sections)
        self.external_page = re.compile(r"https?://(?!(?:www\.)?(?:github|gitlab)\.com/)")
        self.external_link = re.compile(r"https?://")
        self.linked_finding = re.compile(scopes.linked_finding)
        self.paragraph_source = re.compile(scopes.paragraph_source)
        self.reference_marker = re.compile(scopes.reference_marker)
        self.reference_own = re.compile(scopes.reference_own)
        self.footnote_source = re.compile(scopes.footnote_source)
        self.linked_work_item = re.compile(scopes.linked_work_item)
        self.others_works_lead = re.compile(scopes.others_works_lead)

    def source(self, d: Document, passage: Passage, paragraph_sources: dict[int, str | None]) -> str | None:
        """The target of a source link in parentheses in the passage, else (in a list item) in its item, else of
        an image or table source its paragraph names: the figures of the sentence, item or paragraph are that
        source's. A link to a code host (the post's own repository or benchmark script) is none.
        `paragraph_sources`: the image or table source of each paragraph read so far, by block (read once each)."""
        spans = [(passage.start, passage.end)]
        if passage.kind == "list_item" and passage.block >= 0:
            b = d.blocks[passage.block]
            spans.append((b.start, b.end))
        for start, end in spans:
            for m in self.source_link.finditer(d.text, start, end):
                return m.group("url") or m.group("url2")
        if passage.kind == "paragraph" and passage.block >= 0:   # "... (chart source: [..](https://..))."
            if passage.block not in paragraph_sources:
                b = d.blocks[passage.block]
                paragraph_sources[passage.block] = next(   # "data source: [our dashboard](..)" is the post's own
                    (m.group("url") for m in self.paragraph_source.finditer(d.text, b.start, b.end)
                     if not self.reference_own.search(m.group("text") or m.group("work") or "")), None)
            return paragraph_sources[passage.block]
        return None

    def finding(self, d: Document, passage: Passage, entries: dict[str, str]) -> str | None:
        """What the sentence credits its figures to as its subject or its closing reference: the target of a link to
        another site that opens the sentence and reports a finding ("For example, X's [suite](https://...) shows 2x"),
        else the definition of a footnote it marks when that names a source ("[^2]: Source: ..."), else a numbered or
        author-year reference that ends a sentence not about the post's own work ("... at 3x the old part's pace [2].",
        "(Lee et al., 2024)"), with its entry in the post's reference list when there is one. `entries`: the post's
        reference-list lines and footnote definitions by marker (`reference_entries`)."""
        if passage.kind == "cell":
            return None
        if m := self.linked_finding.match(d.text, passage.start, passage.end):
            return m.group("url")
        sentence = d.text[passage.start:passage.end]
        if entries:
            for marker in _FOOTNOTE_MARKER.finditer(sentence):   # "... 3x faster[^2]." and "[^2]: Source: ..."
                note = entries.get(f"^{marker.group(1)}")
                if note and self.footnote_source.search(note):
                    return " ".join(_LINK_TARGET.sub("", note).replace("[", "").split())[:120]
        m = self.reference_marker.search(sentence, max(0, len(sentence) - 160))
        if m is None or self.reference_own.search(sentence, 0, m.start()):
            return None
        ref = " ".join(m.group("ref").split())
        entry = entries.get(ref[1:-1]) if ref.startswith("[") else None
        return f"{ref} {entry[:100]}" if entry else ref


    def link_text(self, d: Document, start: int, end: int) -> str | None:
        """The target of the link whose visible text holds the figure at [start, end) ("it [offers ~2x
        performance in Llama 3](https://vendor.example/article)"): a page of another site states it. None for a
        relative link or a code host (the project's own), or when the figure lies in no link's text."""
        for link in d.links:
            if link.start <= start and end <= link.end and self.external_page.match(link.target):
                return link.target
        return None

    def linked_work(self, d: Document, block: int, works_lists: WorksLists) -> tuple[str, bool] | None:
        """The link of a list item in a list that gathers other parties' works: the figures of the item are that
        work's own. The list gathers others' works when its section's title, or a paragraph or heading of its
        section before the list (at most LEAD_BLOCKS back), names them (`others_works_lead`: "Open-source projects
        that speed up X:", "X adoption"). The link is the one the item opens with ("- [port-x](https://...): a port
        for phones that runs about 9 tokens/s", `linked_work_item`), else its first link to another page ("- Acme's
        [trainer](https://...) trains 2x faster"), with True: the item credits its figures to that work by text.
        An item that speaks of the post's own work ("- Our own [fork](https://...) gets 3x", "- a collaboration
        with [X](https://...): we train it in 2 minutes", `reference_own`) gives the link with False: the claim
        stays, the link says where its figure is told. `works_lists`: the document's lists read so far (`WorksLists`)."""
        b = d.blocks[block]
        line_start = d.text.rfind("\n", 0, b.start) + 1
        item = d.text[line_start:b.end]
        if "](http" not in item:
            return None
        first = works_lists.first_item(d, block)
        if first not in works_lists.decided:
            leads = [d.view[x.start:x.end] for x in d.blocks[max(0, first - LEAD_BLOCKS):first]
                     if x.section == b.section and x.kind in ("paragraph", "heading")]
            works_lists.decided[first] = any(self.others_works_lead.search(t)
                                             for t in leads + d.section_path(b.section))
        if not works_lists.decided[first]:
            return None
        credited = self.reference_own.search(item) is None
        if (m := self.linked_work_item.match(d.text, line_start)) is not None and m.end() <= b.end:
            return m.group("url"), credited
        url = next((link.target for link in works_lists.links_from(d, line_start, b.end)
                    if self.external_link.match(link.target)), None)
        return None if url is None else (url, credited)

    def section(self, d: Document, passage: Passage) -> str | None:
        """The title of the section reviewing other work that the passage lies in, else None."""
        return next((t for t in d.section_path(passage.section) if self.cited_sections.search(t)), None)


@dataclass
class WorksLists:
    """What `linked_work` has read of one document's lists: the first item of each list item's list, the decision
    whether a list (by its first item) gathers others' works, and the document's links sorted by start, so that
    each figure of a long list costs a look-up, not a walk to the list's head and a scan of every link."""
    decided: dict[int, bool] = field(default_factory=dict)
    first_of: dict[int, int] = field(default_factory=dict)
    _links: list[Link] | None = None
    _starts: list[int] = field(default_factory=list)

    def first_item(self, d: Document, block: int) -> int:
        """The first item of the list that list item `block` belongs to (same section, no other block between)."""
        if (known := self.first_of.get(block)) is not None:
            return known
        section, first = d.blocks[block].section, block
        while first > 0 and d.blocks[first - 1].kind == "list_item" and d.blocks[first - 1].section == section:
            if (known := self.first_of.get(first - 1)) is not None:
                first = known
                break
            first -= 1
        self.first_of[block] = first
        return first

    def links_from(self, d: Document, start: int, end: int) -> list[Link]:
        """The document's links that start in [start, end), in the order of their start."""
        if self._links is None:
            self._links = sorted(d.links, key=lambda link: link.start)
            self._starts = [link.start for link in self._links]
        return self._links[bisect_left(self._starts, start):bisect_left(self._starts, end)]


def reference_entries(d: Document) -> dict[str, str]:
    """The post's reference-list lines ("[4] Vendor, ...": key "4") and footnote definitions ("[^v]: Source: ...":
    key "^v"), by marker, read once per document. A marker defined twice keeps its first definition."""
    entries: dict[str, str] = {}
    if "[" in d.text:
        for m in _ENTRY.finditer(d.text):
            entries.setdefault(m.group(1), m.group(2))
    return entries


LEAD_BLOCKS = 3    # a list of others' works is named at most this many blocks before it ("X:" then "Inference:")
NOTE_REACH = 300   # a note under a table starts this close after the table's end
NOTE_BLOCKS = 2    # and is one of the first blocks after it
_EMPHASIS = re.compile(r"\*\*|__|(?<![\\*])\*(?=\S)([^*\n]*?\S)\*(?!\*)")
_ENTRY = re.compile(r"(?m)^[ \t]*\[(\^?[\w-]{1,40})\]:?[ \t]+(\S[^\n]{0,160})")
_FOOTNOTE_MARKER = re.compile(r"\[\^([\w-]{1,40})\](?!:)")
_LEADING_NAME = re.compile(r"[A-Za-z][\w.]*[A-Za-z]")   # the name a label starts with ("Orca" of "Orca-7B")
_LINK_TARGET = re.compile(r"\]\([^)\s]*\)?")


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
    """A note's credit as a reader sees it: links as their text ("from [the paper](https://...)": "from the paper")."""
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
        self.own_title_not = re.compile(scopes.table_own_title_not)
        self.bold_before = re.compile(rf"(?:{scopes.table_bold_markup})\s*$")
        self.bold_opening = re.compile(rf"\s*(?:{scopes.table_bold_markup})")
        self.note_kinds = frozenset(scopes.table_note_kinds)

    def credit(self, d: Document, t: int, lead: tuple[int, int] | None, block_starts: list[int]
               ) -> TableCredit | None:
        """The credit of table `t`'s caption or lead-in (`lead`, its span) or of a note right under it, else None.
        `block_starts`: the start of each block of `d` (DocContext.block_starts)."""
        table = d.tables[t]
        spans = [lead] if lead is not None else []
        first = bisect_right(block_starts, table.end - 1)
        for b in d.blocks[first:first + NOTE_BLOCKS]:
            if b.start - table.end <= NOTE_REACH and b.kind in self.note_kinds and b.section == table.section:
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
        if self.own_title_not.search(title):
            title = ""   # "Kite-13B vs. Orca-7B": both sides are named, neither is told the post's own
        labels = [(r, row[0]) for r, row in enumerate(table.rows) if row]
        own = self._own(d, labels, title)
        if own is not None:
            return TableCredit(party, own=own)
        own = self._own(d, [(c.col, c) for c in table.header[1:]], title)
        return None if own is None else TableCredit(party, own=own, by_column=True)

    def _own(self, d: Document, labels: list[tuple[int, Cell]], title: str) -> frozenset[int] | None:
        """The keys (rows or columns) of the labels that name the post's own system: a label with "ours", "this
        work" or "proposed" (`table_own_label`), one set in bold among plain ones, or one whose leading name the
        post's title (`title`, lower case; '' when it names no own system) carries. None when no label, or every
        label, is the post's own: then the table tells the compared systems from the post's own by nothing."""
        raw = {k: d.text[c.start:c.end] for k, c in labels}
        plain = {k: d.view[c.start:c.end].strip(" *_`") for k, c in labels}
        bold = {k for k, c in labels if self.bold_before.search(d.text[max(0, c.start - 12):c.start])
                or self.bold_opening.match(d.text, c.start)}
        own = {k for k, text in plain.items() if text and (
            self.own_label.search(text) or (k in bold and len(bold) < len(raw))
            or (m := _LEADING_NAME.match(text)) and re.search(rf"(?<!\w){re.escape(m.group(0).lower())}(?!\w)", title))}
        named = {k for k, text in plain.items() if text}
        return frozenset(own) if own and named - own else None
