"""Render a `DiffReport`: terminal text (ANSI colour optional), JSON, self-contained HTML."""
from __future__ import annotations

import html
import json
import os
import sys
from typing import Any, TextIO

from rapidfuzz.distance import Levenshtein

from extractor.review.diff import CLAIM_KINDS, ClaimDiff, DiffReport, DocDiff
from extractor.records import Claim

ANSI = {"added": "\x1b[32m", "removed": "\x1b[31m", "changed": "\x1b[33m", "bold": "\x1b[1m",
        "dim": "\x1b[2m", "reset": "\x1b[0m"}
MARK = {"added": "+", "removed": "-", "changed": "~"}


def use_color(stream: TextIO | None = None) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (to anything non-empty)."""
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR"):
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def _fmt(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _clip(text: str, width: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def claim_label(c: Claim) -> str:
    """`metric value[-max] unit [qualifier]` for one claim."""
    val = _fmt(c.value) + (f"-{_fmt(c.value_max)}" if c.value_max is not None else "")
    qual = "" if c.qualifier == "exact" else f" ({c.qualifier})"
    return f"{c.metric} {val} {c.unit}{qual}"


# --- text ---------------------------------------------------------------------------------


def render_text(report: DiffReport, color: bool = False) -> str:
    """The reviewer's terminal summary: totals, per-field counts, then each document's changes."""
    def paint(kind: str, s: str) -> str:
        return f"{ANSI[kind]}{s}{ANSI['reset']}" if color else s

    s, out = report.summary, []
    out.append(paint("bold", f"diff {report.old_label} -> {report.new_label}"))
    d, c = s.documents, s.claims
    out.append(f"documents: {d['compared']} compared, {d['changed']} changed, {d['added']} added, "
               f"{d['removed']} removed, {d.get('unchanged', 0)} unchanged"
               + (f" ({d['hash_changed']} with changed content hash)" if d["hash_changed"] else ""))
    out.append("claims:    " + ", ".join(paint(k, f"{MARK[k]}{c[k]} {k}") for k in CLAIM_KINDS)
               + f", {c['unchanged']} unchanged")
    if s.fields:
        out.append("fields changed:")
        width = max(len(f) for f in s.fields)
        out += [f"  {f.ljust(width)}  {n}" for f, n in s.fields.items()]
    for e in report.errors:
        out.append(paint("removed", f"error: {e}"))
    if not report.has_differences() and not report.errors:
        out.append("no differences")
    for doc in report.documents:
        out.append("")
        out += _text_doc(doc, paint)
    return "\n".join(out) + "\n"


def _text_doc(doc: DocDiff, paint) -> list[str]:
    head = f"== {doc.doc}" + (f" ({doc.path})" if doc.path and doc.path != doc.doc else "")
    tags = []
    if doc.status != "common":
        tags.append(f"document {doc.status}")
    if doc.renamed_from:
        tags.append(f"was {doc.renamed_from}")
    if doc.hash_changed:
        tags.append(f"content hash changed {(doc.old_sha256 or '')[:12]} -> {(doc.new_sha256 or '')[:12]}")
    counts = ", ".join(f"{MARK[k]}{doc.counts.get(k, 0)}" for k in CLAIM_KINDS)
    out = [paint("bold", head) + (f" [{'; '.join(tags)}]" if tags else "") + f"  claims {counts}"]
    for f in doc.fields:
        out.append(f"  * {f.field}: {_fmt(f.old)} -> {_fmt(f.new)}")
    for cd in doc.claims:
        out += _text_claim(cd, paint)
    return out


def _text_claim(cd: ClaimDiff, paint) -> list[str]:
    claim = cd.new if cd.kind == "added" else cd.old
    assert claim is not None
    pos = f"#{(cd.new_index if cd.kind == 'added' else cd.old_index)}"
    if cd.kind != "changed":
        return [paint(cd.kind, f"  {MARK[cd.kind]} {pos} {claim_label(claim)}  \"{_clip(claim.quote)}\"")]
    assert cd.new is not None
    moved = f" -> #{cd.new_index}" if cd.new_index != cd.old_index else ""
    out = [paint("changed", f"  ~ {pos}{moved} {claim_label(claim)}  \"{_clip(claim.quote)}\"")]
    for f in cd.fields:
        out.append(f"      {f.field}: {_fmt(f.old)} -> {_fmt(f.new)}")
    return out


# --- json ---------------------------------------------------------------------------------


def render_json(report: DiffReport) -> str:
    """Machine-readable report: model field order, sorted dict keys, trailing newline."""
    return json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False, sort_keys=False) + "\n"


# --- html ---------------------------------------------------------------------------------

CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
header{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;padding:10px 18px;z-index:1}
h1{font-size:18px;margin:0 0 6px}h2{font-size:15px;margin:0 0 6px}
main{padding:12px 18px}
.summary span{margin-right:14px}.muted{color:#777}
button.filter{border:1px solid #bbb;background:#f3f3f3;border-radius:14px;padding:3px 12px;margin-right:6px;cursor:pointer}
button.filter.active{background:#333;color:#fff;border-color:#333}
section.doc{background:#fff;border:1px solid #ddd;border-radius:6px;margin:12px 0;padding:10px 12px}
section.doc[hidden],tbody[hidden]{display:none}
table{border-collapse:collapse;width:100%;table-layout:fixed}
td,th{border-top:1px solid #eee;padding:6px 8px;vertical-align:top;text-align:left}
th.kind,td.kind{width:76px}
tbody.added td.kind{color:#12752b}tbody.removed td.kind{color:#b3261e}tbody.changed td.kind{color:#8a6100}
.label{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
blockquote{margin:4px 0;padding:2px 8px;border-left:3px solid #ccc;white-space:pre-wrap}
del.hl{background:#ffd7d5;text-decoration:line-through}ins.hl{background:#c8f2d0;text-decoration:none}
ul.fields{margin:4px 0 0;padding-left:18px;font-size:12.5px}
code{font-family:ui-monospace,Menlo,Consolas,monospace}
.summary table td{border:none;padding:1px 10px 1px 0}
"""

