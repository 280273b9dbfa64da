"""The HTML diff report: one self-contained page (inline CSS and JS, no external assets).

A paste-ready summary line, a document list with counts (documents fold and unfold), and per document
the changes grouped under their sentence or table, each quote marked in it; changed claims show old
and new side by side, and a changed condition its old and new quote in context. j / k move between
changes. Each claim links to the post's audit page when the report found one (`DocDiff.audit`).
"""
from __future__ import annotations

import html
from typing import Any

from rapidfuzz.distance import Levenshtein

from extractor.records import Claim
from extractor.review.diff import CLAIM_KINDS, ClaimDiff, DiffReport, DocDiff
from extractor.review.html_assets import CSS, JS
from extractor.review.links import claim_fragment
from extractor.review.labels import MARK, claim_label, doc_tags, group_label, shown_value
from extractor.review.set_aside_diff import change_line
from extractor.review.views import ConditionSide, ContextGroup, Excerpt


def _e(s: Any) -> str:
    return html.escape(str(s), quote=True)


VERDICTS = (("accept", "accept"), ("reject", "reject"), ("look", "look again"))
VERDICT_BUTTONS = ('<div class="verdict" role="group" aria-label="verdict">'
                   + "".join(f'<button type="button" class="v" data-v="{v}">{label}</button>' for v, label in VERDICTS)
                   + "</div>")


def highlight_pair(old: str, new: str) -> tuple[str, str]:
    """Escaped HTML of both quotes, the characters that differ wrapped in <del>/<ins>."""
    o_parts, n_parts = [], []
    for op in Levenshtein.opcodes(old, new):
        a, b = old[op.src_start:op.src_end], new[op.dest_start:op.dest_end]
        if op.tag == "equal":
            o_parts.append(_e(a))
            n_parts.append(_e(b))
            continue
        if a:
            o_parts.append(f'<del class="hl">{_e(a)}</del>')
        if b:
            n_parts.append(f'<ins class="hl">{_e(b)}</ins>')
    return "".join(o_parts), "".join(n_parts)


def _marked_html(text: str, marks: list[tuple[int, int, str]]) -> str:
    """Escaped text with the marked spans in <mark class=kind>."""
    pieces: list[str] = []
    pos = 0
    for start, end, kind in sorted(marks):
        start = max(start, pos)
        if end <= start:
            continue
        pieces += [_e(text[pos:start]), f'<mark class="{_e(kind)}">{_e(text[start:end])}</mark>']
        pos = end
    return "".join(pieces) + _e(text[pos:])


def _section(path: list[str]) -> str:
    return " › ".join(_e(p) for p in path) if path else "(top of the post)"


def _excerpt_html(e: Excerpt, kind: str) -> str:
    where = [_section(e.section)]
    if e.row_header:
        where.append(f"row “{_e(e.row_header)}”")
    if e.column_header:
        where.append(f"column “{_e(e.column_header)}”")
    if e.caption:
        where.append(f"caption “{_e(e.caption)}”")
    src = "" if e.source == "document" else " · from the record"
    return (f'<blockquote class="excerpt">{_marked_html(e.text, [(e.mark[0], e.mark[1], kind)])}</blockquote>'
            f'<div class="muted ctx">{" · ".join(where)}{src}</div>')


def _claim_cell(doc: DocDiff, c: Claim | None, quote_html: str | None, excerpt: Excerpt | None,
                show_excerpt: bool, new_index: int | None) -> str:
    if c is None:
        return '<td class="muted">—</td>'
    q = quote_html if quote_html is not None else _e(c.quote)
    place = ""
    if excerpt is not None and (excerpt.row_header or excerpt.column_header):
        bits = [f"row “{_e(excerpt.row_header)}”" if excerpt.row_header else "",
                f"column “{_e(excerpt.column_header)}”" if excerpt.column_header else ""]
        place = f'<div class="cell-place">{" × ".join(b for b in bits if b)}</div>'
    audit = (f' · <a class="audit" href="{_e(doc.audit + claim_fragment(new_index))}">audit page</a>'
             if doc.audit else "")
    ctx = _excerpt_html(excerpt, "old" if quote_html is None else "changed") if show_excerpt and excerpt else ""
    return (f'<td><div class="label">{_e(claim_label(c))}</div>{place}'
            f'<div class="quote">“<span class="q">{q}</span>” <span class="muted">· span {c.span[0]}–{c.span[1]}'
            f'{audit}</span></div>{ctx}</td>')


def _condition_side(cs: ConditionSide | None, kind: str) -> str:
    if cs is None:
        return '<td class="muted">—</td>'
    head = f"<code>{_e(cs.status)}</code>"
    if cs.value is not None:
        head += f" {_e(shown_value(cs.value))}"
    if cs.scope:
        head += f' <span class="muted">({_e(cs.scope)})</span>'
    body = _excerpt_html(cs.context, kind) if cs.context is not None else ""
    if cs.where:
        body += f'<div class="muted">where: {_e(cs.where)}</div>'
    return f"<td>{head}{body}</td>"


