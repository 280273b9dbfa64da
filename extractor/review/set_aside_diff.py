"""What changed in a document's set-aside figures between two runs: a figure set aside or no longer, a
reason that changed, and a figure that moved between the claims and the set-aside list (the change a
reviewer most needs to see: a claim the rules now turn down, or a figure they now take)."""
from __future__ import annotations

from extractor.records import Claim, SetAside
from extractor.review.diff_report import SET_ASIDE_KINDS, SetAsideChange
from extractor.review.mention_diff import norm_quote

__all__ = ["SET_ASIDE_KINDS", "SetAsideChange", "change_line", "set_aside_changes"]


def _keys(items: list[SetAside]) -> list[tuple[str, int]]:
    seen: dict[str, int] = {}
    out = []
    for a in items:
        q = norm_quote(a.quote)
        out.append((q, seen.get(q, 0)))
        seen[q] = seen.get(q, 0) + 1
    return out


def _claimed(claims: list[Claim], a: SetAside, same_text: bool) -> bool:
    """Whether a claim (or one of its mentions) states the figure: its span overlaps when the text is the
    same, else its quote holds the figure's."""
    q = norm_quote(a.quote)
    for c in claims:
        for span, quote in [(c.span, c.quote)] + [(m.span, m.quote) for m in c.mentions]:
            if same_text and span[0] < a.span[1] and a.span[0] < span[1]:
                return True
            if not same_text and q and q in norm_quote(quote):
                return True
    return False


def set_aside_changes(old: list[SetAside], new: list[SetAside], old_claims: list[Claim], new_claims: list[Claim],
                      same_text: bool) -> list[SetAsideChange]:
    """The set-aside figures that differ, in the new (else old) text order. Figures align by span when the
    text is the same, else by quote and rank among equal quotes."""
    if same_text:
        okeys: list = [tuple(a.span) for a in old]
        nkeys: list = [tuple(a.span) for a in new]
    else:
        okeys, nkeys = _keys(old), _keys(new)
    by_old = dict(zip(okeys, old))
    out: list[SetAsideChange] = []
    matched = set()
    for key, a in zip(nkeys, new):
        b = by_old.get(key)
        if b is None:
            out.append(SetAsideChange(kind="added", quote=a.quote, span=a.span, new_reason=a.reason, new_rule=a.rule,
                                      moved="from_claim" if _claimed(old_claims, a, same_text) else None))
            continue
        matched.add(key)
        if (b.reason, b.rule) != (a.reason, a.rule):
            out.append(SetAsideChange(kind="changed", quote=a.quote, span=a.span, old_reason=b.reason,
                                      new_reason=a.reason, old_rule=b.rule, new_rule=a.rule))
    for key, b in zip(okeys, old):
        if key not in matched:
            out.append(SetAsideChange(kind="removed", quote=b.quote, span=b.span, old_reason=b.reason, old_rule=b.rule,
                                      moved="to_claim" if _claimed(new_claims, b, same_text) else None))
    out.sort(key=lambda c: (c.span, c.kind))
    return out


def change_line(c: SetAsideChange) -> str:
    """One line for a reviewer: the figure, its reasons, and a move between claims and set-aside."""
    if c.kind == "changed":
        return f'"{c.quote}" set aside as {c.old_reason} ({c.old_rule}) -> {c.new_reason} ({c.new_rule})'
    if c.kind == "added":
        was = "was a claim, " if c.moved == "from_claim" else ""
        return f'"{c.quote}" {was}now set aside as {c.new_reason} ({c.new_rule})'
    now = "now a claim" if c.moved == "to_claim" else "no longer set aside"
    return f'"{c.quote}" set aside as {c.old_reason} ({c.old_rule}), {now}'
