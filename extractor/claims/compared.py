"""A bare number compared with a measured one takes its unit: "2,038 tok/s versus 1,742 before",
"23,545 tokens per second, which matches the submitted result (23,514)", "TTFT of 120 ms vs 96"."""
from __future__ import annotations

import re
from typing import Sequence

from extractor.claims.classify import Cue, unit_class
from extractor.records import QuantityRecord

RESULT_CLASSES = ("token_rate", "request_rate", "time")
COMPARE_LABELS = ("baseline", "valence:neutral")
MAX_GAP = 160       # characters from the measured figure to the bare number
MAX_RATIO = 2.0
YEAR = re.compile(r"(?:19|20)\d\d")     # the two figures are of one size: a count or a year is not compared with them


def compared_unit(q: QuantityRecord, quantities: Sequence[QuantityRecord],
                  cues: Sequence[Cue]) -> tuple[str, str] | None:
    """(unit class, unit) for a bare number `q` written after a comparison word that follows a measured
    rate or time of the same size in its sentence; None otherwise."""
    if q.unit not in ("dimensionless", "") or q.value <= 0:
        return None
    if YEAR.fullmatch(q.quote.strip()):
        return None       # "compared to 2024 releases": a year
    before = [p for p in quantities if p.span[1] <= q.span[0] and q.span[0] - p.span[1] <= MAX_GAP
              and unit_class(p.unit) in RESULT_CLASSES]
    if not before:
        return None
    p = before[-1]
    if any(o.span[0] >= p.span[1] and o.span[1] <= q.span[0] for o in quantities):
        return None       # another number stands between them
    if not any(c.label in COMPARE_LABELS and p.span[1] <= c.start and c.end <= q.span[0] for c in cues):
        return None
    if p.value <= 0 or not 1 / MAX_RATIO <= q.value / p.value <= MAX_RATIO:   # 0: no ratio to take
        return None
    return unit_class(p.unit), p.unit
