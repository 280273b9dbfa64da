"""Loading a diff side from JSONL, a claims SQLite store, a folder or a JSON file."""
from __future__ import annotations

import json
import sqlite3

import pytest

from extractor.review.sources import Side, SourceError, failure_errors, load_side
from extractor.records import Claim, Condition, DocumentError, DocumentRecord
from extractor.corpus.store import Store


def rec(doc: str, value: float = 410.0) -> DocumentRecord:
    quote = f"{value:g} requests per second"
    return DocumentRecord(doc=doc, path=f"in/{doc}", sha256="e" * 64, extractor_version="0.1", rules_version="r",
                          claims=[Claim(metric="request_throughput", value=value, unit="request / second",
                                        quote=quote, span=(5, 5 + len(quote)),
                                        conditions={"hardware": Condition(status="stated", value="8x A100")})])


def test_jsonl_with_records_errors_and_blank_lines(tmp_path):
    f = tmp_path / "run.jsonl"
    err = DocumentError(doc="bad.md", path="in/bad.md", error="binary content", kind="unreadable")
    f.write_text(rec("a.md").model_dump_json() + "\n\n" + err.model_dump_json() + "\n" + rec("b.md").model_dump_json()
                 + "\n", encoding="utf-8")
    side = load_side(f)
    assert [r.doc for r in side.records] == ["a.md", "b.md"]
    assert [e.doc for e in side.failures] == ["bad.md"]
    assert side.records[0] == rec("a.md")


def test_jsonl_bad_line_names_file_and_line(tmp_path):
    f = tmp_path / "run.jsonl"
    f.write_text(rec("a.md").model_dump_json() + "\n{not json\n", encoding="utf-8")
    with pytest.raises(SourceError, match=r"run\.jsonl: line 2: not JSON"):
        load_side(f)
    f.write_text('{"doc": "x.md"}\n', encoding="utf-8")
    with pytest.raises(SourceError, match=r"line 1: not a DocumentRecord: sha256"):
        load_side(f)


def test_claims_store_database(tmp_path):
    db = tmp_path / "claims.db"
    with Store(db) as store:
        store.put_record(rec("b.md", 7))
        store.put_record(rec("a.md"))
        store.put_error(DocumentError(doc="z.md", path="in/z.md", error="too big", kind="too_large"))
    side = load_side(db)
    assert [r.doc for r in side.records] == ["a.md", "b.md"]
    assert side.records[1] == rec("b.md", 7)
    assert [(f.doc, f.kind) for f in side.failures] == [("z.md", "too_large")]


def test_minimal_database_with_only_record_json(tmp_path):
    db = tmp_path / "other.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE documents (record_json TEXT)")
    conn.execute("INSERT INTO documents VALUES (?)", (rec("m.md").model_dump_json(),))
    conn.execute("INSERT INTO documents VALUES (NULL)")
    conn.commit()
    conn.close()
    assert [r.doc for r in load_side(db).records] == ["m.md"]


def test_database_without_record_json_is_a_clear_error(tmp_path):
    db = tmp_path / "foreign.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(SourceError, match="not a benchclaims store"):
        load_side(db)


def test_folder_of_record_files_sorted_by_path(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.json").write_text(rec("b.md").model_dump_json(), encoding="utf-8")
    (tmp_path / "a.json").write_text(json.dumps([rec("a1.md").model_dump(mode="json"),
                                                 rec("a2.md").model_dump(mode="json")]), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("ignored", encoding="utf-8")
    side = load_side(tmp_path)
    assert [r.doc for r in side.records] == ["a1.md", "a2.md", "b.md"]


def test_missing_and_empty_sources_are_errors(tmp_path):
    with pytest.raises(SourceError, match="no such file"):
        load_side(tmp_path / "nope.jsonl")
    with pytest.raises(SourceError, match="no .json or .jsonl"):
        load_side(tmp_path)
    (tmp_path / "x.bin").write_bytes(b"\xff\xfe\x00\x81binary")
    with pytest.raises(SourceError):
        load_side(tmp_path / "x.bin")


def test_failure_errors_only_for_differing_failures():
    same = DocumentError(doc="s.md", path="in/s.md", error="binary content", kind="unreadable")
    new_fail = DocumentError(doc="n.md", path="in/n.md", error="timeout after 2s", kind="timeout")
    old = Side(label="OLD", failures=[same])
    new = Side(label="NEW", failures=[same, new_fail])
    assert failure_errors(old, new) == ["NEW: n.md failed (timeout): timeout after 2s"]
