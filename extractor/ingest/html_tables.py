"""The tables of an HTML page as its walker meets their tags: `<table>`, `<tr>`, `<td>`/`<th>` open and
close, text inside a cell extends that cell, and a closed table becomes a `Table` (first row the header).

Cells take the column they sit in on the grid: a cell spanning rows (`rowspan`) holds its column in the rows
below it, so their cells move right ("| 7B | BF16 | 40.93 |" then "| Int8 | 37.47 |": 37.47 is in the third
column, under the same header as 40.93); a header cell spanning columns (`colspan`) heads each of them."""
from __future__ import annotations

from dataclasses import dataclass, field

from extractor.ingest.model import Cell, Table


@dataclass
class _OpenTable:
    start: int
    section: int | None
    rows: list[list[tuple[int, int, int, int]]] = field(default_factory=list)   # (start, end, rowspan, colspan)
    row: list[tuple[int, int, int, int]] | None = None
    in_cell: bool = False
    spans: tuple[int, int] = (1, 1)


class HtmlTables:
    """Tables being read (nested ones on a stack) and the extent of the cell being read."""

    def __init__(self) -> None:
        self.open: list[_OpenTable] = []
        self.cell: list[int] = []   # [first, last] offsets of text in the current cell

    def start_table(self, pos: int, section: int | None) -> None:
        self.open.append(_OpenTable(start=pos, section=section))

    def start_row(self) -> None:
        if self.open:
            self.open[-1].row = []

    def start_cell(self, rowspan: int = 1, colspan: int = 1) -> None:
        if self.open:
            t = self.open[-1]
            if t.row is None:
                t.row = []
            t.in_cell = True
            t.spans = (rowspan, colspan)
            self.cell = []

    def mark(self, start: int, end: int) -> None:
        """Text at [start, end): it extends the current cell, if a cell is open."""
        if self.open and self.open[-1].in_cell:
            if not self.cell:
                self.cell = [start, end]
            else:
                self.cell[1] = end

    def end_cell(self) -> None:
        if self.open:
            t = self.open[-1]
            if t.in_cell and t.row is not None:
                s, e = self.cell if self.cell else (0, 0)
                t.row.append((s, e, *t.spans))
            t.in_cell = False

    def end_row(self) -> None:
        if self.open:
            t = self.open[-1]
            if t.row is not None:
                t.rows.append(t.row)
            t.row = None

    def end_table(self) -> Table | None:
        """The innermost open table, closed; None when none is open or it has no rows."""
        if not self.open:
            return None
        t = self.open.pop()
        rows = _grid(t.rows)
        if not rows:
            return None
        end = max((c.end for row in rows for c in row), default=t.start)
        return Table(start=t.start, end=end, section=t.section, header=rows[0], rows=rows[1:])


def _grid(raw: list[list[tuple[int, int, int, int]]]) -> list[list[Cell]]:
    """The rows' cells with the column each sits in: the columns a cell spanning rows above still holds are
    skipped; a header cell spanning columns is repeated for each (the header is indexed by column), unless it
    is the header row's only cell (a title over the table, not the header of its columns)."""
    held: dict[int, int] = {}          # column -> rows it is still held for by a rowspan above
    rows: list[list[Cell]] = []
    for r, cells in enumerate(raw):
        out: list[Cell] = []
        col = 0
        for s, e, rowspan, colspan in cells:
            while held.get(col, 0) > 0:
                col += 1
            for k in range(colspan if r == 0 and len(cells) > 1 else 1):   # (a lone cell atop is a title)
                out.append(Cell(start=s, end=e, row=r, col=col + k))
            for k in range(colspan):
                if rowspan > 1:
                    held[col + k] = rowspan   # counted down below, this row included
            col += colspan
        held = {c: n - 1 for c, n in held.items() if n - 1 > 0}
        rows.append(out)
    return rows
