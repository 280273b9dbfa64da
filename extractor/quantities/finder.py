"""Find numbers with their units in text: the quantities layer.

`QuantityFinder(rules).find(text, offset)` returns one `QuantityRecord` per number
(ranges as one record with `value_max`), with canonical pint unit, surface unit,
qualifier, and a `[start, end)` span such that ``text[start:end] == quote``.
The grammar is compiled from `rules/unit_spellings.jsonl` and `rules/numbers.yaml`
into one regular expression; numbers inside identifiers, versions, dates, URLs and
list labels are not reported.
"""
from __future__ import annotations

import bisect
import math
import re
from decimal import Decimal
from functools import lru_cache
from itertools import groupby
from pathlib import Path
from typing import NamedTuple

from extractor.quantities.rules import QuantityRules, UnitSpelling, load_quantity_rules, spelling_key
from extractor.records import QuantityRecord
from extractor.regex_starts import CASE_TRAPS, shortest_prefixes, start_strings
from extractor.quantities.units import DIMENSIONLESS, canonical_unit

SP = r"[ \t\u00a0\u202f\u2009\u2007]"  # horizontal space, including the narrow no-break space
MK = r"(?:\*{1,3}|_{1,3})"  # emphasis markup around a number
NL = r"(?:\r?\n(?![ \t]*\r?\n))"  # a soft line break inside a paragraph (never a blank line)
GAP = rf"(?:{SP}|{MK}|{NL})"
WS = rf"(?:{SP}|{NL})"  # space inside a unit phrase, a soft line break included ("tok/s per\nGPU")
WORD_END = r"(?![^\W_])"  # not followed by a letter or digit
NOT_INSIDE = r"(?<![^\W_])(?<![^\W_]_)(?<![.#\\@\-−])"  # not preceded by a letter, digit, or identifier glue
TOKEN_DIM = "[token]"


class UnitInfo(NamedTuple):
    """What a surface unit means: canonical unit and the attributes claims use."""

    unit: str
    tokens: str | None
    per: str | None


def _literal(text: str) -> str:
    """Regex for a literal phrase: any horizontal space for a space, optional spaces around '/'."""
    parts = []
    for ch in text:
        if ch == " ":
            parts.append(f"{WS}+")
        elif ch == "/":
            parts.append(f"{SP}*/{SP}*")
        else:
            parts.append(re.escape(ch))
    return "".join(parts)


def _phrase(text: str, case_sensitive: bool, boundary: bool = True) -> str:
    """`_literal`, case-insensitive unless `case_sensitive`, ending on a word boundary if it ends in a word."""
    return _alt([(text, case_sensitive)], boundary)


def _alt(entries: list[tuple[str, bool]], boundary: bool = True) -> str:
    """Alternation of phrases, longest first (deterministic order).

    Neighbours that share their case handling and word-boundary check share one group and one
    check: `(?i:ab|cd)(?!x)` tries the same strings in the same order as `(?i:ab)(?!x)|(?i:cd)(?!x)`
    but is much faster to compile."""
    uniq = sorted(set(entries), key=lambda e: (-len(e[0]), e[0], e[1]))
    if not uniq:
        return "(?!)"
    runs = []
    for (case_sensitive, bounded), run in groupby(uniq, key=lambda e: (e[1], boundary and e[0][-1:].isalnum())):
        body = "|".join(_literal(t) for t, _ in run)
        runs.append(("(?:" if case_sensitive else "(?i:") + body + ")" + (WORD_END if bounded else ""))
    return "(?:" + "|".join(runs) + ")"


