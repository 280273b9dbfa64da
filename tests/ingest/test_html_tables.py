"""HTML tables as the walker reads them (ingest/html_tables.py): first row the header, cells with their
text extent, a table left open at the end of the page still kept, a row-less table dropped."""
from __future__ import annotations

from extractor.ingest.html import parse


def _cells(text: str, row) -> list[str]:
    return [text[c.start:c.end] for c in row]


def test_header_and_body_cells_keep_their_text_extent():
    text = "<table><tr><th>Batch</th><th>Latency</th></tr><tr><td> 8 </td><td>41 ms</td></tr></table>"
    d = parse(text, "t.html")
    (table,) = d.tables
    assert _cells(text, table.header) == ["Batch", "Latency"]
    assert [_cells(text, r) for r in table.rows] == [["8", "41 ms"]]
    assert any(b.kind == "table" and b.start == table.start for b in d.blocks)


def test_unclosed_table_is_kept_and_an_empty_one_dropped():
    text = "<table></table><p>Before.</p><table><tr><td>GPUs<td>4</tr><tr><td>Nodes<td>2</tr>"   # cells closed by the next
    d = parse(text, "t.html")
    (table,) = d.tables
    assert _cells(text, table.header) == ["GPUs", "4"]
    assert [_cells(text, r) for r in table.rows] == [["Nodes", "2"]]
