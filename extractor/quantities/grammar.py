"""The quantity grammar: `rules/unit_spellings.jsonl` and `rules/numbers.yaml` compiled to regular expressions.

`Grammar(rules)` holds every compiled pattern the finder and its helpers use: the main number-and-unit
expression (one or two numbers, each with an optional prefix unit, multiplier and unit), the unit readers,
qualifier cues, range and change cues, series connectors and the word passes. The helpers here
(`_alt`, `_literal`, `trie`) turn vocabulary into fast alternations.
"""
from __future__ import annotations

import re
import unicodedata
from decimal import Decimal
from itertools import groupby

from extractor.quantities.rules import Multiplier, QuantityRules

SP = r"[ \t\u00a0\u202f\u2009\u2007]"  # horizontal space, including the narrow no-break space
MK = r"(?:\*{1,3}|_{1,3})"  # emphasis markup around a number
NL = r"(?:\r?\n(?![ \t]*\r?\n))"  # a soft line break inside a paragraph (never a blank line)
GAP = rf"(?:{SP}|{MK}|{NL})"
WS = rf"(?:{SP}|{NL})"  # space inside a unit phrase, a soft line break included ("tok/s per\nGPU")
WORD_END = r"(?![^\W_])"  # not followed by a letter or digit
NOT_INSIDE = r"(?<![^\W_])(?<![^\W_]_)(?<![.#\\@\-−])"  # not preceded by a letter, digit, or identifier glue
# Read through inside a number: zero-width space/non-joiner/joiner, word joiner, BOM, soft hyphen, invisible
# operators, left-to-right/right-to-left marks, variation selectors and combining marks ("1\u00ad500": 1500).
INVISIBLE = ("\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u200f\u2061\u2062\u2063\u2064\u180e"
             + "".join(map(chr, range(0xFE00, 0xFE10))) + "".join(map(chr, range(0x0300, 0x0370))))
IG = f"[{INVISIBLE}]"
THOUSANDS_MARKS = "\u00a0\u202f\u2009'\u2019"   # no-break, narrow no-break and thin space; apostrophes (1'000)


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


def _first_chars(entries: list[tuple[str, bool]]) -> str:
    """A character class of the characters a match of `_alt(entries)` can begin with."""
    chars: set[str] = set()
    for text, case_sensitive in entries:
        c = text[0]
        if c == " " or c == "/":
            chars.update(" \t\u00a0\u202f\u2009\u2007\r\n/")
        chars.update({c} if case_sensitive else {c, c.lower(), c.upper()})
    if not chars:
        return "(?!)"
    return "[" + "".join(re.escape(c) for c in sorted(chars)) + "]"


def _scoped(pattern: str) -> str:
    """Wrap a pattern so its leading global flags, e.g. ``(?m)``, apply to it alone."""
    m = re.match(r"\(\?([aiLmsux]+)\)", pattern)
    return f"(?{m.group(1)}:{pattern[m.end():]})" if m else f"(?:{pattern})"


def _by_length(alternatives) -> str:
    """Escaped alternatives, longest first (a deterministic order)."""
    return "|".join(sorted((re.escape(s) for s in alternatives), key=lambda s: (-len(s), s)))


