"""The HTML diff report rendered in headless Chromium: changes show in context, highlights, filters,
folding and j/k navigation work."""
from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path

import pytest

from browser import chromium, dump_dom
from extractor.audit import render_audit_html
from extractor.records import Claim, ClaimContext, Condition, DocumentRecord
from extractor.review.context import attach_context
from extractor.review.diff import diff_records
from extractor.review.excerpts import TextLibrary
from extractor.review.links import link_audit_pages
from extractor.review.render_html import render_html


def claim(metric, value, quote, start, unit="token / second", **kw):
    return Claim(metric=metric, value=value, unit=unit, quote=quote, span=(start, start + len(quote)), **kw)


def report_file(tmp_path: Path) -> Path:
    def rec(claims):
        return DocumentRecord(doc="gpu-post.md", path="posts/gpu-post.md", sha256="0" * 64,
                              extractor_version="0.1", rules_version="r", claims=claims)

    old = rec([claim("throughput", 5400, "aggregate throughput hit 5,400 tokens/s", 20,
                     conditions={"warmup": Condition(status="stated", value="3 warm-up runs")}),
               claim("ttft", 310, "P50 TTFT rose to 310 ms", 400, unit="millisecond")])
    new = rec([claim("throughput", 5900, "aggregate throughput hit 5,900 tokens/s", 20,
                     conditions={"warmup": Condition(status="unrecoverable", where="harness config")}),
               claim("memory", 18, "KV cache used 18 GiB", 700, unit="gibibyte")])
    path = tmp_path / "report.html"
    path.write_text(render_html(diff_records([old], [new])), encoding="utf-8")
    return path


def test_report_renders_changes_in_chromium(tmp_path):
    dom = dump_dom(report_file(tmp_path).as_uri(), tmp_path)
    assert re.search(r'<body[^>]*data-js="ready"', dom), "page script did not run"
    assert "Showing 3 of 3 claim changes (all)" in dom
    assert 'id="count-added">+1 added' in dom and 'id="count-changed">~1 changed' in dom
    assert '5,<del class="hl">4</del>00' in dom and '5,<ins class="hl">9</ins>00' in dom
    assert "conditions.warmup.status" in dom and "KV cache used 18 GiB" in dom
    assert " hidden" not in re.sub(r"<script>.*?</script>", "", dom, flags=re.S)


def test_filter_script_hides_other_kinds(tmp_path):
    dom = dump_dom(report_file(tmp_path).as_uri() + "#only=removed", tmp_path)
    assert "Showing 1 of 3 claim changes (removed)" in dom
    bodies = re.findall(r'<tbody class="chg (\w+)" data-kind="\w+" id="[^"]+" data-key="[^"]*"( hidden="")?>', dom)
    assert sorted(bodies) == [("added", ' hidden=""'), ("changed", ' hidden=""'), ("removed", "")]
    assert re.search(r'<button class="filter active" data-filter="removed">', dom)


# --- context, folding and keyboard navigation ---------------------------------------------

POST = """# Serving report

## Results

The median TTFT was 90 ms and the p99 TTFT was 210 ms at 32 users.

| Model | TTFT (ms) | Output tok/s |
|---|---|---|
| Model A | 75 | 1,900 |
| Model B | 130 | 1,250 |
"""


def context_report_file(tmp_path: Path) -> Path:
    """A report whose claims sit in a real post: two in one sentence (removed), two cells of one table (one
    removed, one changed)."""
    post = tmp_path / "serving.md"
    post.write_text(POST, encoding="utf-8")
    section = ["Serving report", "Results"]

    def at(quote: str, unit: str, metric: str = "ttft", block: str = "paragraph", **headers) -> Claim:
        start = POST.index(quote if block == "paragraph" else f"| {quote} |") + (0 if block == "paragraph" else 2)
        return Claim(metric=metric, value=float(quote.split()[0].replace(",", "")), unit=unit, quote=quote,
                     span=(start, start + len(quote)), id=f"id{start}",
                     context=ClaimContext(section=section, block=block, **headers))

    sentence = [at("90 ms", "millisecond"), at("210 ms", "millisecond")]
    cells = [at("75", "millisecond", block="table", row_header="Model A", column_header="TTFT (ms)"),
             at("1,900", "token / second", metric="throughput", block="table", row_header="Model A",
                column_header="Output tok/s")]
    changed = cells[1].model_copy(update={"per": "user"})
    sha = hashlib.sha256(post.read_bytes()).hexdigest()

    def rec(claims):
        return DocumentRecord(doc=post.name, path=str(post), sha256=sha, extractor_version="0.1",
                              rules_version="r", claims=claims)

    report = attach_context(diff_records([rec(sentence + cells)], [rec([changed])]), TextLibrary.for_rules())
    # the post's audit page, as `benchclaims audit --format html` writes it for the new side
    (tmp_path / "serving.audit.html").write_text(render_audit_html(rec([changed]), POST), encoding="utf-8")
    link_audit_pages(report, tmp_path, tmp_path)
    path = tmp_path / "report.html"
    path.write_text(render_html(report), encoding="utf-8")
    return path


