"""How a number relates to the words and numbers around it: ranges, changes, qualifiers, series.

`Relations` decides whether two numbers joined by a connector are one range ("3-5x", "between 4 and 8")
or a change ("rose from 67 to 253": two quantities), attaches qualifier cues ("about", "up to", "or
more") and widens the span over them, and shares a trailing unit across a series ("24 / 16 / 7 QPS").
`Hit` is a quantity while it is being built.
"""
from __future__ import annotations

import re
from decimal import Decimal

from extractor.quantities.exclusions import Exclusions, _overlaps, _prev_word
from extractor.quantities.grammar import INVISIBLE, Grammar, NumberReader
from extractor.quantities.unit_reader import UnitInfo, UnitReader
from extractor.quantities.units import DIMENSIONLESS, canonical_unit, convert, dimensions
from extractor.records import QuantityRecord

_APPROX_BEFORE = re.compile(r"[~≈∼][ \t]?\Z")    # "~10 to ~20 ms": the first number hedged as the second
_LINE_START = re.compile(r"\n[ \t]*(?:\n|[-*+|#>]|\d+[.)][ \t])")  # a new line that starts a new block or item


class Hit:
    """A quantity being built (mutable while qualifiers and series are resolved)."""

    __slots__ = ("start", "end", "value", "value_max", "info", "surface", "qual", "post_qual", "count", "scale")

    def __init__(self, start, end, value, value_max, info, surface, qual=None, scale=None):
        self.start, self.end, self.value, self.value_max = start, end, value, value_max
        self.info, self.surface, self.qual, self.post_qual, self.count = info, surface, qual, None, False
        self.scale = scale  # the multiplier written on this number ("15K": 1000.0), None if none

    def record(self, text: str, offset: int) -> QuantityRecord:
        start, end = self.start, self.end
        while end > start and text[end - 1] in " \t*_":
            end -= 1
        while end < len(text) and text[end] in INVISIBLE:  # the padding of an entity that ends it ("5&times;")
            end += 1
        return QuantityRecord(value=self.value, value_max=self.value_max, unit=self.info.unit,
                              surface_unit=self.surface, qualifier=self.qual or "exact",
                              quote=text[start:end], span=(start + offset, end + offset))


def _scaled(value: float, scale: float) -> float:
    """value * scale, exact in decimal ("1.2" * 1e6 is 1200000.0, not 1199999.9999999998)."""
    return float(Decimal(repr(value)) * Decimal(repr(scale)))


def _share_scale(series: list[Hit]) -> None:
    """'1.2, 2.4 and 3.6M tokens': a multiplier on the last number only scales the others, when they
    carry no multiplier and no other unit and are written at its scale (within ten times its mantissa)."""
    last = series[-1]
    if last.scale is None or last.value_max is not None:
        return
    mantissa = abs(last.value) / last.scale
    rest = series[:-1]
    if all(h.scale is None and h.value_max is None and 0 < abs(h.value) <= 10 * mantissa and abs(h.value) < 1000
           and (h.info.unit == last.info.unit or (h.info.unit == DIMENSIONLESS and not h.surface)) for h in rest):
        for h in rest:
            h.value, h.scale = _scaled(h.value, last.scale), last.scale


def _strip_gap(u: str) -> str:
    return u.strip(" \t\u00a0\u202f\u2009\u2007*_")


def surface(pre: str | None, unit: str | None) -> str:
    """The surface unit as written: prefix unit and unit, gaps stripped."""
    parts = [p for p in (pre, _strip_gap(unit or "")) if p]
    return " ".join(parts)


