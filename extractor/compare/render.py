"""A comparison, or the comparable groups of a corpus, as text, Markdown or JSON."""
from __future__ import annotations

import json
from typing import Literal

from extractor.compare.groups import Groups
from extractor.compare.model import ClaimRef, Comparison

Format = Literal["text", "markdown", "json"]
MARK = {"same": "same", "differs": "DIFFERS", "unknown": "unknown"}


def _num(v: float | None) -> str:
    return "-" if v is None else f"{v:,.6g}" if abs(v) < 1e6 else f"{v:,.0f}"


def _values(c: Comparison) -> list[tuple[str, str, str]]:
    """(label, A, B) of the figure lines."""
    out = [("claim", c.a.id, c.b.id), ("post", c.a.doc, c.b.doc),
           ("metric", c.a.metric, c.b.metric), ("value", c.a.figure, c.b.figure)]
    if c.unit is not None and (c.conversion or c.b.unit != c.unit):
        hi = f"-{_num(c.b_value_max)}" if c.b_value_max is not None else ""
        out.append((f"in {c.unit}", _num(c.a_value), f"{_num(c.b_value)}{hi}"))
    out.append(("quote", c.a.quote.replace("\n", " "), c.b.quote.replace("\n", " ")))
    return out


def _noted(c: Comparison) -> list:
    """The rows whose note is shown: those deciding the verdict, and a conversion of what is counted per."""
    return [r for r in c.rows if r.note and (r.blocks or r.name == "per")]


def _footer(c: Comparison) -> list[str]:
    lines = []
    if c.conversion:
        lines.append(f"converted: {c.conversion}")
    if c.ratio is not None and c.a.metric == c.b.metric:
        lines.append(f"A / B = {c.ratio:.3g} (in {c.unit})")
    for side, s in (("A", c.a), ("B", c.b)):
        lines += [f"caveat {side}: {text}" for text in s.caveats]
    return lines


def comparison_text(c: Comparison) -> str:
    """Aligned columns: the figures, one row per condition, the notes of unknown rows, the verdict."""
    table = [(label, a, b, "") for label, a, b in _values(c)]
    table += [(r.name, r.a or "-", r.b or "-", MARK[r.status] + " *" if r.blocks else r.status) for r in c.rows]
    w0 = max(len(t[0]) for t in table)
    w1 = min(40, max(len(t[1]) for t in table))
    w2 = min(40, max(len(t[2]) for t in table))
    lines = [f"{'':<{w0}}  {'A':<{w1}}  {'B':<{w2}}"]
    for label, a, b, mark in table:
        a, b = (a if len(a) <= 40 else a[:39] + "…"), (b if len(b) <= 40 else b[:39] + "…")
        lines.append(f"{label:<{w0}}  {a:<{w1}}  {b:<{w2}}  {mark}".rstrip())
    notes = [f"  {r.name}: {r.note}" for r in _noted(c)]
    if notes:
        lines += ["", "where to look (unknown) and notes:"] + notes
    foot = _footer(c)
    if foot:
        lines += [""] + foot
    lines += ["", f"verdict: {c.verdict_line}"]
    if any(r.blocks for r in c.rows):
        lines.append("(* decides the verdict, see rules/compare.yaml)")
    return "\n".join(lines) + "\n"


def _md(s: str | None) -> str:
    return (s or "-").replace("|", "\\|").replace("\n", " ")


def comparison_markdown(c: Comparison) -> str:
    """A Markdown table with the verdict as a heading line."""
    lines = [f"**Verdict: {c.verdict_line}**", "", "| | A | B | |", "|---|---|---|---|"]
    lines += [f"| {label} | {_md(a)} | {_md(b)} | |" for label, a, b in _values(c)]
    lines += [f"| {r.name} | {_md(r.a)} | {_md(r.b)} | {'**' + MARK[r.status] + '**' if r.blocks else r.status} |"
              for r in c.rows]
    notes = [f"- `{r.name}`: {_md(r.note)}" for r in _noted(c)]
    if notes:
        lines += ["", "Where to look, and notes:", ""] + notes
    foot = _footer(c)
    if foot:
        lines += [""] + [f"- {x}" for x in foot]
    return "\n".join(lines) + "\n"


def comparison_json(c: Comparison) -> str:
    data = c.model_dump(mode="json")
    data["verdict_line"] = c.verdict_line
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def render_comparison(c: Comparison, fmt: Format) -> str:
    return {"text": comparison_text, "markdown": comparison_markdown, "json": comparison_json}[fmt](c)


def _label(r: ClaimRef) -> str:
    c = r.claim
    hi = f"-{c.value_max:g}" if c.value_max is not None else ""
    return f"{c.id} {c.value:g}{hi} {c.unit} ({r.doc})"


def _cond(r: ClaimRef, name: str) -> str:
    k = r.claim.conditions.get(name)
    if k is None or k.status != "stated":
        return "?"
    return k.canonical or (k.value if isinstance(k.value, str) else json.dumps(k.value))


SUMMARY = ("model", "hardware", "batch_or_concurrency", "input_length", "output_length", "precision")


def groups_text(g: Groups, fmt: Format = "text") -> str:
    """The groups (what they share, then each claim) and the near-miss pairs, as text or Markdown."""
    md = fmt == "markdown"
    lines = [f"{'## ' if md else ''}{len(g.groups)} comparable group{'s' * (len(g.groups) != 1)}"]
    for n, group in enumerate(g.groups, 1):
        shared = ", ".join(f"{name}={_cond(group[0], name)}" for name in SUMMARY)
        lines += ["", f"{'### ' if md else ''}group {n}: {group[0].claim.metric}, {len(group)} claims ({shared})"]
        lines += [f"{'- ' if md else '  '}{_label(r)}: {r.claim.quote!r}" for r in group]
    lines += ["", f"{'## ' if md else ''}{len(g.near_misses)} near-miss pair{'s' * (len(g.near_misses) != 1)} "
              "(one condition apart)"]
    for m in g.near_misses:
        r = m.row
        lines.append(f"{'- ' if md else '  '}{_label(m.a)}  vs  {_label(m.b)}: {r.name} {r.status} "
                     f"({r.a or '-'} / {r.b or '-'})")
    return "\n".join(lines) + "\n"


def groups_json(g: Groups) -> str:
    def ref(r: ClaimRef) -> dict:
        c = r.claim
        return {"id": c.id, "doc": r.doc, "path": r.path, "metric": c.metric, "value": c.value,
                "value_max": c.value_max, "unit": c.unit, "quote": c.quote}

    data = {"groups": [[ref(r) for r in group] for group in g.groups],
            "near_misses": [{"a": ref(m.a), "b": ref(m.b), "condition": m.row.name, "status": m.row.status,
                             "a_value": m.row.a, "b_value": m.row.b, "note": m.row.note} for m in g.near_misses]}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def render_groups(g: Groups, fmt: Format) -> str:
    return groups_json(g) if fmt == "json" else groups_text(g, fmt)
