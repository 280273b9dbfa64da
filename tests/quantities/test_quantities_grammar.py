"""The grammar's alternations: grouped for a fast compile, yet trying the same strings in the same order."""
import re

from hypothesis import example, given, settings, strategies as st

from extractor.quantities.grammar import WORD_END, _alt, _literal

WORDS = ["tok", "tok/s", "tokens", "Tok", "ms", "MS", "m", "input + output", "x", "%", "GB", "gb/s", "s"]
entries = st.lists(st.tuples(st.sampled_from(WORDS), st.booleans()), min_size=1, max_size=8)
texts = st.lists(st.sampled_from(["tok", "TOK", "/", " ", "s", "ms", "M", "input", "+", "output", "\n", "x",
                                  "%", "GB", "b", "9"]), max_size=8).map("".join)
after = st.sampled_from(["", r"\Z", r"(?=\s)", r"s", r"\+", r"[ \t]*/"])


def one_by_one(pairs: list[tuple[str, bool]]) -> str:
    """The plain alternation: each phrase with its own case group and word-boundary check."""
    uniq = sorted(set(pairs), key=lambda e: (-len(e[0]), e[0], e[1]))
    return "(?:" + "|".join(("(?:" if cs else "(?i:") + _literal(t) + ")" + (WORD_END if t[-1:].isalnum() else "")
                            for t, cs in uniq) + ")"


@settings(max_examples=400, deadline=None)
@given(entries, texts, after)
@example([("tok/s", True), ("tok", False)], "tok/s", "")  # the longer phrase first, whatever its case
@example([("input + output", False), ("input", True)], "input \n+ output", r"\Z")
def test_quantities_grammar_grouped_alternation_matches_as_the_plain_one(pairs, text, tail):
    grouped, plain = re.compile(_alt(pairs) + tail), re.compile(one_by_one(pairs) + tail)
    for start in range(len(text) + 1):
        g, p = grouped.match(text, start), plain.match(text, start)
        assert (g and g.span()) == (p and p.span())


@settings(max_examples=300, deadline=None)
@given(entries, texts)
@example([("/s", False), ("tok", True)], " / s")
@example([("input + output", False)], "INPUT \n+ output")
def test_quantities_grammar_first_chars_guard_changes_no_match(pairs, text):
    """The first-character guard in front of a unit alternation only skips starts where it cannot match."""
    from extractor.quantities.grammar import _first_chars

    guarded, plain = re.compile(f"(?={_first_chars(pairs)}){_alt(pairs)}"), re.compile(_alt(pairs))
    for start in range(len(text) + 1):
        g, p = guarded.match(text, start), plain.match(text, start)
        assert (g and g.span()) == (p and p.span())