class Grammar:
    """Every compiled pattern of the quantity grammar, built once per rules folder."""

    def __init__(self, rules: QuantityRules):
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

        tight_mult = _alt([(m.suffix, m.case_sensitive) for m in n.multipliers
                           if m.attach == "tight" and not m.after_prefix])
        prefix_mult = _alt([(m.suffix, m.case_sensitive) for m in n.multipliers if m.after_prefix])
        loose_mult = _alt([(m.suffix, m.case_sensitive) for m in n.multipliers if m.attach == "loose"])
        scale = rf"(?:(?:(?:1|(?i:one)){SP}*)?(?:{tight_mult}|{loose_mult})|1(?:,?000)+)"

        den = (rf"{per}(?:{scale}{SP}*)?(?:{kind}{SP}+{pick(('denominator', 'both'), token=True)}"
               rf"|{pick(('denominator', 'both'))})")
        base_all = rf"(?:{kind}{SP}+{pick(('unit', 'both'), token=True, loose_only=True)}|{pick(('unit', 'both'))})"
        base_loose = rf"(?:{kind}{SP}+{pick(('unit', 'both'), token=True, loose_only=True)}|{pick(('unit', 'both'), loose_only=True)})"
        prefixes = [e for e in sp if e.role == "prefix"]
        tight_pre = _alt([(e.spelling, e.case_sensitive) for e in prefixes if e.attach == "tight"], boundary=False)
        loose_pre = _alt([(e.spelling, e.case_sensitive) for e in prefixes if e.attach == "loose"], boundary=False)
        first = "".join(sorted({re.escape(e.spelling[0]) for e in prefixes}))
        # the class of first characters lets a number that starts with a digit skip the alternation at once
        prefix = rf"(?=[{first}])(?:{tight_pre}(?=[\d.])|{loose_pre}(?={SP}?[\d.]))" if first else "(?!)"

        sp_words = n.spelled
        ones = _alt([(w, False) for w in sp_words.ones])
        teens = _alt([(w, False) for w in sp_words.teens])
        tens = _alt([(w, False) for w in sp_words.tens])
        scales = _alt([(w, False) for w in sp_words.scales])
        spelled = rf"(?:{tens}(?:[-{SP[1:-1]}]{ones})?|{teens}|{ones})(?:{SP}+{scales})?{WORD_END}"
        # invisible characters inside a number ("1\u200b200", "2\u200d.5", an entity's padding) are read
        # through; a no-break or thin space between digit groups is a thousands separator ("1\u00a0200")
        # "1.000,5": dot thousands with a decimal comma, read as 1000.5 (a comma after dots is never English);
        # a Markdown exporter's escaped point ("5\\.0") is a decimal point
        group = rf"(?:{IG}*,{IG}*|[{THOUSANDS_MARKS}]{IG}*|{IG}+)"
        euro = rf"\d{{1,3}}(?:{IG}*\.{IG}*\d{{3}})+{IG}*,{IG}*\d+(?![\d,])"
        core = (rf"{euro}|(?:\d{{1,3}}(?:{group}\d{{3}})+(?!\d)|\d+)(?:{IG}*\\?\.{IG}*\d+)?"
                rf"|\.{IG}*\d+")

        def number(i: int) -> str:
            return (rf"(?P<sign{i}>[+\-−])?(?:(?P<num{i}>{core})|(?P<word{i}>{spelled}))"
                    rf"(?:(?P<mult{i}>{tight_mult})|(?(pre{i})(?P<pmult{i}>{prefix_mult})|(?!))"
                    rf"|{SP}+(?P<multw{i}>{loose_mult}))?"
                    rf"(?P<plus{i}>\+(?![\d]))?")

        heads = [(e.spelling, e.case_sensitive) for e in sp if e.role in ("unit", "both", "kind")]
        unit_start = _first_chars(heads)   # a number followed by none of these has no unit: skip the alternation

        def unit(i: int) -> str:
            return (rf"(?P<u{i}>(?:(?={unit_start}){base_all}|{GAP}+(?={unit_start}){base_loose})(?:{den})*"
                    rf"|(?(pre{i})(?:{den})+|(?!)))")

        conns = [c for c in n.ranges.connectors]
        sym_conns = [c for c in conns if not c[:1].isalnum()]
        word_conns = [c for c in conns if c[:1].isalnum()] + [p.connector for p in n.ranges.paired]
        rc = (rf"(?P<rc>{GAP}*(?:{_alt([(c, False) for c in sym_conns])}){GAP}*"
              rf"|{GAP}+(?:{_alt([(c, False) for c in word_conns])}){GAP}+)")

        main = (rf"{NOT_INSIDE}(?:(?P<pre1>{prefix}){SP}?)?{number(1)}{unit(1)}?"
                rf"(?:{rc}(?P<approx2>[~≈∼]{SP}?)?(?:(?P<pre2>{prefix}){SP}?)?{number(2)}{unit(2)}?)?"
                r"(?![^\W_]|\.\d)")
        self.main = re.compile(main)
        self.unit_head = re.compile(rf"(?:{GAP}*)(?P<base>{base_all})")
        self.den = re.compile(rf"{per}(?:(?P<scale>{scale}){SP}*)?(?:(?P<kind>{kind}){SP}+)?(?P<atom>"
                              rf"{pick(('denominator', 'both'))})")
        self.kind_head = re.compile(rf"(?P<kind>{kind}){SP}+")
        # word passes run on the lower-cased text with case-sensitive patterns (much faster than (?i))
        self.ratio_words = frozenset(w.lower() for w in n.ratio_words)
        words = {w.lower() for w in [*n.ratio_words, *sp_words.ones, *sp_words.teens, *sp_words.tens]}
        self.words_rx = re.compile(trie(words) + WORD_END) if words else None
        self.start_chars = frozenset("+-−." + "".join(e.spelling[:1] for e in prefixes))
        # prefixes ending in a letter ("X9", "USD2,400"): a digit after one is not glued to a word
        self.letter_prefixes = tuple(sorted({e.spelling for e in prefixes if e.spelling[-1:].isalpha()}))
        self._qualifier_patterns(rules)
        self._range_patterns(rules)

    def _qualifier_patterns(self, rules: QuantityRules) -> None:
        """Qualifier cues right before a number (optionally "a"/"an" in between) and right after."""
        n = rules.numbers
        cue_ends = {c.lower().split()[-1] for q in n.qualifiers.values() for c in q.before if c[:1].isalnum()}
        self.cue_last_words = frozenset(cue_ends | {"a", "an"})
        self.cue_last_chars = frozenset(c[-1] for q in n.qualifiers.values() for c in q.before if not c[:1].isalnum())
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
        self.q_before = re.compile(
            rf"(?:{'|'.join(before)})(?:an?{GAP}+)?\Z") if before else None
        after = []
        for name, cues in n.qualifiers.items():
            words = [(c.lower(), True) for c in cues.after if c != "+"]
            if words:
                after.append(rf"(?P<{name}>{_alt(words)})")
        self.q_after = re.compile(rf"{SP}*(?:{'|'.join(after)})") if after else None

    def _range_patterns(self, rules: QuantityRules) -> None:
        """Range openers, change cues, series connectors and the input/output length-pair cues."""
        n = rules.numbers
        self.open = {p.connector.lower(): re.compile(rf"(?<![^\W_]){re.escape(p.open.lower())}{GAP}+\Z")
                     for p in n.ranges.paired}
        self.change_words = frozenset(w.lower() for w in n.ranges.change_words)
        self.change_words_absolute = frozenset(w.lower() for w in n.ranges.change_words_absolute)
        self.relative_units = frozenset({"x", "percent", "dimensionless"})
        self.from_ = re.compile(rf"(?<![^\W_])from{GAP}+\Z")
        stems = _by_length(n.ranges.transition_stems)
        rstems = _by_length(n.ranges.range_stems)
        # "gains that range from 5% to 90%" is a range even after a change word
        self.range_words = re.compile(rf"\b(?:{rstems.lower()})\w*\W+(?:\w+\W+)?from\W+\Z") if rstems else None
        self.transition = re.compile(rf"\b(?:{stems.lower()})\w*(?:\W+\w+){{0,6}}?\W+\Z") if stems else None
        self.series = re.compile(
            rf"{GAP}*{_alt([(c.lower(), True) for c in n.series_connectors])}{GAP}*\Z") if n.series_connectors else None
        cues = _alt([(c.lower(), True) for c in n.length_pair_cues])
        self.pair_before = re.compile(rf"(?P<cue>{cues})[^\n\d]{{0,24}}\Z")
        self.pair_after = re.compile(rf"[^\S\n]*[(\[]?{SP}*(?P<cue>{cues})")
        self.count_next = re.compile(n.count_multiplier_next) if n.count_multiplier_next else None
        self.price_denominator = re.compile(n.price_denominator_before, re.I) if n.price_denominator_before else None