HARNESS = """<!DOCTYPE html><html><body><iframe id="f" src="report.html"></iframe><pre id="out">waiting</pre>
<script>
var f=document.getElementById('f');
f.addEventListener('load',function(){
  var d=f.contentDocument, out=[];
  function state(step){
    var docs=[].slice.call(d.querySelectorAll('details.doc')).map(function(x){return x.open?'open':'folded';});
    out.push(step+'|'+(d.body.getAttribute('data-current')||'-')+'|'+d.getElementById('nav-status').textContent
             +'|'+docs.join(','));
  }
  function key(k){d.dispatchEvent(new KeyboardEvent('keydown',{key:k,bubbles:true}));state(k);}
  d.getElementById('fold-all').click();state('fold');
  key('j');key('j');key('j');key('j');key('k');
  document.getElementById('out').textContent=out.join('\\n');
});
</script></body></html>
"""


def test_context_is_shown_in_chromium(tmp_path):
    dom = dump_dom(context_report_file(tmp_path).as_uri(), tmp_path)
    assert re.search(r'<body[^>]*data-js="ready"', dom)
    # the sentence once, both quotes marked in it
    assert dom.count("The median TTFT was") == 1
    assert ('The median TTFT was <mark class="removed">90 ms</mark> and the p99 TTFT was '
            '<mark class="removed">210 ms</mark> at 32 users.') in dom
    # the table's header and the rows holding a change, its cells marked by kind
    assert "<th>Model</th><th>TTFT (ms)</th><th>Output tok/s</th>" in dom
    assert ('<tr><td>Model A</td><td class="mark removed">75</td><td class="mark changed">1,900</td></tr>'
            in dom)
    assert "Model B" not in dom.split('class="ctx-table"')[1].split("</table>")[0]
    assert "1 of 2 rows shown" in dom
    assert "row “Model A” × column “TTFT (ms)”" in dom
    # the document and its 3 removed claims link to the page; the changed claim (old and new cell) to its claim
    assert dom.count('href="serving.audit.html"') == 4 and dom.count('href="serving.audit.html#claim=0"') == 2
    assert re.search(r'<code id="pr-summary">1 of 1 documents differ; claims \+0 added, -3 removed', dom)


def test_keyboard_moves_between_changes_and_unfolds(tmp_path):
    context_report_file(tmp_path)
    (tmp_path / "harness.html").write_text(HARNESS, encoding="utf-8")
    profile = tmp_path / "profile"
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
           "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
           f"--user-data-dir={profile}", "--virtual-time-budget=5000", "--dump-dom",
           (tmp_path / "harness.html").as_uri()]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=90)
    assert proc.returncode == 0, proc.stderr[-2000:]
    steps = re.search(r'<pre id="out">(.*?)</pre>', proc.stdout, re.S).group(1).splitlines()
    order = re.findall(r'<tbody class="chg \w+" data-kind="\w+" id="([^"]+)"',
                       (tmp_path / "report.html").read_text(encoding="utf-8"))
    assert len(order) == 4
    assert steps == [
        "fold|-|j / k: next / previous change|folded",
        f"j|{order[0]}|change 1 of 4|open",          # the first change; its folded document opens
        f"j|{order[1]}|change 2 of 4|open",
        f"j|{order[2]}|change 3 of 4|open",
        f"j|{order[3]}|change 4 of 4|open",
        f"k|{order[2]}|change 3 of 4|open",
    ]


