"""Figures quoted from other parties (issue 11, class 8): a claim whose own sentence credits its figure to
another paper, post or vendor carries `cited_from` and is never a headline; the post's own figures, and those
it credits to itself ("according to our measurements"), are not cited. Sentences written for these tests."""
from __future__ import annotations

import pytest

from tests.claim_checks import credited_record
from extractor.records import Claim


def _claim(text: str, value: float) -> Claim:
    record = credited_record(text, "t.md")
    found = [c for c in record.claims if abs(c.value - value) < 1e-6]
    assert found, [(c.metric, c.value) for c in record.claims]
    return found[0]


@pytest.mark.parametrize("sentence,party", [
    ("According to the Orca paper, continuous batching gives 36.9x higher throughput on A100.", "the Orca paper"),
    ("As reported by Contoso Labs, their engine reaches 36.9x higher throughput on A100.", "Contoso Labs"),
    ("Contoso Labs reports 36.9x higher throughput for its engine on A100.", "Contoso Labs"),
    ("In Contoso's paper, the engine reaches 36.9x higher throughput on A100.", "Contoso's paper"),
])
def test_a_figure_credited_to_another_party_is_cited(sentence: str, party: str) -> None:
    c = _claim(f"# Background\n\n{sentence}\n", 36.9)
    assert c.cited_from == party
    assert c.headline is False


def test_a_cited_figure_in_the_lead_is_not_a_headline() -> None:
    text = ("---\ntitle: Faster decoding\n---\n\nAccording to the Orca paper, batching gives 36.9x higher "
            "throughput. Our engine reaches 2,400 tokens/s on one A100.\n\n# Results\n\nMore text.\n")
    record = credited_record(text, "t.md")
    cited = [c for c in record.claims if c.cited_from]
    assert [c.value for c in cited] == [36.9] and not cited[0].headline


def test_a_cited_sentence_with_a_link_gives_the_link() -> None:
    text = ("# Background\n\nAs reported by [Contoso Labs](https://example.org/bench), it reaches 36.9x higher "
            "throughput.\n")
    assert _claim(text, 36.9).cited_from == "https://example.org/bench"


@pytest.mark.parametrize("sentence", [
    "According to our measurements, the engine reaches 36.9x higher throughput on A100.",
    "As shown in the table below, the engine reaches 36.9x higher throughput on A100.",
    "The engine reaches 36.9x higher throughput on A100.",
    "Our benchmark reports 36.9x higher throughput for the engine on A100.",
])
def test_the_posts_own_figures_are_not_cited(sentence: str) -> None:
    assert _claim(f"# Results\n\n{sentence}\n", 36.9).cited_from is None