def _html_claim(doc: DocDiff, did: str, k: int, cd: ClaimDiff) -> str:
    oq = nq = None
    if cd.old is not None and cd.new is not None:
        oq, nq = highlight_pair(cd.old.quote, cd.new.quote)
    moved = (cd.kind == "changed" and cd.old_context is not None and cd.new_context is not None
             and cd.old_context.source == "document"
             and (cd.old_context.text, cd.old_context.section) != (cd.new_context.text, cd.new_context.section))
    fields = ""
    # a condition change is shown once, in the conditions table below; the field list keeps the rest
    shown = [f for f in cd.fields if not (cd.conditions and f.field.startswith("conditions."))]
    if shown:
        items = "".join(f"<li><code>{_e(f.field)}</code>: <del>{_e(shown_value(f.old))}</del> → "
                        f"<ins>{_e(shown_value(f.new))}</ins></li>" for f in shown)
        fields = f'<ul class="fields">{items}</ul>'
    if cd.conditions:
        rows = "".join(f'<tr><td><code>{_e(c.name)}</code></td>{_condition_side(c.old, "old")}'
                       f'{_condition_side(c.new, "new")}</tr>' for c in cd.conditions)
        fields += ('<table class="conds"><thead><tr><th class="kind">condition</th><th>old</th><th>new</th>'
                   f"</tr></thead>{rows}</table>")
    detail = f'<tr class="detail"><td></td><td colspan="2">{fields}</td></tr>' if fields else ""
    ids = (cd.old.id if cd.old else "", cd.new.id if cd.new else "")
    key = f"{doc.doc}|{cd.kind}|{ids[0]}|{ids[1]}" + ("" if any(ids) else f"|{k}")   # claim ids are stable
    return (f'<tbody class="chg {cd.kind}" data-kind="{cd.kind}" id="{did}-c{k}" data-key="{_e(key)}">'
            f'<tr><td class="kind">{cd.kind}{VERDICT_BUTTONS}</td>'
            f"{_claim_cell(doc, cd.old, oq, cd.old_context, moved, cd.new_index)}"
            f"{_claim_cell(doc, cd.new, nq, cd.new_context, moved, cd.new_index)}</tr>{detail}</tbody>")


def _group_html(doc: DocDiff, did: str, g: ContextGroup) -> str:
    head = [f"<b>{_e(group_label(g.kind, g.block))}</b>", _section(g.section)]
    if g.caption:
        head.append(f"caption “{_e(g.caption)}”")
    if g.source == "record":
        head.append("from the record (post text not at hand)")
    parts = [f'<div class="group" data-group="{_e(g.id)}" data-kind="{g.kind}">'
             f'<div class="ctx-head">{" · ".join(head)}</div>']
    if g.kind in ("sentence", "claim") and g.text is not None:
        parts.append(f'<blockquote class="sentence">{_marked_html(g.text, [(m.start, m.end, m.kind) for m in g.marks])}'
                     "</blockquote>")
    elif g.kind == "table" and g.columns:
        cols = "".join(f"<th>{_e(c)}</th>" for c in g.columns)
        body = []
        for row in g.rows:
            kinds = {m.col: m.kind for m in row.marks}
            cells = "".join(f'<td class="mark {kinds[i]}">{_e(c)}</td>' if i in kinds else f"<td>{_e(c)}</td>"
                            for i, c in enumerate(row.cells))
            body.append(f"<tr>{cells}</tr>")
        parts.append(f'<table class="ctx-table"><thead><tr>{cols}</tr></thead><tbody>{"".join(body)}</tbody></table>')
        if g.row_count is not None and g.row_count > len(g.rows):
            parts.append(f'<div class="muted">{len(g.rows)} of {g.row_count} rows shown (those with a change)</div>')
    parts.append('<table class="changes"><thead><tr><th class="kind">change</th><th>old</th><th>new</th></tr></thead>')
    parts += [_html_claim(doc, did, k, doc.claims[k]) for k in g.claims]
    parts.append("</table></div>")
    return "".join(parts)


