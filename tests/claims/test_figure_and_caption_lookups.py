"""Look-ups by bisection give what a scan gives: a claim restating a headline figure (`FigureIndex.states`
against `same_figure` over every headline), and the caption a table takes (`attach_captions` against the
nearness rule applied to every caption)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from extractor.claims.headlines import FigureIndex, same_figure
from extractor.ingest.model import Block, Table
from extractor.ingest.structure import attach_captions
from extractor.records import Claim

VALUES = [0.0, 1.0, 1.5, 2.0, 12.0, 970.0, 975.0, 980.0, 1000.0, 1015.0, 1020.0, 1021.0, 25000.0, 25400.0,
          -18.0, -1000.0, -1019.0]


def _claim(metric: str, value: float, ranged: bool, unit: str = "token / second") -> Claim:
    return Claim(metric=metric, value=value, value_max=value * 2 if ranged else None, unit=unit,
                 quote=f"{value:g}", span=(0, 1))


claims = st.builds(_claim, st.sampled_from(["throughput", "ttft"]), st.sampled_from(VALUES), st.booleans())


@settings(max_examples=60, deadline=None)
@given(st.lists(claims, max_size=12), st.lists(claims, min_size=1, max_size=12))
def test_states_is_any_same_figure(heads: list[Claim], others: list[Claim]):
    index = FigureIndex(heads)
    for c in others + heads:
        assert index.states(c) == any(h is not c and same_figure(c, h) for h in heads)


def test_a_rounded_headline_is_restated_by_the_exact_figure():
    heads = [_claim("throughput", 25000.0, False)]
    assert FigureIndex(heads).states(_claim("throughput", 25400.0, False))
    assert not FigureIndex(heads).states(_claim("throughput", 26000.0, False))
    assert not FigureIndex(heads).states(_claim("ttft", 25000.0, False))


def _scan_caption(table: Table, blocks: list[Block], gap: int):
    near = [b for b in blocks if b.kind == "caption" and (0 <= table.start - b.end <= gap
                                                          or 0 <= b.start - table.end <= gap
                                                          or table.start <= b.start < table.end)]
    near.sort(key=lambda b: not (table.start <= b.start < table.end))
    return (near[0].start, near[0].end) if near else None


spans = st.tuples(st.integers(0, 400), st.integers(1, 60)).map(lambda p: (p[0], p[0] + p[1]))


@settings(max_examples=80, deadline=None)
@given(st.lists(spans, max_size=10), st.lists(spans, min_size=1, max_size=6), st.sampled_from([0, 3, 40]))
def test_attach_captions_equals_a_scan(block_spans, table_spans, gap):
    blocks = [Block(start=a, end=e, kind="caption" if i % 3 else "paragraph") for i, (a, e) in enumerate(block_spans)]
    tables = [Table(start=a, end=e, header=[], rows=[]) for a, e in table_spans]
    want = [_scan_caption(t, blocks, gap) for t in tables]
    attach_captions(tables, blocks, gap)
    assert [(t.caption.start, t.caption.end) if t.caption else None for t in tables] == want