JS = """
(function(){
  var rows=[].slice.call(document.querySelectorAll('tbody.chg'));
  var docs=[].slice.call(document.querySelectorAll('section.doc'));
  var buttons=[].slice.call(document.querySelectorAll('button.filter'));
  var status=document.getElementById('filter-status');
  function apply(kind){
    var shown=0;
    rows.forEach(function(r){var ok=kind==='all'||r.getAttribute('data-kind')===kind;
      if(ok){r.removeAttribute('hidden');shown++;}else{r.setAttribute('hidden','');}});
    docs.forEach(function(s){var any=s.querySelectorAll('tbody.chg:not([hidden])').length>0;
      if(kind==='all'||any){s.removeAttribute('hidden');}else{s.setAttribute('hidden','');}});
    buttons.forEach(function(b){b.className='filter'+(b.getAttribute('data-filter')===kind?' active':'');});
    status.textContent='Showing '+shown+' of '+rows.length+' claim changes ('+kind+')';
    document.body.setAttribute('data-filter',kind);
  }
  buttons.forEach(function(b){b.addEventListener('click',function(){apply(b.getAttribute('data-filter'));});});
  var m=/only=(added|removed|changed)/.exec(location.hash);
  apply(m?m[1]:'all');
  document.body.setAttribute('data-js','ready');
})();
"""


def _e(s: Any) -> str:
    return html.escape(str(s), quote=True)


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


def _claim_cell(c: Claim | None, quote_html: str | None = None) -> str:
    if c is None:
        return '<td class="muted">—</td>'
    q = quote_html if quote_html is not None else _e(c.quote)
    return (f'<td><div class="label">{_e(claim_label(c))}</div>'
            f'<blockquote>{q}</blockquote><div class="muted">span {c.span[0]}–{c.span[1]}</div></td>')


def _html_claim(cd: ClaimDiff) -> str:
    oq = nq = None
    if cd.old is not None and cd.new is not None:
        oq, nq = highlight_pair(cd.old.quote, cd.new.quote)
    fields = ""
    if cd.fields:
        items = "".join(f"<li><code>{_e(f.field)}</code>: <del>{_e(_fmt(f.old))}</del> → "
                        f"<ins>{_e(_fmt(f.new))}</ins></li>" for f in cd.fields)
        fields = f'<ul class="fields">{items}</ul>'
    detail = f'<tr class="detail"><td></td><td colspan="2">{fields}</td></tr>' if fields else ""
    return (f'<tbody class="chg {cd.kind}" data-kind="{cd.kind}"><tr><td class="kind">{cd.kind}</td>'
            f"{_claim_cell(cd.old, oq)}{_claim_cell(cd.new, nq)}</tr>{detail}</tbody>")


