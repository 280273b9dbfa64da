"""A claim's quote and every mention's quote hold no Markdown markers or HTML entities at their edges; when
markup sits inside the quoted phrase the quote narrows to the markup-free piece holding the number (issue 23,
item 5), while qualifier and unit are still read from the whole phrase, and `text[span] == quote` holds.
Every sentence here is written for the test."""
from __future__ import annotations

import pytest

from extractor.api import extract_text
from extractor.spans import markup_free


def only_claim(text: str, value: float):
    record = extract_text(text, doc="t.md")
    found = [c for c in record.claims if abs(abs(c.value) - value) < 1e-9]
    assert found, f"no claim {value} in {[(c.metric, c.value, c.quote) for c in record.claims]}"
    for c in record.claims:
        for m in c.mentions or [c]:
            assert text[m.span[0]:m.span[1]] == m.quote
    return found[0]


@pytest.mark.parametrize("text,value,quote,qualifier,unit", [
    # markers inside the phrase: the number with its unit, the qualifier still recorded
    ("Speculative decoding makes generation up to **1.9x** faster on our cluster.", 1.9, "1.9x", "up_to", "x"),
    ("The tuned build serves roughly __4,200 tokens/s__ per node under load.", 4200, "4,200 tokens/s", None, None),
    ("Batching lifts decode speed by about *35%* compared with the eager path.", 35, "35%", None, "percent"),
    # markers between the number and its unit: the number alone
    ("The router kept a median TTFT of **180** ms with eight replicas.", 180, "180", None, "millisecond"),
    ("Our profiler shows a step time of `7.25` ms after the kernel swap.", 7.25, "7.25", None, "millisecond"),
    # HTML entities between the number and its unit, or before the number
    ("On the small card the TTFT was 0.37&nbsp;s with a warm cache.", 0.37, "0.37", None, "second"),
    ("Each decode step takes 12.5&#8201;ms with the fused attention kernel.", 12.5, "12.5", None, "millisecond"),
    ("The cache cut p50 latency to &asymp;95 ms in our replay test.", 95, "95 ms", None, "millisecond"),
    # markers around the whole phrase: only the edges go
    ("Throughput rose to **2,750 tokens/s** on one GPU after the upgrade.", 2750, "2,750 tokens/s", None, None),
    ("Mean latency was ~~48 ms~~ 41 ms after the upgrade.", 48, "48 ms", None, "millisecond"),
    ("Our tuned server reached a throughput of `1,250 tokens/s` on one H100.", 1250, "1,250 tokens/s", None, None),
])
def test_quote_without_markup(text, value, quote, qualifier, unit):
    c = only_claim(text, value)
    assert c.quote == quote
    if qualifier:
        assert c.qualifier == qualifier
    if unit:
        assert c.unit == unit


@pytest.mark.parametrize("text,value,quote", [
    # nothing to narrow: no markup, a product sign, an underscore inside a name, a tilde for "about"
    ("Speculative decoding makes generation up to 1.9x faster on our cluster.", 1.9, "up to 1.9x"),
    ("On the small card the TTFT was 0.37 s with a warm cache.", 0.37, "0.37 s"),
    ("Throughput reached ~3,100 tokens/s with the new scheduler enabled.", 3100, "~3,100 tokens/s"),
])
def test_quote_unchanged_without_markup(text, value, quote):
    assert only_claim(text, value).quote == quote


@pytest.mark.parametrize("text,expected", [
    ("up to **1.9x", "1.9x"),
    ("1.4x** to **1.8x", "1.4x"),
    ("**twice**", "twice"),
    ("&lt; 40 ms", "40 ms"),
    ("12&#x2009;ms", "12"),
    ("1&#44;200 tok/s", "1&#44;200 tok/s"),  # an entity between digits is part of the number
    ("4 * 8 GPUs", "4 * 8 GPUs"),            # a product, not emphasis
    ("max_batch 512 rps", "max_batch 512 rps"),  # an underscore inside a name
    ("~2.1x", "~2.1x"),                      # a single tilde means "about"
    ("AT&T 40 ms", "AT&T 40 ms"),            # an ampersand without an entity
])
def test_markup_free_piece(text, expected):
    a, b = markup_free(text, 0, len(text))
    assert text[a:b] == expected


def test_a_bound_written_with_an_entity_is_still_a_target():
    # the quote would leave "&lt;" out; the target rule reads the figure as written and sets it aside
    text = "Our SLO for the chat tier: TTFT &lt; 2 s and ITL &lt; 40 ms at every load level."
    record = extract_text(text, doc="t.md")
    assert not [c for c in record.claims if c.value in (2, 40)]
    assert {s.reason for s in record.set_aside} == {"target"}
