"""A headline figure the post states again in its body was measured under the conditions stated there."""
from __future__ import annotations

import re

from extractor.claims.headlines import FigureIndex
from extractor.records import Claim


MAX_RESTATEMENTS = 64   # a figure the post gives more often than this is not "stated again" but common


def fill_from_restatements(claims: list[Claim], ambiguous: list[set[str]]) -> None:
    """Fill each headline's unstated conditions from the one restatement of the same figure.
    `ambiguous[i]`: the conditions of `claims[i]` the post states with several values; they stay so."""
    figures = FigureIndex(claims)   # built once: each headline's restatements by bisection, not a scan
    n_stated = {id(o): _stated(o) for o in claims}   # kept current as claims are filled below
    for c, unclear in zip(claims, ambiguous):
        if not c.headline or not c.conditions:
            continue
        same = figures.same(c, limit=MAX_RESTATEMENTS)
        if same is None:
            continue
        own = n_stated[id(c)]
        twins = [o for o in same if n_stated[id(o)] > own]
        if not twins:
            continue
        if not distinctive(c.value, c.value_max):
            # a common round figure (2x, 60%) is taken as the same measurement only from the one
            # restatement that states clearly more than any other
            rank = sorted(((n_stated[id(o)], i) for i, o in enumerate(twins)), reverse=True)
            if len(rank) > 1 and rank[0][0] - rank[1][0] < 2:
                continue
            twins = [twins[rank[0][1]]]
        for name, cond in c.conditions.items():
            if cond.status == "stated" or name in unclear:
                continue
            stated = [t.conditions[name] for t in twins if t.conditions.get(name)
                      and t.conditions[name].status == "stated"]
            values = {repr(s.value) for s in stated}
            if len(values) == 1 and len(stated) == sum(1 for t in twins if t.conditions.get(name)):
                src = stated[0]
                twin = next(t for t in twins if t.conditions.get(name) is src)
                c.conditions[name] = src.model_copy(update={
                    "scope": "restatement",
                    "note": "; ".join(x for x in (src.note, f"stated where the post gives this figure again "
                                                             f"({twin.quote!r})") if x)})
        n_stated[id(c)] = _stated(c)


def _stated(claim: Claim) -> int:
    return sum(v.status == "stated" for v in claim.conditions.values())


def distinctive(value: float, value_max: float | None = None) -> bool:
    """A figure specific enough that two mentions of it are one measurement (25,000; 11.5%; 6-14x),
    unlike common round ratios (2x, 1.5x, 60%)."""
    digits = "".join(re.sub(r"[^0-9]", "", f"{abs(v):g}").lstrip("0") for v in (value, value_max) if v is not None)
    return abs(value) >= 1000 or len(digits) >= 3
