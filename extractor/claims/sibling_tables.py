"""The metric a table's cells take from the text around it when no header names it: an earlier table of the same
section for the same systems' shares, or the one kind of latency a lead text names for bare times.

A results section often splits one measurement over several tables: the first names it in its headers ("Max
Accuracy (small catalog)", "Accuracy (large catalog)"), the next gives the same models' shares under another split
("Tool position" rows, a column per model) and names no metric at all. Such a table's bare percent cells are the
same score: the nearest earlier table of the section names accuracy in its headers and shares at least
`MIN_SHARED_LABELS` of its row or column labels (the models, the systems) with this one. Nothing else names a
metric this way: a table of other labels, another section's table, or one whose headers name a metric besides
accuracy leave the cells to the other readers.
"""
from __future__ import annotations

import re
from typing import Callable, Sequence

from extractor.claims.cues import Cue
from extractor.ingest.model import Document, Table

MIN_SHARED_LABELS = 2
_MARKUP = re.compile(r"[*_`]+")


def _labels(d: Document, table: Table, generic: frozenset[str]) -> set[str]:
    """The header cells' and first column's texts, without markup and case, that hold a letter and are not one of
    the `generic` labels every table may have (claims.yaml `generic_table_labels`)."""
    cells = list(table.header) + [row[0] for row in table.rows if row]
    out = set()
    for c in cells:
        text = re.sub(r"\s+", " ", _MARKUP.sub("", d.view[c.start:c.end])).strip().lower()
        if text and re.search(r"[a-z]", text) and text not in generic:
            out.add(text)
    return out


def sibling_score_cues(d: Document, t: int, table: Table, cues_of: Callable[[str], Sequence[Cue]],
                       generic: frozenset[str]) -> list[Cue]:
    """The accuracy cues of the nearest earlier table of `table`'s section (`t` is its index in `d.tables`) when
    its headers name accuracy and no other metric, and it shares MIN_SHARED_LABELS labels (not `generic` ones) with
    `table`; else []."""
    earlier = next((p for p in reversed(d.tables[:t]) if p.end <= table.start), None)
    if earlier is None or earlier.section != table.section or not earlier.header:
        return []
    found: list[Cue] = []
    for cell in earlier.header:
        for c in cues_of(d.view[cell.start:cell.end]):
            if c.label == "metric:accuracy":
                found.append(c)
            elif c.label.startswith("metric:"):
                return []         # a table of several measures: which one the next table holds is not said
    if not found or len(_labels(d, earlier, generic) & _labels(d, table, generic)) < MIN_SHARED_LABELS:
        return []
    return found


LATENCY_KINDS = ("metric:ttft", "metric:tpot", "metric:itl", "metric:e2e_latency")


def lead_latency_kind(lead_texts: Sequence[str], cues_of: Callable[[str], Sequence[Cue]]) -> str | None:
    """The one kind of latency (TTFT, TPOT, ITL, end-to-end) the first lead text that names any latency names ("In
    our benchmark ..., the end-to-end latency profile changed:" over cells of times); None when that text names
    several kinds, or none does."""
    for text in lead_texts:
        labels = {c.label for c in cues_of(text) if c.label.startswith("metric:")}
        kinds = labels & set(LATENCY_KINDS)
        if kinds or "metric:latency" in labels:
            return next(iter(kinds)).removeprefix("metric:") if len(kinds) == 1 else None
    return None
