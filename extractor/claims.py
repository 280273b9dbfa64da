"""Claims: the quantities that state performance, with metric, tokens, per, baseline and sign.

The decision reads only data: a quantity's unit class (from pint), the cue phrases
marked in its sentence (`rules/claims.yaml`), and for table cells the cues and unit of
the column and row headers.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from extractor.claim_rules import ClaimRules
from extractor.records import Claim, ClaimContext, QuantityRecord
from extractor.units import parse_unit

_SIGNED = re.compile(r"(?:^|[\s*_(~])[+−]\s?\d|(?:^|[\s*_(])-\d")
NEAR = 60        # characters: how far a cue may sit from its quantity and still qualify it
TOKEN_CUE_NEAR = 40
BARE_NEAR = 12


@dataclass(frozen=True, slots=True)
class Cue:
    """A cue phrase found in the text: its role label and absolute span."""

    label: str
    start: int
    end: int


@lru_cache(maxsize=256)
def unit_class(unit: str) -> str | None:
    """The class of a canonical unit: token_rate, time, ratio, percent... or None (bare or other)."""
    if unit in ("percent", "%"):
        return "percent"
    if unit == "x":
        return "ratio"
    if unit in ("dimensionless", ""):
        return None
    if re.search(r"\b\w*(?:byte|bit)\b", unit):   # pint's information units carry no dimension
        return "bandwidth" if re.search(r"/\s*\w*second", unit) else "memory"
    try:
        dims = dict(parse_unit(unit).dimensionality)
    except ValueError:
        return None
    time = dims.get("[time]", 0)
    if dims.get("[currency]"):
        return "cost"
    if dims.get("[token]", 0) > 0 and time < 0:
        return "token_rate"
    if dims.get("[request]", 0) > 0 and time < 0:
        return "request_rate"
    if dims.get("[token]", 0) > 0 and dims.get("[mass]", 0) < 0:
        return "energy"
    if dims.get("[mass]", 0) > 0 and time:
        return "energy"
    if time == 1 and len([d for d, p in dims.items() if p and d not in ("[gpu]", "[user]", "[node]")]) == 1:
        return "time"
    if time == -1 and len(dims) == 1:
        return "compute"
    return None


def gap(cue: Cue, start: int, end: int) -> int:
    """Characters between a cue and a span (0 when they touch or overlap)."""
    return max(0, cue.start - end, start - cue.end)


def nearest(cues: list[Cue], start: int, end: int, prefix: str, limit: int) -> Cue | None:
    """The closest cue whose label starts with `prefix`, within `limit` characters."""
    best, best_gap = None, limit + 1
    for c in cues:
        if c.label.startswith(prefix):
            g = gap(c, start, end)
            if g < best_gap or (g == best_gap and best is not None and c.start > best.start):
                best, best_gap = c, g
    return best


class ClaimBuilder:
    """Turns the quantities of one text unit into claims, following the claim rules."""

    def __init__(self, rules: ClaimRules):
        self.rules = rules
        self.allowed = {cls: [m for m in metrics if m] for cls, metrics in rules.unit_classes.items()}
        self.default = {cls: (metrics[0] if metrics else "") for cls, metrics in rules.unit_classes.items()}

    # -- metric ------------------------------------------------------------------
    def bare_class(self, q: QuantityRecord, cues: list[Cue]) -> str | None:
        """A number without a unit is a score when an accuracy cue sits right by it ("0.97 on GSM8K")."""
        if q.unit not in ("dimensionless", "") or q.value > 100 or q.value < 0:
            return None
        return "score" if nearest(cues, q.span[0], q.span[1], "metric:accuracy", BARE_NEAR) else None

    def metric_for(self, q: QuantityRecord, cls: str, cues: list[Cue], start: int, end: int,
                   header_cues: list[Cue] = ()) -> str | None:
        """The metric of a quantity of unit class `cls`, or None when it is not a claim."""
        allowed = self.allowed.get(cls, [])
        if cls in ("percent", "ratio"):
            return self._relative(q, cls, cues, start, end, header_cues)
        cue = self._metric_cue(cues, start, end, allowed, NEAR * 2) or self._metric_cue(header_cues, 0, 0,
                                                                                       allowed, 10**9)
        if cue:
            return cue.label.split(":", 1)[1]
        if not self.default.get(cls) and allowed and nearest(cues, start, end, "change:", NEAR // 2):
            return allowed[-1]     # "a 4 GB improvement": a change in a quantity of this class
        return self.default.get(cls) or None

    def _metric_cue(self, cues, start, end, allowed, limit) -> Cue | None:
        best, best_gap = None, limit + 1
        for c in cues:
            if c.label.startswith("metric:") and c.label[7:] in allowed:
                g = gap(c, start, end)
                # a longer cue ("time to first token") beats a shorter one it contains ("time")
                if g < best_gap or (g == best_gap and best and (c.end - c.start) > (best.end - best.start)):
                    best, best_gap = c, g
        return best

    def _relative(self, q, cls, cues, start, end, header_cues) -> str | None:
        if nearest(cues, start, end, "not_claim", 25):
            return None
        allowed = self.allowed.get(cls, [])
        specific = [m for m in allowed if m not in ("speedup", "relative_change")]
        change = nearest(cues, start, end, "change:", NEAR) or nearest(header_cues, 0, 0, "change:", 10**9)
        signed = _SIGNED.search(q.quote) is not None
        cue = self._metric_cue(cues, start, end, specific, 25)
        change_metric = "relative_change" if cls == "percent" else "speedup"
        if cue and (not change or gap(cue, start, end) <= gap(change, start, end)):
            metric = cue.label[7:]
            if cls == "ratio" and metric not in ("memory", "other"):
                return change_metric if change else None
            return metric
        if change or signed:
            return change_metric
        cue = self._metric_cue(cues, start, end, allowed, NEAR) or self._metric_cue(header_cues, 0, 0, allowed,
                                                                                   10**9)
        if cue:
            metric = cue.label[7:]
            return metric if metric in specific else None
        if cls == "ratio":
            # "2.7x" next to any performance metric word is a speed-up
            any_metric = nearest(cues, start, end, "metric:", 30) or (header_cues and nearest(header_cues, 0, 0,
                                                                                              "metric:", 10**9))
            return "speedup" if any_metric else None
        return None

    # -- attributes ----------------------------------------------------------------
    def tokens_for(self, cues: list[Cue], start: int, end: int, header_cues=()) -> str:
        cue = nearest(cues, start, end, "tokens:", TOKEN_CUE_NEAR) or nearest(list(header_cues), 0, 0, "tokens:",
                                                                              10**9)
        return cue.label.split(":", 1)[1] if cue else "unspecified"

    def per_for(self, unit: str, cues: list[Cue], start: int, end: int, header_cues=()) -> str:
        for kind in ("gpu", "user", "node"):
            if re.search(rf"\b{kind}\b", unit):
                return kind
        cue = nearest(cues, start, end, "per:", TOKEN_CUE_NEAR) or \
            nearest(list(header_cues), 0, 0, "per:", 10**9)
        return cue.label.split(":", 1)[1] if cue else "system"

    def direction(self, cues: list[Cue], start: int, end: int, header_cues=()) -> int:
        cue = nearest(cues, start, end, "change:", NEAR) or nearest(list(header_cues), 0, 0, "change:", 10**9)
        return -1 if cue and cue.label == "change:down" else 1

    def baseline(self, text: str, base: int, cues: list[Cue], start: int, end: int, unit_start: int) -> str | None:
        """The phrase after 'than / over / vs / compared with ...' following the value, or a leading
        'Compared with X,' clause."""
        after = [c for c in cues if c.label == "baseline" and c.start >= end and c.start - end <= 80]
        stops = sorted(c.start for c in cues if c.label == "stop")
        lead = [c for c in cues if c.label == "baseline" and c.start - unit_start <= 2 and c.end <= start]
        for c in (after[:1] or lead[:1]):
            limit = next((s for s in stops if s >= c.end + 1), None)
            stop = min(x for x in (limit, c.end + 80, len(text) + base) if x is not None)
            phrase = text[c.end - base:stop - base]
            phrase = re.split(r"[,;:.()!?\n]| — | – ", phrase)[0].strip(" *_")
            if phrase and len(phrase.split()) <= 10 and re.search(r"[A-Za-z0-9]", phrase):
                return re.sub(r"\s+", " ", phrase)
        return None

    # -- claims ------------------------------------------------------------------
    def claim(self, q: QuantityRecord, metric: str, cls: str, cues: list[Cue], text: str, base: int,
              unit_start: int, context: ClaimContext, header_cues=(), unit: str | None = None) -> Claim:
        """Build the claim for quantity `q` of metric `metric`."""
        start, end = q.span
        unit = unit or q.unit
        value, value_max = q.value, q.value_max
        tokens = per = None
        if cls in ("token_rate", "request_rate"):
            per = self.per_for(unit, cues, start, end, header_cues)
            if per in ("gpu", "user", "node") and not re.search(rf"\b{per}\b", unit):
                unit = f"{unit} / {per}"
            if cls == "token_rate":
                tokens = self.tokens_for(cues, start, end, header_cues)
        if metric == "relative_change" and value > 0 and (value_max is None or value_max > 0):
            if self.direction(cues, start, end, header_cues) < 0:
                value, value_max = -value, (None if value_max is None else -value_max)
        baseline = None
        if metric in ("speedup", "relative_change"):
            baseline = self.baseline(text, base, cues, start, end, unit_start)
        return Claim(metric=metric, value=value, value_max=value_max, unit=unit, qualifier=q.qualifier,
                     tokens=tokens, per=per, baseline=baseline, quote=q.quote, span=q.span, context=context)
