"""The number fragments of rules/conditions.yaml are written in a form the regex engine searches fast
(a bare digit first, look-behind after it): every rule regex finds exactly what it finds with the
plain forms below, groups included, on hostile text too."""
from __future__ import annotations

import re
from functools import lru_cache

from hypothesis import example, given, settings
from hypothesis import strategies as st

from extractor.conditions.canonical import expand
from extractor.conditions.mentions import load_rules

PLAIN = {
    "INT": r"(?:\d{1,3}(?:,\d{3})+|\d+)",
    "NUM": r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?",
    "KNUM": r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s?[kKmM](?![A-Za-z]))?",
    # an item counted by another noun ("5 warmups") ends the list, in both forms
    "LISTNUM": r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\s*(?:,|and|or|/)\s*(?:\d{1,3}(?:,\d{3})+|\d+)"
               r"(?!\d|\s*(?:warm[\s_-]?ups?|prompts?|GPUs?|runs?|iterations?|seeds?|epochs?|nodes?)\b)){2,}",
    "BD": r"(?<![A-Za-z0-9_])\d",
    "BINT": r"(?<![A-Za-z0-9_])(?:\d{1,3}(?:,\d{3})+|\d+)",
}

# numbers as the fragments read them (ASCII: hypothesis draws `\d` from all of Unicode), and the words
# the rules expect around them
NUMBERS = r"[a_]?[0-9]{1,4}(?:,[0-9]{2,4}){0,2}(?:\.[0-9]{1,2})?(?: ?[kKmM])?"
PIECES = [
    " ", "\n", ",", ".", "-", "–", "/", ":", "=", "x", "×", "_", "a", " to ", " and ", " or ", " - ", "k/", "K /",
    " GPUs", " GPU", " H100", " nodes", " node", " servers each with ", " with ", " GPUs per node",
    " input tokens", " output tokens", " tokens", " prompt", " concurrent requests", " QPS", " req/s",
    " requests per second", "concurrency ", "batch size ", "--max-concurrency ", "ISL", "٣", "²",
]


def texts():
    piece = st.one_of(st.from_regex(NUMBERS, fullmatch=True), st.sampled_from(PIECES), st.text(max_size=2))
    return st.lists(piece, min_size=1, max_size=12).map("".join)


@lru_cache(maxsize=1)
def _pairs() -> list[tuple[str, re.Pattern[str], re.Pattern[str]]]:
    rules = load_rules()
    frags = rules.conditions.fragments
    plain = {**frags, **PLAIN}
    out = []
    for cp in rules.patterns:
        ref = re.compile(expand(cp.entry.regex, plain), cp.rx.flags)
        out.append((cp.entry.name, ref, cp.rx))
    return out


def _found(rx: re.Pattern[str], text: str, pos: int) -> list[tuple[tuple[int, int], dict]]:
    return [(m.span(), m.groupdict()) for m in rx.finditer(text, pos)]


def test_every_plain_form_is_in_use():
    frags = load_rules().conditions.fragments
    assert set(PLAIN) <= set(frags)


@settings(max_examples=1000, deadline=None)
@given(texts(), st.integers(0, 6))
@example("a12 GPUs, _8 nodes, 123,456 concurrent requests", 0)
@example("a12k/1k; 1,234 input tokens 12,3456 output tokens", 1)
@example("x1 - 12,345 QPS, 2 to 1,00 concurrent users", 0)
@example("concurrency 0,0000,00,0000", 0)
def test_fast_forms_match_as_the_plain_ones(text: str, pos: int):
    for name, ref, fast in _pairs():
        assert _found(fast, text, pos) == _found(ref, text, pos), name