class QuantityFinder:
    """Compiled quantity grammar; `find` is pure and deterministic."""

    def __init__(self, rules: QuantityRules):
        self.rules = rules
        self.rules_dir = rules.rules_dir
        n = rules.numbers
        sp = rules.spellings
        tok = rules.token_units

        def pick(roles: tuple[str, ...], *, token: bool | None = None, loose_only: bool = False) -> str:
            out = []
            for e in sp:
                if e.role not in roles:
                    continue
                if token is not None and (e.unit in tok) != token:
                    continue
                if loose_only and e.attach == "tight":
                    continue
                out.append((e.spelling, e.case_sensitive))
            return _alt(out)

        kind = pick(("kind",))
        per_parts = []
        for e in sp:
            if e.role != "per":
                continue
            if e.spelling.strip() == "/":
                per_parts.append(f"{SP}*/{SP}*")
            elif e.spelling[:1].isalnum():
                per_parts.append(f"{WS}+{_phrase(e.spelling, e.case_sensitive)}(?:{WS}+|-)")
            else:
                per_parts.append(f"{SP}*{_phrase(e.spelling, e.case_sensitive)}{SP}*")
        per = "(?:" + "|".join(sorted(per_parts, key=lambda p: (-len(p), p))) + ")" if per_parts else "(?!)"

        tight_mult = _alt([(m.suffix, m.case_sensitive) for m in n.multipliers if m.attach == "tight"])
        loose_mult = _alt([(m.suffix, m.case_sensitive) for m in n.multipliers if m.attach == "loose"])
        scale = rf"(?:(?:(?:1|(?i:one)){SP}*)?(?:{tight_mult}|{loose_mult})|1(?:,?000)+)"

        den = (rf"{per}(?:{scale}{SP}*)?(?:{kind}{SP}+{pick(('denominator', 'both'), token=True)}"
               rf"|{pick(('denominator', 'both'))})")
        base_all = rf"(?:{kind}{SP}+{pick(('unit', 'both'), token=True, loose_only=True)}|{pick(('unit', 'both'))})"
        base_loose = rf"(?:{kind}{SP}+{pick(('unit', 'both'), token=True, loose_only=True)}|{pick(('unit', 'both'), loose_only=True)})"
        prefix = _alt([(e.spelling, e.case_sensitive) for e in sp if e.role == "prefix"], boundary=False)
        prefix = rf"{prefix}(?=[\d.])"

        sp_words = n.spelled
        ones = _alt([(w, False) for w in sp_words.ones])
        teens = _alt([(w, False) for w in sp_words.teens])
        tens = _alt([(w, False) for w in sp_words.tens])
        scales = _alt([(w, False) for w in sp_words.scales])
        spelled = rf"(?:{tens}(?:[-{SP[1:-1]}]{ones})?|{teens}|{ones})(?:{SP}+{scales})?{WORD_END}"
        core = r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?|\.\d+"

        def number(i: int) -> str:
            return (rf"(?P<sign{i}>[+\-−])?(?:(?P<num{i}>{core})|(?P<word{i}>{spelled}))"
                    rf"(?:(?P<mult{i}>{tight_mult})|{SP}+(?P<multw{i}>{loose_mult}))?"
                    rf"(?P<plus{i}>\+(?![\d]))?")

        def unit(i: int) -> str:
            return (rf"(?P<u{i}>(?:{base_all}|{GAP}+{base_loose})(?:{den})*"
                    rf"|(?(pre{i})(?:{den})+|(?!)))")

        conns = [c for c in n.ranges.connectors]
        sym_conns = [c for c in conns if not c[:1].isalnum()]
        word_conns = [c for c in conns if c[:1].isalnum()] + [p.connector for p in n.ranges.paired]
        rc = (rf"(?P<rc>{GAP}*(?:{_alt([(c, False) for c in sym_conns])}){GAP}*"
              rf"|{GAP}+(?:{_alt([(c, False) for c in word_conns])}){GAP}+)")

        main = (rf"{NOT_INSIDE}(?P<pre1>{prefix})?{number(1)}{unit(1)}?"
                rf"(?:{rc}(?P<pre2>{prefix})?{number(2)}{unit(2)}?)?"
                r"(?![^\W_]|\.\d)")
        self._main = re.compile(main)
        self._unit_head = re.compile(rf"(?:{GAP}*)(?P<base>{base_all})")
        self._den = re.compile(rf"{per}(?:(?P<scale>{scale}){SP}*)?(?:(?P<kind>{kind}){SP}+)?(?P<atom>"
                               rf"{pick(('denominator', 'both'))})")
        self._kind_head = re.compile(rf"(?P<kind>{kind}){SP}+")
        # word passes run on the lower-cased text with case-sensitive patterns (much faster than (?i))
        self._ratio_words = frozenset(w.lower() for w in n.ratio_words)
        words = {w.lower() for w in [*n.ratio_words, *sp_words.ones, *sp_words.teens, *sp_words.tens]}
        self._words_rx = re.compile(trie(words) + WORD_END) if words else None
        cue_ends = {c.lower().split()[-1] for q in n.qualifiers.values() for c in q.before if c[:1].isalnum()}
        self._cue_last_words = frozenset(cue_ends | {"a", "an"})
        self._cue_last_chars = frozenset(c[-1] for q in n.qualifiers.values() for c in q.before if not c[:1].isalnum())
        self._scan_excl = [_Scan.of(e.pattern) for e in n.exclude if not e.at_number]
        at = [e for e in n.exclude if e.at_number]
        self._at_excl = re.compile("|".join(f"(?P<x{i}>{_scoped(e.pattern)})" for i, e in enumerate(at))) if at else None
        self._at_flags = {f"x{i}": e for i, e in enumerate(at)}
        self._labels = {w.lower() for w in n.label_words}
        self._months = set(n.months)
        self._year_words = {w.lower() for w in n.year_words}
        self._year_range = n.year_range
        month_alt = _alt([(mo, True) for mo in n.months])
        self._month_day_before = re.compile(rf"{month_alt}\.?{SP}+\d{{1,2}}(?:st|nd|rd|th)?,?{SP}+\Z")
        self._month_after = re.compile(rf"(?:st|nd|rd|th)?{SP}+{month_alt}")
        self._start_chars = frozenset("+-−." + "".join(e.spelling[:1] for e in sp if e.role == "prefix"))

        # qualifier cues right before a number (optionally "a"/"an" in between) and right after
        before = []
        for name, cues in n.qualifiers.items():
            words = [(c.lower(), True) for c in cues.before if c[:1].isalnum()]
            syms = [(c.lower(), True) for c in cues.before if not c[:1].isalnum()]
            alts = []
            if words:
                alts.append(rf"(?<![^\W_]){_alt(words)}{GAP}+")
            if syms:
                alts.append(rf"{_alt(syms)}{GAP}*")
            if alts:
                before.append(rf"(?P<{name}>{'|'.join(alts)})")
        self._q_before = re.compile(
            rf"(?:{'|'.join(before)})(?:an?{GAP}+)?\Z") if before else None
        after = []
        for name, cues in n.qualifiers.items():
            words = [(c.lower(), True) for c in cues.after if c != "+"]
            if words:
                after.append(rf"(?P<{name}>{_alt(words)})")
        self._q_after = re.compile(rf"{SP}*(?:{'|'.join(after)})") if after else None
        self._open = {p.connector.lower(): re.compile(rf"(?<![^\W_]){re.escape(p.open.lower())}{GAP}+\Z")
                      for p in n.ranges.paired}
        self._from = re.compile(rf"(?<![^\W_])from{GAP}+\Z")
        stems = "|".join(sorted((re.escape(s) for s in n.ranges.transition_stems), key=lambda s: (-len(s), s)))
        rstems = "|".join(sorted((re.escape(w) for w in n.ranges.range_stems), key=lambda w: (-len(w), w)))
        # "speedups ranging from 5% to 90%" is a range even after a change word
        self._range_words = re.compile(rf"\b(?:{rstems.lower()})\w*\W+(?:\w+\W+)?from\W+\Z") if rstems else None
        self._transition = re.compile(rf"\b(?:{stems.lower()})\w*(?:\W+\w+){{0,6}}?\W+\Z") if stems else None
        self._series = re.compile(
            rf"{GAP}*{_alt([(c.lower(), True) for c in n.series_connectors])}{GAP}*\Z") if n.series_connectors else None
        cues = _alt([(c.lower(), True) for c in n.length_pair_cues])
        self._pair_before = re.compile(rf"(?P<cue>{cues})[^\n\d]{{0,24}}\Z")
        self._pair_after = re.compile(rf"[^\S\n]*[(\[]?{SP}*(?P<cue>{cues})")
        self._count_next = re.compile(n.count_multiplier_next) if n.count_multiplier_next else None

        self._mults = {(m.suffix if m.case_sensitive else m.suffix.lower()): m for m in n.multipliers}
        self._spelled = {**{k.lower(): v for k, v in sp_words.ones.items()},
                         **{k.lower(): v for k, v in sp_words.teens.items()},
                         **{k.lower(): v for k, v in sp_words.tens.items()}}
        self._scales = {k.lower(): v for k, v in sp_words.scales.items()}
        self._ratio_values = {k.lower(): v for k, v in n.ratio_words.items()}
        self._lookup: dict[tuple[str, str], UnitSpelling] = {}
        for e in sp:
            slots = {"both": ("unit", "denominator")}.get(e.role, (e.role,))
            for slot in slots:
                self._lookup.setdefault((slot, e.key()), e)
        self._unit_cache: dict[str, UnitInfo] = {}

    # ---------------------------------------------------------------- lookups
    def _entry(self, slot: str, text: str) -> UnitSpelling:
        e = self._lookup.get((slot, spelling_key(text, True)))
        if e is None or not e.case_sensitive:
            e = self._lookup.get((slot, spelling_key(text, False)), e)
        if e is None:
            raise KeyError(text)
        return e

    def _multiplier(self, text: str):
        return self._mults.get(text) or self._mults.get(text.lower())

    def _scale_prefix(self, text: str) -> str:
        t = re.sub(r"\s+", "", text)
        m = re.fullmatch(r"1(?:,?000)+", t)
        if m:
            zeros = t.replace(",", "").count("0")
            return {3: "kilo", 6: "mega", 9: "giga", 12: "tera"}.get(zeros, "")
        t = re.sub(r"^(?:1|one)", "", t, flags=re.I)
        mult = self._multiplier(t)
        return (mult.prefix or "") if mult else ""

    def unit_info(self, surface: str, prefix: str | None = None) -> UnitInfo:
        """Canonical unit, token kind and per-entity of a surface unit (and an optional prefix unit)."""
        key = f"{prefix or ''}\0{surface}"
        hit = self._unit_cache.get(key)
        if hit is not None:
            return hit
        tokens = per = None
        factors: list[str] = []
        if prefix:
            e = self._entry("prefix", prefix)
            factors.append(f"({e.unit})")
            per = e.per or per
        pos = 0
        if surface:
            surface = " " + surface
            m = self._unit_head.match(surface)
            if m:
                base = m.group("base")
                k = self._kind_head.match(base)
                if k:
                    tokens = self._entry("kind", k.group("kind")).tokens
                    base = base[k.end():]
                e = self._entry("unit", base)
                factors.append(f"({e.unit})")
                tokens, per = tokens or e.tokens, e.per or per
                pos = m.end()
            while pos < len(surface):
                d = self._den.match(surface, pos)
                if d is None:
                    break
                e = self._entry("denominator", d.group("atom"))
                pre = self._scale_prefix(d.group("scale")) if d.group("scale") else ""
                name = f"{pre}{e.unit}" if pre and re.fullmatch(r"[A-Za-z_]+", e.unit or "") else e.unit
                factors.append(f"/ ({name})")
                if d.group("kind"):
                    tokens = self._entry("kind", d.group("kind")).tokens
                tokens = tokens or e.tokens
                per = e.per or per
                pos = d.end()
        expr = " ".join(factors) if factors else DIMENSIONLESS
        if expr.startswith("/"):
            expr = "1 " + expr
        unit = canonical_unit(expr, self.rules_dir)
        if tokens is None and TOKEN_DIM in _dims(unit, self.rules_dir) and "/" in unit:
            tokens = "unspecified"
        info = UnitInfo(unit, tokens, per)
        self._unit_cache[key] = info
        return info

    # ---------------------------------------------------------------- numbers
    def _value(self, m: re.Match, i: int) -> float:
        num, word = m.group(f"num{i}"), m.group(f"word{i}")
        if num is not None:
            val = Decimal(num.replace(",", ""))
        else:
            val = Decimal(self._spelled_value(word))
        mult = m.group(f"mult{i}") or m.group(f"multw{i}")
        if mult:
            val *= Decimal(repr(self._multiplier(mult).value))
        if m.group(f"sign{i}") in ("-", "−"):
            val = -val
        return float(val)

    def _spelled_value(self, word: str) -> int:
        total = 0
        for w in re.split(r"[-\s]+", word.lower()):
            if w in self._scales:
                total = max(total, 1) * self._scales[w]
            else:
                total += self._spelled.get(w, 0)
        return total

    # ---------------------------------------------------------------- finding
    def find(self, text: str, offset: int = 0) -> list[QuantityRecord]:
        """Every quantity in `text`, in text order; spans are shifted by `offset`."""
        low = _lower(text)
        starts, ratio_words = self._starts(text, low)
        if not starts and not ratio_words:
            return []      # the common sentence with only glued digits ("H100", "FP8"): no exclusion scans
        excluded = self._excluded(text, low)
        found: list[_Hit] = []
        pos = 0
        match, start_chars = self._main.match, self._start_chars
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
            hit, pos = self._hit(text, low, m, excluded)
            if hit is not None:
                found.append(hit)
        found.extend(self._ratio_hits(text, low, ratio_words, excluded))
        found.sort(key=lambda h: (h.start, h.end))
        self._series_pass(text, low, found)
        # a number too large for a float (10**400, 1e999) is not a measurement: no inf in records
        return [h.record(text, offset) for h in found
                if math.isfinite(h.value) and (h.value_max is None or math.isfinite(h.value_max))]

    def _starts(self, text: str, low: str) -> tuple[list[int], list[re.Match]]:
        """Where a number may begin (digits not glued to a word, number words) in text order, and the
        ratio words ("twice", "double")."""
        start_chars = self._start_chars
        starts = [m.start() for m in _DIGITS.finditer(text) if not _glued(text, m.start(), start_chars)]
        ratio_words = []
        for m in (self._words_rx.finditer(low) if self._words_rx is not None else ()):
            if _word_start(low, m.start()):
                (ratio_words if m.group() in self._ratio_words else starts).append(m)
        return sorted(x if isinstance(x, int) else x.start() for x in starts), ratio_words

    def _excluded(self, text: str, low: str) -> list[tuple[int, int]]:
        """Merged spans of the scanned exclusions (URLs, tags, model versions...) in `text`."""
        trusted = not any(c in text for c in CASE_TRAPS)  # else `low` may miss an (?i) match's start
        return _merge([span for scan in self._scan_excl for span in scan.spans(text, low if trusted else None)])

    def _excluded_at(self, text: str, start: int) -> int | None:
        """End of an at-number exclusion (version, date, list label...) starting at `start`, if any."""
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
        return x.end()

    def _is_label_or_date(self, text: str, m: re.Match, has_unit: bool, is_range: bool) -> bool:
        """Vocabulary checks: 'Figure 3', 'Step 2', 'May 5, 2025', '5 May', 'in 2024'."""
        start = m.start("num1")
        word = _prev_word(text, m.start())
        if word.lower().rstrip(".") in self._labels:
            return True
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

    def _hit(self, text: str, low: str, m: re.Match, excluded) -> tuple["_Hit | None", int]:
        s1 = m.start()
        num1, pre1, u1 = m.group("num1", "pre1", "u1")
        n1_end = max(m.end("num1"), m.end("word1"), m.end("mult1"), m.end("multw1"), m.end("plus1"))
        if _overlaps(excluded, s1, n1_end):
            return None, n1_end
        if num1 is not None:
            x_end = self._excluded_at(text, m.start("num1"))
            if x_end is not None:
                return None, max(x_end, n1_end)
        elif not u1:
            return None, n1_end      # a number word needs its unit
        end1 = m.end("u1") if u1 else n1_end
        if num1 is not None and self._is_label_or_date(text, m, bool(u1 or pre1), m.group("rc") is not None):
            return None, n1_end
        v1 = self._value(m, 1)
        info1 = self.unit_info(_strip_gap(u1 or ""), pre1)
        hit = _Hit(s1, end1, v1, None, info1, self._surface(pre1, u1))
        if m.group("plus1"):
            hit.post_qual = "at_least"
        if m.group("rc") is not None and (m.group("num2") is not None or m.group("word2") is not None):
            ranged = self._range(text, low, m, hit, excluded)
            if ranged is not None:
                hit = ranged
        if hit.value_max is None and u1 and _strip_gap(u1)[-1:] in ("x", "X", "×") \
                and self._count_next is not None and self._count_next.match(text, hit.end):
            hit.info = UnitInfo(DIMENSIONLESS, None, None)
        self._qualify(text, low, hit)
        return hit, hit.end

    def _range(self, text: str, low: str, m: re.Match, hit: "_Hit", excluded) -> "_Hit | None":
        rc = re.sub(r"\s+", " ", _strip_gap(m.group("rc")).lower())
        if rc in self._open and not self._open[rc].search(low, max(0, hit.start - 40), hit.start):
            return None
        if rc == "to" and self._from.search(low, max(0, hit.start - 40), hit.start) \
                and self._transition is not None \
                and self._transition.search(low, max(0, hit.start - 80), hit.start) \
                and not (self._range_words is not None
                         and self._range_words.search(low, max(0, hit.start - 40), hit.start)):
            return None
        n2_start = m.start("num2") if m.group("num2") else m.start("word2")
        if _overlaps(excluded, n2_start, m.end()):
            return None
        if m.group("num2") is not None and self._excluded_at(text, n2_start) is not None:
            return None
        v2 = self._value(m, 2)
        u1, u2 = m.group("u1"), m.group("u2")
        if m.group("word2") is not None and not u2:
            return None
        if (u1 or m.group("pre1")) and not (u2 or m.group("pre2")):
            return None
        info2 = self.unit_info(_strip_gap(u2 or ""), m.group("pre2"))
        if (u1 or m.group("pre1")) and info2.unit != hit.info.unit:
            return None
        if not hit.value < v2:
            return None
        return _Hit(hit.start, m.end(), hit.value, v2, info2, self._surface(m.group("pre2"), u2),
                    qual="range")

    @staticmethod
    def _surface(pre: str | None, unit: str | None) -> str:
        parts = [p for p in (pre, _strip_gap(unit or "")) if p]
        return " ".join(parts)

    def _qualify(self, text: str, low: str, hit: "_Hit") -> None:
        """Attach before/after qualifier cues and widen the span over them."""
        chosen = None
        start = hit.start
        if self._q_before is not None:
            for _ in range(3):
                if not self._may_have_cue(low, start):
                    break
                q = self._q_before.search(low, max(0, start - 40), start)
                if q is None:
                    break
                start = q.start()
                name = q.lastgroup
                if chosen is None or (chosen == "approx" and name != "approx"):
                    chosen = name
        if self._q_after is not None:
            a = self._q_after.match(low, hit.end)
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
        while j > 0 and start - j < 8 and low[j - 1] in " \t*_\u00a0\u202f":
            j -= 1
        if j == 0:
            return False
        if low[j - 1] in self._cue_last_chars:
            return True
        return _prev_word(low, j).rstrip(".") in self._cue_last_words or low[j - 1] == "."

    def _ratio_hits(self, text: str, low: str, matches: list[re.Match], excluded) -> list["_Hit"]:
        hits = []
        for m in matches:
            if _overlaps(excluded, m.start(), m.end()):
                continue
            val = self._ratio_values[m.group()]
            word = text[m.start():m.end()]
            hit = _Hit(m.start(), m.end(), val, None, UnitInfo(canonical_unit("x", self.rules_dir), None, None), word)
            self._qualify(text, low, hit)
            hits.append(hit)
        return hits

    def _series_pass(self, text: str, low: str, hits: list["_Hit"]) -> None:
        """Share a trailing unit across '18 / 11 / 9 QPS'; mark ISL/OSL pairs as token lengths."""
        if self._series is None or len(hits) < 2:
            return
        groups: list[list[_Hit]] = [[hits[0]]]
        commas: list[bool] = [False]
        for prev, cur in zip(hits, hits[1:]):
            between = text[prev.end:cur.start]
            if prev.value_max is None and cur.value_max is None and 0 < cur.start - prev.end < 14 \
                    and not _LINE_START.search(between) and self._series.match(low, prev.end, cur.start):
                groups[-1].append(cur)
                commas[-1] = commas[-1] or between.strip(" \t*_") == ","
            else:
                groups.append([cur])
                commas.append(False)
        for g, comma in zip(groups, commas):
            if len(g) < 2 or (comma and len(g) < 3):
                continue     # "at batch 64, 5,000 tok/s" is no series: a comma list needs three numbers
            last = g[-1]
            if last.info.unit != DIMENSIONLESS and all(h.info.unit == DIMENSIONLESS and not h.surface for h in g[:-1]):
                for h in g[:-1]:
                    h.info, h.surface = last.info, last.surface
                continue
            if len(g) == 2 and all(h.info.unit == DIMENSIONLESS and not h.surface for h in g) \
                    and "/" in text[g[0].end:g[1].start]:
                line_start = text.rfind("\n", 0, g[0].start) + 1
                cue = self._pair_before.search(low, line_start, g[0].start) or self._pair_after.match(low, g[1].end)
                if cue is not None:
                    tok = canonical_unit("token", self.rules_dir)
                    for h in g:
                        h.info, h.surface = UnitInfo(tok, None, None), text[cue.start("cue"):cue.end("cue")]


