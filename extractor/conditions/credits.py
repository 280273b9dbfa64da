"""Who a claim's figure is credited to (`DocumentCredits.cited_from`): a citation cue of its sentence, list or table
lead-in, a table note crediting the compared rows, a source link, a reference, a section that reviews other work. A
credit given by text to another party is noted (`credited`): such a figure is set aside as `cited`."""
from __future__ import annotations

import re

from extractor.conditions.citations import PlacedCitations, TableCredit, TableNotes, WorksLists, reference_entries
from extractor.conditions.context import DocContext
from extractor.conditions.rules import ScopeRules
from extractor.ingest import Document
from extractor.ingest.segment import Passage
from extractor.records import Claim

TABLE_LEAD_REACH = 400   # the paragraph that leads into a table ends this close before it
# the `citation_cue` groups that credit a whole table from its lead-in: a named source ("according to X", "published
# by X", "in their paper", "studies show"), not "X reports" (a lead-in "validated against the official X report"
# names what the post compared with)
TABLE_PARTIES = ("who", "who2", "who3", "who5", "who6", "who7", "who8")
# ... and those that credit a table cell's own figure ("a 2.1x gain (per the Lumen study)", "according to X")
CELL_PARTIES = ("who", "who2", "who3", "who7")

def _table_lead(d: Document, t: int) -> Passage | None:
    """The caption of table `t`, else the paragraph right before it in its section (a blank line or a short
    note apart), as a passage; None when neither is there."""
    table = d.tables[t]
    if table.caption is not None:
        return Passage(table.caption.start, table.caption.end, "caption", -1, table.section)
    before = [b for i in d.blocks_ending(table.start - TABLE_LEAD_REACH, table.start)
              if (b := d.blocks[i]).end <= table.start]
    if not before:
        return None
    b = max(before, key=lambda b: (b.end, b.start))
    if b.section != table.section or b.kind not in ("paragraph", "caption", "list_item", "quote"):
        return None
    return Passage(b.start, b.end, b.kind, -1, b.section)


class CitationRules:
    """The citation rules of scopes.yaml, compiled once (`citation_cue`, `citation_self`, `citation_own_work`, the
    example opening, and the placed citations and table notes of citations.py)."""

    def __init__(self, scopes: ScopeRules):
        self.citation_cue = re.compile(scopes.citation_cue, re.I)
        # a sentence that opens as an example of what the sentence before it said ("For example, with 741 tools")
        self.example_opening = re.compile(rf"[*_\s]*(?:{scopes.example_cue})", re.I)
        self.citation_self = re.compile(scopes.citation_self, re.I)
        self.citation_own_work = re.compile(scopes.citation_own_work)
        self.placed = PlacedCitations(scopes)
        self.table_notes = TableNotes(scopes)


