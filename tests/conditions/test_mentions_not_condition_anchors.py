"""Regexes tried only where their matches can be: the not-condition rules around the strings their matches
hold (`regex_starts.anchors`, `scan.anchored_matches`), the bare version and commit rules at the strings their
matches begin with (`scan.finditer_from_starts`). They find exactly what a plain `finditer` over the whole text
finds, for every rule, on hostile text too."""
from __future__ import annotations

import re

import pytest

from hostile_text import pieced_texts
from hypothesis import given, settings
from hypothesis import strategies as st

from extractor.conditions.mentions import default_finder as finder
from extractor.conditions.scan import anchored_matches, text_blocks
from extractor.regex_starts import anchors, searchable

PIECES = [
    "supports", "support for", "can support", "support.", "support FP8", "compatible with", "capability",
    "works on", "runs on any", "available for all", "FP32 accumulation", "accumulates in FP32", "BF16 outputs",
    "r3_tp2", "`P=2xTP-4|D=1xEP-8`", "means", "denotes", "stands for", "refers to", "tags:", "keywords:\n",
    "- a\n", "enable", "enabled only", "for batches", "for batch sizes", "applies", "Qwen3 4B", "/8B", "/14B",
    " / ", "DeepSeek R1", "/V3.1", "llama_70b.yaml", "qwen3_moe#fp8", "configs/x.json", "#", ".py",
    "requires", "at least", "minimum version:", "min", "need", "vLLM", " >= ", "≥", "=>", "^", "~=", "v0.13",
    "0.8", "1.2.3", "H100", "TP8", "FP8", "Llama 3.1 8B", "İ", "ı", "ſ", "K", "\u00a0", "\n\n", "\n", " ",
    ", ", ". ", "(", ")", ":", "=", "-", "_", "|", "`", "1", "8", "64", "x", "٣",
]


def texts():
    return pieced_texts(PIECES)


def _plain(rx: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in rx.finditer(text) if m.end() > m.start()]


@settings(max_examples=80, deadline=None)
@given(texts())
def test_anchored_matches_equal_finditer(text: str):
    f = finder()
    scanner = f._scanner or f._build_scanner()
    for variant in (text, text.upper(), text.swapcase()):
        _, hits = f._todo(variant, text_blocks(variant))
        if hits is None:
            assert not searchable(variant)
            continue
        for nc, found in zip(f.rules.not_conditions, scanner.not_condition_anchors):
            got = anchored_matches(nc.rx, variant, found, hits) if found else None
            if got is not None:
                assert [m.span() for m in got] == _plain(nc.rx, variant), (nc.entry.name, variant)


def test_every_not_condition_rule_has_anchors():
    """Each rule of the shipped rules can be tried around its strings (none falls back to a full scan)."""
    f = finder()
    scanner = f._scanner or f._build_scanner()
    assert all(scanner.not_condition_anchors), [nc.entry.name for nc, a in
                                                zip(f.rules.not_conditions, scanner.not_condition_anchors) if not a]


def test_anchors_of_simple_patterns():
    # a match that begins with its string: nothing is allowed before it
    (a,) = anchors(r"(?<!\w)(?:requires|needs)\s+\d", re.I)
    assert a.strings == {"requires", "needs"} and a.before is None
    # a word of any letters, then the string: the letters (and blanks) may come before it
    (a,) = anchors(r"[\w.]+\s+(?:means|denotes)", re.I)
    assert a.strings == {"means", "denotes"}
    assert a.before.fullmatch("x") and a.before.fullmatch(" ") and not a.before.fullmatch(",")
    # one anchor per alternative that needs its own (a rare operator rather than the common ".")
    found = anchors(r"at\s+least\s+\d+\.\d+|[\w.-]+\s*(?:>=|≥)\s*\d+\.\d+", re.I)
    assert [sorted(a.strings) for a in found] == [["least"], [">=", "≥"]]
    # inside a repeated group: "/" in every "x/8B"
    (a,) = anchors(r"[A-Za-z]\w*(?:\s*/\s*\w*\d\w*){2,}")
    assert a.strings == {"/"}


