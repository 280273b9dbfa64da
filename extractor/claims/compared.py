"""A bare number compared with a measured one takes its unit: "2,038 tok/s versus 1,742 before",
"23,545 tokens per second, which matches the submitted result (23,514)", "TTFT of 120 ms vs 96"; and a time
in a series or comparison with a claimed time takes its metric: "0.85s vs 0.26s", "7.4 ms for ~300 tokens,
12.9 ms for ~1500 tokens, and 30.5 ms ..."."""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from itertools import pairwise
from typing import Sequence

from extractor.claims.classify import Cue, unit_class
from extractor.claims.cues import near
from extractor.records import QuantityRecord

RESULT_CLASSES = ("token_rate", "request_rate", "time")
COMPARE_LABELS = ("baseline", "valence:neutral")
MAX_GAP = 160       # characters from the measured figure to the bare number
MAX_RATIO = 2.0
YEAR = re.compile(r"(?:19|20)\d\d")     # the two figures are of one size: a count or a year is not compared with them


class QuantitySpans(Sequence[QuantityRecord]):
    """The quantities of a text unit in the order given, with their starts and ends listed once: `compared_unit`
    finds the measured figure before a bare number, and whether a number stands between them, by bisection where
    both rise in that order (text order; elsewhere, as for nested spans, by the scan a plain list gets). A scan
    of every quantity of the sentence per bare number made a list of N bare numbers N^2."""

    def __init__(self, quantities: Sequence[QuantityRecord]):
        self.items = list(quantities)
        self.starts = [q.span[0] for q in self.items]
        self.ends = [q.span[1] for q in self.items]
        self.rising = all(a <= b for a, b in pairwise(self.starts)) and all(a <= b for a, b in pairwise(self.ends))

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]

    def __iter__(self):
        return iter(self.items)

    def last_result_before(self, q: QuantityRecord) -> QuantityRecord | None:
        """The last quantity (in order) of a result class that ends by `q`'s start, at most MAX_GAP before it."""
        i = bisect_right(self.ends, q.span[0])                 # those ending by q's start: a prefix
        j = bisect_left(self.ends, q.span[0] - MAX_GAP, 0, i)  # of which those near enough: its tail
        return next((self.items[k] for k in range(i - 1, j - 1, -1)
                     if unit_class(self.items[k].unit) in RESULT_CLASSES), None)

    def any_between(self, p: QuantityRecord, q: QuantityRecord) -> bool:
        """Whether a quantity starts at or after `p`'s end and ends by `q`'s start."""
        return bisect_left(self.starts, p.span[1]) < bisect_right(self.ends, q.span[0])


def compared_unit(q: QuantityRecord, quantities: Sequence[QuantityRecord],
                  cues: Sequence[Cue]) -> tuple[str, str] | None:
    """(unit class, unit) for a bare number `q` written after a comparison word that follows a measured
    rate or time of the same size in its sentence; None otherwise. `quantities`: the sentence's quantities (a
    `QuantitySpans` of them is read by bisection)."""
    if q.unit not in ("dimensionless", "") or q.value <= 0:
        return None
    if YEAR.fullmatch(q.quote.strip()):
        return None       # "compared to 2024 releases": a year
    indexed = isinstance(quantities, QuantitySpans) and quantities.rising
    if indexed:
        p = quantities.last_result_before(q)
    else:
        p = next((p for p in reversed(quantities) if p.span[1] <= q.span[0] and q.span[0] - p.span[1] <= MAX_GAP
                  and unit_class(p.unit) in RESULT_CLASSES), None)
    if p is None:
        return None
    if quantities.any_between(p, q) if indexed else \
            any(o.span[0] >= p.span[1] and o.span[1] <= q.span[0] for o in quantities):
        return None       # another number stands between them
    if not any(c.label in COMPARE_LABELS and p.span[1] <= c.start and c.end <= q.span[0]
               for c in near(cues, p.span[1], q.span[0])):
        return None
    if p.value <= 0 or not 1 / MAX_RATIO <= q.value / p.value <= MAX_RATIO:   # 0: no ratio to take
        return None
    return unit_class(p.unit), p.unit


