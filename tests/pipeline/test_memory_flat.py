"""A long batch keeps its memory: the words spaCy learns from the posts are forgotten every few posts."""
from __future__ import annotations

from extractor import api
from extractor.pipeline import Extractor


def _post(i: int) -> str:
    words = " ".join(f"zorblax{i}q{j}" for j in range(40))   # words no post has used before
    return (f"# Post {i}\n\n{words} reached {1234 + i:,} tokens/s at batch size {8 * (i + 1)}.\n\n"
            f"| GPU | Throughput (tok/s) |\n|---|---|\n| H100 {words[:20]} | {900 + i} |\n")


def test_the_vocabulary_is_reset_every_few_posts():
    x = Extractor.from_rules()
    x.claims.analyser.vocab_reset_posts = 3
    x.extract("# Warm-up\n\nThe engine served 1,000 tokens/s on 8x H100.\n", doc="w.md", fmt="markdown", path=None,
              sha256="")
    sizes = []
    for i in range(7):
        x.extract(_post(i), doc=f"p{i}.md", fmt="markdown", path=None, sha256="")
        sizes.append(len(x.claims.analyser.nlp.vocab.strings))
    # the warm-up and posts 0, 1 fill the first zone; it is closed before post 2, the next before post 5
    assert sizes[1] > sizes[0] and sizes[2] < sizes[1] and sizes[5] < sizes[4], sizes
    assert max(sizes[5:]) <= max(sizes[2:5]), sizes   # no growth from one run of posts to the next


def test_records_do_not_depend_on_what_the_vocabulary_has_learnt():
    fresh, used = Extractor.from_rules(), api.get_extractor(None)
    for i in range(3):
        used.extract(_post(i), doc="x.md", fmt="markdown", path=None, sha256="")
    text = _post(9)
    a = fresh.extract(text, doc="p.md", fmt="markdown", path=None, sha256="").model_dump_json()
    b = used.extract(text, doc="p.md", fmt="markdown", path=None, sha256="").model_dump_json()
    assert a == b
