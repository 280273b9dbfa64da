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


def configuration_rows(view: str, tables: list[Table], labelled: Callable[[int], list[Cell]],
                       results: Callable[[Table], bool]) -> dict[str, list[tuple[int, Cell, str]]]:
    """For one condition, the configuration rows of a document by their name's key: in each table that holds no
    results (`results(table)` false: a table of configurations, not one of measurements) and has a column
    labelled with the condition (`labelled(table index)`), each row's filled cell in that column, as (table index,
    cell, the configuration's name as written). Built once per document and condition."""
    rows: dict[str, list[tuple[int, Cell, str]]] = {}
    for t2, other in enumerate(tables):
        if not (columns := labelled(t2)) or results(other):
            continue
        for cells in other.rows:
            label = next((c for c in cells if c.col == 0), None)
            if label is None or not (key := config_key(view[label.start:label.end])):
                continue
            cell = next((c for c in cells if c.col == columns[0].col), None)
            if cell is not None and cell.end > cell.start and cell.col != 0:
                rows.setdefault(key, []).append((t2, cell, view[label.start:label.end].strip(" *_`")))
    return rows


def configuration_cell(view: str, tables: list[Table], t: int, col: int,
                       rows: dict[str, list[tuple[int, Cell, str]]]) -> tuple[Cell, str] | None:
    """The cell that gives a condition to the results of column `col` of table `t`: in another table, the
    configuration row (`configuration_rows`) whose name is the column's header (not a row label: a model's name
    labels rows of many tables of other measurements); with the configuration's name. None unless exactly one
    such cell, or several of one content, is found."""
    head = next((h for h in tables[t].header if h.col == col), None)
    key = config_key(view[head.start:head.end]) if head is not None and col > 0 else ""
    found = [(cell, name) for t2, cell, name in rows.get(key, ()) if t2 != t] if key else []
    contents = {view[c.start:c.end].strip() for c, _ in found}
    return found[0] if found and len(contents) == 1 else None
