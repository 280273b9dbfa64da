"""Text scanning for the mention finder: paragraph blocks, case folding that keeps offsets, URL spans,
start-position matching, and the numbers of a length mention (K = 1000 or 1024)."""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import Iterator, NamedTuple

import ahocorasick

from extractor.regex_starts import CASE_TRAPS, Anchor, searchable, shortest_prefixes, start_strings

_NUM_RE = re.compile(r"^\s*(\d[\d,]*(?:\.\d+)?)\s*([kKmM]?)\s*$")
URL_RE = re.compile(
    r"(?:https?://|www\.)[^\s<>\"'`]+|(?<![\w])(?:/[\w.-]+){2,}\.(?:png|jpe?g|gif|svg|webp|html?)\b"
    r"|\b[\w.-]+\.(?:png|jpe?g|gif|svg|webp)\b"
)

# Every URL_RE match holds one of these and no blank: only blank-free runs holding one are searched.
_URL_TRIGGER = re.compile(r"https?://|www\.|\.(?:png|jpe?g|gif|svg|webp|html?)")
_NON_BLANK = re.compile(r"\S*")


def url_spans(text: str) -> list[tuple[int, int]]:
    """Spans of URL_RE's matches in `text` (as `URL_RE.finditer`, but it only reads around the triggers)."""
    return [m.span() for a, e in blank_free_runs(text, _URL_TRIGGER) for m in URL_RE.finditer(text, a, e)]


def blank_free_runs(text: str, trigger: re.Pattern[str]) -> Iterator[tuple[int, int]]:
    """The runs of non-blank characters of `text` that hold a match of `trigger`, in order: a regex whose
    matches are such runs need only be tried there."""
    done = 0
    for t in trigger.finditer(text):
        i = t.start()
        if i < done:
            continue
        s = i
        while s > done and not text[s - 1].isspace():
            s -= 1
        done = _NON_BLANK.match(text, i).end()
        yield s, done


def is_pow2(n: float) -> bool:
    """Whether `n` is a whole power of two (an int of any size, or a float holding one)."""
    if isinstance(n, float) and not n.is_integer():
        return False
    whole = int(n)
    return whole >= 1 and (whole & (whole - 1)) == 0


def raw_number(s: str) -> tuple[float, str]:
    m = _NUM_RE.match(s)
    if not m:
        raise ValueError(s)
    return float(m.group(1).replace(",", "")), m.group(2).lower()


def _scaled(num: float, suffix: str, k_base: int) -> int | float:
    if suffix == "k":
        num *= k_base
    elif suffix == "m":
        num *= k_base * k_base
    return int(num) if float(num).is_integer() else num


def lengths(raws: list[str], k_base: int | None) -> list[int | float]:
    """Numbers of one mention; K suffix -> x1024 when `k_base` is 1024 or, if None, when
    another number of the same mention is written out as a power of two >= 64."""
    parsed = [raw_number(r) for r in raws]
    if k_base is None:
        plain_pow2 = any(not suf and n >= 64 and is_pow2(n) for n, suf in parsed)
        k_base = 1024 if plain_pow2 else 1000
    return [_scaled(n, suf, k_base) for n, suf in parsed]


_BLANK_RE = re.compile(r"\n[ \t]*\n")
BLANKS = re.compile(r"\s+")
TRY_COST = 16  # a regex tried at one position costs about as much as scanning this many positions
KNUM_RE = re.compile(r"\d[\d,]*(?:\.\d+)?(?:\s?[kKmM](?![A-Za-z]))?")
# ... one number of a list: a comma is a thousands separator only before three digits ("1,2,4,8" is four numbers)
LIST_NUM_RE = re.compile(r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:\s?[kKmM](?![A-Za-z]))?")


def text_blocks(text: str, max_len: int = 4000) -> list[tuple[int, int]]:
    """Paragraph spans (split at blank lines; long ones at line ends) covering `text`."""
    out: list[tuple[int, int]] = []
    pos = 0
    for m in _BLANK_RE.finditer(text):
        out.append((pos, m.start()))
        pos = m.start()
    out.append((pos, len(text)))
    res: list[tuple[int, int]] = []
    for a, b in out:
        while b - a > max_len:
            cut = text.rfind("\n", a, a + max_len)
            cut = cut if cut > a else a + max_len
            res.append((a, cut))
            a = cut
        res.append((a, b))
    return res


# The characters whose lowercase is not one character, or that `re.IGNORECASE` matches with an ASCII
# letter they do not lowercase to: folded to that letter so the folded text keeps every offset.
_FOLD_TABLE = str.maketrans(CASE_TRAPS, "iis")


def fold(text: str) -> str:
    """`text` lowercased for cue look-up, one character for one (offsets are those of `text`)."""
    if any(c in text for c in CASE_TRAPS):  # translate is slow: only when it has work to do
        text = text.translate(_FOLD_TABLE)
    return text.lower()


class Scanner(NamedTuple):
    """Every cue word and start string, found in one pass; task -> its start strings (tasks with any); the
    anchors of each not-condition rule (None: it has none)."""

    automaton: ahocorasick.Automaton
    start_words: dict[int, tuple[str, ...]]
    not_condition_anchors: list[list[Anchor] | None]


