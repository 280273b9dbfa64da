"""Ingest keeps offsets: the view has the text's length, and structure found in the view points at
the original text (headings, sections, tables, links, masked markup)."""
from __future__ import annotations

import pytest

from extractor.ingest import ingest

MARKDOWN = """---
title: Serving notes
---
# Serving notes

Some **bold** and _light_ words, a [link](https://example.org/a) and `code`, AT&amp;T \\*not emphasis\\*.

## Results

| Engine | Tokens/s |
|---|---:|
| *alpha* | 1,234 |
| beta | 987 |

Table 1: throughput of two engines.

## Setup

- item with ~~old~~ text
- item with <b>html</b> and ![a chart](chart.png)
"""

HTML = """<!doctype html><html><head><title>Bench page</title></head><body>
<h1>Bench page</h1>
<p>We measured <em>3,100</em> tokens/s &amp; more.</p>
<h2>Numbers</h2>
<table><tr><th>Batch</th><th>TTFT (ms)</th></tr><tr><td>8</td><td>42</td></tr></table>
</body></html>
"""

TEXT = """Latency notes
=============

The median time to first token was 120 ms at batch 4.

1. Method
Requests were sent with a fixed rate.
"""


@pytest.mark.parametrize("text,fmt", [(MARKDOWN, "markdown"), (HTML, "html"), (TEXT, "text")])
def test_ingest_view_has_the_length_of_the_text(text: str, fmt: str):
    d = ingest(text, "doc", fmt)
    assert len(d.view) == len(d.text) == len(text)
    for i, (a, b) in enumerate(zip(text, d.view)):
        assert b == a or b == " " or a == "&", (i, a, b)  # masked characters become blanks
    for block in d.blocks:
        assert 0 <= block.start <= block.end <= len(text)


def test_ingest_markdown_structure_points_into_the_text():
    d = ingest(MARKDOWN, "doc.md", "markdown")
    assert [s.title for s in d.sections] == ["Serving notes", "Results", "Setup"]
    for s in d.sections:
        assert d.view[s.start:s.end] == s.title
        assert MARKDOWN[s.start:s.end] == s.title
    assert len(d.tables) == 1
    table = d.tables[0]
    assert [d.view[c.start:c.end] for c in table.header] == ["Engine", "Tokens/s"]
    assert [[d.view[c.start:c.end].strip() for c in row] for row in table.rows] == [["alpha", "1,234"],
                                                                                  ["beta", "987"]]
    assert table.caption is not None and "Table 1" in MARKDOWN[table.caption.start:table.caption.end]
    assert [MARKDOWN[x.start:x.end] for x in d.links] == ["link"]
    assert d.links[0].target == "https://example.org/a"
    view = d.view
    assert "**" not in view and "~~" not in view and "`" not in view and "<b>" not in view
    assert "bold" in view and "AT&" in view and "not emphasis" in view
    assert d.meta["title"] == "Serving notes" and d.meta_span is not None
    assert not view[d.meta_span[0]:d.meta_span[1]].strip()


def test_ingest_html_structure_points_into_the_text():
    d = ingest(HTML, "page.html", "html")
    titles = [s.title for s in d.sections]
    assert "Bench page" in titles and "Numbers" in titles
    for s in d.sections:
        assert d.view[s.start:s.end].strip() == s.title
    assert len(d.tables) == 1
    cells = [d.view[c.start:c.end].strip() for c in d.tables[0].header]
    assert cells == ["Batch", "TTFT (ms)"]
    assert [[d.view[c.start:c.end].strip() for c in row] for row in d.tables[0].rows] == [["8", "42"]]
    assert "<p>" not in d.view and "3,100" in d.view


def test_ingest_text_headings_and_paragraphs():
    d = ingest(TEXT, "notes.txt", "text")
    assert [s.title for s in d.sections][:1] == ["Latency notes"]
    for s in d.sections:
        assert TEXT[s.start:s.end].strip() == s.title
    paragraphs = [TEXT[b.start:b.end] for b in d.blocks if b.kind == "paragraph"]
    assert any("120 ms" in p for p in paragraphs)
    assert "=====" not in d.view


def test_ingest_section_at_is_the_innermost_section_before_an_offset():
    d = ingest(MARKDOWN, "doc.md", "markdown")

    def by_scan(offset: int) -> int | None:
        found = None
        for i, s in enumerate(d.sections):
            if s.start > offset:
                break
            if offset < s.body_end:
                found = i
        return found

    assert d.section_at(0) is None
    assert d.section_at(MARKDOWN.index("Table 1")) == 1
    assert d.section_at(MARKDOWN.index("~~old")) == 2
    assert all(d.section_at(o) == by_scan(o) for o in range(len(MARKDOWN) + 1))


NOTES_TXT = """Release notes: Quickserve 4.1

Performance
-----------
* Prefill is up to 30% faster on long prompts.
* Decode on 4x L40S reached 3,300 tokens/s for Mistral-7B (BF16, batch 64).
* Memory use per request dropped by 15%.
"""


def test_text_underlined_heading_followed_by_bullets_and_a_one_line_title():
    d = ingest(NOTES_TXT, "notes.txt", "text")
    assert d.title == "Release notes: Quickserve 4.1"
    assert [s.title for s in d.sections] == ["Performance"]
    items = [NOTES_TXT[b.start:b.end] for b in d.blocks if b.kind == "list_item"]
    assert [i[:12] for i in items] == ["* Prefill is", "* Decode on ", "* Memory use"]
    assert "-" * 11 not in d.view            # the underline is markup


def test_text_bullet_items_do_not_lend_each_other_their_setup():
    from extractor.api import extract_text
    record = extract_text(NOTES_TXT, doc="notes.txt")
    memory = next(c for c in record.claims if abs(c.value) == 15)
    assert memory.conditions["hardware"].status == "unrecoverable"
    decode = next(c for c in record.claims if c.value == 3300)
    assert decode.conditions["batch_or_concurrency"].value == 64 and decode.context.section == ["Performance"]


FIGURE_PARAGRAPHS = """<html><body>
<p align="center"><picture><img src="a.png"></picture><br>Decode throughput of Model-X on 8 x H100 (BF16).</p>
<p>Body text that follows the figure.</p>
<p>We are <img src="smile.png"> glad to share these numbers.</p>
<div><img src="b.png"> words beside an image in a division</div>
</body></html>"""


def test_a_short_line_after_an_image_in_its_paragraph_is_the_images_caption():
    d = ingest(FIGURE_PARAGRAPHS, "page.html", "html")
    kinds = {" ".join(d.view[b.start:b.end].split()): b.kind for b in d.blocks}
    assert kinds["Decode throughput of Model-X on 8 x H100 (BF16)."] == "caption"
    # body text after the figure, an inline icon in a sentence, text in a division: no caption
    assert kinds["Body text that follows the figure."] == "paragraph"
    assert kinds["We are glad to share these numbers."] == "paragraph"
    assert kinds["words beside an image in a division"] == "paragraph"
