"""Span invariants, URL exclusion, offsets, determinism."""
from __future__ import annotations

from bisect import insort

from hypothesis import given, settings, strategies as st

from extractor.conditions.mentions import MentionFinder, find_mentions
from extractor.spans import overlaps_disjoint as _overlaps_taken

SAMPLE = (
    "Setup: 2 nodes, each with 8 H200 GPUs, running DeepSeek-V3 with SGLang v0.4.3 at TP8 and\n"
    "DP attention. We used ISL/OSL = 2048/512, concurrency 64, FP8 KV cache and a random dataset.\n\n"
    "```\npython3 -m sglang.bench_serving --dataset-name random --random-input-len 2048 --max-concurrency 64\n```\n"
    "See https://example.com/plots/H100-vs-B200.png for details. Warm-up runs were discarded.\n"
)


def test_spans_match_quotes() -> None:
    for m in find_mentions(SAMPLE):
        assert SAMPLE[m.span[0]:m.span[1]] == m.quote


def test_offset_shifts_spans() -> None:
    base = find_mentions(SAMPLE)
    shifted = find_mentions(SAMPLE, offset=100)
    assert [(m.span[0] + 100, m.span[1] + 100) for m in base] == [m.span for m in shifted]
    doc = "x" * 100 + SAMPLE
    for m in shifted:
        assert doc[m.span[0]:m.span[1]] == m.quote


def test_url_mentions_are_dropped() -> None:
    found = find_mentions("see https://example.com/H100/results.html now")
    assert not [m for m in found if m.kind == "hardware"]


def test_deterministic() -> None:
    a = [m.model_dump_json() for m in find_mentions(SAMPLE)]
    b = [m.model_dump_json() for m in MentionFinder().find(SAMPLE)]
    assert a == b


def test_sorted_by_span() -> None:
    spans = [m.span for m in find_mentions(SAMPLE)]
    assert spans == sorted(spans, key=lambda s: s)


def test_no_same_kind_overlap() -> None:
    ms = find_mentions(SAMPLE)
    for i, a in enumerate(ms):
        for b in ms[i + 1:]:
            if a.kind == b.kind:
                assert a.span[1] <= b.span[0] or b.span[1] <= a.span[0]


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab 8xH10TPISL/=KkGPUs.,-\n")), max_size=120))
def test_spans_hold_on_random_text(text: str) -> None:
    for m in find_mentions(text):
        assert text[m.span[0]:m.span[1]] == m.quote
        assert m.span[0] < m.span[1]


def test_infer_k_base() -> None:
    f = MentionFinder()
    assert f.infer_k_base("We used ISL/OSL = 8192/1024 and later 8K/1.") == 1024
    assert f.infer_k_base("inputs of 2000 tokens, then 1K/2K") == 1000


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 6)), max_size=25))
def test_overlap_check_agrees_with_its_definition(spans: list[tuple[int, int]]) -> None:
    """Overlap resolution looks only at the neighbours of a span in the sorted kept spans; it must
    decide as the pairwise definition does, zero-width spans included."""
    taken: list[tuple[int, int]] = []
    kept: list[tuple[int, int]] = []
    for a, width in spans:
        b = a + width
        pairwise = any(a < tb and ta < b for ta, tb in kept)
        assert _overlaps_taken(taken, a, b) == pairwise
        if not pairwise:
            kept.append((a, b))
            insort(taken, (a, b))