def numeral_value(num: str) -> Decimal:
    """The value of a numeral the grammar matched: any script's decimal digits ("1٢٠٠", mathematical bold)
    read as digits; separators, escapes and invisible characters dropped; "1.000,5" read as 1000.5."""
    kept = []
    for ch in num:
        if ch in ".,":
            kept.append(ch)
        else:
            digit = unicodedata.decimal(ch, None)
            if digit is not None:
                kept.append(str(digit))
    text = "".join(kept)
    if "," in text and "." in text and text.rfind(",") > text.rfind("."):
        return Decimal(text.replace(".", "").replace(",", "."))
    return Decimal(text.replace(",", ""))


class NumberReader:
    """The value of a number the grammar matched: digits or words, with multiplier and sign."""

    def __init__(self, rules: QuantityRules):
        n = rules.numbers
        self._mults = {(m.suffix if m.case_sensitive else m.suffix.lower()): m for m in n.multipliers}
        self._spelled = {**{k.lower(): v for k, v in n.spelled.ones.items()},
                         **{k.lower(): v for k, v in n.spelled.teens.items()},
                         **{k.lower(): v for k, v in n.spelled.tens.items()}}
        self._scales = {k.lower(): v for k, v in n.spelled.scales.items()}
        self.ratio_values = {k.lower(): v for k, v in n.ratio_words.items()}

    def multiplier(self, text: str) -> Multiplier | None:
        """The multiplier rule of a suffix or word ("K", "bn", "million"), if any."""
        return self._mults.get(text) or self._mults.get(text.lower())

    def value(self, m: re.Match, i: int) -> float:
        """The value of number `i` (1 or 2) of a main-grammar match."""
        num, word = m.group(f"num{i}"), m.group(f"word{i}")
        if num is not None:
            val = numeral_value(num)
        else:
            val = Decimal(self.spelled_value(word))
        mult = m.group(f"mult{i}") or m.group(f"pmult{i}") or m.group(f"multw{i}")
        if mult:
            val *= Decimal(repr(self.multiplier(mult).value))
        if m.group(f"sign{i}") in ("-", "−"):
            val = -val
        return float(val)

    def scale(self, m: re.Match, i: int) -> float | None:
        """The multiplier written on number `i` of a match ("15K": 1000.0), None if none."""
        mult = m.group(f"mult{i}") or m.group(f"pmult{i}") or m.group(f"multw{i}")
        return self.multiplier(mult).value if mult else None

    def spelled_value(self, word: str) -> int:
        """The value of a spelled-out number ("twenty-five", "three hundred")."""
        total = 0
        for w in re.split(r"[-\s]+", word.lower()):
            if w in self._scales:
                total = max(total, 1) * self._scales[w]
            else:
                total += self._spelled.get(w, 0)
        return total
