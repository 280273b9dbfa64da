"""Configuration tables: a post that lists its configurations in one table ("Model A - throughput | batch_size 4")
and reports results in another whose columns (or row labels) name them ("Model A throughput"). A condition the
results table has no column for is read from the configuration row its column or row names, under the
configuration table's column labelled with it."""
from __future__ import annotations

import re
from typing import Callable

from extractor.ingest.model import Cell, Table

_KEY = re.compile(r"[^a-z0-9]+")
_LETTER = re.compile(r"[a-z]")


def config_key(text: str) -> str:
    """A configuration's name compared as written, without case, spaces or punctuation ("Model A - throughput" and
    "**Model A throughput**" are one key; "Model A (Int4)" is another); "" for a name without a letter (a bare
    number labels a value, not a configuration)."""
    key = _KEY.sub("", text.lower())
    return key if len(key) >= 4 and _LETTER.search(key) else ""


def configuration_cell(view: str, tables: list[Table], t: int, col: int,
                       labelled: Callable[[int], list[Cell]], results: Callable[[Table], bool]
                       ) -> tuple[Cell, str] | None:
    """The cell that gives a condition to the results of column `col` of table `t`: in another table that holds
    no results (`results(table)` false: a table of configurations, not one of measurements), the row whose first
    cell names the column's header (not a row label: a model's name labels rows of many tables of other
    measurements), under that table's column labelled with the condition
    (`labelled(table index)`); with the configuration's name. None unless exactly one such cell, or several of
    one content, is found."""
    head = next((h for h in tables[t].header if h.col == col), None)
    key = config_key(view[head.start:head.end]) if head is not None and col > 0 else ""
    if not key:
        return None
    found: list[tuple[Cell, str]] = []
    for t2, other in enumerate(tables):
        if t2 == t or not (columns := labelled(t2)) or results(other):
            continue
        for cells in other.rows:
            label = next((c for c in cells if c.col == 0), None)
            if label is None or config_key(view[label.start:label.end]) != key:
                continue
            cell = next((c for c in cells if c.col == columns[0].col), None)
            if cell is not None and cell.end > cell.start and cell.col != 0:
                found.append((cell, view[label.start:label.end].strip(" *_`")))
    contents = {view[c.start:c.end].strip() for c, _ in found}
    return found[0] if found and len(contents) == 1 else None
