"""Results tables: one claim per result cell, its unit and metric read from the column and
row headers when the cell holds a bare number."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Protocol

from extractor.claims.classify import ClaimBuilder, Cue, nearest, unit_class
from extractor.ingest import Document
from extractor.ingest.model import Cell, Table, group_label
from extractor.records import Claim, ClaimContext, QuantityRecord
from extractor.ingest.segment import Passage



class TextAnalyser(Protocol):
    """What the table reader needs of the sentence reader: quantities and cues of short texts."""

    builder: ClaimBuilder

    def analyse(self, texts: list[str], offsets: list[int],
                located: bool = False) -> Iterable[tuple[list[QuantityRecord], list[Cue]]]:
        """(quantities, cues) of each text, spans shifted by its offset."""

    def may_hold_number(self, text: str, start: int = 0, end: int | None = None) -> bool:
        """Whether text[start:end] can hold a number at all (a cheap pre-check)."""

_PAREN = re.compile(r"\(([^()]*)\)|\[([^\[\]]*)\]")
# a unit named by a caption or lead-in: "(tokens/s)", "in milliseconds", "in tok/s per GPU"
_LEAD_UNIT = re.compile(r"\(([^()\d]{1,24})\)|\bin ([A-Za-z/]+(?: (?:per|/) [A-Za-z]+)?)\b")
_LEAD_CLASSES = ("token_rate", "request_rate", "time")


@dataclass(frozen=True, slots=True)
class Header:
    """What a header cell says about the values under (or beside) it (shared: headers are cached)."""

    text: str
    unit: str | None = None
    cls: str | None = None
    cues: list[Cue] = field(default_factory=list)

    @property
    def counts(self) -> bool:
        """A header of counts or settings ("Test Size", "Batch", "#"): its cells are not results."""
        return self.cls is None and any(c.label == "count" for c in self.cues)


def _text(d: Document, c: Cell | None) -> str:
    return " ".join(d.view[c.start:c.end].split()) if c else ""


# a result cell starts with its number (markup, a sign or an approximation mark may come first)
_LEADS_WITH_NUMBER = re.compile(r"^[\s*_`~≈<>≤≥+\-−]*(?:\$\s*)?[\d.]")


def lead_in(d: Document, table: Table) -> str:
    """The table's caption and the paragraph right before it (which often names what it measures)."""
    parts = []
    if table.caption is not None:
        parts.append(d.view[table.caption.start:table.caption.end])
    before = [b for b in (d.blocks[i] for i in d.blocks_ending(table.start - 400, table.start))
              if b.kind in ("paragraph", "caption", "list_item") and b.section == table.section]
    if before:
        parts.append(d.view[before[-1].start:before[-1].end])
    return re.sub(r"\s+", " ", " ".join(parts)).strip()