class Relations:
    """Ranges versus changes, qualifier cues, and series, over one text at a time."""

    def __init__(self, rules, grammar: Grammar, numbers: NumberReader, units: UnitReader, exclusions: Exclusions):
        self.rules_dir = rules.rules_dir
        self._g = grammar
        self._numbers = numbers
        self._units = units
        self._excl = exclusions

    # ---------------------------------------------------------------- ranges and changes
    def range(self, text: str, low: str, m: re.Match, hit: Hit, excluded) -> Hit | None:
        """The range of the two numbers of `m`, or None when they are two quantities (a change, a pair)."""
        g = self._g
        rc = re.sub(r"\s+", " ", _strip_gap(m.group("rc")).lower())
        if rc in g.open and not g.open[rc].search(low, max(0, hit.start - 40), hit.start):
            return None
        if rc == "to" and self._is_change(text, low, m, hit):
            self._share_level_unit(m, hit)
            return None
        n2_start = m.start("num2") if m.group("num2") else m.start("word2")
        if _overlaps(excluded, n2_start, m.end()):
            return None
        if m.group("num2") is not None and self._excl.excluded_at(text, n2_start) is not None:
            return None
        v2 = self._numbers.value(m, 2)
        u1, u2 = m.group("u1"), m.group("u2")
        if m.group("word2") is not None and not u2:
            return None
        if (u1 or m.group("pre1")) and not (u2 or m.group("pre2")):
            return None
        if m.group("approx2") and not (u1 or m.group("pre1")) and not _APPROX_BEFORE.search(text, 0, hit.start):
            return None     # "at load 0.25 to ~61%": a hedged second number joins only a unit or a hedge of its own
        info2 = self._units.unit_info(_strip_gap(u2 or ""), m.group("pre2"))
        if u1 and info2.unit != hit.info.unit:
            return self._mixed_range(m, hit, v2, info2)
        pre1, pre2 = m.group("pre1"), m.group("pre2")
        if pre1 and not u1 and (not pre2 or self._units.unit_info("", pre1) != self._units.unit_info("", pre2)):
            return None     # "$10 to $15 billion a year": the prefixes agree, the unit after the last is shared
        v1 = hit.value
        scale2 = self._numbers.scale(m, 2)
        if hit.scale is None and scale2 is not None and m.group("num1") is not None:
            v1 = _scaled(v1, scale2) if abs(v1) < abs(v2) / scale2 else v1   # "10-15K": 10K to 15K
        if not v1 < v2:
            return None
        return Hit(hit.start, m.end(), v1, v2, info2, surface(pre2, u2), qual="range", scale=scale2)

    def _mixed_range(self, m: re.Match, hit: Hit, v2: float, info2: UnitInfo) -> Hit | None:
        """'~40 s to ~5 min', '512 MB to 2 GB': two units of one dimension, the smaller number first, is
        one range in the first number's unit (the second converted to it); anything else is two quantities."""
        u1, u2 = hit.info.unit, info2.unit
        if DIMENSIONLESS in (u1, u2) or m.group("pre1") or m.group("pre2") or not self._one_dimension(u1, u2):
            return None
        top = convert(v2, u2, u1, self.rules_dir)
        if not hit.value < top:
            return None
        return Hit(hit.start, m.end(), hit.value, top, hit.info, hit.surface, qual="range", scale=hit.scale)

    def _one_dimension(self, u1: str, u2: str) -> bool:
        """Both units measure one physical dimension that is not a pure number (time, bytes, a rate)."""
        try:
            d1, d2 = dimensions(u1, self.rules_dir), dimensions(u2, self.rules_dir)
        except ValueError:   # a unit pint cannot read has no dimension to compare
            return False
        return bool(d1) and d1 == d2

    def _is_change(self, text: str, low: str, m: re.Match, hit: Hit) -> bool:
        """'up 12% to 15%', 'climbed by 300 tok/s to 2,000 tok/s', 'grew from 67 to 253': a change then a
        level (or two levels), not a range."""
        g = self._g
        word = _prev_word(text, hit.start).lower()
        if word in g.change_words:
            return True
        if word in g.change_words_absolute and m.group("u1") and hit.info.unit not in g.relative_units:
            return True
        return bool(g.from_.search(low, max(0, hit.start - 40), hit.start)
                    and g.transition is not None
                    and g.transition.search(low, max(0, hit.start - 80), hit.start)
                    and not (g.range_words is not None
                             and g.range_words.search(low, max(0, hit.start - 40), hit.start)))

    def _share_level_unit(self, m: re.Match, hit: Hit) -> None:
        """'grew from 1,200 to 1,900 tok/s': the unit written after the level is the first number's too; so is
        the rest of a price's unit when both carry the same currency ('from $2.10 to $0.60 per million tokens')."""
        u2, pre2, pre1 = m.group("u2"), m.group("pre2"), m.group("pre1")
        if m.group("u1") or not (u2 or pre2) or m.group("num2") is None:
            return
        if pre1 and not (u2 and pre2 and self._units.unit_info("", pre1) == self._units.unit_info("", pre2)):
            return
        hit.info = self._units.unit_info(_strip_gap(u2 or ""), pre2)
        hit.surface = surface(pre2, u2)

    # ---------------------------------------------------------------- qualifiers
    def qualify(self, text: str, low: str, hit: Hit) -> None:
        """Attach before/after qualifier cues and widen the span over them."""
        g = self._g
        chosen = None
        start = hit.start
        if g.q_before is not None:
            for _ in range(3):
                if not self._may_have_cue(low, start):
                    break
                q = g.q_before.search(low, max(0, start - 40), start)
                if q is None:
                    break
                start = q.start()
                name = q.lastgroup
                if chosen is None or (chosen == "approx" and name != "approx"):
                    chosen = name
        if g.q_after is not None:
            a = g.q_after.match(low, hit.end)
            if a is not None and (a.end() == len(text) or not text[a.end()].isalnum()):
                hit.end = a.end()
                if hit.post_qual is None:
                    hit.post_qual = a.lastgroup
        hit.start = start
        if hit.qual == "range":
            return
        order = [chosen if chosen != "approx" else None, hit.post_qual, chosen]
        hit.qual = next((q for q in order if q), "exact")

    def _may_have_cue(self, low: str, start: int) -> bool:
        """Cheap pre-check: does a qualifier cue's last word or symbol end right before `start`?"""
        j = start
        # a hard-wrapped line may put the cue at the end of the line before ("runs about\n  7.5 tok/s")
        while j > 0 and start - j < 8 and low[j - 1] in " \t*_\u00a0\u202f\n\r":
            j -= 1
        if j == 0:
            return False
        if low[j - 1] in self._g.cue_last_chars:
            return True
        return _prev_word(low, j).rstrip(".") in self._g.cue_last_words or low[j - 1] == "."

    # ---------------------------------------------------------------- series
    def series(self, text: str, low: str, hits: list[Hit]) -> None:
        """Share a trailing unit across '24 / 16 / 7 QPS'; mark ISL/OSL pairs as token lengths."""
        g = self._g
        if g.series is None or len(hits) < 2:
            return
        groups: list[list[Hit]] = [[hits[0]]]
        commas: list[bool] = [False]
        for prev, cur in zip(hits, hits[1:]):
            between = text[prev.end:cur.start]
            if prev.value_max is None and cur.value_max is None and 0 < cur.start - prev.end < 14 \
                    and not _LINE_START.search(between) and g.series.match(low, prev.end, cur.start):
                groups[-1].append(cur)
                commas[-1] = commas[-1] or between.strip(" \t*_") == ","
            else:
                groups.append([cur])
                commas.append(False)
        for grp, comma in zip(groups, commas):
            if len(grp) < 2 or (comma and len(grp) < 3):
                continue     # "at batch 64, 5,000 tok/s" is no series: a comma list needs three numbers
            last = grp[-1]
            if last.info.unit == "x" and any(h.scale is not None for h in grp[:-1]):
                continue     # "for 2K-token inputs, and 20X at 4K": a ratio is no unit of a scaled count
            _share_scale(grp)
            if last.info.unit != DIMENSIONLESS and all(h.info.unit == DIMENSIONLESS and not h.surface for h in grp[:-1]):
                for h in grp[:-1]:
                    h.info, h.surface = last.info, last.surface
                continue
            if len(grp) == 2 and all(h.info.unit == DIMENSIONLESS and not h.surface for h in grp) \
                    and "/" in text[grp[0].end:grp[1].start]:
                line_start = text.rfind("\n", 0, grp[0].start) + 1
                cue = g.pair_before.search(low, line_start, grp[0].start) or g.pair_after.match(low, grp[1].end)
                if cue is not None:
                    tok = canonical_unit("token", self.rules_dir)
                    for h in grp:
                        h.info, h.surface = UnitInfo(tok, None, None), text[cue.start("cue"):cue.end("cue")]
