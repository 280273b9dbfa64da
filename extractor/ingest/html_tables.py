"""The tables of an HTML page as its walker meets their tags: `<table>`, `<tr>`, `<td>`/`<th>` open and
close, text inside a cell extends that cell, and a closed table becomes a `Table` (first row the header)."""
from __future__ import annotations

from dataclasses import dataclass, field

from extractor.ingest.model import Cell, Table


@dataclass
class _OpenTable:
    start: int
    section: int | None
    rows: list[list[tuple[int, int]]] = field(default_factory=list)
    row: list[tuple[int, int]] | None = None
    in_cell: bool = False


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

    def start_cell(self) -> None:
        if self.open:
            t = self.open[-1]
            if t.row is None:
                t.row = []
            t.in_cell = True
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
                t.row.append((s, e))
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
        rows = [[Cell(start=s, end=e, row=r, col=c) for c, (s, e) in enumerate(cells)]
                for r, cells in enumerate(t.rows)]
        if not rows:
            return None
        end = max((c.end for row in rows for c in row), default=t.start)
        return Table(start=t.start, end=end, section=t.section, header=rows[0], rows=rows[1:])
