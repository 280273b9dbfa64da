"""Find numbers with their units in text: the quantities layer.

`QuantityFinder(rules).find(text, offset)` returns one `QuantityRecord` per number
(ranges as one record with `value_max`), with canonical pint unit, surface unit,
qualifier, and a `[start, end)` span such that ``text[start:end] == quote``.
The grammar is compiled from `rules/unit_spellings.jsonl` and `rules/numbers.yaml`
into one regular expression (`grammar.py`); numbers inside identifiers, versions, dates,
URLs and list labels are not reported (`exclusions.py`); surface units are read into pint
units by `unit_reader.py`; ranges, changes, qualifiers and series are settled in `ranges.py`.
"""
from __future__ import annotations

import math
import re
from typing import NamedTuple

from extractor.quantities.durations import CompoundDurations
from extractor.quantities.exclusions import Exclusions, _glued, _lower, _merge, _overlaps, _word_start
from extractor.quantities.grammar import WORD_END, Grammar, NumberReader, _alt, _literal, trie
from extractor.quantities.ranges import Hit, Relations, _strip_gap, surface
from extractor.quantities.rules import QuantityRules, load_quantity_rules
from extractor.quantities.unit_reader import UnitInfo, UnitReader
from extractor.quantities.units import DIMENSIONLESS, canonical_unit
from extractor.records import QuantityRecord

__all__ = ["QuantityFinder", "UnitInfo", "default_finder", "find_quantities", "unit_attributes", "trie",
           "WORD_END", "_alt", "_literal", "_lower", "_merge"]

_DIGITS = re.compile(r"[0-9]+")


class Skipped(NamedTuple):
    """A number with a unit that an exclusion rule kept out of the quantities ("width: 50%" in an HTML
    tag, "v1.2.3"): where it is, its canonical unit, and the rule's name (numbers.yaml `exclude`)."""

    span: tuple[int, int]
    unit: str
    rule: str


class _Skips(NamedTuple):
    """Where `find` notes the numbers its exclusions skip: the caller's list, the offset, and the named
    exclusion spans of the text (computed at the first skip that needs them)."""

    out: list[Skipped]
    offset: int
    named: list[list[tuple[int, int, str]]]