class DocumentCredits:
    """One document's citations, each read once: per sentence, per table, per list lead-in."""

    def __init__(self, rules: CitationRules, ctx: DocContext):
        self.rules, self.ctx = rules, ctx
        self._citations: dict[tuple[int, int], tuple[str | None, str] | None] = {}   # per sentence: (link, who)
        self._table_citation: dict[int, tuple[str, str | None] | None] = {}   # table -> (party, rule) of its lead-in
        self._table_credit: dict[int, TableCredit | None] = {}   # table -> what its note credits to other reports
        self._references: dict[str, str] | None = None   # the post's reference-list lines and footnotes, by marker
        self._findings: dict[tuple[int, int], str | None] = {}   # per sentence: what it credits its figures to
        self._paragraph_sources: dict[int, str | None] = {}   # per paragraph: the image or table source it names
        self._list_lead_citation: dict[int, tuple[str | None, str] | None] = {}   # a list's first item -> its lead's
        # per paragraph: where its first work named with a linked paper ends, and that citation
        self._paper_subject: dict[int, tuple[int, tuple[str | None, str]] | None] = {}
        self._works_lists = WorksLists()   # the lists read so far: which gather others' works
        self.credited: dict[tuple[int, int], str] = {}   # claim span -> rule crediting it to another party by text

    def cited_from(self, claim: Claim, passage: Passage, source: str | None) -> str | None:
        """The party the claim's own sentence credits its figure to ("according to X's paper", "X reports"),
        as the sentence's link (or `source`, the link its paragraph gives) or as written; None when the
        sentence cites no one, or only the post itself ("according to our measurements"). A credit given by text
        to another party (not a link alone, not a PR or issue of the post's own project) is noted in `credited`."""
        if passage.kind == "front_matter":
            return None
        party, rule = self._credit(claim, passage, source)
        if party is not None and rule is not None:
            self.credited[(claim.span[0], claim.span[1])] = rule
        return party

    def _credit(self, claim: Claim, passage: Passage, source: str | None) -> tuple[str | None, str | None]:
        """(the party, the scopes.yaml rule that credits it by text to another party, else None)."""
        if passage.table is not None:
            # a table's figures are credited by its caption or the paragraph that leads into it ("The results
            # below come from X's published benchmarks:"), once per table
            t, d = passage.table, self.ctx.d
            if t not in self._table_citation:
                lead = _table_lead(d, t)
                cited = None if lead is None else self._citation(lead, TABLE_PARTIES) or self._label_lead_citation(lead)
                self._table_citation[t] = None if cited is None else (cited[0] or cited[1], self._cue_rule(cited))
                # "* Scores of the other models are copied from their reports.": the compared rows, or marked cells
                self._table_credit[t] = None if cited is not None else \
                    self.rules.table_notes.credit(d, t, None if lead is None else (lead.start, lead.end),
                                                   self.ctx.block_starts)
            credit = self._table_credit[t]
            if credit is not None and credit.credits(d, d.tables[t], passage.row, passage.col):
                return credit.party, "scopes.table_note_credit" if credit.mark is None else "scopes.table_mark_credit"
            if self._table_citation[t] is None and (own := self._citation(passage, CELL_PARTIES)) is not None:
                return own[0] or own[1], self._cue_rule(own)   # a cell that credits its figure: "(per the Lumen study)"
            return self._table_citation[t] or (None, None)
        key = (passage.start, passage.end)   # every claim of a sentence reads the same citation: read it once
        if key not in self._citations:
            self._citations[key] = self._citation(passage)
        cited = self._citations[key]
        if cited is None and passage.block >= 0 and self.rules.example_opening.match(self.ctx.d.view, passage.start):
            # "Research has documented X. For example, ... showed 22-52%": the example is of what was cited
            b = self.ctx.d.blocks[passage.block]
            if b.start < passage.start:
                cited = self._citation(Passage(b.start, passage.start, passage.kind, passage.block, passage.section))
        if cited is None and passage.kind == "list_item" and passage.block >= 0:
            cited = self._list_citation(passage.block)
        if cited is None and passage.kind == "paragraph" and passage.block >= 0:
            cited = self._paper_subject_before(passage)
        if cited is not None:
            return cited[0] or source or cited[1], self._cue_rule(cited)
        placed = self.rules.placed
        if passage.kind == "list_item" and passage.block >= 0 \
                and (work := placed.linked_work(self.ctx.d, passage.block, self._works_lists)) is not None:
            # "- [port-x](https://...): ... runs about 9 tokens/s"; an item that says "we" keeps its claim, linked
            return work[0], "scopes.linked_work_item" if work[1] else None
        if (found := placed.source(self.ctx.d, passage, self._paragraph_sources)) is not None:
            return found, None    # "... 3x faster ([source](https://...))": a link
        if (found := self._finding(passage, key)) is not None:   # a linked subject, a footnote or a reference
            return found, None if found.startswith(("http://", "https://")) else \
                "scopes.reference_marker" if found[:1] in "[(" else "scopes.footnote_source"
        if (found := placed.link_text(self.ctx.d, *claim.span)) is not None:
            return found, None    # "it [offers ~2x](https://...)": a link
        if (found := placed.section(self.ctx.d, passage)) is not None:
            return found, "scopes.cited_sections"   # a figure under "Related work"
        return None, None

    def _paper_subject_before(self, passage: Passage) -> tuple[str | None, str] | None:
        """The citation of a work named with a link to its paper in an earlier sentence of the passage's paragraph
        ("One option is Wren ([preprint](https://...)). Its trees ... give 1.4x ..."): the paragraph describes that
        work, and its figures are the work's published ones, unless the figure's sentence speaks of the post's own
        work ("we", "our"). Read once per paragraph."""
        i = passage.block
        if i not in self._paper_subject:
            b = self.ctx.d.blocks[i]
            found = None
            for m in self.rules.citation_cue.finditer(self.ctx.d.view, b.start, b.end):
                if m.groupdict().get("who9"):
                    cited = self._citation(Passage(m.start(), m.end(), "paragraph", i, passage.section), ("who9",))
                    found = None if cited is None else (m.end(), cited)
                    break
            self._paper_subject[i] = found
        found = self._paper_subject[i]
        if found is None or found[0] > passage.start \
                or self.rules.placed.reference_own.search(self.ctx.d.view, passage.start, passage.end):
            return None       # "... In our runs it gives 1.8x": the post's own measurement (`reference_own`)
        return found[1]

    def _cue_rule(self, cited: tuple[str | None, str]) -> str | None:
        """The rule of a citation cue that credits another party; None for the post's own PR, issue or changelog."""
        return None if self.rules.citation_own_work.match(cited[1]) else "scopes.citation_cue"

    def _finding(self, passage: Passage, key: tuple[int, int]) -> str | None:
        """`PlacedCitations.finding` of the sentence, read once per sentence."""
        if key not in self._findings:
            if self._references is None:
                self._references = reference_entries(self.ctx.d)
            self._findings[key] = self.rules.placed.finding(self.ctx.d, passage, self._references)
        return self._findings[key]

    def _label_lead_citation(self, lead: Passage) -> tuple[str | None, str] | None:
        """The citation of the paragraph before a table's label lead-in ("Research shows X:" then "**Accuracy by
        size:**" then the table), as for a list (`_list_citation`): both end with a colon. None otherwise."""
        d = self.ctx.d
        if not d.view[lead.start:lead.end].rstrip(" *_").endswith(":"):
            return None
        i = next((k for k in d.blocks_ending(lead.end, lead.end) if d.blocks[k].start == lead.start), None)
        before = d.blocks[i - 1] if i else None
        if before is None or before.kind != "paragraph" or before.section != lead.section \
                or not d.view[before.start:before.end].rstrip(" *_").endswith(":"):
            return None
        return self._citation(Passage(before.start, before.end, before.kind, i - 1, before.section), TABLE_PARTIES)

    def _list_citation(self, block: int) -> tuple[str | None, str] | None:
        """The citation of the paragraph that leads into the list holding list item `block` and ends with a colon
        ("Research on large catalogs found that:"): its items state what that party found. None otherwise."""
        d = self.ctx.d
        first = block
        while first > 0 and d.blocks[first - 1].kind == "list_item" and d.blocks[first - 1].section == d.blocks[block].section:
            first -= 1
        if first not in self._list_lead_citation:
            cited = None
            # the paragraph that leads into the list, and one that leads into it in turn ("Research found X:"
            # then "**By position (741 tools):**" then the list)
            for i in (first - 1, first - 2):
                lead = d.blocks[i] if i >= 0 else None
                if cited is not None or lead is None or lead.kind != "paragraph" \
                        or lead.section != d.blocks[block].section \
                        or not d.view[lead.start:lead.end].rstrip(" *_").endswith(":"):
                    break
                cited = self._citation(Passage(lead.start, lead.end, lead.kind, i, lead.section))
            self._list_lead_citation[first] = cited
        return self._list_lead_citation[first]

    def _citation(self, passage: Passage, parties: tuple[str, ...] | None = None) -> tuple[str | None, str] | None:
        """(the passage's link, the party as written) of its first citation, else None; `parties`: the groups of
        `citation_cue` that may name the party (None: all)."""
        ctx = self.ctx
        view = ctx.d.view
        for m in self.rules.citation_cue.finditer(view, passage.start, passage.end):
            who = next((g for name, g in m.groupdict().items() if g and (parties is None or name in parties)), "")
            who = who.strip(" *_`'\"")
            if not who or self.rules.citation_self.match(who):
                continue
            if m.groupdict().get("who9") and re.search(rf"(?<![\w-]){re.escape(who)}(?![\w-])", ctx.d.title or "",
                                                       re.I):
                continue      # a work with its paper linked, in a post whose title names it: its own work
            link = next((ln.target for ln in ctx.d.links if passage.start <= ln.start < passage.end
                         and ln.target.startswith(("http://", "https://"))), None)
            return link, " ".join(ctx.d.text[m.start() + (m.group(0).find(who)):][:len(who)].split())
        return None
