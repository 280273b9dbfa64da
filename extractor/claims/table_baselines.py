"""The baseline of a table's speed-ups and changes that their cell does not name: what the column's header
compares with, the row holding 1.00x in that column, what the text before the table says they are compared
with, else a column named as the reference."""
from __future__ import annotations

import re
from typing import Callable

from extractor.claims.rules import ClaimRules
from extractor.ingest import Document
from extractor.ingest.model import Cell, Table
from extractor.ingest.segment import Passage
from extractor.records import Claim

# a result cell starts with its number (markup, a sign or an approximation mark may come first)
LEADS_WITH_NUMBER = re.compile(r"^[\s*_`~≈<>≤≥+\-−]*(?:\$\s*)?[\d.]")
# a cell that holds no value of its own ("-", "—", "n/a"): it names nothing a baseline run changed
_EMPTY_CELL = re.compile(r"(?i)^[\s*_]*(?:[-–—/]+|n/?a)?[\s*_]*$")


def cell_text(d: Document, c: Cell | None) -> str:
    """A cell's text, its white space collapsed."""
    return " ".join(d.view[c.start:c.end].split()) if c else ""


class TableBaselines:
    """Fills in the baseline of a table's speed-up and change claims (rules: `table_baseline_header`,
    `table_reference_column`, `table_lead_baseline` of claims.yaml)."""

    def __init__(self, rules: ClaimRules):
        self.header = re.compile(rules.table_baseline_header)
        self.reference_column = re.compile(rules.table_reference_column)
        self.lead_patterns = [re.compile(p) for p in rules.table_lead_baseline]
        self.called = re.compile(rules.table_called_baseline)

    def fill(self, d: Document, table: Table, out: list[tuple[Claim, Passage]], places: list[tuple[int, int]],
             unit_rows: dict[int, list[int]], lead_texts: Callable[[], list[str]]) -> None:
        """Sets the baseline of each speed-up or change of `out` (at `places`: row, column) whose cell named
        none, in this order: what its column's header compares with ("Speedup (FP8 vs. FP16)"), the cells of
        the 1.00x row of its column (`unit_rows`) that differ from its own row, what the caption, section title
        or lead-in paragraphs (`lead_texts`) say the changes are compared with, else the reference column
        closest to its own header."""
        headers = [cell_text(d, c) for c in table.header]
        references = [h for h in headers if self.reference_column.match(h)]
        lead: list[str | None] = []      # the baseline the text before the table names, read once when needed
        for (claim, _), (r, col) in zip(out, places):
            if claim.metric not in ("speedup", "relative_change") or claim.baseline is not None:
                continue
            own = headers[col] if col < len(headers) else ""
            named = self.header.search(own)
            base = named.group("base").strip(" *_`:") if named else None
            if not base and col in unit_rows:
                # the 1.00x row of its group: the nearest above it (a table of several models, each with its own
                # baseline row), else the first
                unit = max((u for u in unit_rows[col] if u < r), default=unit_rows[col][0])
                base = _row_difference(d, table.rows[unit], table.rows[r], self.called)
            if not base:
                if not lead:
                    lead.append(self.lead_baseline(lead_texts()))
                base = lead[0]
            claim.baseline = base or _closest(own, [h for h in references if h != own])

    def lead_baseline(self, texts: list[str]) -> str | None:
        """The baseline the caption, the section title or a lead-in paragraph names for the table's changes
        ("Speedups are relative to the BF16 baseline.", "### vs. eager mode"), nearest first; None if none."""
        for text in texts:
            for pattern in self.lead_patterns:
                if (m := pattern.search(text)) and (base := m.group("base").strip(" *_`")):
                    return base
        return None


def _closest(own: str, references: list[str]) -> str | None:
    """Of the reference columns, the one that shares most words with the claim's own header ("TPS Gain" ->
    "Base Throughput(TPS)", "TPOT Gain" -> "Base TPOT(ms)"); the first on a tie; None when there is none."""
    words = set(re.findall(r"[a-z]+", own.lower()))
    return max(references, key=lambda h: len(words & set(re.findall(r"[a-z]+", h.lower()))), default=None)


def _row_difference(d: Document, unit_row: list[Cell], row: list[Cell], called: re.Pattern) -> str | None:
    """The cells of the 1.00x row that name its setup and differ from the same column's cell of `row`, joined
    ("None (stock pipeline)"; "fp16 weights; eager"), or the one cell that calls the row the reference
    (`called`: "Reference run (no cache)"); else its label; None when it names nothing. A cell with no value of its
    own ("-", "n/a") names nothing."""
    theirs = {c.col: cell_text(d, c) for c in row}
    named = [t for c in unit_row if (t := cell_text(d, c)) and not LEADS_WITH_NUMBER.match(t)
             and not _EMPTY_CELL.match(t) and t.strip("*_ ") != theirs.get(c.col, "").strip("*_ ")]
    label = cell_text(d, unit_row[0]).strip("*_ ") if unit_row else ""
    if (calls := [t for t in named if called.match(t.strip("*_ "))]):
        return calls[0].strip("*_ ")       # a cell that calls the row the reference ("Reference run (no cache)")
    return "; ".join(t.strip("*_ ") for t in named)[:120] or label or None