def _html_doc(doc: DocDiff, did: str) -> str:
    """One document's section (`did`: its element id, `doc-N` by position in the report)."""
    tags = doc_tags(doc, _e, "→")
    counts = " ".join(f'<span class="cnt-{k}">{MARK[k]}{doc.counts.get(k, 0)} {k}</span>' for k in CLAIM_KINDS)
    audit = f' · <a class="audit" href="{_e(doc.audit)}">audit page</a>' if doc.audit else ""
    parts = [f'<details class="doc" open id="{did}" data-doc="{_e(doc.doc)}">'
             f'<summary><h2>{_e(doc.doc)}</h2> <span class="summary">{counts}</span></summary>',
             f'<div class="muted">{_e(doc.path or "")} {" · ".join(tags)}{audit}</div>']
    if doc.context_note:
        parts.append(f'<div class="muted context-note">context: {_e(doc.context_note)}</div>')
    if doc.fields:
        items = "".join(f"<li><code>{_e(f.field)}</code>: <del>{_e(shown_value(f.old))}</del> → "
                        f"<ins>{_e(shown_value(f.new))}</ins></li>" for f in doc.fields)
        parts.append(f'<ul class="fields doc-fields">{items}</ul>')
    if doc.set_aside:
        items = "".join(f'<li class="set-aside-{a.kind}">{MARK[a.kind]} {_e(change_line(a))}</li>' for a in doc.set_aside)
        parts.append(f'<ul class="fields set-aside-changes" title="set-aside figures">{items}</ul>')
    if doc.groups:
        parts += [_group_html(doc, did, g) for g in doc.groups]
    elif doc.claims:
        parts.append('<table class="changes"><thead><tr><th class="kind">change</th><th>old</th><th>new</th></tr></thead>')
        parts += [_html_claim(doc, did, k, cd) for k, cd in enumerate(doc.claims)]
        parts.append("</table>")
    parts.append("</details>")
    return "".join(parts)


def _doc_list(report: DiffReport) -> str:
    items = []
    for i, doc in enumerate(report.documents, 1):
        counts = " ".join(f'<span class="cnt-{k}">{MARK[k]}{doc.counts.get(k, 0)}</span>' for k in CLAIM_KINDS)
        items.append(f'<li><a href="#doc-{i}">{_e(doc.doc)}</a> {counts}</li>')
    return ('<nav id="doc-list"><details open><summary>documents '
            f'({len(report.documents)})</summary><button id="fold-all" type="button">fold all</button>'
            f'<button id="unfold-all" type="button">unfold all</button><ul>{"".join(items)}</ul></details></nav>')


def render_html(report: DiffReport, verdicts_file: str = "review.verdicts.json") -> str:
    """A single self-contained HTML page (inline CSS and JS, no external assets); `verdicts_file`: the name
    the exported verdicts are offered under (the report's own name with `.verdicts.json`)."""
    s = report.summary
    n_changes = sum(len(d.claims) for d in report.documents)
    field_rows = "".join(f"<tr><td><code>{_e(f)}</code></td><td>{n}</td></tr>" for f, n in s.fields.items())
    buttons = ['<button class="filter active" data-filter="all">all</button>'] + [
        f'<button class="filter" data-filter="{k}">{k} ({s.claims[k]})</button>' for k in CLAIM_KINDS]
    d = s.documents
    report_key = f"{report.old_label} -> {report.new_label}: {s.line}"   # verdicts are kept per report
    errors = "".join(f'<li class="error">{_e(e)}</li>' for e in report.errors)
    body = [
        "<header>",
        f"<h1>benchclaims diff: {_e(report.old_label)} → {_e(report.new_label)}</h1>",
        f'<div>{"".join(buttons)} <span id="filter-status" class="muted">'
        f"{n_changes} claim changes (filters need JavaScript)</span> · "
        '<span id="nav-status" class="muted"><kbd>j</kbd> / <kbd>k</kbd>: next / previous change</span></div>',
        '<div id="verdicts">verdicts: <span id="verdict-status" class="muted">kept in this browser</span> '
        '<button type="button" id="export-verdicts">export JSON</button>'
        f'<a id="download-verdicts" class="off" download="{_e(verdicts_file)}">save the JSON beside the report</a>'
        '<textarea id="verdicts-json" class="off" readonly></textarea></div>',
        '</header><div class="layout">',
        _doc_list(report) if report.documents else "",
        "<main>",
        f'<ul class="errors">{errors}</ul>' if errors else "",
        "" if report.has_differences() else '<p id="no-differences">No differences.</p>',
        *(_html_doc(doc, f"doc-{i}") for i, doc in enumerate(report.documents, 1)),
        '<details id="summary-box"><summary>summary: '
        f'+{s.claims["added"]} added, -{s.claims["removed"]} removed, ~{s.claims["changed"]} changed'
        "</summary>",
        f'<div>paste-ready: <code id="pr-summary">{_e(s.line)}</code></div>' if s.line else "",
        '<div class="summary" id="summary">'
        f'<span id="count-added">+{s.claims["added"]} added</span>'
        f'<span id="count-removed">-{s.claims["removed"]} removed</span>'
        f'<span id="count-changed">~{s.claims["changed"]} changed</span>'
        f'<span class="muted">{s.claims["unchanged"]} unchanged claims; documents: {d["compared"]} compared, '
        f'{d["changed"]} changed, {d["added"]} added, {d["removed"]} removed</span></div>',
        f'<table class="field-counts"><thead><tr><th>field changed</th><th>claims</th></tr></thead>{field_rows}</table>'
        if field_rows else "",
        "</details>",
        "</main></div>",
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>benchclaims diff</title><style>{CSS}</style></head>"
            f'<body data-report="{_e(report_key)}">'
            + "".join(body) + f"<script>{JS}</script></body></html>\n")


__all__ = ["highlight_pair", "render_html"]
