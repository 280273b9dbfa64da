"""Span invariants: text[start:end] == quote, offsets shift, order and determinism, no crashes."""
from hypothesis import given, settings
from hypothesis import strategies as st

from extractor.quantities.finder import find_quantities, default_finder

SAMPLE = """# Results on 8x H200

- Throughput reaches **12,400** tok/s/gpu at concurrency 256 (up to 2.2× vs. the old build).
- TTFT dropped from 640 ms to 410 ms; TPOT ~ 18.5 ms.
- ISL/OSL = 2048/256, released 2025-09-30 in v1.4.2 (see #5120).

| batch | tok/s | speedup |
|------:|------:|--------:|
| 64    | 8,210 | 1.0x    |
| 128   | 13,975| 1.7x    |
"""

PIECES = ["12", "3.5", "1,024", "25K", "x", "×", "%", " ", "**", "_", "-", "–", "to", "tok/s", "/gpu", "ms",
          "up to", "~", "$", "X", "H100", "v1.2.3", "2025-01-01", "\n", "1. ", "per", "GPU", "fold", "twice",
          "million", "μs", "|", "→", "/", "#", "(", ")", "a", "from", "between", "and", "\\>"]


def check(text: str, offset: int = 0) -> None:
    qs = default_finder().find(text, offset)
    for q in qs:
        s, e = q.span[0] - offset, q.span[1] - offset
        assert 0 <= s < e <= len(text)
        assert text[s:e] == q.quote
        assert q.quote == q.quote.strip()
        if q.value_max is not None:
            assert q.qualifier == "range" and q.value < q.value_max
    assert [q.span for q in qs] == sorted(q.span for q in qs)
    for a, b in zip(qs, qs[1:]):
        assert a.span[1] <= b.span[0], (a, b)


def test_quantities_spans_sample_document():
    check(SAMPLE)
    values = [q.value for q in find_quantities(SAMPLE)]
    assert 12400 in values and 2048 in values and 5120 not in values and 2025 not in values


def test_quantities_spans_offset_shifts_every_span():
    plain = find_quantities(SAMPLE)
    shifted = default_finder().find(SAMPLE, 1000)
    assert [(q.span[0] + 1000, q.span[1] + 1000) for q in plain] == [q.span for q in shifted]
    check(SAMPLE, 1000)


def test_quantities_spans_deterministic():
    assert [q.model_dump_json() for q in find_quantities(SAMPLE)] == \
        [q.model_dump_json() for q in find_quantities(SAMPLE)]


@settings(max_examples=120, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_quantities_spans_hold_on_generated_text(pieces):
    check("".join(pieces))


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=200))
def test_quantities_spans_hold_on_any_text(text):
    check(text)
