"""Cells a table row shares with the rows above it: a row whose first cells are empty or left out ("| | 4 | 254.0 |"
under "| Model-A | 1 | 104.9 |", or an HTML cell with `rowspan` over three rows) has the cells of the nearest row
above that fills those columns. Markdown has no merged cells, so writers leave the repeated label blank; HTML
merges it. Only a leading run of empty cells is carried (a blank cell between two filled ones may mean "not
measured"), and never across a group-label row (document_reader.py `_groups`) or from the header."""
from __future__ import annotations

from extractor.ingest.model import Document, Table


def carried_cells(d: Document, groups: dict[tuple[int, int], int | None]) -> dict[tuple[int, int], dict[int, int]]:
    """(table, row) -> {column: the row above whose cell in that column the row repeats}, for the rows that
    leave their leading cells empty."""
    out: dict[tuple[int, int], dict[int, int]] = {}
    for t, table in enumerate(d.tables):
        filled_at = [{c.col for c in row if c.end > c.start} for row in table.rows]
        for r in range(1, len(table.rows)):
            if not filled_at[r] or groups.get((t, r)) == r:
                continue
            leading = range(min(filled_at[r]))   # the columns before the row's first filled cell
            carried = {c: above for c in leading if (above := _filled_above(table, filled_at, groups, t, r, c)) is not None}
            if carried:
                out[(t, r)] = carried
    return out


def _filled_above(table: Table, filled_at: list[set[int]], groups: dict[tuple[int, int], int | None],
                  t: int, r: int, col: int) -> int | None:
    """The nearest row above `r` that fills column `col`, unless a group-label row comes first."""
    for above in range(r - 1, -1, -1):
        if groups.get((t, above)) == above:
            return None
        if col in filled_at[above]:
            return above
    return None