class _Scan(NamedTuple):
    """An exclusion scanned over the whole text, and how its matches can begin (to skip the scan)."""

    rx: re.Pattern[str]
    starts: re.Pattern[str] | None  # finds, in the lower-cased text, a string every match begins with

    @classmethod
    def of(cls, pattern: str) -> "_Scan":
        """The scan of `pattern`, with a finder of its start strings when they are known."""
        rx = re.compile(pattern)
        starts = start_strings(rx.pattern, rx.flags, min_len=1)
        if not starts:
            return cls(rx, None)
        return cls(rx, re.compile(trie(set(shortest_prefixes(starts)))))

    def spans(self, text: str, low: str | None) -> list[tuple[int, int]]:
        """Spans of the non-empty matches in `text`, as `finditer` finds them. With `low`, the lower-cased
        text (same offsets), a match is tried only where a start string begins: a long (?i) alternation
        gets no fast first-character skip in `re`, the start-string trie does."""
        if self.starts is None or low is None:
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


class _Hit:
    """A quantity being built (mutable while qualifiers and series are resolved)."""

    __slots__ = ("start", "end", "value", "value_max", "info", "surface", "qual", "post_qual", "count")

    def __init__(self, start, end, value, value_max, info, surface, qual=None):
        self.start, self.end, self.value, self.value_max = start, end, value, value_max
        self.info, self.surface, self.qual, self.post_qual, self.count = info, surface, qual, None, False

    def record(self, text: str, offset: int) -> QuantityRecord:
        start, end = self.start, self.end
        while end > start and text[end - 1] in " \t*_":
            end -= 1
        return QuantityRecord(value=self.value, value_max=self.value_max, unit=self.info.unit,
                              surface_unit=self.surface, qualifier=self.qual or "exact",
                              quote=text[start:end], span=(start + offset, end + offset))


