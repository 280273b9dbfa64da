"""The tables of an HTML page as its walker meets their tags: `<table>`, `<tr>`, `<td>`/`<th>` open and
close, text inside a cell extends that cell, and a closed table becomes a `Table` (first row the header).

A cell's `rowspan` and `colspan` are honoured: each cell takes the first column its row leaves free, a cell
spanning rows keeps its columns taken in the rows below, and a header cell spanning columns stands over each
of them (a "Speed" header over two columns, a model name down three rows: every value sits under its own
header)."""
from __future__ import annotations

from dataclasses import dataclass, field

from extractor.ingest.model import Cell, Table


@dataclass
class _OpenTable:
    start: int
    section: int | None
    rows: list[list[tuple[int, int, int, int]]] = field(default_factory=list)
    row: list[tuple[int, int, int, int]] | None = None
    spans: tuple[int, int] = (1, 1)
    in_cell: bool = False
    empty_at: int = 0   # where the open cell sits if it holds no text: an empty cell keeps its place in its row


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

    def start_cell(self, attrs: list[tuple[str, str | None]] | None = None, at: int = 0) -> None:
        """A cell opens; `at`: the offset right after its tag, where an empty cell sits (with no width)."""
        if self.open:
            t = self.open[-1]
            if t.row is None:
                t.row = []
            t.in_cell = True
            t.empty_at = at
            self.cell = []
            given = dict(attrs or [])
            t.spans = (_span(given.get("rowspan")), _span(given.get("colspan")))

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
                s, e = self.cell if self.cell else (t.empty_at, t.empty_at)
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
        if not t.rows:
            return None
        rows = _grid(t.rows)
        end = max((c.end for row in rows for c in row), default=t.start)
        return Table(start=t.start, end=end, section=t.section, header=rows[0], rows=rows[1:])


MAX_SPAN = 64   # a rowspan or colspan past this is taken as this (a malformed page must not blow up the grid)


def _span(value: str | None) -> int:
    """A rowspan or colspan attribute as a count of at least 1."""
    digits = "".join(ch for ch in (value or "").strip() if ch.isdigit())[:4]
    return min(MAX_SPAN, max(1, int(digits))) if digits else 1


def _grid(rows: list[list[tuple[int, int, int, int]]]) -> list[list[Cell]]:
    """The cells of each row at their column: a cell takes the first column its row leaves free (cells
    spanning rows above take theirs); a header cell spanning columns stands once over each column."""
    taken: dict[tuple[int, int], bool] = {}
    out: list[list[Cell]] = []
    for r, cells in enumerate(rows):
        row: list[Cell] = []
        col = 0
        for s, e, rowspan, colspan in cells:
            while taken.get((r, col)):
                col += 1
            for dr in range(rowspan):
                for dc in range(colspan):
                    taken[(r + dr, col + dc)] = True
            for dc in range(colspan if r == 0 else 1):
                row.append(Cell(start=s, end=e, row=r, col=col + dc))
            col += colspan
        out.append(row)
    return out
