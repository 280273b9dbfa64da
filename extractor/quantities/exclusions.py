"""What looks numeric but is no quantity: URLs, tags, versions, dates, list labels, "Figure 3".

`Exclusions(rules)` compiles the `exclude`, `label_words`, `months` and `year_words` rules of
`numbers.yaml`. Scanned exclusions run over the whole text, but only where one of the strings their
matches begin with occurs (`regex_starts`); at-number exclusions are tried only where a number starts.
"""
from __future__ import annotations

import bisect
import re
from typing import NamedTuple

from extractor.quantities.grammar import SP, _alt, _scoped, trie
from extractor.quantities.rules import QuantityRules
from extractor.regex_starts import CASE_TRAPS, anchors, shortest_prefixes, start_strings

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


class _Scan(NamedTuple):
    """An exclusion scanned over the whole text, and how its matches can begin (to skip the scan)."""

    rx: re.Pattern[str]
    starts: re.Pattern[str] | None  # finds, in the lower-cased text, a string every match begins with
    # without start strings: strings one of which every match holds (lowercase; None: unknown)
    holds: frozenset[str] | None = None

    @classmethod
    def of(cls, pattern: str) -> "_Scan":
        """The scan of `pattern`, with a finder of its start strings when they are known, else the strings one
        of which every match holds ("quarters" in "(?i)\\b(?:the|\\d+)[ \\t]+quarters\\b")."""
        rx = re.compile(pattern)
        starts = start_strings(rx.pattern, rx.flags, min_len=1)
        if not starts:
            found = anchors(rx.pattern, rx.flags)
            return cls(rx, None, frozenset(s for a in found for s in a.strings) if found else None)
        return cls(rx, re.compile(trie(set(shortest_prefixes(starts)))))

    def spans(self, text: str, low: str | None) -> list[tuple[int, int]]:
        """Spans of the non-empty matches in `text`, as `finditer` finds them. With `low`, the lower-cased
        text (same offsets), a match is tried only where a start string begins: a long (?i) alternation
        gets no fast first-character skip in `re`, the start-string trie does."""
        if self.starts is None or low is None:
            if low is not None and self.holds is not None and not any(w in low for w in self.holds):
                return []    # no string every match holds: nothing to scan for
            return [(m.start(), m.end()) for m in self.rx.finditer(text) if m.end() > m.start()]
        out = []
        pos = 0
        while (s := self.starts.search(low, pos)) is not None:
            m = self.rx.match(text, s.start())   # non-empty: every match begins with a start string
            if m is None:
                pos = s.start() + 1
            else:
                out.append((m.start(), m.end()))
                pos = m.end()
        return out


