"""The corpus report of corpus/: its figures counted from the records, the page in headless Chromium
(loads offline, one inline SVG per plot, tables beside them), JSON, and byte-identical output."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from browser import dump_dom, no_remote_references
from extractor.cli import app
from extractor.corpus.batch import run_batch
from extractor.corpus.report import build_report
from extractor.corpus.report_page import render_report_html
from extractor.corpus.store import Store
from extractor.records import CHECKLIST

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory):
    """corpus/ in three sources: Markdown posts, HTML pages, and the text posts (named by their folder)."""
    tmp = tmp_path_factory.mktemp("report")
    db = tmp / "claims.db"
    run_batch([str(CORPUS / "*.md")], db=db, progress=False, source="markdown-blog")
    run_batch([str(CORPUS / "*.html")], db=db, progress=False, source="html-site")
    run_batch([str(CORPUS / "*.txt")], db=db, progress=False)
    with Store(db) as store:
        records = [json.loads(js) for js in store.record_json()]
        sources = dict(store.conn.execute("SELECT path, source FROM documents"))
    return db, records, sources


def expected_shares(records, headline_only=False):
    claims = [c for r in records for c in r["claims"] if c["headline"] or not headline_only]
    return {n: (sum(c["conditions"][n]["status"] == "stated" for c in claims), len(claims)) for n in CHECKLIST}


def test_figures_are_counted_from_the_records(corpus_db):
    db, records, sources = corpus_db
    report = build_report(db)
    posts = sum(p.suffix in (".md", ".html", ".txt") for p in CORPUS.iterdir())
    assert report.documents == len(records) == posts and report.failed_documents == 0
    assert report.claims == sum(len(r["claims"]) for r in records)
    for n, (k, total) in expected_shares(records).items():
        assert (report.scorecard.all[n].stated, report.scorecard.all[n].claims) == (k, total)
    for n, (k, total) in expected_shares(records, headline_only=True).items():
        assert (report.scorecard.headline[n].stated, report.scorecard.headline[n].claims) == (k, total)
    per_source = Counter()
    for r in records:
        per_source[sources[r["path"]]] += len(r["claims"])
    assert {s: c.claims for s, c in report.by_source.items()} == dict(per_source)
    assert set(report.by_source) == {"markdown-blog", "html-site", "corpus"}
    assert report.metrics == dict(sorted(Counter(c["metric"] for r in records for c in r["claims"]).items(),
                                         key=lambda kv: (-kv[1], kv[0])))
    months = Counter(r["date"][:7] if r["date"] else "undated" for r in records for _ in r["claims"])
    assert {p.period: p.claims for p in report.over_time} == dict(months)
    for p in report.over_time:
        assert p.stated + p.unrecoverable == len(CHECKLIST) * p.claims
    top = report.hardware[0]
    assert top.claims == max(h.claims for h in report.hardware)


def test_page_in_chromium(corpus_db, tmp_path):
    db, records, _ = corpus_db
    out = tmp_path / "report.html"
    res = CliRunner().invoke(app, ["report", "--db", str(db), "-o", str(out)])
    assert res.exit_code == 0, res.output
    page = out.read_text(encoding="utf-8")
    no_remote_references(page)
    assert "<image" not in page and "data:" not in page          # vector plots, nothing embedded
    dom = dump_dom(out.as_uri(), tmp_path)
    assert re.search(r'<body[^>]*data-js="ready"', dom), "page script did not run"
    assert 'data-figures="8"' in dom   # 7 plots, and the set-aside figures per reason
    n = sum(len(r["claims"]) for r in records)
    assert f"{len(records)} posts (0 failed), {n} claims" in dom
    k, total = expected_shares(records)["model"]
    assert re.search(rf"<td>model</td><td>{k}/{total}</td><td>{round(100 * k / total)}%</td>", dom)
    for sid in ("scorecard", "by-source", "by-authorship", "metrics", "hardware", "models", "over-time"):
        section = re.search(rf'<section id="{sid}">(.*?)</section>', dom, re.S)
        assert section and "<svg" in section.group(1) and "<table" in section.group(1), sid


def test_json_and_determinism(corpus_db, tmp_path):
    db, records, _ = corpus_db
    res = CliRunner().invoke(app, ["report", "--db", str(db), "--format", "json"])
    data = json.loads(res.stdout)
    k, total = expected_shares(records)["warmup"]
    assert data["scorecard"]["all"]["warmup"] == {"stated": k, "claims": total, "share": round(k / total, 4)}
    report = build_report(db)
    assert render_report_html(report) == render_report_html(build_report(db))
    bad = CliRunner().invoke(app, ["report", "--db", str(tmp_path / "none.db")])
    assert bad.exit_code == 2 and "no such database" in bad.output


def test_posts_table_drills_down_to_every_audit_page(corpus_db, tmp_path):
    db, records, _ = corpus_db
    site = tmp_path / "site"
    site.mkdir()
    res = CliRunner().invoke(app, ["report", "--db", str(db), "-o", str(site / "report.html"),
                                   "--audit-pages", "--audit-dir", str(site / "audit")])
    assert res.exit_code == 0, res.output
    assert f"wrote {len(records)} audit pages" in res.output
    dom = dump_dom((site / "report.html").as_uri(), tmp_path)
    rows = re.findall(r'<tr data-doc="([^"]+)">(.*?)</tr>', dom, re.S)
    assert sorted(doc for doc, _ in rows) == sorted(r["doc"] for r in records)
    dated = [r["date"] for r in sorted(records, key=lambda r: r["date"] or "", reverse=True)]
    assert [next(r["date"] for r in records if r["doc"] == doc) for doc, _ in rows] == dated   # newest first
    for doc, row in rows:
        href = re.search(r'<a class="audit" href="([^"#]+)">', row).group(1)
        assert href == f"audit/{Path(doc).stem}.audit.html" and (site / href).is_file()
    # a headline link opens the post's page on that claim
    doc, row = next((d, r) for d, r in rows if "#claim=" in r)
    link = re.search(r'href="([^"]+)#claim=(\d+)"', row)
    page = dump_dom((site / link.group(1)).as_uri() + f"#claim={link.group(2)}", tmp_path)
    record = next(r for r in records if r["doc"] == doc)
    assert f'<section id="record" data-claim="{link.group(2)}">' in page
    assert record["claims"][int(link.group(2))]["headline"]
