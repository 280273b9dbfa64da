"""Claim keys and mentions in a diff: the normalised quote and value that key claims, the places a claim is
stated, the mentions stated on one side only, and the folding of a claim that is a mention of the other side's.
"""
from __future__ import annotations

import re
from collections import Counter

from extractor.records import Claim, ClaimMention
from extractor.review.diff_report import FieldChange

_WS = re.compile(r"\s+")
_MARKUP = re.compile(r"[*_`]+")


def norm_quote(quote: str | None) -> str:
    """Casefolded quote with emphasis markup dropped and whitespace collapsed."""
    return _WS.sub(" ", _MARKUP.sub("", quote or "")).strip().casefold()


def norm_value(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"


def places(c: Claim) -> list[ClaimMention]:
    """The places a claim is stated (a record written before claims had mentions: its own place)."""
    return c.mentions or [ClaimMention(quote=c.quote, span=c.span, context=c.context, headline=c.headline)]


def _mention_key(m: ClaimMention, same_text: bool) -> tuple:
    ctx = m.context
    return tuple(m.span) if same_text else (norm_quote(m.quote), tuple(ctx.section), ctx.block, ctx.row_header,
                                           ctx.column_header)


def mention_label(m: ClaimMention) -> str:
    """A mention as a reviewer reads it: its quote and place ("'25K' (list item in 'TL;DR')")."""
    where = m.context.block.replace("_", " ")
    return f"{m.quote!r} ({where} in {m.context.section[-1]!r})" if m.context.section else f"{m.quote!r} ({where})"


def mention_changes(old: Claim, new: Claim, same_text: bool) -> list[FieldChange]:
    """Mentions stated on one side only, as changes of the claim (`mentions.added`, `mentions.removed`).
    A moved or edited primary mention is the claim's own `quote`/`span` change, not listed again."""
    oplaces, nplaces = places(old), places(new)
    okeys = Counter(_mention_key(m, same_text) for m in oplaces)
    nkeys = Counter(_mention_key(m, same_text) for m in nplaces)
    gone, came = okeys - nkeys, nkeys - okeys
    oprimary = _mention_key(ClaimMention(quote=old.quote, span=old.span, context=old.context), same_text)
    nprimary = _mention_key(ClaimMention(quote=new.quote, span=new.span, context=new.context), same_text)
    if gone[oprimary] and came[nprimary]:
        gone[oprimary] -= 1
        came[nprimary] -= 1
        gone, came = +gone, +came
    out: list[FieldChange] = []
    if came:
        out.append(FieldChange(field="mentions.added", new=_take(nplaces, came, same_text)))
    if gone:
        out.append(FieldChange(field="mentions.removed", old=_take(oplaces, gone, same_text)))
    return out


def _take(mentions: list[ClaimMention], wanted: Counter, same_text: bool) -> list[str]:
    left, out = Counter(wanted), []
    for m in sorted(mentions, key=lambda m: m.span):
        k = _mention_key(m, same_text)
        if left[k] > 0:
            left[k] -= 1
            out.append(mention_label(m))
    return out


Pair = tuple[int | None, int | None, str | None, float | None]


def fold_mentions(old: list[Claim], new: list[Claim], pairs: list[Pair], same_text: bool) -> list[Pair]:
    """A claim of one side that is a mention of a claim of the other side (restatements merged into one
    claim, or one claim split) is not added or removed: it is folded into that claim, whose mentions
    changed (`mention_changes`). Returns the pairs left."""
    def index(claims: list[Claim]) -> dict[tuple, int]:
        at: dict[tuple, int] = {}
        for k, c in enumerate(claims):
            for m in places(c):
                at.setdefault((c.metric, norm_value(c.value), _mention_key(m, same_text)), k)
        return at

    new_at, old_at = index(new), index(old)
    partner_of_new = {j: i for i, j, _, _ in pairs if i is not None and j is not None}
    partner_of_old = {i: j for i, j, _, _ in pairs if i is not None and j is not None}

    def taken(c: Claim, k: int | None, partner: dict[int, int], other: list[Claim]) -> bool:
        """The place of `c` that matched claim `k` is also a place of k's partner: `c` is a claim of its own."""
        if k is None or k not in partner:
            return False
        keys = {_mention_key(m, same_text) for m in places(other[partner[k]])}
        return any(_mention_key(m, same_text) in keys for m in places(c))

    folded_new: set[int] = set()
    kept: list[tuple[int | None, int | None, str | None, float | None]] = []
    for i, j, how, score in pairs:
        if j is None and i is not None:
            c = old[i]
            hit = next((new_at[k] for m in places(c)
                        if (k := (c.metric, norm_value(c.value), _mention_key(m, same_text))) in new_at), None)
            if hit is not None and not taken(c, hit, partner_of_new, old):
                if hit not in partner_of_new:
                    partner_of_new[hit], partner_of_old[i] = i, hit
                    kept.append((i, hit, "mention", None))
                    folded_new.add(hit)
                continue
        kept.append((i, j, how, score))
    pairs, kept = kept, []
    for i, j, how, score in pairs:
        if i is None and j is not None and j not in folded_new:
            c = new[j]
            hit = next((old_at[k] for m in places(c)
                        if (k := (c.metric, norm_value(c.value), _mention_key(m, same_text))) in old_at), None)
            if hit is not None and hit in partner_of_old and not taken(c, hit, partner_of_old, new):
                continue
        if i is None and j in folded_new:
            continue
        kept.append((i, j, how, score))
    kept.sort(key=lambda p: (p[1] if p[1] is not None else p[0], p[0] if p[0] is not None else -1, p[1] is None))
    return kept
