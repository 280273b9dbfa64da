"""The audit page of one post: one self-contained HTML file (no network fetch) that shows the post's
text with every claim marked in place, the way displaCy's span view marks spans, and the claims listed
headline first. Clicking a claim (in the list or in the text) shows its record: metric, value and unit,
each stated condition with a link that highlights the exact span it came from, each unrecoverable
condition with its where-note, and the post's caveats.

    html = render_audit_html(record, text)          # `text`: the document as decoded

Markup of an HTML post is shown blanked, as the extractor saw it (`ingest`'s view, same offsets);
Markdown and plain text are shown as written. Output is deterministic: same record and text, same bytes.
"""
from __future__ import annotations

import html
import json
import re
from bisect import bisect_left
from dataclasses import dataclass, field

from extractor.audit.checklist import LABELS, condition_text, figure_text
from extractor.records import CONDITIONS, Claim, DocumentRecord

_BLANK_LINES = re.compile(r"\n[ \t\r\f\v]*(?:\n[ \t\r\f\v]*)+")
_BLANKS = re.compile(r"[ \t\r\f\v]{2,}")


@dataclass
class Segment:
    """A run of text covered by the same claims and condition spans."""

    start: int
    end: int
    claims: list[int] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)   # "c{claim}-{condition}" and "n{note}" of spans over it


def claim_order(claims: list[Claim]) -> list[int]:
    """Claim indexes, headline claims first, each group in text order."""
    return sorted(range(len(claims)), key=lambda i: (not claims[i].headline, i))


def _spans(record: DocumentRecord) -> list[tuple[int, int, str]]:
    """(start, end, key) of every span the page marks: claims ("#i"), conditions, notes."""
    out: list[tuple[int, int, str]] = []
    for i, c in enumerate(record.claims):
        out.append((c.span[0], c.span[1], f"#{i}"))
        for name, cond in c.conditions.items():
            if cond.status == "stated" and cond.span and cond.span[1] > cond.span[0]:
                out.append((cond.span[0], cond.span[1], f"c{i}-{name}"))
    for j, note in enumerate(record.caveats):
        if note.span and note.span[1] > note.span[0]:
            out.append((note.span[0], note.span[1], f"n{j}"))
    return out


