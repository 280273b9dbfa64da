"""The span helpers answer what a plain scan of every span answers (exact ones always; the windowed ones
when no span reaches past more than `window` later starts)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from extractor.spans import inside_near, overlaps_disjoint, overlaps_near, point_inside

span = st.tuples(st.integers(0, 200), st.integers(1, 12)).map(lambda t: (t[0], t[0] + t[1]))


def _disjoint(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if not out or s >= out[-1][1]:
            out.append((s, e))
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(span, max_size=30), span)
def test_overlaps_disjoint_is_a_scan(spans, asked):
    spans = _disjoint(spans)
    a, b = asked
    assert overlaps_disjoint(spans, a, b) == any(s < b and a < e for s, e in spans)


@settings(max_examples=300, deadline=None)
@given(st.lists(span, max_size=30), st.integers(-2, 220))
def test_point_inside_is_a_scan(spans, pos):
    spans = _disjoint(spans)
    assert point_inside(pos, spans, [s for s, _ in spans]) == any(s <= pos < e for s, e in spans)


@settings(max_examples=300, deadline=None)
@given(st.lists(span, max_size=30, unique_by=lambda t: t[0]), span)
def test_windowed_answers_are_a_scan_for_short_spans(spans, asked):
    # spans of at most 12 characters with distinct starts: none reaches past 12 later starts
    spans = sorted(spans)
    a, b = asked
    assert overlaps_near(spans, a, b, window=13) == any(s < b and a < e for s, e in spans)
    assert inside_near(spans, a, b, window=13) == any(s <= a and b <= e for s, e in spans)


def test_a_window_misses_a_long_span_further_back():
    spans = [(0, 100)] + [(i, i + 1) for i in range(10, 20)]
    assert not overlaps_near(spans, 50, 51, window=8)
    assert overlaps_disjoint([(0, 100)], 50, 51)
