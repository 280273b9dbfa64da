"""Names a post writes out as several variants ("MiniMax-M1" beside "MiniMax-M1-40k" and "MiniMax-M1-80k";
"Gemma 3" beside "Gemma-3-Large" and "Gemma-3-Mini"): the short name alone does not say which of
them a claim measured (scopes.yaml `variant_names`)."""
from __future__ import annotations

import re
from functools import lru_cache

from extractor.conditions.canonical import without_org
from extractor.conditions.located import Located
from extractor.conditions.rules import VariantNames
from extractor.conditions.scan import fold, matches_at
from extractor.regex_starts import searchable
from extractor.ingest import Document

_TOKENS = re.compile(r"[A-Za-z0-9.]+")
# a variant word joined to a name: a word, not the start of a file name ("-throughput.png")
_WORD = r"[-_](?P<v>[A-Za-z0-9]+(?:\.\d+[A-Za-z]*)*)(?![\w-]*\.[A-Za-z]{2,4}\b)"
_CUT = re.compile(_WORD)


class Variants:
    """The variants of a name in a document, read from its whole text (prose and code alike)."""

    def __init__(self, rule: VariantNames):
        self.conditions = frozenset(rule.conditions)
        self.not_variant = re.compile(rule.not_variant, re.I)
        self._folded: tuple[str, str | None] | None = None   # the last document's text, folded (None: unsearchable)

    def of(self, d: Document, name: str, span: tuple[int, int], memo: dict[str, list[str]]) -> list[str]:
        """The variants the post writes of the name at `span`: the words joined to it by a hyphen or underscore
        ("-40k", "_Pro"), one each, sorted. Such a word counts when it is capitalised or a number ("-Flash",
        "-80k") or inside a repository id ("org/name-flash"), and is no file name ("-throughput.png"); the words
        `not_variant` names (a size, a precision, a tuning, a draft model) do not. None when the name at `span`
        is itself cut from a longer one written there ("Llama-4" of "Llama-4-Maverick-17B"): that one is tied.
        `memo`: the document's variants by name (the same for every claim of the post)."""
        if self.cut_word(d, span) is not None:
            return []
        base = without_org(name)
        if base not in memo:
            tokens = _TOKENS.findall(base)
            found: set[str] = set()
            if tokens and self._joined_after(d.text, tokens[-1]):
                rx = re.compile(r"(?P<repo>/)?(?<![A-Za-z0-9.])" + r"[\s_-]?".join(map(re.escape, tokens))
                                + _WORD, re.I)
                found = {m["v"].lower() for m in self._finditer(rx, d.text, tokens[0])
                         if m["repo"] or not m["v"][0].islower()}
            memo[base] = sorted(v for v in found if not self.not_variant.fullmatch(v))
        return memo[base]

    def _fold(self, text: str) -> str | None:
        """The document's text folded (kept for the last document), None when it cannot be searched folded."""
        if self._folded is None or self._folded[0] is not text:
            self._folded = (text, fold(text) if searchable(text) else None)
        return self._folded[1]

    def _joined_after(self, text: str, last: str) -> bool:
        """Whether the text may write a variant after a name ending in token `last`: every one is the token
        followed by "-" or "_" (`_WORD`), so a text that never writes that needs no pattern of the name compiled
        (most names: a compiled pattern costs ~1 ms)."""
        folded = self._fold(text)
        if folded is None:
            return True
        word = fold(last)
        return folded.find(word + "-") >= 0 or folded.find(word + "_") >= 0

    def _finditer(self, rx: re.Pattern[str], text: str, first: str) -> list[re.Match[str]]:
        """`rx.finditer(text)` for a name's pattern, tried only where its first token `first` begins (or at the
        "/" right before it): a (?i) pattern that opens with an optional group gets no fast skip in `re`."""
        folded = self._fold(text)
        if folded is None:
            return list(rx.finditer(text))
        word, starts = fold(first), []
        at = folded.find(word)
        while at >= 0:
            if at and text[at - 1] == "/":
                starts.append(at - 1)
            starts.append(at)
            at = folded.find(word, at + 1)
        return matches_at(rx, text, [(0, len(text))], starts)

    def at_place(self, d: Document, base: str, named: list[Located]) -> list[str]:
        """The variants of `base` among the names one place writes (`named`), sorted: the word after `base` in a
        fuller name ("Kimi-K9-Max"), or the word a name cut from a longer one goes on with."""
        return sorted(self.words(d, base, named))

    def words(self, d: Document, base: str, named: list[Located]) -> set[str]:
        """`at_place` as a set (of two places, the union of theirs)."""
        key = _key(base)
        words = set()
        for x in named:
            k = _key(x.m.quote)
            if k == key:
                word = self.cut_word(d, x.m.span)
            elif k.startswith(key + " "):
                word = k[len(key) + 1:].split()[0]
            else:
                continue
            if word is not None and not self.not_variant.fullmatch(word):
                words.add(word)
        return words

    @staticmethod
    def cut_word(d: Document, span: tuple[int, int]) -> str | None:
        """The word a name found at `span` goes on with in the text ("-Maverick" after "Llama-4"), lower case;
        None when the name ends there."""
        m = _CUT.match(d.text, span[1])
        return m["v"].lower() if m and not m["v"][0].islower() else None


@lru_cache(maxsize=4096)
def _key(name: str) -> str:
    """A name compared by its lower-case tokens, without an "org/" prefix (one per distinct name: a post writes
    its few names again and again)."""
    return " ".join(_TOKENS.findall(without_org(name).lower()))
