"""Text a reader never sees is never read: HTML comments however they end (an unclosed one runs to the end,
"--!>" ends one as a browser does), and elements with `hidden` or a display:none style (own sentences)."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def values(text: str, name: str) -> list[float]:
    return [c.value for c in extract_text(text, name).claims]


@pytest.mark.parametrize("name,page", [
    ("p.md", "We served 100 tok/s on one GPU.\n\n<!-- draft: 999 tok/s on one GPU.\n\nStill hidden 888 tok/s.\n"),
    ("p.html", "<p>We served 100 tok/s on one GPU.</p><!-- draft 999 tok/s <p>still 888 tok/s</p></body>"),
])
def test_an_unclosed_comment_hides_everything_after_it(name, page):
    assert values(page, name) == [100.0]


@pytest.mark.parametrize("name,page", [
    ("p.md", "We served 100 tok/s.\n\n<!-- a --!>\n\nVisible 555 tok/s on one GPU.\n\n<!-- b -->\n\nEnd 200 tok/s.\n"),
    ("p.html", "<p>We served 100 tok/s.</p><!-- a --!><p>Visible 555 tok/s on one GPU.</p><!-- b --><p>End 200 tok/s.</p>"),
    ("p.md", "We served 100 tok/s and <!-- x --!> then 555 tok/s on one GPU, then 200 tok/s. -->\n"),
])
def test_a_comment_ended_by_bang_shows_what_follows(name, page):
    assert values(page, name) == [100.0, 555.0, 200.0]


def test_empty_comments_end_at_once():
    assert values("<p>We served 100 tok/s.<!--> and 300 tok/s <!---> and 400 tok/s</p>", "p.html") == \
        [100.0, 300.0, 400.0]


def test_a_comment_opener_inside_a_script_hides_nothing():
    page = "<script>if (a <!--b) {}</script><p>We served 100 tok/s on one GPU.</p>"
    assert values(page, "p.html") == [100.0]


@pytest.mark.parametrize("name,page", [
    ("p.html", '<p>We served 100 tok/s.</p><p hidden>Hidden 999 tok/s.</p><div style="display: none">'
               '<p>Hidden 888 tok/s.</p></div><span style="color:red;visibility:hidden">777 tok/s</span>'
               '<p style="display:block">Shown 400 tok/s.</p>'),
    ("p.md", 'We served 100 tok/s.\n\n<p hidden>Hidden 999 tok/s.</p>\n\n<div style="display:none">\nHidden 888 '
             'tok/s.\n</div>\n\nShown 400 tok/s.\n'),
])
def test_hidden_elements_are_not_read(name, page):
    assert values(page, name) == [100.0, 400.0]