class Exclusions:
    """The exclusion rules, compiled: spans to skip, at-number shapes, labels and dates."""

    def __init__(self, rules: QuantityRules):
        n = rules.numbers
        scanned = [e for e in n.exclude if not e.at_number]
        self._scan_excl = [_Scan.of(e.pattern) for e in scanned]
        self._scan_names = [e.name for e in scanned]
        at = [e for e in n.exclude if e.at_number]
        self._at_excl = re.compile("|".join(f"(?P<x{i}>{_scoped(e.pattern)})" for i, e in enumerate(at))) if at else None
        self._at_flags = {f"x{i}": e for i, e in enumerate(at)}
        self._labels = {w.lower() for w in n.label_words}
        self._names = frozenset(n.name_words)
        self._not_after_letter_prefix = frozenset(w.lower() for w in n.letter_prefix_not_after)
        self._months = set(n.months)
        self._year_words = {w.lower() for w in n.year_words}
        self._year_range = n.year_range
        month_alt = _alt([(mo, True) for mo in n.months])
        self._month_day_before = re.compile(rf"{month_alt}\.?{SP}+\d{{1,2}}(?:st|nd|rd|th)?,?{SP}+\Z")
        self._month_after = re.compile(rf"(?:st|nd|rd|th)?{SP}+{month_alt}")

    def excluded(self, text: str, low: str) -> list[tuple[int, int]]:
        """Merged spans of the scanned exclusions (URLs, tags, model versions...) in `text`."""
        trusted = not any(c in text for c in CASE_TRAPS)  # else `low` may miss an (?i) match's start
        return _merge([span for scan in self._scan_excl for span in scan.spans(text, low if trusted else None)])

    def named(self, text: str, low: str) -> list[tuple[int, int, str]]:
        """Spans of the scanned exclusions with the name of the rule that matched, unmerged and sorted
        (read only when a caller wants to know why a figure was skipped)."""
        trusted = not any(c in text for c in CASE_TRAPS)
        return sorted((s, e, name) for scan, name in zip(self._scan_excl, self._scan_names)
                      for s, e in scan.spans(text, low if trusted else None))

    def excluded_at(self, text: str, start: int) -> int | None:
        """End of an at-number exclusion (version, date, list label...) starting at `start`, if any."""
        hit = self.excluded_at_rule(text, start)
        return None if hit is None else hit[0]

    def excluded_at_rule(self, text: str, start: int) -> tuple[int, str] | None:
        """(end, rule name) of an at-number exclusion starting at `start`, if any."""
        if self._at_excl is None:
            return None
        x = self._at_excl.match(text, start)
        if x is None:
            return None
        rule = self._at_flags[x.lastgroup]
        if rule.line_start:
            lead = text[text.rfind("\n", 0, start) + 1:start]
            if lead.strip(" \t>*+-#") or (rule.heading and "#" not in lead):
                return None
        return x.end(), rule.name

    def is_label_or_date(self, text: str, m: re.Match, has_unit: bool, is_range: bool) -> bool:
        """Vocabulary checks: 'Figure 3', 'Step 2', 'Model 3s', 'the X6', 'May 5, 2025', '5 May', 'in 2024'."""
        start = m.start("num1")
        word = _prev_word(text, m.start())
        if word.lower().rstrip(".") in self._labels or word in self._names:
            return True
        pre = m.group("pre1")
        if pre is not None and len(pre) == 1 and pre.isalpha() and \
                (word.lower() in self._not_after_letter_prefix
                 or (word[:1].isupper() and text.endswith(word + " ", 0, m.start()))):
            return True      # "the X6", "BMW X5": a name, not a ratio
        if has_unit:
            return False
        if word.rstrip(".") in self._months:
            return True
        num = m.group("num1")
        if num.isdigit() and len(num) <= 2 and self._month_after.match(text, m.end("num1")):
            return True
        if not is_range and num.isdigit() and len(num) == 4 and \
                self._year_range[0] <= int(num) <= self._year_range[1]:
            if word.lower() in self._year_words or self._month_day_before.search(text, max(0, start - 24), start):
                return True
        return False


def _lower(text: str) -> str:
    """Lower-cased text with the same length (so offsets carry over)."""
    low = text.lower()
    return low if len(low) == len(text) else text.translate(_ASCII_LOWER)


def _glued(text: str, i: int, letter_prefixes: tuple[str, ...]) -> bool:
    """Digit at i is glued to a word before it (H100, fig_3), unless a prefix unit like X or USD sits there."""
    if i == 0:
        return False
    c = text[i - 1]
    if c == "_":
        return i > 1 and (text[i - 2].isalnum())
    return c.isalpha() and not text.endswith(letter_prefixes, 0, i)


def _word_start(text: str, i: int) -> bool:
    return i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")


def _prev_word(text: str, i: int) -> str:
    """The word right before position i, skipping spaces, markup and '#', ':' (e.g. 'Figure' in 'Figure #3')."""
    j = i
    while j > 0 and i - j < 6 and text[j - 1] in " \t#:*_\u00a0":
        j -= 1
    k = j
    while k > 0 and j - k < 24 and (text[k - 1].isalpha() or text[k - 1] in ".©"):
        k -= 1
    return text[k:j]


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    spans.sort()
    out: list[tuple[int, int]] = []
    for s, e in spans:
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def _overlaps(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    i = bisect.bisect_right(spans, (start, float("inf"))) - 1
    if i >= 0 and spans[i][1] > start:
        return True
    return i + 1 < len(spans) and spans[i + 1][0] < end