class TableReader:
    """Reads result cells of every table of a document."""

    def __init__(self, x: TextAnalyser):
        self.x = x
        # headers repeat across rows, tables and posts ("Model", "Throughput (tok/s)"): each is read once
        self.header = lru_cache(maxsize=4096)(self._read_header)

    def _read_header(self, text: str) -> Header:
        """Cues and unit of a header: the unit is read from its parenthesised part or its whole text."""
        if not text:
            return Header(text)
        (_, cues), = self.x.analyse([text], [0])
        # a header naming a change ("Speedup", "TPS/User Speedup") holds ratios, whatever unit it mentions
        if nearest(cues, 0, 0, "change:up", 10**9) or nearest(cues, 0, 0, "change:down", 10**9):
            return Header(text, "x", "ratio", cues)
        candidates = [m.group(1) or m.group(2) for m in _PAREN.finditer(text)] + [_PAREN.sub(" ", text), text]
        words = _PAREN.sub(" ", text).split()
        # a unit after leading words that are no unit ("Completed samples per second", "Avg tokens/s")
        candidates += [" ".join(words[i:]) for i in range(1, min(len(words), 4))]
        pieces = [f"1 {c.strip()}" for c in candidates if c and c.strip()]
        for qs, _ in self.x.analyse(pieces, [0] * len(pieces)):   # lazily: the first piece with a unit wins
            unit_q = next((q for q in qs if q.span[0] == 0 and q.unit not in ("dimensionless", "")), None)
            if unit_q and unit_class(unit_q.unit):
                return Header(text, unit_q.unit, unit_class(unit_q.unit), cues)
        if nearest(cues, 0, 0, "metric:accuracy", 10**9):
            return Header(text, "dimensionless", "score", cues)
        return Header(text, cues=cues)

    def lead_header(self, text: str) -> Header:
        """What a table's caption or lead-in paragraph says about bare cells: an accuracy metric ("accuracy
        on GSM8K") makes them scores; a metric with its unit in parentheses or after "in" ("Output
        throughput (tokens/s)", "Mean TTFT in milliseconds") gives them that unit."""
        if not text:
            return Header("")
        (_, cues), = list(self.x.analyse([text], [0]))
        accuracy = [c for c in cues if c.label == "metric:accuracy"]
        if accuracy:
            return Header(text, "dimensionless", "score", accuracy)
        metrics = [c for c in cues if c.label.startswith("metric:")]
        units = [m.group(1) or m.group(2) for m in _LEAD_UNIT.finditer(text)]
        pieces = [f"1 {u.strip()}" for u in units if u and u.strip()]
        for (qs, _), metric in zip(self.x.analyse(pieces, [0] * len(pieces)), units):
            q = next((q for q in qs if q.span[0] == 0 and q.unit not in ("dimensionless", "")), None)
            cls = unit_class(q.unit) if q else None
            if cls in _LEAD_CLASSES and metrics:
                return Header(text, q.unit, cls, metrics)
        return Header(text)

    def claims(self, d: Document) -> list[tuple[Claim, Passage]]:
        out: list[tuple[Claim, Passage]] = []
        for t, table in enumerate(d.tables):
            out.extend(self.table_claims(d, t, table))
        return out

    def result_cells(self, d: Document, table: Table) -> list[tuple[Cell, Header | None, str, int, list[Header]]]:
        """Body cells that can hold a result: (cell, column header, row header text, body row, the headers
        that qualify it). Cells under a header of counts or settings are left out before any reading."""
        cols = [self.header(_text(d, c)) for c in table.header]
        cells: list[tuple[Cell, Header | None, str, int, list[Header]]] = []
        group: Header | None = None
        for r, row in enumerate(table.rows):
            label = group_label(d.view, row)
            if label is None and len(row) == 1 and len(cols) > 1 and row[0].end > row[0].start \
                    and not any(ch.isdigit() for ch in _text(d, row[0])):
                label = row[0]     # "| **Speedup** |": a label row written as one cell of a wider table
            if label is not None:
                group = self.header(_text(d, label))      # a group label row ("H100", "Speedup")
                continue
            row_head = _text(d, row[0]) if row else ""
            row_info = self.header(row_head) if row_head and not row_head[:1].isdigit() else Header("")
            for c in row:
                if c.end > c.start and self.x.may_hold_number(d.view, c.start, c.end):
                    col = cols[c.col] if c.col < len(cols) else None
                    if c.col == 0 and row_info.text:
                        continue
                    headers = [h for h in (col, row_info, group) if h is not None and h.text]
                    if not any(h.counts for h in headers):
                        cells.append((c, col, row_head, r, headers))
        return cells

    def table_claims(self, d: Document, t: int, table: Table) -> list[tuple[Claim, Passage]]:
        cells = self.result_cells(d, table)
        if not cells:
            return []
        lead: Header | None = None
        analysed = self.x.analyse([d.view[c.start:c.end] for c, *_ in cells], [c.start for c, *_ in cells],
                                  located=True)
        out: list[tuple[Claim, Passage]] = []
        for (c, col, row_head, r, headers), (qs, cues) in zip(cells, analysed):
            unit_place = Passage(c.start, c.end, "cell", -1, table.section, t, r, c.col)
            header_cues = [cue for h in headers for cue in h.cues]
            context = ClaimContext(section=d.section_path(table.section), block="table",
                                   row_header=row_head or None, column_header=col.text if col else None)
            cell_text = d.view[c.start:c.end]
            for i, q in enumerate(qs):
                cls = unit_class(q.unit)
                unit = q.unit
                if cls is None:
                    if i > 0 or not _LEADS_WITH_NUMBER.match(cell_text):
                        continue      # a number inside a note or a command, not the cell's value
                    h = next((h for h in headers if h.cls), None)
                    if h is None:
                        if lead is None:
                            lead = self.lead_header(lead_in(d, table))
                        h = lead if lead.cls else None
                    if h is None:
                        continue
                    cls, unit = h.cls, h.unit
                    q = q.model_copy(update={"unit": unit})
                    if h is lead:
                        header_cues = header_cues + lead.cues
                if cls == "ratio" and q.value == 1 and q.value_max is None:
                    continue          # the 1.00x row is the baseline itself
                metric = self.x.builder.metric_for(q, cls, cues, q.span[0], q.span[1], header_cues)
                if metric is None:
                    continue
                text = d.view[c.start:c.end]
                claim = self.x.builder.claim(q, metric, cls, cues, text, c.start, c.start, context,
                                             header_cues, unit)
                claim.quote = d.text[claim.span[0]:claim.span[1]]
                out.append((claim, unit_place))
        return out


