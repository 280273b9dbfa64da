"""Ingest look-ups: the blocks that end in a range (`Document.blocks_ending`, a bisection) are those a scan
finds; passages asked for without cells or with a block filter are the filtered passages."""
from __future__ import annotations

from extractor.ingest import ingest
from extractor.claims.tables import lead_in

POST = """# Results

Our throughput on one node, measured with a fixed prompt set:

| Batch | Output tok/s |
|---|---|
| 1 | 120 |

- a list item that ends right before the next table

| Batch | TTFT (ms) |
|---|---|
| 8 | 45 |

## Other section

| Batch | Output tok/s |
|---|---|
| 4 | 300 |
"""


def test_blocks_ending_equal_a_scan():
    d = ingest(POST, "post.md", "markdown")
    for lo in range(-1, len(POST) + 2, 7):
        for hi in (lo, lo + 30, lo + 400):
            want = [i for i, b in enumerate(d.blocks) if lo <= b.end <= hi]
            assert d.blocks_ending(lo, hi) == want


def test_blocks_ending_follows_added_blocks():
    d = ingest(POST, "post.md", "markdown")
    assert d.blocks_ending(0, len(POST))
    extra = d.blocks[0].model_copy(update={"start": len(POST), "end": len(POST) + 5})
    d.blocks.append(extra)
    assert d.blocks_ending(len(POST) + 5, len(POST) + 5) == [len(d.blocks) - 1]


def test_lead_in_is_the_heading_then_the_paragraphs_before_in_the_same_section():
    d = ingest(POST, "post.md", "markdown")
    first, second, third = d.tables
    assert lead_in(d, first) == ["Results", "Our throughput on one node, measured with a fixed prompt set:"]
    # not past the table before it
    assert lead_in(d, second) == ["Results", "a list item that ends right before the next table"]
    assert lead_in(d, third) == ["Other section"]   # the list item before it is in another section


def test_units_without_cells_and_with_a_block_filter_are_the_filtered_units():
    """Leaving cells out and skipping the blocks a filter refuses keeps every other passage, in order."""
    from extractor.ingest.segment import units

    text = POST + "\nNo figure in this paragraph. Nor in this one.\n\nThe second run reached 410 tok/s. Fine.\n"
    d = ingest(text, "post.md", "markdown")
    has_digit = lambda s: any(ch.isdigit() for ch in s)   # noqa: E731
    every = units(d, frozenset())
    want = [u for u in every if u.kind != "cell" and has_digit(d.view[d.blocks[u.block].start:d.blocks[u.block].end])]
    got = units(d, frozenset(), cells=False, block_filter=has_digit)
    assert got == want
    assert any(d.view[u.start:u.end] == "Fine." for u in got)      # a sentence without a digit, in a kept block
    assert not any("No figure" in d.view[u.start:u.end] for u in got)
