"""Context in the diff views: each change shows its sentence or table headers, grouped, read from the post.

The post below is written for these tests. Records are built by hand with spans into it (so each test
says exactly which claims changed), except the rule-edit test, which re-extracts with a copied rules folder.
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

from typer.testing import CliRunner

from extractor.cli import app
from extractor.records import Claim, ClaimContext, Condition, DocumentRecord
from extractor.review.context import attach_context
from extractor.review.diff import diff_records
from extractor.review.excerpts import TextLibrary, clip, squeeze
from extractor.review.links import audit_page_name
from extractor.review.render import render_text
from extractor.rules_io import default_rules_dir

POST = """# Latency of our chat deployment

## Setup

We served Llama 3.1 8B on one H100 80GB with 64 concurrent users.

## Results

Median TTFT stayed at 85 ms, and p99 TTFT reached 140 ms under the same load. Decode ran at 2,400 output
tokens per second on the [same box](https://example.invalid/box), with no [tuning](https://example.invalid/t).

Table 2: latency per prompt length at 64 users.

| Prompt length | TTFT p50 (ms) | TPOT p50 (ms) |
|---|---|---|
| 512 | 61 | 7.1 |
| 2048 | 118 | 7.4 |
| 8192 | 392 | 8.0 |
"""

runner = CliRunner()


def write_post(folder: Path, text: str = POST) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "latency-post.md"
    path.write_text(text, encoding="utf-8")
    return path


def at(quote: str, nth: int = 0, text: str = POST) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = text.index(quote, start + 1)
    return (start, start + len(quote))


def cell(value: float, quote: str, row: str, col: str) -> Claim:
    start = at(f"| {quote} |")[0] + 2
    return Claim(metric="ttft", value=value, unit="millisecond", quote=quote, span=(start, start + len(quote)),
                 context=ClaimContext(section=["Latency of our chat deployment", "Results"], block="table",
                                      row_header=row, column_header=col))


def prose(metric: str, value: float, quote: str, unit: str = "millisecond", **kw) -> Claim:
    return Claim(metric=metric, value=value, unit=unit, quote=quote, span=at(quote),
                 context=ClaimContext(section=["Latency of our chat deployment", "Results"]), **kw)


def record(path: Path, claims: list[Claim]) -> DocumentRecord:
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    return DocumentRecord(doc=path.name, path=str(path), sha256=sha, extractor_version="0.1", rules_version="r",
                          claims=claims)


def table_cells() -> list[Claim]:
    return [cell(61, "61", "512", "TTFT p50 (ms)"), cell(118, "118", "2048", "TTFT p50 (ms)"),
            cell(392, "392", "8192", "TTFT p50 (ms)")]


def sentence_claims() -> list[Claim]:
    return [prose("ttft", 85, "85 ms"), prose("ttft", 140, "140 ms")]


def report_for(old: list[DocumentRecord], new: list[DocumentRecord]):
    return attach_context(diff_records(old, new), TextLibrary.for_rules())


def test_removed_cells_of_one_table_are_one_group_with_headers_and_marks(tmp_path):
    post = write_post(tmp_path)
    keep = prose("throughput", 2400, "2,400 output\ntokens per second", unit="token / second")
    report = report_for([record(post, table_cells() + sentence_claims() + [keep])], [record(post, [keep])])
    [doc] = report.documents
    assert doc.counts["removed"] == 5 and doc.context_note is None
    tables = [g for g in doc.groups if g.kind == "table"]
    assert len(tables) == 1, [g.kind for g in doc.groups]
    [table] = tables
    assert table.source == "document" and table.columns == ["Prompt length", "TTFT p50 (ms)", "TPOT p50 (ms)"]
    assert table.caption == "Table 2: latency per prompt length at 64 users."
    assert [r.cells for r in table.rows] == [["512", "61", "7.1"], ["2048", "118", "7.4"], ["8192", "392", "8.0"]]
    assert all([(m.col, m.kind) for m in r.marks] == [(1, "removed")] for r in table.rows)
    assert table.row_count == 3 and table.section == ["Latency of our chat deployment", "Results"]
    # each cell claim carries its headers; each claim names its group
    for k in table.claims:
        ctx = doc.claims[k].old_context
        assert ctx.source == "document" and ctx.column_header == "TTFT p50 (ms)" and ctx.caption
        assert doc.claims[k].group == table.id


def test_claims_of_one_sentence_share_it_with_each_quote_marked(tmp_path):
    post = write_post(tmp_path)
    report = report_for([record(post, sentence_claims())], [record(post, [])])
    [doc] = report.documents
    [group] = doc.groups
    assert group.kind == "sentence" and group.claims == [0, 1]
    assert group.text == "Median TTFT stayed at 85 ms, and p99 TTFT reached 140 ms under the same load."
    assert [group.text[m.start:m.end] for m in group.marks] == ["85 ms", "140 ms"]
    ex = doc.claims[1].old_context
    assert ex.text == group.text and ex.text[ex.mark[0]:ex.mark[1]] == "140 ms"
    assert ex.section == ["Latency of our chat deployment", "Results"] and ex.span == group.span
    text = render_text(report)
    assert text.count("Median TTFT stayed at") == 1
    assert "> Median TTFT stayed at «85 ms», and p99 TTFT reached «140 ms» under the same load." in text


def test_sentence_display_blanks_markup_and_keeps_the_mark(tmp_path):
    post = write_post(tmp_path)
    claim = prose("throughput", 2400, "2,400 output\ntokens per second", unit="token / second")
    report = report_for([record(post, [claim])], [record(post, [])])
    ex = report.documents[0].claims[0].old_context
    assert ex.text == "Decode ran at 2,400 output tokens per second on the same box, with no tuning."
    assert ex.text[ex.mark[0]:ex.mark[1]] == "2,400 output tokens per second"


def test_changed_condition_shows_old_and_new_quote_in_context(tmp_path):
    post = write_post(tmp_path)
    base = prose("ttft", 85, "85 ms")
    old = base.model_copy(update={"conditions": {
        "hardware": Condition(status="stated", value="H100 80GB", quote="H100 80GB", span=at("H100 80GB"),
                              scope="setup_section"),
        "batch_or_concurrency": Condition(status="unrecoverable", where="the command line", why="not stated"),
        "input_length": Condition(status="stated", value=64, quote="64",
                                  span=(at("64 users")[0], at("64 users")[0] + 2), scope="table_caption")}})
    new = base.model_copy(update={"conditions": {
        "hardware": Condition(status="unrecoverable", where="the setup section", why="not stated"),
        "batch_or_concurrency": Condition(status="stated", value=64, quote="64 concurrent users",
                                          span=at("64 concurrent users"), scope="setup_section"),
        "input_length": Condition(status="stated", value=512, quote="512", span=at("512"), scope="table_row")}})
    report = report_for([record(post, [old])], [record(post, [new])])
    [cd] = report.documents[0].claims
    assert cd.kind == "changed"
    changes = {c.name: c for c in cd.conditions}
    assert list(changes) == ["hardware", "batch_or_concurrency", "input_length"]
    hw = changes["hardware"]
    assert hw.old.context.text == "We served Llama 3.1 8B on one H100 80GB with 64 concurrent users."
    assert hw.old.context.section == ["Latency of our chat deployment", "Setup"]
    assert hw.new.status == "unrecoverable" and hw.new.context is None and hw.new.where == "the setup section"
    bc = changes["batch_or_concurrency"]
    assert bc.old.context is None and bc.new.context.text[slice(*bc.new.context.mark)] == "64 concurrent users"
    il = changes["input_length"]
    assert il.old.context.text == "Table 2: latency per prompt length at 64 users."
    assert (il.new.context.block, il.new.context.text, il.new.context.column_header) == ("table", "512", "Prompt length")
    text = render_text(report)
    assert "old: Table 2: latency per prompt length at «64» users.  [Latency of our chat deployment > Results]" in text
    assert "new: «512»  [Latency of our chat deployment > Results, column 'Prompt length']" in text


def test_a_post_edited_since_the_run_falls_back_to_the_record_and_says_so(tmp_path):
    post = write_post(tmp_path)
    old = record(post, table_cells() + sentence_claims())
    post.write_text(POST.replace("85 ms", "86 ms"), encoding="utf-8")
    report = report_for([old], [record(post, [])])
    [doc] = report.documents
    assert "has changed since that run" in doc.context_note and "stored in the record" in doc.context_note
    assert {cd.old_context.source for cd in doc.claims} == {"record"}
    # cells still read as one table (by section), each with its stored headers
    [table] = [g for g in doc.groups if g.kind == "table"]
    assert table.source == "record" and len(table.claims) == 3
    assert doc.claims[table.claims[1]].old_context.row_header == "2048"
    assert [g.kind for g in doc.groups].count("claim") == 2
    assert "(context: old side:" in render_text(report)


def test_summary_line_counts_claims_by_metric_and_fields(tmp_path):
    post = write_post(tmp_path)
    changed_old = prose("throughput", 2400, "2,400 output\ntokens per second", unit="token / second")
    changed_new = changed_old.model_copy(update={"tokens": "output"})
    report = report_for([record(post, table_cells() + [changed_old])], [record(post, [changed_new])])
    s = report.summary
    assert s.by_metric == {"throughput": {"changed": 1}, "ttft": {"removed": 3}}
    assert s.line == ("1 of 1 documents differ; claims +0 added, -3 removed (ttft 3), ~1 changed (throughput 1), "
                      "0 unchanged; fields changed: tokens 1")
    assert render_text(report).splitlines()[1] == "summary:   " + s.line


def test_excerpt_helpers_collapse_blanks_and_clip_around_the_mark():
    assert squeeze("  a \n\n b  , c ", [(5, 9)]) == ("a b, c", [(2, 3)])
    assert squeeze("p50 .... 23 ms", [(9, 14)]) == ("p50 .... 23 ms", [(9, 14)])   # dot leaders stay
    assert squeeze("x  [y](z) , w", [(3, 6), (12, 13)]) == ("x [y](z), w", [(2, 5), (10, 11)])
    text, mark = clip("x" * 1000 + "QUOTE" + "y" * 1000, (1000, 1005), width=100)
    assert text.startswith("…") and text.endswith("…") and text[mark[0]:mark[1]] == "QUOTE" and len(text) <= 102


def test_audit_page_name_convention():
    assert audit_page_name("latency-post.md") == "latency-post.audit.html"
    assert audit_page_name("results.v2.html") == "results.v2.audit.html"


# --- end to end through the CLI ------------------------------------------------------------


def drop_ttft_cues(rules: Path) -> None:
    path = rules / "claims.yaml"
    edited, n = re.subn(r"(?m)^(  ttft: \[)TTFT, TTFTs, ", r"\1", path.read_text(encoding="utf-8"), count=1)
    assert n == 1, "claims.yaml's ttft cue list no longer starts with TTFT, TTFTs; update this rule edit"
    path.write_text(edited, encoding="utf-8")


def test_rule_edit_rerun_shows_every_change_in_context_and_links_audit_pages(tmp_path):
    post = write_post(tmp_path / "posts")
    saved = tmp_path / "before.jsonl"
    res = runner.invoke(app, ["batch", str(post), "--db", str(tmp_path / "b.db"), "--jsonl", str(saved)])
    assert res.exit_code == 0, res.output
    rules = tmp_path / "rules"
    shutil.copytree(default_rules_dir(), rules, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    drop_ttft_cues(rules)
    out = tmp_path / "review"
    out.mkdir()
    (out / audit_page_name(post.name)).write_text("<html></html>", encoding="utf-8")
    res = runner.invoke(app, ["rerun", "--against", str(saved), "--rules", str(rules), "-f", "json",
                              "-o", str(out / "review.json")])
    assert res.exit_code == 1, res.output
    data = json.loads((out / "review.json").read_text(encoding="utf-8"))
    [doc] = data["documents"]
    assert doc["claims"], "the rule edit moved no claim in the sample post"
    assert doc["audit"] == "latency-post.audit.html" and doc["context_note"] is None
    for cd in doc["claims"]:
        ctx = cd["new_context"] or cd["old_context"]
        assert ctx["source"] == "document"
        assert ctx["column_header"] or ctx["text"] != ctx["text"][slice(*ctx["mark"])], cd   # headers or a sentence
    tables = [g for g in doc["groups"] if g["kind"] == "table"]
    assert len(tables) == 1 and len(tables[0]["claims"]) >= 2      # the TTFT column is one table
    assert data["summary"]["line"].startswith("1 of 1 documents differ")

    html_out = out / "review.html"
    res = runner.invoke(app, ["rerun", "--against", str(saved), "--rules", str(rules), "-f", "html",
                              "-o", str(html_out)])
    page = html_out.read_text(encoding="utf-8")
    assert re.search(r'href="latency-post\.audit\.html(#claim=\d+)?"', page) and 'class="ctx-table"' in page
    # a page elsewhere: --audit-dir, linked relative to the report; no page: no link
    elsewhere = tmp_path / "audits"
    elsewhere.mkdir()
    (elsewhere / audit_page_name(post.name)).write_text("<html></html>", encoding="utf-8")
    runner.invoke(app, ["rerun", "--against", str(saved), "--rules", str(rules), "-f", "html",
                        "-o", str(html_out), "--audit-dir", str(elsewhere)])
    assert re.search(r'href="\.\./audits/latency-post\.audit\.html(#claim=\d+)?"', html_out.read_text(encoding="utf-8"))
    (out / audit_page_name(post.name)).unlink()
    runner.invoke(app, ["rerun", "--against", str(saved), "--rules", str(rules), "-f", "html", "-o", str(html_out)])
    assert "audit page" not in html_out.read_text(encoding="utf-8")


def test_a_front_matter_claim_shows_its_line_as_written(tmp_path):
    text = '---\ntitle: Serving notes\nsummary: "Up to 3,100 tokens/s on one GPU."\n---\n\n# Serving notes\n\nBody.\n'
    post = tmp_path / "fm-post.md"
    post.write_text(text, encoding="utf-8")
    start = text.index("3,100 tokens/s")
    claim = Claim(metric="throughput", value=3100, unit="token / second", qualifier="up_to", quote="3,100 tokens/s",
                  span=(start, start + 14), context=ClaimContext(block="front_matter"))
    report = report_for([record(post, [claim])], [record(post, [])])
    ex = report.documents[0].claims[0].old_context
    assert ex.source == "document" and ex.text == 'summary: "Up to 3,100 tokens/s on one GPU."'
    assert ex.text[slice(*ex.mark)] == "3,100 tokens/s"
    assert '-- front matter in (top of the post)' in render_text(report)