_DIGITS = re.compile(r"[0-9]+")
_LINE_START = re.compile(r"\n[ \t]*(?:\n|[-*+|#>]|\d+[.)][ \t])")  # a new line that starts a new block or item
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _lower(text: str) -> str:
    """Lower-cased text with the same length (so offsets carry over)."""
    low = text.lower()
    return low if len(low) == len(text) else text.translate(_ASCII_LOWER)


def _glued(text: str, i: int, start_chars: frozenset[str]) -> bool:
    """Digit at i is glued to a word before it (H100, fig_3), unless a prefix unit like X sits there."""
    if i == 0:
        return False
    c = text[i - 1]
    if c == "_":
        return i > 1 and (text[i - 2].isalnum())
    return c.isalpha() and c not in start_chars


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


def trie(words: set[str]) -> str:
    """A regex matching any of `words`, with shared prefixes factored (fast to scan with)."""
    tree: dict = {}
    for w in words:
        node = tree
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        end = "" in node
        alts = [re.escape(ch) + emit(sub) for ch, sub in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if end else body

    return "(?:" + emit(tree) + ")"


def _scoped(pattern: str) -> str:
    """Wrap a pattern so its leading global flags, e.g. ``(?m)``, apply to it alone."""
    m = re.match(r"\(\?([aiLmsux]+)\)", pattern)
    return f"(?{m.group(1)}:{pattern[m.end():]})" if m else f"(?:{pattern})"


def _strip_gap(u: str) -> str:
    return u.strip(" \t\u00a0\u202f\u2009\u2007*_")


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


@lru_cache(maxsize=512)
def _dims(unit: str, rules_dir: Path) -> str:
    from extractor.quantities.units import registry
    reg = registry(rules_dir)
    return str(reg.get_dimensionality(reg.parse_units(unit)))


_default: dict[Path, QuantityFinder] = {}


def default_finder(rules_dir: Path | None = None) -> QuantityFinder:
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
