"""What every condition reader shares about one document: the document, its condition mentions placed
(`Located`) and grouped by place (block, table, section's prose, code, printed output, captions), its setup
sections, table group-label rows, lists of alternatives and the claims' figures. Built whole, once, by
`DocumentReader` (document_reader.py); read-only after that. Each reader keeps what it memoises for the
document in an object of its own (places.py `DocumentPlaces`, ladder.py `LadderReading`, ...)."""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from extractor.conditions._internals.lookups import SectionLookup
from extractor.conditions.located import Located
from extractor.ingest import Document


@dataclass(slots=True)
class DocContext:
    """The document and its indexes, shared by every reader of condition resolution."""

    d: Document
    mentions: list[Located]
    setup: list[int]   # the setup sections, in section order
    back_matter_setup: set[int]   # those in the post's back matter (an appendix): they set up the whole post
    section_of: SectionLookup
    groups: dict[tuple[int, int], int | None]   # (table, row) -> the group-label row governing it
    alternatives: set[int]   # list items that each describe their own experiment
    claim_spans: list[tuple[int, int]]   # every claim's figure, in order
    code_feeds: dict[int | None, set[int]] = field(default_factory=dict)   # section -> cells its run's code reads from
    labelled_setup: set[int] = field(default_factory=set)   # setup sections by their labelled items alone
    back_matter_sections: list[int] = field(default_factory=list)   # sections under a back-matter heading
    carried: dict[tuple[int, int], dict[int, int]] = field(default_factory=dict)   # row_spans.carried_cells
    claim_starts: list[int] = field(init=False)   # their starts (for `claims_in`)
    starts: list[int] = field(init=False)
    by_block: dict[int, list[Located]] = field(init=False)
    by_table: dict[int, list[Located]] = field(init=False)
    prose: dict[int | None, list[Located]] = field(init=False)
    prose_starts: dict[int | None, list[int]] = field(init=False)
    code: dict[int | None, list[Located]] = field(init=False)
    output: dict[int, list[Located]] = field(init=False)   # code block -> mentions on its printed lines
    captions: dict[int | None, list[Located]] = field(init=False)
    table_block: dict[int, int] = field(init=False)
    block_starts: list[int] = field(init=False)
    table_starts: list[int] = field(init=False)
    caption_runs: dict[int | None, list[list[int]]] = field(init=False)
    binds_mode: bool = field(init=False)    # some setting is bound to one named mode (`Located.for_mode`)
    binds_model: bool = field(init=False)   # ... to one model of several (`Located.for_model`)

    def __post_init__(self) -> None:
        """Group the mentions by place once, so each claim's scopes are look-ups, not scans."""
        self.claim_starts = [s[0] for s in self.claim_spans]
        self.by_block, self.by_table, self.prose, self.code, self.output, self.captions = {}, {}, {}, {}, {}, {}
        self.table_block, self.caption_runs = {}, {}
        self.mentions.sort(key=lambda x: x.m.span)
        self.starts = [x.m.span[0] for x in self.mentions]
        self.binds_mode = any(x.for_mode is not None for x in self.mentions)
        self.binds_model = any(x.for_model is not None for x in self.mentions)
        table_captions = {t.caption.start for t in self.d.tables if t.caption}
        for x in self.mentions:
            self.by_block.setdefault(x.block, []).append(x)
            if x.table is not None:
                self.by_table.setdefault(x.table, []).append(x)
            if x.output:
                self.output.setdefault(x.block, []).append(x)
            elif x.code:
                self.code.setdefault(x.section, []).append(x)
            elif x.block >= 0 and x.table is None:
                self.prose.setdefault(x.section, []).append(x)
                b = self.d.blocks[x.block]
                if b.kind == "caption" and b.start not in table_captions:
                    self.captions.setdefault(x.section, []).append(x)
        self.prose_starts = {s: [x.m.span[0] for x in located] for s, located in self.prose.items()}
        self.block_starts = [b.start for b in self.d.blocks]
        self.table_starts = [t.start for t in self.d.tables]
        table_blocks = {b.start: i for i, b in enumerate(self.d.blocks) if b.kind == "table"}
        for t, table in enumerate(self.d.tables):
            i = bisect_right(self.block_starts, table.start) - 1
            self.table_block[t] = i if i >= 0 and self.d.blocks[i].kind == "table" else table_blocks.get(table.start, -1)
        for i, b in enumerate(self.d.blocks):   # runs of consecutive caption blocks: one figure's captions
            if b.kind == "caption":
                runs = self.caption_runs.setdefault(b.section, [])
                if runs and runs[-1][-1] == i - 1:
                    runs[-1].append(i)
                else:
                    runs.append([i])

    def between(self, start: int, end: int) -> list[Located]:
        """Mentions that start in [start, end)."""
        return self.mentions[bisect_left(self.starts, start):bisect_left(self.starts, end)]

    def claims_in(self, start: int, end: int) -> list[tuple[int, int]]:
        """The claims' figures that start in [start, end), in order (a bisection, not a scan of every claim)."""
        return self.claim_spans[bisect_left(self.claim_starts, start):bisect_left(self.claim_starts, end)]

    def prose_before(self, section: int | None, end: int) -> list[Located]:
        """The prose mentions of a section that start before `end`."""
        located = self.prose.get(section, [])
        return located[:bisect_left(self.prose_starts[section], end)] if located else located


def flat_prose(d: Document) -> str:
    """The view with the soft line breaks inside prose blocks made spaces (same length), so a phrase
    wrapped across lines ("1,000\\ninput tokens") reads as written; code keeps its lines."""
    view = d.view
    spans = sorted((b.start, b.end) for b in d.blocks
                   if b.kind not in ("code", "table") and view.find("\n", b.start, b.end) >= 0)
    parts, done = [], 0
    for start, end in spans:   # (overlapping blocks: each stretch is flattened once)
        start = max(start, done)
        if end > start:
            parts += [view[done:start], view[start:end].replace("\n", " ")]
            done = end
    return "".join(parts) + view[done:] if parts else view
