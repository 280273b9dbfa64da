"""A concurrency of one is written in the singular ("1 concurrent request", "1 simultaneous user"): the same
setting as the plural form (issue 24, a setting in the claim's own paragraph missed). Every sentence is written
for this test."""
from __future__ import annotations

import pytest

from extractor.conditions.mentions import find_mentions


def _loads(text: str) -> list[tuple[str, object]]:
    return [(m.quote, m.value) for m in find_mentions(text) if m.kind == "batch_or_concurrency"]


@pytest.mark.parametrize("text,quote,value", [
    ("Latency was lowest with 1 concurrent request.", "1 concurrent request", 1),
    ("We kept 1 simultaneous user on the endpoint.", "1 simultaneous user", 1),
    ("Throughput peaked at 32 concurrent requests.", "32 concurrent requests", 32),
])
def test_singular_and_plural_counts(text: str, quote: str, value: int) -> None:
    assert _loads(text) == [(quote, value)]


@pytest.mark.parametrize("text", [
    "Each concurrent request is logged once.",        # no count
    "The 1 concurrent requester we wrote is a script.",  # another word
])
def test_no_count_of_requests(text: str) -> None:
    assert _loads(text) == []