SERIES_CLASSES = ("time", "token_time")
# what may stand between two times of one series or comparison: separators, a short condition of each ("on
# ~500 tokens", "for the 8B model"), a conjunction or comparison word, bare numbers of a slashed series
# ("630.4 / 833.3 / 743.9 ms"), the statistic of the first ("0.64 s median / 1.21 s p95"), Markdown emphasis;
# no clause of its own (no verb phrase, no period); at least a separator or a conjunction ("200 ms at a 50 ms
# ITL" is no series)
_SEP = r"[\s*_,/()~≈]*"
SERIES_GAP = re.compile(
    rf"(?=[^\n]*?(?:[,/(]|\b(?:and|or|vs|versus|compared|against)\b)){_SEP}(?:(?:on|at|for|with|in|under|across|using)\s[^,;.:!?\n()]{{0,30}}?)?{_SEP}"
    rf"(?:(?:mean|median|average|avg|max|min|p\d+(?:\.\d+)?)(?!\w){_SEP})?"
    rf"(?:(?:and|or|vs\.?|versus|compared\s+(?:to|with)|against)(?![\w]))?(?:{_SEP}\d[\d.,]*)*{_SEP}", re.I)


class ClaimsByClass:
    """The (quantity, metric) claims of a text unit grouped by unit class, each group in the order given (text
    order), read once per pass: the claims of a class before or after a span are found by bisection, not by a
    scan of every claim of the unit (a sentence of a thousand times made that scan cubic over the passes)."""

    def __init__(self, claims: Sequence[tuple[QuantityRecord, str]]):
        self.groups: dict[str | None, list[tuple[QuantityRecord, str]]] = {}
        for p, metric in claims:
            self.groups.setdefault(unit_class(p.unit), []).append((p, metric))
        self._starts = {cls: [p.span[0] for p, _ in g] for cls, g in self.groups.items()}
        self._ends = {cls: [p.span[1] for p, _ in g] for cls, g in self.groups.items()}
        # bisection holds where the offsets rise in the group's order; elsewhere (nested spans) a scan
        self._starts_rise = {cls: all(a <= b for a, b in pairwise(v)) for cls, v in self._starts.items()}
        self._ends_rise = {cls: all(a <= b for a, b in pairwise(v)) for cls, v in self._ends.items()}

    def before(self, cls: str, start: int, count: int = 1) -> list[tuple[QuantityRecord, str]]:
        """The last `count` claims of class `cls`, in order, of those that end by `start`."""
        group, ends = self.groups.get(cls, []), self._ends.get(cls, [])
        if self._ends_rise.get(cls, True):
            i = bisect_right(ends, start)      # those ending by `start` are a prefix
            return group[max(0, i - count):i]
        return [x for x in group if x[0].span[1] <= start][-count:]

    def after(self, cls: str, end: int) -> list[tuple[QuantityRecord, str]]:
        """The first claim of class `cls` (a list of at most one) of those that start at or after `end`."""
        group, starts = self.groups.get(cls, []), self._starts.get(cls, [])
        if self._starts_rise.get(cls, True):
            i = bisect_left(starts, end)       # those starting at or after `end` are a suffix
            return group[i:i + 1]
        return [x for x in group if x[0].span[0] >= end][:1]


def series_metric(q: QuantityRecord, cls: str, claims: ClaimsByClass, text: str, base: int) -> str | None:
    """The metric of the claimed time next to `q` (time class `cls`) in a series or comparison with it, when
    only what `SERIES_GAP` allows stands between them; None otherwise. `claims`: the (quantity, metric) of the
    claims of `q`'s text unit in text order, by class; `text`: that unit's text, from offset `base`."""
    if cls not in SERIES_CLASSES:
        return None
    for p, metric in claims.before(cls, q.span[0]):
        if SERIES_GAP.fullmatch(text, p.span[1] - base, q.span[0] - base):
            return metric
    for p, metric in claims.after(cls, q.span[1]):
        if SERIES_GAP.fullmatch(text, q.span[1] - base, p.span[0] - base):
            return metric
    return None


