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


def _cols(text: str, row) -> list[tuple[int, str]]:
    return [(c.col, text[c.start:c.end]) for c in row]


def test_a_cell_spanning_rows_keeps_its_columns_taken_below():
    # a group label down three rows: the values of the rows below still sit under their own headers
    text = ("<table><tr><td>Size</td><td>Precision</td><td>Speed (tok/s)</td><td>Memory</td></tr>"
            "<tr><td rowspan=\"3\">small</td><td>BF16</td><td>50.5</td><td>4.2GB</td></tr>"
            "<tr><td>Int8</td><td>52.0</td><td>3.1GB</td></tr>"
            "<tr><td>Int4</td><td>70.2</td><td>2.5GB</td></tr></table>")
    (table,) = parse(text, "t.html").tables
    assert _cols(text, table.rows[1]) == [(1, "Int8"), (2, "52.0"), (3, "3.1GB")]
    assert _cols(text, table.rows[2]) == [(1, "Int4"), (2, "70.2"), (3, "2.5GB")]


def test_a_header_spanning_columns_stands_over_each_of_them():
    text = ("<table><tr><th>Model</th><th colspan='2'>Latency (ms)</th><th>Notes</th></tr>"
            "<tr><td>a</td><td>12</td><td>30</td><td>ok</td></tr></table>")
    (table,) = parse(text, "t.html").tables
    assert _cols(text, table.header) == [(0, "Model"), (1, "Latency (ms)"), (2, "Latency (ms)"), (3, "Notes")]
    assert _cols(text, table.rows[0]) == [(0, "a"), (1, "12"), (2, "30"), (3, "ok")]


def test_a_malformed_span_is_one_cell_and_a_huge_one_is_capped():
    text = ("<table><tr><th colspan='x'>A</th><th colspan='99999'>B</th></tr>"
            "<tr><td rowspan=''>1 s</td><td>2 s</td></tr></table>")
    (table,) = parse(text, "t.html").tables
    assert [c.col for c in table.header][:2] == [0, 1] and len(table.header) == 65
    assert _cols(text, table.rows[0]) == [(0, "1 s"), (1, "2 s")]
