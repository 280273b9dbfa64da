"""A long batch keeps its memory: the words spaCy meets in one post are forgotten after it."""
from __future__ import annotations

from extractor import api


def test_the_vocabulary_does_not_grow_with_the_posts():
    nlp = api.get_extractor(None).nlp
    api.extract_text("# Warm-up\n\nThe engine served 1,000 tokens/s on 8x H100.\n", "warm.md", timeout=0)
    before = len(nlp.vocab.strings)
    for i in range(5):
        words = " ".join(f"zorblax{i}q{j}" for j in range(40))   # words no post has used before
        api.extract_text(f"# Post {i}\n\n{words} reached {1234 + i:,} tokens/s at batch size {8 * (i + 1)}.\n\n"
                         f"| GPU | Throughput (tok/s) |\n|---|---|\n| H100 {words[:20]} | {900 + i} |\n",
                         f"post{i}.md", timeout=0)
    assert len(nlp.vocab.strings) == before
