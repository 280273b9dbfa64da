"""Durations written in parts: "30 minutes and 14 seconds", "1h 20m", "2 min 30 s", "1 hour, 5 minutes".

`CompoundDurations(rules, units).merge(text, found)` extends a time quantity over the parts written after
it (numbers.yaml `compound_durations`) and drops the quantities those parts were read as alone, so the
phrase is ONE quantity whose quote and span cover it whole and whose value is the sum in the last part's
unit. A later part is the next unit down and a whole number below one of the unit before it (only the
last part may carry decimals); the first part is a whole number ("1.5 hours, 30 minutes" is two figures).
"""
from __future__ import annotations

import math
import re
from decimal import Decimal

from extractor.quantities.ranges import Hit
from extractor.quantities.rules import QuantityRules
from extractor.quantities.unit_reader import UnitReader
from extractor.quantities.units import canonical_unit, one_in

_NUMBER = r"(?P<num>\d+(?:\.\d+)?)"


class CompoundDurations:
    """The compiled parts ladder of numbers.yaml `compound_durations`."""

    def __init__(self, rules: QuantityRules, units: UnitReader):
        spec = rules.numbers.compound_durations
        self.units = units
        self.ladder = [canonical_unit(p.unit, rules.rules_dir) for p in spec.parts]
        self._step = {u: i for i, u in enumerate(self.ladder)}
        joiners = sorted({" ".join(j.split()) for j in spec.joiners}, key=len, reverse=True)
        joiner = "|".join(r"[ \t]*" + r"[ \t]+".join(map(re.escape, j.split())) + r"[ \t]+" if j[:1].isalpha()
                          else r"[ \t]*" + r"[ \t]*".join(map(re.escape, j.split())) + r"[ \t]*" for j in joiners)
        self._next: list[re.Pattern | None] = []
        self._limit: list[float] = []
        for i in range(len(spec.parts) - 1):
            spellings = sorted(spec.parts[i + 1].spellings, key=len, reverse=True)
            self._next.append(re.compile(
                rf"(?:{joiner}|[ \t]*){_NUMBER}[ \t]?(?P<unit>{'|'.join(map(re.escape, spellings))})(?![A-Za-z0-9])"))
            self._limit.append(one_in(self.ladder[i], self.ladder[i + 1], rules.rules_dir))

    def merge(self, text: str, found: list[Hit]) -> list[Hit]:
        """`found` (in text order) with each compound duration as one hit in place of its parts."""
        if not self._next:
            return found
        out: list[Hit] = []
        end = -1
        for hit in found:
            if hit.start < end:
                continue          # a part already taken into the compound before it
            self._extend(text, hit)
            end = hit.end
            out.append(hit)
        return out

    def _extend(self, text: str, hit: Hit) -> None:
        step = self._step.get(hit.info.unit)
        if step is None or hit.value_max is not None or not math.isfinite(hit.value) or hit.value != int(hit.value):
            return
        total, pos, last = Decimal(int(hit.value)), hit.end, None
        while step < len(self._next):
            m = self._next[step].match(text, pos)
            if m is None or (last is not None and "." in last.group("num")):
                break
            value = Decimal(m.group("num"))
            if value >= Decimal(repr(self._limit[step])):
                break
            total = total * Decimal(repr(self._limit[step])) + value
            pos, last, step = m.end(), m, step + 1
        if last is None:
            return
        hit.value, hit.end, hit.scale = float(total), last.end(), None
        hit.info = self.units.unit_info(self.ladder[step])
        hit.surface = last.group("unit")