class QuantityFinder:
    """Compiled quantity grammar; `find` is pure and deterministic."""

    def __init__(self, rules: QuantityRules):
        self.rules = rules
        self.rules_dir = rules.rules_dir
        self.grammar = Grammar(rules)
        self.numbers = NumberReader(rules)
        self.units = UnitReader(rules, self.grammar, self.numbers)
        self.exclusions = Exclusions(rules)
        self.relations = Relations(rules, self.grammar, self.numbers, self.units, self.exclusions)
        self._scan_excl = self.exclusions._scan_excl
        self.durations = CompoundDurations(rules, self.units)
        articles = rules.numbers.article_numbers
        self._articles = re.compile(
            rf"\b(?P<num>{trie({n.lower() for n in articles.numbers})})[ \t]+"
            rf"(?P<unit>{trie({u.lower() for u in articles.units})})\b") if articles.numbers and articles.units else None
        self._article_values = {" ".join(n.lower().split()): v for n, v in articles.numbers.items()}
        # every article match holds one of its unit words: a text without any ("second", "hour") is not scanned
        # (the pattern opens with \b and an alternation: `re` tries it at every position)
        self._article_units = re.compile(trie({u.lower() for u in articles.units})) if self._articles else None
        # the units a prefix spells that are money ("$", "€", "USD"): the others ("x") are no price
        self._currencies = frozenset(e.unit for e in rules.spellings if e.role == "prefix" and e.unit
                                     and e.unit.isupper() and len(e.unit) == 3)

    def unit_info(self, surface_unit: str, prefix: str | None = None) -> UnitInfo:
        """Canonical unit, token kind and per-entity of a surface unit (and an optional prefix unit)."""
        return self.units.unit_info(surface_unit, prefix)

    def _excluded(self, text: str, low: str) -> list[tuple[int, int]]:
        return self.exclusions.excluded(text, low)

    # ---------------------------------------------------------------- finding
    def find(self, text: str, offset: int = 0, skipped: list[Skipped] | None = None) -> list[QuantityRecord]:
        """Every quantity in `text`, in text order; spans are shifted by `offset`. `skipped`: a list that
        gains each number with a unit that an exclusion rule kept out (with the rule's name)."""
        low = _lower(text)
        starts, ratio_words = self._starts(text, low)
        articles = list(self._articles.finditer(low)) \
            if self._article_units is not None and self._article_units.search(low) else []
        if not starts and not ratio_words and not articles:
            return []      # the common sentence with only glued digits ("H100", "FP8"): no exclusion scans
        excluded = self.exclusions.excluded(text, low)
        skips = None if skipped is None else _Skips(skipped, offset, [])
        found: list[Hit] = self._article_hits(text, low, articles, excluded)
        pos = 0
        match, start_chars = self.grammar.main.match, self.grammar.start_chars
        for d in starts:
            if d < pos:
                continue
            m = None
            for s in range(max(pos, d - 4), d + 1):
                if s == d or text[s] in start_chars:
                    m = match(text, s)
                    if m is not None:
                        break
            if m is None:
                continue
            hit, pos = self._hit(text, low, m, excluded, skips)
            if hit is not None:
                found.append(hit)
        found.extend(self._ratio_hits(text, low, ratio_words, excluded))
        found.sort(key=lambda h: (h.start, h.end))
        found = self.durations.merge(text, found)
        if self.grammar.price_denominator is not None:
            for hit in found:
                self._price_denominator(text, hit)
        self.relations.series(text, low, found)
        # a number too large for a float (10**400, 1e999) is not a measurement: no inf in records
        return [h.record(text, offset) for h in found
                if math.isfinite(h.value) and (h.value_max is None or math.isfinite(h.value_max))]

    def _price_denominator(self, text: str, hit: Hit) -> None:
        """An amount of money alone ("$0.45") after "per 1M tokens ..." is a price per million tokens."""
        if hit.info.unit not in self._currencies or hit.value_max is not None:
            return
        m = self.grammar.price_denominator.search(text, max(0, hit.start - 64), hit.start)
        if m is not None:
            info = self.units.unit_info("per " + " ".join(m.group("den").split()), hit.surface)
            if info.unit != hit.info.unit and info.unit.startswith(hit.info.unit + " /"):
                hit.info = info

    def _starts(self, text: str, low: str) -> tuple[list[int], list[re.Match]]:
        """Where a number may begin (digits not glued to a word, number words) in text order, and the
        ratio words ("twice", "double")."""
        g = self.grammar
        letter_prefixes = g.letter_prefixes
        starts = [m.start() for m in _DIGITS.finditer(text) if not _glued(text, m.start(), letter_prefixes)]
        ratio_words = []
        for m in (g.words_rx.finditer(low) if g.words_rx is not None else ()):
            if _word_start(low, m.start()):
                (ratio_words if m.group() in g.ratio_words else starts).append(m)
        return sorted(x if isinstance(x, int) else x.start() for x in starts), ratio_words

    def _hit(self, text: str, low: str, m: re.Match, excluded, skips: "_Skips | None" = None) -> tuple[Hit | None, int]:
        s1 = m.start()
        num1, pre1, u1 = m.group("num1", "pre1", "u1")
        n1_end = max(m.end("num1"), m.end("word1"), m.end("mult1"), m.end("pmult1"), m.end("multw1"), m.end("plus1"))
        if _overlaps(excluded, s1, n1_end):
            if skips is not None:
                self._skip(text, low, m, n1_end, None, skips)
            return None, n1_end
        if num1 is not None:
            x = self.exclusions.excluded_at_rule(text, m.start("num1"))
            if x is not None:
                if skips is not None:
                    self._skip(text, low, m, n1_end, x[1], skips)
                return None, max(x[0], n1_end)
        elif not u1 and not m.group("u2"):
            return None, n1_end      # a number word needs its unit (or a range's: "two to four times")
        end1 = m.end("u1") if u1 else n1_end
        if num1 is not None and self.exclusions.is_label_or_date(text, m, bool(u1 or pre1), m.group("rc") is not None):
            return None, n1_end
        v1 = self.numbers.value(m, 1)
        info1 = self.units.unit_info(_strip_gap(u1 or ""), pre1)
        if u1 and not pre1 and info1.unit.startswith("percent /"):
            # "a 17% gain in per-token latency": a share takes no denominator; the unit is the "%" alone
            base = self.grammar.unit_head.match(u1)
            if base is not None:
                u1 = u1[:base.end()]
                end1 = m.start("u1") + base.end()
                info1 = self.units.unit_info(_strip_gap(u1), None)
        hit = Hit(s1, end1, v1, None, info1, surface(pre1, u1), scale=self.numbers.scale(m, 1))
        if m.group("plus1"):
            hit.post_qual = "at_least"
        if m.group("rc") is not None and (m.group("num2") is not None or m.group("word2") is not None):
            ranged = self.relations.range(text, low, m, hit, excluded)
            if ranged is not None:
                hit = ranged
        if num1 is None and not u1 and hit.value_max is None:
            return None, n1_end
        count_next = self.grammar.count_next
        if hit.value_max is None and u1 and _strip_gap(u1)[-1:] in ("x", "X", "×") \
                and count_next is not None and count_next.match(text, hit.end):
            hit.info = UnitInfo(DIMENSIONLESS, None, None)
        self.relations.qualify(text, low, hit)
        return hit, hit.end

    def _article_hits(self, text: str, low: str, matches: list[re.Match], excluded) -> list[Hit]:
        """"under half a second", "less than a minute": an article as the number of a time unit, kept only
        when a qualifier comes right before it ("a second run" is no quantity)."""
        hits = []
        for m in matches:
            if _overlaps(excluded, m.start(), m.end()):
                continue
            unit = m.group("unit")
            hit = Hit(m.start(), m.end(), self._article_values[" ".join(m.group("num").split())], None,
                      self.units.unit_info(unit), text[m.start("unit"):m.end("unit")])
            self.relations.qualify(text, low, hit)
            if hit.start < m.start():
                hits.append(hit)
        return hits

    def _skip(self, text: str, low: str, m: re.Match, n1_end: int, rule: str | None, skips: "_Skips") -> None:
        """Note an excluded number that carries a unit, with the name of the exclusion that took it
        (`rule` None: a scanned exclusion, looked up among the named spans)."""
        u1, pre1 = m.group("u1", "pre1")
        if not (u1 or pre1):
            return
        start = m.start("num1") if m.group("num1") is not None else m.start()
        end = m.end("u1") if u1 else n1_end
        if rule is None:
            if not skips.named:
                skips.named.append(self.exclusions.named(text, low))
            rule = next((name for s, e, name in skips.named[0] if s < n1_end and start < e), "exclude")
        unit = self.units.unit_info(_strip_gap(u1 or ""), pre1).unit
        skips.out.append(Skipped((start + skips.offset, end + skips.offset), unit, rule))

    def _ratio_hits(self, text: str, low: str, matches: list[re.Match], excluded) -> list[Hit]:
        hits = []
        for m in matches:
            if _overlaps(excluded, m.start(), m.end()):
                continue
            val = self.numbers.ratio_values[m.group()]
            word = text[m.start():m.end()]
            hit = Hit(m.start(), m.end(), val, None, UnitInfo(canonical_unit("x", self.rules_dir), None, None), word)
            self.relations.qualify(text, low, hit)
            hits.append(hit)
        return hits


_default: dict = {}


def default_finder(rules_dir=None) -> QuantityFinder:
    """The cached finder for a rules folder (default rules when None)."""
    rules = load_quantity_rules(rules_dir)
    finder = _default.get(rules.rules_dir)
    if finder is None:
        finder = _default[rules.rules_dir] = QuantityFinder(rules)
    return finder


def find_quantities(text: str) -> list[QuantityRecord]:
    """Quantities in `text` using the default rules."""
    return default_finder().find(text)


def unit_attributes(surface_unit: str) -> UnitInfo:
    """Canonical unit, token kind and per-entity for a surface unit such as ``tok/s/user``."""
    finder = default_finder()
    parts = surface_unit.split(" ", 1)
    if parts and parts[0] in {e.spelling for e in finder.rules.spellings if e.role == "prefix"}:
        return finder.unit_info(parts[1] if len(parts) > 1 else "", parts[0])
    return finder.unit_info(surface_unit)
