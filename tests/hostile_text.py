"""Hypothesis strategy for hostile text made of given pieces and a few random characters, shared by the
property tests that compare a shortcut scan with a plain `finditer`."""
from __future__ import annotations

from hypothesis import strategies as st


def pieced_texts(pieces: list[str]) -> st.SearchStrategy[str]:
    """Texts of 1 to 40 parts, each one of `pieces` or 1 to 3 arbitrary characters."""
    piece = st.one_of(st.sampled_from(pieces), st.text(min_size=1, max_size=3))
    return st.lists(piece, min_size=1, max_size=40).map("".join)