def _html_doc(doc: DocDiff) -> str:
    tags = []
    if doc.status != "common":
        tags.append(f"document {doc.status}")
    if doc.renamed_from:
        tags.append(f"was {_e(doc.renamed_from)}")
    if doc.hash_changed:
        tags.append(f"content hash changed {_e((doc.old_sha256 or '')[:12])} → {_e((doc.new_sha256 or '')[:12])}")
    counts = " ".join(f'<span class="cnt-{k}">{MARK[k]}{doc.counts.get(k, 0)} {k}</span>' for k in CLAIM_KINDS)
    parts = [f'<section class="doc" data-doc="{_e(doc.doc)}"><h2>{_e(doc.doc)}</h2>',
             f'<div class="muted">{_e(doc.path or "")} {" · ".join(tags)}</div><div class="summary">{counts}</div>']
    if doc.fields:
        items = "".join(f"<li><code>{_e(f.field)}</code>: <del>{_e(_fmt(f.old))}</del> → "
                        f"<ins>{_e(_fmt(f.new))}</ins></li>" for f in doc.fields)
        parts.append(f'<ul class="fields doc-fields">{items}</ul>')
    if doc.claims:
        parts.append('<table><thead><tr><th class="kind">change</th><th>old</th><th>new</th></tr></thead>')
        parts += [_html_claim(cd) for cd in doc.claims]
        parts.append("</table>")
    parts.append("</section>")
    return "".join(parts)


def render_html(report: DiffReport) -> str:
    """A single self-contained HTML page (inline CSS and JS, no external assets)."""
    s = report.summary
    n_changes = sum(len(d.claims) for d in report.documents)
    field_rows = "".join(f"<tr><td><code>{_e(f)}</code></td><td>{n}</td></tr>" for f, n in s.fields.items())
    buttons = ['<button class="filter active" data-filter="all">all</button>'] + [
        f'<button class="filter" data-filter="{k}">{k} ({s.claims[k]})</button>' for k in CLAIM_KINDS]
    d = s.documents
    errors = "".join(f'<li class="error">{_e(e)}</li>' for e in report.errors)
    body = [
        "<header>",
        f"<h1>benchclaims diff: {_e(report.old_label)} → {_e(report.new_label)}</h1>",
        '<div class="summary" id="summary">'
        f'<span id="count-added">+{s.claims["added"]} added</span>'
        f'<span id="count-removed">-{s.claims["removed"]} removed</span>'
        f'<span id="count-changed">~{s.claims["changed"]} changed</span>'
        f'<span class="muted">{s.claims["unchanged"]} unchanged claims; documents: {d["compared"]} compared, '
        f'{d["changed"]} changed, {d["added"]} added, {d["removed"]} removed</span></div>',
        f'<div>{"".join(buttons)} <span id="filter-status" class="muted">'
        f"{n_changes} claim changes (filters need JavaScript)</span></div>",
        "</header><main>",
        f'<ul class="errors">{errors}</ul>' if errors else "",
        f'<details open><summary>fields changed</summary><table class="field-counts">{field_rows}</table></details>'
        if field_rows else "",
        "" if report.has_differences() else '<p id="no-differences">No differences.</p>',
        *(_html_doc(doc) for doc in report.documents),
        "</main>",
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>benchclaims diff</title><style>{CSS}</style></head><body>"
            + "".join(body) + f"<script>{JS}</script></body></html>\n")


def render(report: DiffReport, fmt: str, color: bool = False) -> str:
    """Dispatch on format name: text, json or html."""
    if fmt == "text":
        return render_text(report, color=color)
    if fmt == "json":
        return render_json(report)
    if fmt == "html":
        return render_html(report)
    raise ValueError(f"unknown format {fmt!r}; expected text, json or html")