def segments(record: DocumentRecord, length: int) -> list[Segment]:
    """The text [0, length) cut at every span boundary, each piece with the spans that cover it."""
    spans = [(max(0, s), min(length, e), k) for s, e, k in _spans(record) if s < length]
    cuts = sorted({0, length} | {s for s, _, _ in spans} | {e for _, e, _ in spans})
    segs = [Segment(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]
    starts = [s.start for s in segs]
    for s, e, key in sorted(spans, key=lambda t: (t[0], t[1], t[2])):
        for seg in segs[bisect_left(starts, s):bisect_left(starts, e)]:
            if key.startswith("#"):
                seg.claims.append(int(key[1:]))
            else:
                seg.keys.append(key)
    return segs


def _display(piece: str, squash: bool) -> str:
    if not squash:
        return piece
    return _BLANKS.sub(" ", _BLANK_LINES.sub("\n\n", piece))


def _text_html(record: DocumentRecord, shown: str, squash: bool) -> str:
    out = []
    ends = {record.claims[i].span[1]: i for i in range(len(record.claims))}
    for seg in segments(record, len(shown)):
        piece = html.escape(_display(shown[seg.start:seg.end], squash))
        attrs = []
        if seg.claims:
            attrs.append(f'data-c="{" ".join(map(str, seg.claims))}"')
        if seg.keys:
            attrs.append(f'data-k="{" ".join(seg.keys)}"')
        cls = "seg claim" if seg.claims else "seg"
        out.append(f'<span class="{cls}" {" ".join(attrs)}>{piece}</span>' if attrs else piece)
        last = ends.get(seg.end)
        if last is not None and last in seg.claims:
            label = record.claims[last].metric.replace("_", " ").upper()
            out.append(f'<span class="label" data-claim="{last}">{html.escape(label)}</span>')
    return "".join(out)


def _claim_data(c: Claim, i: int) -> dict:
    conds = []
    for name in CONDITIONS:
        cond = c.conditions.get(name)
        if cond is None:
            continue
        conds.append({
            "name": name, "label": LABELS.get(name, name), "status": cond.status,
            "key": f"c{i}-{name}" if cond.status == "stated" and cond.span and cond.span[1] > cond.span[0] else None,
            "text": condition_text(cond) if cond.status == "stated" else None,
            "quote": cond.quote, "span": list(cond.span) if cond.span else None, "scope": cond.scope,
            "note": cond.note, "where": cond.where, "why": cond.why, "partial": cond.value_partial})
    return {"index": i, "id": c.id, "metric": c.metric, "figure": figure_text(c), "value": c.value,
            "value_max": c.value_max, "unit": c.unit, "qualifier": c.qualifier, "tokens": c.tokens,
            "per": c.per, "baseline": c.baseline, "headline": c.headline, "quote": c.quote,
            "span": list(c.span), "section": " > ".join(c.context.section), "block": c.context.block,
            "conditions": conds}


def page_data(record: DocumentRecord) -> dict:
    """What the page's script reads: each claim's record and the post's caveats."""
    return {"claims": [_claim_data(c, i) for i, c in enumerate(record.claims)],
            "caveats": [{"kind": n.kind, "message": n.message, "quote": n.quote,
                         "key": f"n{j}" if n.span and n.span[1] > n.span[0] else None}
                        for j, n in enumerate(record.caveats)]}


def _list_html(record: DocumentRecord) -> str:
    items = []
    for i in claim_order(record.claims):
        c = record.claims[i]
        badge = '<span class="badge">headline</span> ' if c.headline else ""
        items.append(f'<li><button type="button" class="claim-item" data-claim="{i}">{badge}'
                     f'<b>{html.escape(c.metric)}</b> {html.escape(figure_text(c))}'
                     f'<span class="q">{html.escape(c.quote)}</span></button></li>')
    return "\n".join(items)


def render_audit_html(record: DocumentRecord, text: str, view: str | None = None,
                      selected: int | None = None) -> str:
    """The audit page of `record`. `text` is the document as decoded; `view`, when given (HTML posts),
    is the same-length masked view shown in its place. `selected`: the index of the claim the page
    opens with (`audit --claim`); a `#claim=N` fragment in the URL still takes precedence."""
    shown = view if view is not None and len(view) == len(text) else text
    n = len(record.claims)
    heads = sum(c.headline for c in record.claims)
    data = json.dumps(page_data(record), ensure_ascii=False, sort_keys=True).replace("</", "<\\/")
    title = record.title or record.doc
    meta = " · ".join(x for x in (record.doc, record.date and f"dated {record.date}",
                                   record.authorship and f"authorship: {record.authorship}") if x)
    parts = {"TITLE": html.escape(title), "META": html.escape(meta),
             "COUNT": f"{n} claim{'s' if n != 1 else ''}" + (f", {heads} headline" if heads else ""),
             "LIST": _list_html(record) or "<li>No performance claim found.</li>",
             "ASIDE": _set_aside_html(record),
             "TEXT": _text_html(record, shown, squash=shown is not text), "DATA": data,
             "SELECTED": "" if selected is None else f' data-selected="{int(selected)}"'}
    return _SLOT.sub(lambda m: parts[m.group(1)], _TEMPLATE)  # one pass: the post's text is never re-read


_SLOT = re.compile(r"%(TITLE|META|COUNT|LIST|ASIDE|TEXT|DATA|SELECTED)%")


def _set_aside_html(record: DocumentRecord) -> str:
    """The set-aside figures, apart from the claims: each quote with its reason and rule (in text order)."""
    if not record.set_aside:
        return ""
    items = "".join(f'<li><span class="reason">{html.escape(a.reason)}</span> '
                    f'<span class="q">{html.escape(" ".join(a.quote.split()))}</span> '
                    f'<span class="rule">{html.escape(a.rule)} @{a.span[0]}</span></li>' for a in record.set_aside)
    return (f'<details id="set-aside"><summary><h2>Set aside ({len(record.set_aside)})</h2></summary>'
            f'<p class="rule">Figures with a performance unit that are not claims, and why.</p><ul>{items}</ul></details>')


_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>Audit: %TITLE%</title>
<style>
body{margin:0;font:14px/1.45 system-ui,sans-serif;color:#222;display:grid;grid-template-columns:minmax(0,1fr) 30rem;height:100vh}
header{grid-column:1/3;padding:.5rem 1rem;border-bottom:1px solid #ddd;background:#fafafa}
header h1{font-size:1.1rem;margin:0}header p{margin:.1rem 0;color:#555}
#text{overflow:auto;padding:1rem 1.5rem;white-space:pre-wrap;font:13px/1.9 ui-monospace,monospace}
aside{overflow:auto;border-left:1px solid #ddd;padding:.5rem 1rem}
.seg.claim{background:#ffe8a3;border-radius:3px;cursor:pointer;padding:1px 0}
.seg.claim.sel{background:#ffb347;outline:2px solid #d9822b}
.label{font:bold 9px system-ui,sans-serif;background:#d9822b;color:#fff;border-radius:3px;padding:1px 4px;margin:0 2px;vertical-align:middle;cursor:pointer}
.seg.cond-hl{background:#c9e7ff;border-bottom:2px solid #2b7bd9}
.seg.focus{background:#7fc0ff;outline:2px solid #1158a8}
.seg.note-hl{background:#f3d1f4}
#claims{list-style:none;padding:0;margin:.3rem 0;max-height:38vh;overflow:auto}
.claim-item{display:block;width:100%;text-align:left;border:1px solid #ddd;background:#fff;border-radius:4px;padding:.3rem .5rem;margin:.15rem 0;cursor:pointer;font:inherit}
.claim-item.sel{border-color:#d9822b;background:#fff4e0}
.claim-item .q{display:block;color:#666;font-size:12px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.badge{background:#d9822b;color:#fff;border-radius:3px;padding:0 4px;font-size:11px}
table{border-collapse:collapse;width:100%;font-size:12.5px}td,th{border-top:1px solid #eee;padding:.2rem .3rem;vertical-align:top;text-align:left}
.stated{color:#1a6b2a}.unrecoverable{color:#a33}
a.span-link{color:#1158a8;cursor:pointer}
#set-aside summary h2{display:inline;font-size:1em}#set-aside ul{list-style:none;padding:0;font-size:12.5px;color:#555}
#set-aside .reason{background:#e4e4e4;border-radius:3px;padding:0 4px}#set-aside .rule{color:#999;font-size:11px}
</style></head>
<body%SELECTED%>
<header><h1>%TITLE%</h1><p>%META%</p><p id="claim-count">%COUNT%</p></header>
<main id="text">%TEXT%</main>
<aside>
<h2>Claims</h2>
<ol id="claims">%LIST%</ol>
<section id="record"><p>Click a claim to see its record.</p></section>
%ASIDE%
<section id="caveats"></section>
</aside>
<script type="application/json" id="record-data">%DATA%</script>
<script>
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("record-data").textContent);
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function clear(cls) {
    document.querySelectorAll("." + cls).forEach(function (x) { x.classList.remove(cls); });
  }
  function mark(key, cls) {
    var found = document.querySelectorAll('#text [data-k~="' + key + '"]');
    found.forEach(function (x) { x.classList.add(cls); });
    return found;
  }
  function spanLink(key, cls, label) {
    var a = el("a", {"class": "span-link", "data-key": key, "href": "#"}, label);
    a.addEventListener("click", function (ev) {
      ev.preventDefault(); clear("focus");
      var found = mark(key, cls);
      if (found.length) found[0].scrollIntoView({block: "center"});
    });
    return a;
  }
  function row(table, cells) {
    var tr = el("tr");
    cells.forEach(function (c) { var td = el("td"); if (c instanceof Node) td.appendChild(c); else td.textContent = c || ""; tr.appendChild(td); });
    table.appendChild(tr);
  }
  function select(i) {
    var c = data.claims[i];
    ["sel", "cond-hl", "focus"].forEach(clear);
    document.querySelectorAll('#text .seg[data-c~="' + i + '"]').forEach(function (x) { x.classList.add("sel"); });
    var item = document.querySelector('#claims [data-claim="' + i + '"]');
    if (item) item.classList.add("sel");
    var box = document.getElementById("record");
    box.textContent = "";
    box.setAttribute("data-claim", i);
    box.appendChild(el("h2", {}, (c.headline ? "Headline claim: " : "Claim: ") + c.metric));
    var t = el("table", {"class": "fields"});
    row(t, ["value", c.figure]); row(t, ["unit", c.unit]); row(t, ["qualifier", c.qualifier]);
    if (c.tokens) row(t, ["tokens", c.tokens]);
    if (c.per) row(t, ["per", c.per]);
    if (c.baseline) row(t, ["baseline", c.baseline]);
    row(t, ["quote", "\\u201c" + c.quote + "\\u201d [" + c.span[0] + ", " + c.span[1] + ")"]);
    if (c.section) row(t, ["section", c.section]);
    box.appendChild(t);
    box.appendChild(el("h3", {}, "Conditions"));
    var ct = el("table", {"id": "conditions"});
    var stated = 0;
    c.conditions.forEach(function (k) {
      var what;
      if (k.status === "stated") {
        stated += 1;
        what = el("span");
        what.appendChild(document.createTextNode(k.text + (k.scope ? " (" + k.scope + ") " : " ")));
        if (k.key) { mark(k.key, "cond-hl"); what.appendChild(spanLink(k.key, "focus", "\\u201c" + k.quote + "\\u201d")); }
        if (k.note) what.appendChild(el("div", {}, k.note));
      } else {
        what = el("span", {}, "where: " + (k.where || "") + (k.why ? " (why: " + k.why + ")" : "") +
                  (k.partial ? " [the text gives: " + k.partial + "]" : ""));
      }
      var tr = el("tr", {"class": "cond " + k.status, "data-name": k.name});
      tr.appendChild(el("th", {}, k.label)); tr.appendChild(el("td", {"class": k.status}, k.status));
      var td = el("td"); td.appendChild(what); tr.appendChild(td); ct.appendChild(tr);
    });
    box.appendChild(el("p", {"id": "stated-count"}, stated + " of " + c.conditions.length + " conditions stated"));
    box.appendChild(ct);
    var first = document.querySelector('#text .seg[data-c~="' + i + '"]');
    if (first) first.scrollIntoView({block: "center"});
  }
  var cav = document.getElementById("caveats");
  cav.appendChild(el("h2", {}, "Caveats (" + data.caveats.length + ")"));
  var ul = el("ul");
  data.caveats.forEach(function (n) {
    var li = el("li", {}, n.kind + ": " + n.message + " ");
    if (n.key) li.appendChild(spanLink(n.key, "note-hl", "\\u201c" + n.quote + "\\u201d"));
    ul.appendChild(li);
  });
  cav.appendChild(ul);
  document.querySelectorAll("[data-claim]").forEach(function (x) {
    if (x.id === "record") return;
    x.addEventListener("click", function () { select(+x.getAttribute("data-claim")); });
  });
  document.querySelectorAll("#text .seg.claim").forEach(function (x) {
    x.addEventListener("click", function () { select(+x.getAttribute("data-c").split(" ")[0]); });
  });
  var m = /^#claim=(\\d+)$/.exec(location.hash);
  var chosen = m ? m[1] : document.body.getAttribute("data-selected");
  if (chosen !== null) { var b = document.querySelector('#claims [data-claim="' + chosen + '"]'); if (b) b.click(); }
  document.body.setAttribute("data-js", "ready");
})();
</script>
</body></html>
"""
