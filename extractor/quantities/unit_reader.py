"""Reading a surface unit ("output tok/s per GPU", "$ per million tokens") into a canonical pint unit.

`UnitReader.unit_info(surface, prefix)` splits the surface unit with the grammar's unit patterns, looks
each piece up in `unit_spellings.jsonl` and composes the pint expression; results are cached.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from extractor.quantities.grammar import Grammar, NumberReader
from extractor.quantities.rules import QuantityRules, UnitSpelling, spelling_key
from extractor.quantities.units import DIMENSIONLESS, canonical_unit, dimensions_text

TOKEN_DIM = "[token]"
_SCALE_ZEROS = {3: "kilo", 6: "mega", 9: "giga", 12: "tera"}


class UnitInfo(NamedTuple):
    """What a surface unit means: canonical unit and the attributes claims use."""

    unit: str
    tokens: str | None
    per: str | None


class UnitReader:
    """Surface unit -> `UnitInfo`, through the spelling table."""

    def __init__(self, rules: QuantityRules, grammar: Grammar, numbers: NumberReader):
        self.rules_dir = rules.rules_dir
        self._grammar = grammar
        self._numbers = numbers
        self._lookup: dict[tuple[str, str], UnitSpelling] = {}
        for e in rules.spellings:
            slots = {"both": ("unit", "denominator")}.get(e.role, (e.role,))
            for slot in slots:
                self._lookup.setdefault((slot, e.key()), e)
        self._unit_cache: dict[str, UnitInfo] = {}

    def entry(self, slot: str, text: str) -> UnitSpelling:
        """The spelling entry of `text` in `slot` (unit, denominator, prefix, kind); KeyError if none."""
        e = self._lookup.get((slot, spelling_key(text, True)))
        if e is None or not e.case_sensitive:
            e = self._lookup.get((slot, spelling_key(text, False)), e)
        if e is None:
            raise KeyError(text)
        return e

    def _scale_prefix(self, text: str) -> str:
        t = re.sub(r"\s+", "", text)
        m = re.fullmatch(r"1(?:,?000)+", t)
        if m:
            zeros = t.replace(",", "").count("0")
            return _SCALE_ZEROS.get(zeros, "")
        t = re.sub(r"^(?:1|one)", "", t, flags=re.I)
        mult = self._numbers.multiplier(t)
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
            e = self.entry("prefix", prefix)
            factors.append(f"({e.unit})")
            per = e.per or per
        pos = 0
        g = self._grammar
        if surface:
            surface = " " + surface
            m = g.unit_head.match(surface)
            if m:
                base = m.group("base")
                k = g.kind_head.match(base)
                if k:
                    tokens = self.entry("kind", k.group("kind")).tokens
                    base = base[k.end():]
                e = self.entry("unit", base)
                factors.append(f"({e.unit})")
                tokens, per = tokens or e.tokens, e.per or per
                pos = m.end()
            while pos < len(surface):
                d = g.den.match(surface, pos)
                if d is None:
                    break
                e = self.entry("denominator", d.group("atom"))
                pre = self._scale_prefix(d.group("scale")) if d.group("scale") else ""
                name = f"{pre}{e.unit}" if pre and re.fullmatch(r"[A-Za-z_]+", e.unit or "") else e.unit
                factors.append(f"/ ({name})")
                if d.group("kind"):
                    tokens = self.entry("kind", d.group("kind")).tokens
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


@lru_cache(maxsize=512)
def _dims(unit: str, rules_dir: Path) -> str:
    return dimensions_text(unit, rules_dir)