def matches_at(rx: re.Pattern[str], text: str, spans: list[tuple[int, int]],
               starts: list[int]) -> list[re.Match[str]]:
    """`rx.finditer` over each span, trying `rx` only at `starts` (sorted; they must include every
    position where a match can begin, and no match may be empty)."""
    found = []
    for a, e in spans:
        end = a
        for p in starts[bisect_left(starts, a):bisect_left(starts, e)]:
            if p >= end:
                m = rx.match(text, p, e)
                if m:
                    found.append(m)
                    end = m.end()
    return found


def blocks_holding(block_starts: list[int], positions: list[int]) -> list[int]:
    """Indices of the blocks (given by their sorted starts, the first at 0) holding one of `positions`
    (sorted): one look-up per block, however many positions it holds."""
    out: list[int] = []
    i, n, last = 0, len(positions), len(block_starts) - 1
    while i < n:
        b = bisect_right(block_starts, positions[i]) - 1
        out.append(b)
        if b == last:
            break
        i = bisect_left(positions, block_starts[b + 1], i)
    return out


_SENTENCE_END = re.compile(r"[.!?;](?=\s)|\n")
_LAST_SENTENCE_END = re.compile(r"(?s:.*)(?:[.!?;](?=\s)|\n)")   # the last one: found backwards from the end
_REACH = 400  # a covered sentence or line reaches at most this far on either side of its match


def covering(text: str, start: int, end: int, within: str) -> tuple[int, int]:
    """The span of `text` that a match [start, end) covers: itself, its line, or its sentence (cut at a
    sentence end, a semicolon or a line break, at most `_REACH` characters away)."""
    if within == "match":
        return start, end
    lo = max(0, start - _REACH)
    if within == "line":
        a = text.rfind("\n", lo, start) + 1 or lo
        b = text.find("\n", end, end + _REACH)
        return a, (b if b >= 0 else min(len(text), end + _REACH))
    m = _LAST_SENTENCE_END.match(text, lo, start)
    a = m.end() if m else lo
    m = _SENTENCE_END.search(text, end, end + _REACH)
    return a, (m.start() if m else min(len(text), end + _REACH))


def anchored_matches(rx: re.Pattern[str], text: str, anchors: list[Anchor],
                     hits: dict[str, list[int]]) -> list[re.Match[str]] | None:
    """The matches of `rx.finditer(text)` (none empty: every match holds an anchor string), trying `rx`
    only where a match can begin: at an anchor string found in the text (`hits`: where each begins), or
    before it across a run of the characters its anchor allows there. None when that would try more
    positions than scanning the text costs (then scan it)."""
    ranges: list[tuple[int, int]] = []
    backwards: str | None = None   # the text reversed: a run ending at `at` is matched forwards from len - at
    n = len(text)
    # One range longer than this already tries more positions than a scan costs (the fall-back below), so a run
    # is followed back at most this far: a run of characters that allow almost anything ("\s", "[^()]") would
    # otherwise be followed to the start of the text from every hit (quadratic in the post's length).
    reach = n // TRY_COST + 1
    for anchor in anchors:
        run = anchor.run
        for word in anchor.strings:
            ats = hits.get(word)
            if not ats:
                continue
            if run is None:
                ranges.extend((at, at) for at in ats)
                continue
            if backwards is None:
                backwards = text[::-1]
            for at in ats:
                back = run.match(backwards, n - at, n - at + reach).end() - (n - at)
                if back >= reach:
                    return None   # this range alone costs more than scanning
                ranges.append((at - back, at))
    if not ranges:
        return []
    ranges.sort()
    merged: list[list[int]] = []
    for lo, hi in ranges:
        if merged and lo <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    if sum(hi - lo + 1 for lo, hi in merged) * TRY_COST > len(text):
        return None
    found: list[re.Match[str]] = []
    end = 0
    for lo, hi in merged:
        for p in range(max(lo, end), hi + 1):
            if p >= end:
                m = rx.match(text, p)
                if m and m.end() > p:
                    found.append(m)
                    end = m.end()
    return found


_START_FINDERS: dict[tuple[str, int], re.Pattern[str] | None] = {}


def _start_finder(rx: re.Pattern[str]) -> re.Pattern[str] | None:
    """A regex finding, in folded text, the strings every match of `rx` begins with (None: no such strings)."""
    key = (rx.pattern, rx.flags)
    if key not in _START_FINDERS:
        words = start_strings(rx.pattern, rx.flags, digits=True)
        _START_FINDERS[key] = (re.compile("|".join(re.escape(w) for w in shortest_prefixes(words)))
                               if words else None)
    return _START_FINDERS[key]


def prepare_starts(*rxs: re.Pattern[str]) -> None:
    """Find the start strings of `rxs` now (while the extractor is built, where the regex cache keeps them)
    rather than on the first text `finditer_from_starts` reads."""
    for rx in rxs:
        _start_finder(rx)


def finditer_from_starts(rx: re.Pattern[str], text: str, folded: str | None = None) -> list[re.Match[str]]:
    """The matches of `rx.finditer(text)`, trying `rx` only where one of the strings its matches begin with
    starts (regex_starts.start_strings, looked for in `folded`: `fold(text)`, computed when not given)."""
    finder = _start_finder(rx)
    if finder is None or not searchable(text):
        return list(rx.finditer(text))
    folded = fold(text) if folded is None else folded
    starts: list[int] = []
    m = finder.search(folded)
    while m is not None:
        starts.append(m.start())
        if len(starts) * TRY_COST > len(text):
            return list(rx.finditer(text))    # as common as that: scanning costs less
        m = finder.search(folded, m.start() + 1)
    return matches_at(rx, text, [(0, len(text))], starts)
