"""A table's change cells checked against the row's own levels: "| Plain ITL | Draft ITL | ITL Gain |" over
"| 40.0 | 25.0 | 60.0% |" is a gain of speed (40.0 / 25.0 - 1), not an ITL cut of 60 %; "| 200.0 | 150.0 |
+25.0% |" under "Improvement" is a cut of 25 % ((200 - 150) / 200), negative as every reduction is.

When the row holds two levels of one quantity (same unit, same metric named by their columns) that the change
is computed from, its sign and direction follow from the arithmetic, and the column of the reference level
names its baseline when nothing else does. A column decides once for all its rows: the form of the arithmetic
(a change of the level, or of its reciprocal) that some row matches alone and no row contradicts."""
from __future__ import annotations

from dataclasses import dataclass
import re
from typing import Callable

from extractor.records import Claim

# a header's unit in parentheses at its end ("Old TTFT (ms)", "Plain ITL(ms)")
_UNIT_PARENTHESIS = re.compile(r"\s*\([A-Za-zµ%$/.]{1,10}\)\s*$")
# the digits after the point of a number as written ("60.5%" -> "5")
_DECIMALS = re.compile(r"\d(?:[\d,]*)(?:\.(\d+))?")
LEVEL = "level"            # the change of the level itself: (new - base) / base
RECIPROCAL = "reciprocal"  # the change of its reciprocal, a speed: base / new - 1 (only for lower-is-better)


@dataclass(frozen=True)
class Level:
    """A single measured number of a table row: its value, unit, decimals written, column and metric names."""

    value: float
    unit: str
    decimals: int
    col: int
    metrics: frozenset[str]
    header: str
    cls: str


def decimals(quote: str) -> int:
    """How many decimals the number of `quote` is written with ("60.0%" -> 1, "2.00" -> 2, "75%" -> 0)."""
    m = _DECIMALS.search(quote)
    return len(m.group(1) or "") if m else 0


def _bounds(b: Level, n: Level, form: str) -> tuple[float, float]:
    """The interval of |change| in percent that the rounded levels `b` (base) and `n` (new) allow."""
    hb, hn = 0.5 * 10 ** -b.decimals, 0.5 * 10 ** -n.decimals
    values = []
    for x in (b.value - hb, b.value + hb):
        for y in (max(n.value - hn, 0.0), n.value + hn):
            if (x if form == LEVEL else y) <= 0:
                return (1.0, 0.0)          # a reference level too close to zero to tell
            values.append(abs((y - x) / x if form == LEVEL else (x - y) / y) * 100)
    return min(values), max(values)


def _matches(v: float, v_decimals: int, b: Level, n: Level, form: str) -> bool:
    lo, hi = _bounds(b, n, form)
    tol = 0.5 * 10 ** -v_decimals
    return lo - tol <= v <= hi + tol


def fix_changes(out: list[tuple[Claim, object]], places: list[tuple[int, int]],
                rows: dict[int, list[Level]], column_metrics: Callable[[int], frozenset[str]],
                polarity: Callable[[int, int, Level], int]) -> None:
    """Sets the sign, direction and (when none is named) baseline of each relative change of `out` (at `places`:
    row, column) from the two levels of its row it was computed from (`rows`: a row's measured levels, left to
    right). `column_metrics(col)` names the metrics a change column names ("ITL Gain": itl); `polarity(row,
    col, level)` is -1 when less of the levels' quantity is better, +1 when more is, 0 when unknown."""
    found: dict[int, list[tuple[int, dict[str, list[tuple[Level, Level]]]]]] = {}
    for i, ((claim, _), (r, col)) in enumerate(zip(out, places)):
        if claim.metric != "relative_change" or claim.value_max is not None or not claim.value:
            continue
        named = column_metrics(col)
        levels = [lv for lv in rows.get(r, []) if lv.col != col and (not named or named & lv.metrics)]
        v, dv = abs(claim.value), decimals(claim.quote)
        forms: dict[str, list[tuple[Level, Level]]] = {LEVEL: [], RECIPROCAL: []}
        for a, b in ((a, b) for k, a in enumerate(levels) for b in levels[k + 1:]):
            if a.unit != b.unit or (a.metrics and b.metrics and a.metrics != b.metrics):
                continue
            for form in forms:
                if _matches(v, dv, a, b, form):
                    forms[form].append((a, b))
        if forms[LEVEL] or forms[RECIPROCAL]:
            found.setdefault(col, []).append((i, forms))
    for col, entries in found.items():
        only = {f for _, forms in entries for f in forms if forms[f] and not any(forms[g] for g in forms if g != f)}
        if len(only) != 1:
            continue             # no row tells the form alone, or rows disagree
        form = only.pop()
        for i, forms in entries:
            pairs = forms[form]
            if len(pairs) != 1:
                continue         # no pair, or two pairs of levels: which one it was computed from is unclear
            base, new = pairs[0]
            claim = out[i][0]
            pol = polarity(places[i][0], col, base)
            if form == RECIPROCAL and pol >= 0:
                continue         # a reciprocal's change only makes sense for a quantity of which less is better
            rises = new.value > base.value if form == LEVEL else base.value > new.value
            claim.value = abs(claim.value) if rises else -abs(claim.value)
            better = rises if (form == RECIPROCAL or pol > 0) else (not rises if pol < 0 else None)
            if better is not None and claim.direction in ("better", "worse"):
                claim.direction = "better" if better else "worse"
            if claim.baseline is None and (name := _UNIT_PARENTHESIS.sub("", base.header).strip(" *_`")):
                claim.baseline = name      # "Plain ITL (ms)" -> "Plain ITL"