def test_a_claim_link_opens_that_claim_on_the_audit_page(tmp_path):
    report = context_report_file(tmp_path).read_text(encoding="utf-8")
    [href] = set(re.findall(r'href="(serving\.audit\.html#claim=\d+)"', report))
    dom = dump_dom((tmp_path / href.split("#")[0]).as_uri() + "#" + href.split("#")[1], tmp_path)
    assert re.search(r'<section id="record" data-claim="0">', dom)
    assert "\u201c1,900\u201d" in dom


VERDICT_HARNESS = """<!DOCTYPE html><html><body><iframe id="f" src="report.html"></iframe><pre id="out">waiting</pre>
<script>
var f=document.getElementById('f'), loads=0, out=[];
f.addEventListener('load',function(){
  var d=f.contentDocument; loads++;
  var rows=[].slice.call(d.querySelectorAll('tbody.chg'));
  function state(step){out.push(step+'|'+rows.map(function(r){return r.getAttribute('data-verdict')||'-';}).join(',')
                                +'|'+d.getElementById('verdict-status').textContent);}
  if(loads===1){
    state('open');
    rows[0].querySelector('button[data-v=accept]').click();
    rows[1].querySelector('button[data-v=look]').click();
    rows[2].querySelector('button[data-v=reject]').click();
    rows[2].querySelector('button[data-v=reject]').click();   // a second click takes the verdict back
    state('judged');
    f.contentWindow.location.reload();                        // kept in the browser
  } else {
    state('reloaded');
    d.getElementById('export-verdicts').click();
    out.push('export|'+d.getElementById('verdicts-json').value.replace(/\\n/g,' '));
    out.push('download|'+d.getElementById('download-verdicts').getAttribute('download')+'|'
             +d.getElementById('download-verdicts').className);
    document.getElementById('out').textContent=out.join('\\n');
  }
});
</script></body></html>
"""


def test_verdicts_are_kept_in_the_browser_and_exported_as_json(tmp_path):
    import json

    report_file(tmp_path)
    (tmp_path / "harness.html").write_text(VERDICT_HARNESS, encoding="utf-8")
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
           "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
           f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=8000", "--dump-dom",
           (tmp_path / "harness.html").as_uri()]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=90)
    assert proc.returncode == 0, proc.stderr[-2000:]
    steps = re.search(r'<pre id="out">(.*?)</pre>', proc.stdout, re.S).group(1).splitlines()
    assert steps[0] == "open|-,-,-|0 of 3 judged: 0 accepted, 0 rejected, 0 to look at again (kept in this browser)"
    assert steps[1].startswith("judged|accept,look,-|2 of 3 judged: 1 accepted, 0 rejected, 1 to look")
    assert steps[2].startswith("reloaded|accept,look,-|2 of 3 judged")
    data = json.loads(steps[3].removeprefix("export|").replace("&amp;", "&").replace("&quot;", '"')
                      .replace("&lt;", "<").replace("&gt;", ">"))
    assert [v["verdict"] for v in data["verdicts"]] == ["accept", "look", None]
    assert {v["doc"] for v in data["verdicts"]} == {"gpu-post.md"} and data["report"]
    assert steps[4] == "download|review.verdicts.json|"      # offered under the report's name, now shown


def test_changes_come_first_and_each_condition_change_once(tmp_path):
    page = report_file(tmp_path).read_text(encoding="utf-8")
    assert page.index('<tbody class="chg') < page.index('id="pr-summary"')      # the summary is folded below
    assert '<details id="summary-box">' in page                                 # folded: no `open`
    changes = re.findall(r'<tbody class="chg.*?</tbody>', page, re.S)
    assert sum(c.count("conditions.warmup.status") for c in changes) == 1    # once per change
    context = context_report_file(tmp_path).read_text(encoding="utf-8")
    tables = [c for c in re.findall(r'<tbody class="chg.*?</tbody>', context, re.S) if 'class="conds"' in c]
    assert all("<code>conditions." not in c for c in tables)      # with a conditions table: that table alone
    body = re.sub(r"<script>.*?</script>", "", page, flags=re.S)
    assert ">null<" not in body and "null</" not in body                        # no raw null
