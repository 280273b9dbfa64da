"""A figure inside a Markdown link or image target is part of a file name or a path: markup, whatever form it has
("1m-context", "8k-tokens"); the same figure in the visible text keeps its own reason. Sentences of our own."""
from __future__ import annotations

from extractor.api import extract_text


def aside(text: str) -> list[tuple[str, str]]:
    return [(s.quote, s.reason) for s in extract_text(text, "t.md").set_aside]


def test_a_figure_in_a_link_or_image_target_is_markup():
    text = ("# Long context\n\n![Decode keeps up at long context.](/assets/figures/decode-1m-context.svg)\n\n"
            "See [the sweep](/blog/2026/sweep-128k-context.html) for details.\n")
    assert aside(text) == [("1m-context", "markup"), ("128k-context", "markup")]


def test_the_same_figure_in_visible_text_keeps_its_own_reason():
    text = "# Long context\n\nThe model is served with a 1M context window ([setup](/docs/serving.html)).\n"
    assert aside(text) == [("1M context window", "setting")]
