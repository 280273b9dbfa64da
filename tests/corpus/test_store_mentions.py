"""The store, query, export, diff and audit with claims that have several mentions (issue 16).
The post is the bundled corpus/restated-headline.md; the edits below are written for this test."""
from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

from extractor.api import extract_text
from extractor.audit import build_audit, render_audit
from extractor.corpus.export import export
from extractor.corpus.query import ClaimFilter, find_claims, format_rows
from extractor.corpus.store import SCHEMA_VERSION, Store
from extractor.records import DocumentRecord
from extractor.review.diff import diff_records

POST = Path(__file__).resolve().parents[2] / "corpus" / "restated-headline.md"
TEXT = POST.read_text(encoding="utf-8")


def _record(text: str = TEXT) -> DocumentRecord:
    return extract_text(text, POST.name, path=str(POST))


def _db(tmp_path: Path, record: DocumentRecord) -> Path:
    db = tmp_path / "c.db"
    with Store(db) as store:
        store.put_record(record)
    return db


def test_query_gives_one_row_per_claim_with_its_mention_count(tmp_path):
    db = _db(tmp_path, _record())
    rows = find_claims(db, ClaimFilter(metric="throughput", min=30000, unit="tok/s"))
    assert len(rows) == 1 and rows[0]["n_mentions"] == 7 and rows[0]["quote"] == "31,600"
    table = format_rows(rows, "table")
    assert "mentions" in table.splitlines()[0].split()      # the text table shows the count too
    both = find_claims(db, ClaimFilter(metric="throughput", min=1850, max=1850, unit="tok/s/gpu"))
    # the same figure for two setups: two rows
    assert sorted((r["hardware"], r["n_mentions"]) for r in both) == [("NVIDIA A10G", 1), ("NVIDIA L40S", 1)]


def test_mentions_table_lists_every_place_with_one_primary(tmp_path):
    record = _record()
    db = _db(tmp_path, record)
    head = next(c for c in record.claims if c.value == 31600)
    with Store(db) as store:
        rows = store.conn.execute("SELECT m_ord, quote, span_start, span_end, block, headline, is_primary "
                                  "FROM mentions WHERE claim_id=? ORDER BY m_ord", (head.id,)).fetchall()
        n = store.conn.execute("SELECT n_mentions FROM claims WHERE claim_id=?", (head.id,)).fetchone()[0]
    assert n == len(rows) == 7
    assert [r[4] for r in rows] == ["front_matter", "front_matter", "list_item", "table", "paragraph", "caption",
                                    "paragraph"]
    assert [r[6] for r in rows].count(1) == 1 and rows[3][6] == 1        # the table cell is the primary
    assert all(TEXT[s:e] == q for _, q, s, e, *_ in rows)
    assert [r[5] for r in rows] == [1, 1, 1, 0, 0, 0, 0]


def test_export_csv_has_one_row_per_claim_and_jsonl_the_full_records(tmp_path):
    record = _record()
    db = _db(tmp_path, record)
    n = export(db, "csv", tmp_path / "c.csv")
    with open(tmp_path / "c.csv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert n == len(rows) == len(record.claims)
    assert [r["n_mentions"] for r in rows if r["value"] == "31600.0"] == ["7"]
    export(db, "jsonl", tmp_path / "c.jsonl")
    [line] = (tmp_path / "c.jsonl").read_text(encoding="utf-8").splitlines()
    claims = json.loads(line)["claims"]
    assert [len(c["mentions"]) for c in claims if c["value"] == 31600] == [7]


def test_old_store_is_migrated_and_its_documents_re_extracted(tmp_path):
    record = _record()
    db = _db(tmp_path, record)
    # make it a store of schema 1: no mentions table, no n_mentions column
    conn = sqlite3.connect(db)
    conn.executescript("DROP TABLE mentions; ALTER TABLE claims DROP COLUMN n_mentions; PRAGMA user_version=1;")
    conn.close()
    with Store(db) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.counts()["mentions"] == store.counts()["claims"] == len(record.claims)
        # stale: the next batch extracts it again, so that its restatements are merged
        assert not store.is_current(str(POST), record.sha256, record.extractor_version, record.rules_version)
    rows = find_claims(db, ClaimFilter(metric="throughput", min=30000, unit="tok/s"))
    assert [r["n_mentions"] for r in rows] == [1]    # queries keep working until then


def test_diff_reports_a_new_restatement_as_a_change_of_the_claim():
    old = _record()
    new = _record(TEXT + "\nThe 31,600 tok/s of output held for the whole hour of the run.\n")
    [doc] = diff_records([old], [new]).documents
    assert doc.counts["added"] == doc.counts["removed"] == 0
    [changed] = [c for c in doc.claims if c.new and c.new.value == 31600]
    assert [f.field for f in changed.fields] == ["mentions.added"]
    assert changed.fields[0].new == ["'31,600 tok/s' (paragraph in 'Conclusion')"]


def test_diff_keeps_a_new_claim_that_shares_a_place_with_a_mention():
    old = _record()
    new = _record(TEXT.replace("covers the evening traffic on its own.",
                               "covers the evening traffic on its own. Its 31,600 tok/s run is repeated monthly."))
    [doc] = diff_records([old], [new]).documents
    assert doc.counts["added"] == 1 and doc.counts["removed"] == 0


def test_diff_folds_claims_of_an_older_run_into_the_merged_claim():
    new = _record()
    # an older run without mentions: each restatement was a claim of its own
    old = new.model_copy(update={"claims": [
        c.model_copy(update={"quote": m.quote, "span": m.span, "context": m.context, "mentions": []})
        for c in new.claims for m in c.mentions]})
    [doc] = diff_records([old], [new]).documents
    assert doc.counts["removed"] == 0 and doc.counts["added"] == 0


def test_audit_shows_the_claim_once_with_where_it_is_stated():
    record = _record()
    report = build_audit(record)
    assert report.figure.value == 31600
    assert report.figure.stated_at == ["title", "summary", "TL;DR list", "Results table", "Results",
                                       "Results caption", "Conclusion"]
    text = render_audit(record)
    assert "Stated 7 times: title, summary, TL;DR list, Results table" in text
    assert sum("31,600" in f.quote for f in report.other_headlines) == 0
