"""Same-length masking of inline Markdown and line prefixes, and sentence splitting of the view:
exact views for the markup each pattern handles (emphasis open/close rules, strikethrough, code
ticks, escapes, links, tags, entities, list and quote prefixes)."""
from __future__ import annotations

import pytest

from extractor.ingest.masking import blank, mask_inline_markdown, mask_line_prefixes
from extractor.ingest.segment import split_sentences


@pytest.mark.parametrize("text,view,links", [
    ("a *b* **c** ***d*** ****e**** x*y* 2*3 snake_case _f_ __g__",
     "a  b    c      d       *e*    x*y  2*3 snake_case  f    g  ", []),
    ("* not * emphasis, ~~gone~~ ~single~, ``code`` and \\*escaped\\* \\q",
     "* not * emphasis,   gone   ~single~,   code   and   escaped   \\q", []),
    ("[**bold link**](https://u/a_b \"T\") ![al_t](i.png) <b>x</b> &amp; &#10;",
     "   bold link                         al_t            x     &     \n    ", [(1, 14, "https://u/a_b")]),
])
def test_inline_markdown_is_blanked_in_place(text: str, view: str, links: list):
    chars = list(text)
    assert mask_inline_markdown(chars, text, 0, len(text)) == links
    assert "".join(chars) == view


def test_line_prefixes_and_heading_tails_are_blanked():
    text = "## Title ##\n> quoted\n  - [x] done\n12. twelve\nplain # not tail"
    chars = list(text)
    mask_line_prefixes(chars, text, 0, len(text))
    assert "".join(chars) == "   Title   \n  quoted\n        done\n    twelve\nplain # not tail"


def test_blank_keeps_newlines():
    chars = list("ab\ncd")
    blank(chars, 1, 4)
    assert "".join(chars) == "a \n d"


def test_sentences_end_at_punctuation_blank_lines_and_not_after_abbreviations():
    view = "x. \"Quoted.\" Next one! (Paren) e.g. Foo... bar. \n\nNew"
    assert split_sentences(view, 0, len(view), frozenset({"e.g."})) == [(0, 2), (3, 11), (13, 22), (23, 47),
                                                                        (50, 53)]


def test_punctuation_just_before_the_range_ends_a_sentence_there():
    view = "End.  \"Next\" starts"
    assert split_sentences(view, 4, len(view), frozenset()) == [(6, 19)]