def test_no_anchor_where_a_match_may_hold_any_string():
    assert anchors(r".+x", re.S) is None        # any character may come before "x": no bounded look-back
    assert anchors(r"\w+") is None              # no string every match holds
    assert anchors(r"(?:ab)?") is None          # may be empty


def test_anchored_matches_find_runs_that_reach_far_back():
    """The characters before an anchor string are followed back past the first look-back window."""
    rx = re.compile(r"[a-z ]+means", re.I)
    (a,) = anchors(rx.pattern, rx.flags)
    text = "(" + "word " * 200 + "means" + ")" + ", ;" * 10_000
    hits = {"means": [text.index("means")]}
    assert [m.span() for m in anchored_matches(rx, text, [a], hits)] == _plain(rx, text)


def test_anchored_matches_fall_back_when_trying_would_cost_more():
    rx = re.compile(r"[a-z]*x")
    (a,) = anchors(rx.pattern)
    text = "x" * 100
    assert anchored_matches(rx, text, [a], {"x": list(range(100))}) is None


BARE = ["v0.9.1", "v1.2", "v2.0rc1", "commit 1a2b3c4d", "git commit: abcdef12", "revision 0badc0de9",
        "sha `deadbeef1`", "in commit 1234abcd", ">= v0.8", "≥v1.0", "v3.1 or later", "İ", "ſ", "٣"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(BARE + PIECES), st.text(min_size=1, max_size=3)), min_size=1,
                max_size=30).map("".join))
def test_finditer_from_starts_equals_finditer(text: str):
    from extractor.api import get_extractor
    from extractor.conditions.scan import finditer_from_starts

    resolver = get_extractor(None).conditions
    for rx in (resolver.bare_version, resolver.bare_commit, re.compile(r"(?<!\w)(?:max|min)imum\s+\d+", re.I)):
        for variant in (text, text.upper(), text.swapcase()):
            assert [m.span() for m in finditer_from_starts(rx, variant)] == [m.span() for m in rx.finditer(variant)]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab .!?;\n\t", max_size=60), st.data())
def test_a_covered_sentence_starts_after_the_last_sentence_end_before_it(text: str, data):
    from extractor.conditions.scan import _SENTENCE_END, covering

    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    ends_before = [m.end() for m in _SENTENCE_END.finditer(text, max(0, start - 400), start)]
    assert covering(text, start, end, "sentence")[0] == (ends_before[-1] if ends_before else max(0, start - 400))


@pytest.mark.parametrize("before, one", [
    (r"[\w.]", True), (r"\s", True), (r"[^\n]", True), (r"[a-z]|-", True), (r"\d|[ \t]", True), ("a", True),
    (r"(?=a)b", False), (r"a|(?<=x)b", False), (r"\b", False), ("ab", False), ("a*", False), ("(a)", False),
    ("^", False), ("a|bc", False)])
def test_an_anchor_run_reads_one_character_a_step_without_look_around(before: str, one: bool):
    """`anchored_matches` matches a run over the reversed text, cut at an end position: an anchor whose characters
    before are not one-character classes (a look-around, a word, a repeat) is refused where it is built."""
    from extractor.regex_starts import Anchor, one_character

    assert one_character(before) is one and one_character("(") is False   # not a pattern at all
    if one:
        assert Anchor(frozenset({"x"}), re.compile(before, re.I)).run is not None
    else:
        with pytest.raises(ValueError):
            Anchor(frozenset({"x"}), re.compile(before, re.I))


def test_every_shipped_anchor_run_reads_one_character_a_step():
    f = finder()
    scanner = f._scanner or f._build_scanner()
    from extractor.regex_starts import one_character
    befores = [a.before.pattern for found in scanner.not_condition_anchors for a in found or () if a.before]
    assert befores and all(one_character(b) for b in befores)
