"""Render a `DiffReport`: terminal text (ANSI colour optional) and JSON; HTML is in `render_html`."""
from __future__ import annotations

import json
import os
import sys
from typing import TextIO

from extractor.review.diff import CLAIM_KINDS, ClaimDiff, DiffReport, DocDiff
from extractor.review.excerpts import clip
from extractor.review.labels import MARK, claim_label, clip_line, doc_tags, group_label, shown_value
from extractor.review.render_html import render_html
from extractor.review.set_aside_diff import change_line
from extractor.review.views import ContextGroup, Excerpt

ANSI = {"added": "\x1b[32m", "removed": "\x1b[31m", "changed": "\x1b[33m", "bold": "\x1b[1m",
        "dim": "\x1b[2m", "reset": "\x1b[0m"}


def use_color(stream: TextIO | None = None) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (to anything non-empty)."""
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR"):
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


# --- text ---------------------------------------------------------------------------------


def render_text(report: DiffReport, color: bool = False) -> str:
    """The reviewer's terminal summary: totals, per-field counts, then each document's changes in context."""
    def paint(kind: str, s: str) -> str:
        return f"{ANSI[kind]}{s}{ANSI['reset']}" if color else s

    s, out = report.summary, []
    out.append(paint("bold", f"diff {report.old_label} -> {report.new_label}"))
    if s.line:
        out.append(f"summary:   {s.line}")
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
    tags = doc_tags(doc)
    counts = ", ".join(f"{MARK[k]}{doc.counts.get(k, 0)}" for k in CLAIM_KINDS)
    out = [paint("bold", head) + (f" [{'; '.join(tags)}]" if tags else "") + f"  claims {counts}"]
    if doc.context_note:
        out.append(f"  (context: {doc.context_note})")
    if doc.audit:
        out.append(f"  audit page: {doc.audit}")
    for f in doc.fields:
        out.append(f"  * {f.field}: {shown_value(f.old)} -> {shown_value(f.new)}")
    for a in doc.set_aside:
        out.append(paint(a.kind, f"  {MARK[a.kind]} set aside: {change_line(a)}"))
    if not doc.groups:          # no context attached (e.g. records compared in a test): a flat list
        for cd in doc.claims:
            out += _text_claim(cd, paint, "  ")
        return out
    for g in doc.groups:
        out += _text_group(doc, g, paint)
    return out


def marked(text: str, marks: list[tuple[int, int, str]], wrap) -> str:
    """`text` with each (start, end, kind) span passed through `wrap(kind, piece)`; overlaps are merged."""
    out, pos = [], 0
    for start, end, kind in sorted(marks):
        start = max(start, pos)
        if end <= start:
            continue
        out += [text[pos:start], wrap(kind, text[start:end])]
        pos = end
    return "".join(out) + text[pos:]


def _section(path: list[str]) -> str:
    return " > ".join(path) if path else "(top of the post)"


def _text_group(doc: DocDiff, g: ContextGroup, paint) -> list[str]:
    where = f"{group_label(g.kind, g.block)} in {_section(g.section)}"
    if g.source == "record":
        where += " (from the record)"
    out = [f"  -- {where}" + (f', caption "{clip_line(g.caption, 80)}"' if g.caption else "")]
    wrap = lambda kind, piece: paint(kind, f"«{piece}»")   # noqa: E731
    if g.kind == "sentence" and g.text is not None:
        out.append("     > " + marked(g.text, [(m.start, m.end, m.kind) for m in g.marks], wrap))
    elif g.kind == "table" and g.columns:
        out.append("     | " + " | ".join(clip_line(c, 28) for c in g.columns) + " |")
        for row in g.rows:
            kinds = {m.col: m.kind for m in row.marks}
            cells = [wrap(kinds[i], clip_line(c, 28)) if i in kinds else clip_line(c, 28) for i, c in enumerate(row.cells)]
            out.append("     | " + " | ".join(cells) + " |")
        if g.row_count is not None and g.row_count > len(g.rows):
            out.append(f"     ({len(g.rows)} of {g.row_count} rows shown)")
    for k in g.claims:
        out += _text_claim(doc.claims[k], paint, "    ", in_group=g)
    return out


def _cell_place(e: Excerpt | None) -> str:
    if e is None or not (e.row_header or e.column_header):
        return ""
    parts = [f'row "{clip_line(e.row_header, 40)}"' if e.row_header else "",
             f'column "{clip_line(e.column_header, 40)}"' if e.column_header else ""]
    return "  " + " x ".join(p for p in parts if p)


def _excerpt_line(e: Excerpt, paint, kind: str) -> str:
    text, mark = clip(" ".join(e.text.split()) if e.source == "record" else e.text, e.mark, 200)
    body = marked(text, [(mark[0], mark[1], kind)], lambda k, p: paint(k, f"«{p}»"))
    where = _section(e.section) + (f", row {e.row_header!r}" if e.row_header else "") + (
        f", column {e.column_header!r}" if e.column_header else "")
    return f"{body}  [{where}]"


def _text_claim(cd: ClaimDiff, paint, indent: str, in_group: ContextGroup | None = None) -> list[str]:
    claim = cd.claim
    pos = f"#{(cd.new_index if cd.kind == 'added' else cd.old_index)}"
    here = cd.new_context if cd.new is not None else cd.old_context
    place = _cell_place(here) if in_group is not None else ""
    if cd.kind != "changed":
        return [paint(cd.kind, f"{indent}{MARK[cd.kind]} {pos} {claim_label(claim)}{place}  \"{clip_line(claim.quote)}\"")]
    assert cd.new is not None and cd.old is not None
    moved = f" -> #{cd.new_index}" if cd.new_index != cd.old_index else ""
    out = [paint("changed", f"{indent}~ {pos}{moved} {claim_label(cd.old)}{place}  \"{clip_line(cd.old.quote)}\"")]
    if (cd.old_context is not None and cd.new_context is not None and cd.old_context.source == "document"
            and (cd.old_context.text, cd.old_context.section) != (cd.new_context.text, cd.new_context.section)):
        out.append(f"{indent}    was in: {_excerpt_line(cd.old_context, paint, 'removed')}")
    by_cond = {c.name: c for c in cd.conditions}
    shown: set[str] = set()
    for f in cd.fields:
        out.append(f"{indent}    {f.field}: {shown_value(f.old)} -> {shown_value(f.new)}")
        name = f.field.split(".")[1] if f.field.startswith("conditions.") else None
        if name in by_cond and name not in shown:
            shown.add(name)
            for side, cs in (("old", by_cond[name].old), ("new", by_cond[name].new)):
                if cs is not None and cs.context is not None:
                    kind = "removed" if side == "old" else "added"
                    out.append(f"{indent}      {side}: {_excerpt_line(cs.context, paint, kind)}")
    return out


# --- json ---------------------------------------------------------------------------------


def render_json(report: DiffReport) -> str:
    """Machine-readable report: model field order, sorted dict keys, trailing newline."""
    return json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def render(report: DiffReport, fmt: str, color: bool = False) -> str:
    """Dispatch on format name: text, json or html."""
    if fmt == "text":
        return render_text(report, color=color)
    if fmt == "json":
        return render_json(report)
    if fmt == "html":
        return render_html(report)
    raise ValueError(f"unknown format {fmt!r}; expected text, json or html")
