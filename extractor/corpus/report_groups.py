"""The corpus report's view of comparable groups: the claims of the store that `compare` finds comparable
with each other (restatements left out), each group with what its claims share.

    views = comparable_views(store)          # list[GroupView], in the report's JSON as `comparable_groups`
    html = groups_section_html(views)        # one <section id="comparable"> of the report page
"""
from __future__ import annotations

import html
import json

from pydantic import BaseModel, Field

from extractor.compare.groups import comparable_groups
from extractor.corpus.restatements import stored_refs
from extractor.corpus.store import Store

SHARED = ("model", "hardware", "batch_or_concurrency", "input_length", "output_length", "precision")


class GroupMember(BaseModel):
    doc: str
    claim_id: str
    value: float
    value_max: float | None = None
    unit: str
    engine: str | None = None
    quote: str


class GroupView(BaseModel):
    """A comparable group: its metric, the conditions its claims share, and the claims."""

    metric: str
    shared: dict[str, str] = Field(default_factory=dict)
    claims: list[GroupMember]


def _text(cond) -> str | None:
    if cond is None or cond.status != "stated":
        return None
    return cond.canonical or (cond.value if isinstance(cond.value, str) else json.dumps(cond.value))


def comparable_views(store: Store) -> list[GroupView]:
    """The comparable groups of every stored claim (a claim restating another post's figure left out)."""
    linked = set(store.conn.execute("SELECT path, claim_id FROM restatements"))
    refs = [r for r in stored_refs(store.conn) if r.key not in linked]
    views = []
    for group in comparable_groups(refs).groups:
        first = group[0].claim
        views.append(GroupView(
            metric=first.metric,
            shared={n: t for n in SHARED if (t := _text(first.conditions.get(n)))},
            claims=[GroupMember(doc=r.doc, claim_id=r.claim.id, value=r.claim.value, value_max=r.claim.value_max,
                                unit=r.claim.unit, engine=_text(r.claim.conditions.get("engine_version")),
                                quote=r.claim.quote) for r in group]))
    return views


def groups_section_html(views: list[GroupView]) -> str:
    """The report's section of comparable groups (a table; no plot)."""
    what = ("Claims that `benchclaims compare` finds comparable with each other: same metric, and every "
            "condition rules/compare.yaml requires stated on both sides and equal (figures restated from "
            "another post left out). Each group lists what its claims share, then each claim.")
    rows = []
    for n, v in enumerate(views, 1):
        shared = "; ".join(f"{k}: {t}" for k, t in v.shared.items())
        claims = "".join(
            f"<li>{html.escape(m.doc)} <code>{html.escape(m.claim_id)}</code>: {m.value:g}"
            f"{'-%g' % m.value_max if m.value_max is not None else ''} {html.escape(m.unit)}"
            f"{' (' + html.escape(m.engine) + ')' if m.engine else ''}</li>" for m in v.claims)
        rows.append(f"<tr><td>{n}</td><td>{html.escape(v.metric)}</td><td>{html.escape(shared)}</td>"
                    f"<td><ul>{claims}</ul></td></tr>")
    body = ("<table class=\"groups\"><thead><tr><th>group</th><th>metric</th><th>shared conditions</th>"
            f"<th>claims</th></tr></thead><tbody>{''.join(rows)}</tbody></table>" if rows
            else '<p class="empty">No two claims are comparable: every pair differs in, or leaves unstated, '
                 "a condition the rules require.</p>")
    return (f'<section id="comparable"><h2>Comparable groups ({len(views)})</h2>'
            f'<p class="what">{html.escape(what)}</p>{body}</section>')