# the second of two clauses that share their verb, each with a figure after the same preposition ("improves reads
# from 10 GB/s to 27 GB/s, and writes from 5 GB/s to 11 GB/s"; "reads to 48 GB/s, and writes to 26 GB/s"), and the
# upper end of a "from A to B" whose lower end is a claim
PARALLEL_PREP = re.compile(r"(?i)\b(?P<prep>from|to)[ \t]+(?:about[ \t]+|around[ \t]+|roughly[ \t]+|[~≈][ \t]?)?[*_]*$")
# (each run of blanks is taken whole, possessively: what follows it is no blank, and two runs side by side made a
# failed match on a long run of blanks quadratic)
PARALLEL_GAP = re.compile(r"(?i)[*_)]*+(?:[ \t]*+(?:,(?:[ \t]*+(?:and|while|but))?|;)|[ \t]++(?:and|while|whereas|but))"
                          r"[ \t]++(?:the[ \t]++)?(?:[A-Za-z][\w/-]*+[ \t]++){1,3}?(?P<prep>from|to)[ \t]++"
                          r"(?:about[ \t]++|around[ \t]++|roughly[ \t]++|[~≈][ \t]?)?[*_]*")
RANGE_END_GAP = re.compile(r"(?i)[*_]*[ \t]+to[ \t]+(?:about[ \t]+|around[ \t]+|roughly[ \t]+|[~≈][ \t]?)?[*_]*")


def parallel_metric(q: QuantityRecord, cls: str, claims: ClaimsByClass, text: str, base: int) -> str | None:
    """The metric of the claim of unit class `cls` right before `q` when `q` repeats its clause's form with the
    verb left out (`PARALLEL_GAP`, the same preposition before both) or closes the "from A to B" it opens;
    None otherwise. `claims`, `text`, `base` as for `series_metric`."""
    before = claims.before(cls, q.span[0], 2)
    if not before:
        return None
    p, metric = before[-1]
    a, b = p.span[1] - base, q.span[0] - base
    own = PARALLEL_PREP.search(text, max(0, p.span[0] - base - 30), p.span[0] - base)
    if own is None:
        return None
    if own.group("prep").lower() == "from" and RANGE_END_GAP.fullmatch(text, a, b):
        return metric                 # "from 5 GB/s to 11 GB/s"
    gap = PARALLEL_GAP.fullmatch(text, a, b)
    if gap is not None and gap.group("prep").lower() == own.group("prep").lower():
        return metric
    if gap is not None and gap.group("prep").lower() == "from" and len(before) > 1:
        first = PARALLEL_PREP.search(text, max(0, before[-2][0].span[0] - base - 30), before[-2][0].span[0] - base)
        if first is not None and first.group("prep").lower() == "from":
            return metric             # "from A to B, and writes from C": the pair before opened with "from"
    return None


# "once the weights are in (6.1s)", "the request proper (7s)": a time in parentheses right after the words
# it measures, alone or first of a list ("(0.45s, 0.93s)"); not a period or a limit ("for a while (30 s)",
# "a timeout (60 s)")
PAREN_BEFORE = re.compile(r"[A-Za-z][\w-]*[ \t]*\([ \t]*(?:\*\*|__)?[ \t]*$")
PAREN_AFTER = re.compile(r"[ \t]*(?:\*\*|__)?[ \t]*(?:\)|,[^()\n]{0,40}\))")
PAREN_SETTING = re.compile(r"(?i)\b(?:for|during|over|every|within|per|each|timeouts?|intervals?|windows?|periods?|"
                           r"durations?|deadlines?|limits?|budgets?|targets?|SLOs?|up\s+to|e\.g\.|eg\.?|"
                           r"about|approximately|roughly|typical(?:ly)?|usual(?:ly)?|normal(?:ly)?)\b[^()\n.;]{0,30}\([^()\n]*$")


def parenthesized_time(q: QuantityRecord, cls: str, text: str, base: int) -> bool:
    """Whether the time `q` (unit class `cls`) stands alone in parentheses right after the words it measures;
    `text`: its text unit, from offset `base`."""
    if cls not in SERIES_CLASSES:
        return False
    start, end = q.span[0] - base, q.span[1] - base
    return bool(PAREN_BEFORE.search(text, max(0, start - 60), start) and PAREN_AFTER.match(text, end)
                and not PAREN_SETTING.search(text, max(0, start - 60), start))
