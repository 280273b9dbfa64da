"""Texts that repeat across documents are searched and read once; their claims still sit where they are."""
from __future__ import annotations

from extractor import api

SENTENCE = "Decode reached 1,250 tokens/s per GPU on 8 H100s."
FIRST = f"# One\n\n{SENTENCE}\n"
SECOND = f"# Another title\n\nSome words first.\n\n{SENTENCE}\n"


def _claims(text: str):
    return api.extract_text(text, "post.md", timeout=0).claims


def test_a_repeated_sentence_gives_the_same_claims_at_its_own_offsets():
    first, second = _claims(FIRST), _claims(SECOND)
    assert [c.quote for c in first] == [c.quote for c in second] == ["1,250 tokens/s per GPU"]
    assert first[0].span[0] == FIRST.index("1,250")
    assert second[0].span[0] == SECOND.index("1,250")


def test_a_cached_reading_is_not_changed_by_its_use():
    extractor = api.get_extractor(None)
    before = [q.model_dump() for q in extractor._find(SENTENCE)]
    _claims(FIRST)
    _claims(SECOND)
    assert [q.model_dump() for q in extractor._find(SENTENCE)] == before
    assert all(SENTENCE[q.span[0]:q.span[1]] == q.quote for q in extractor._find(SENTENCE))
