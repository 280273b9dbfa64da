"""The SQLite store: one transaction per document, replace-not-append, incremental state."""
from __future__ import annotations

import sqlite3

import pytest

from extractor.records import Claim, Condition, DocumentError, DocumentRecord
from extractor.corpus.rows import base_quantity
from extractor.corpus.store import Store, StoreError

TEXT = "Serving Qwen on 4 H200 we reached 21,500 tok/s per GPU; TTFT stayed under 250 ms."


def _claim(i: int, value: float, unit: str, metric: str = "throughput", model: str = "Qwen") -> Claim:
    quote = TEXT[34:44] if metric == "throughput" else TEXT[76:82]
    span = (34, 44) if metric == "throughput" else (76, 82)
    return Claim(
        id=f"c{i}", metric=metric, value=value, unit=unit, quote=quote, span=span,
        conditions={
            "model": Condition(status="stated", value=model, canonical=model.lower(), quote=model,
                               span=(8, 8 + len(model)), scope="sentence"),
            "hardware": Condition(status="stated", value="H200", canonical="H200-SXM", quote="H200",
                                  span=(20, 24), scope="sentence"),
            "warmup": Condition(status="unrecoverable", where="setup section", why="not stated"),
        })


def _record(path: str, sha: str = "a" * 64, claims: list[Claim] | None = None,
            rules: str = "r1") -> DocumentRecord:
    return DocumentRecord(doc=path.rsplit("/", 1)[-1], path=path, sha256=sha, title="A post",
                          extractor_version="1.0", rules_version=rules,
                          claims=claims if claims is not None else
                          [_claim(0, 21500, "token / second / gpu"),
                           _claim(1, 250, "millisecond", metric="ttft")])


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "c.db") as s:
        yield s


def test_store_writes_documents_claims_and_conditions(store):
    store.put_record(_record("/p/a.md"))
    assert store.counts() == {"documents": 1, "claims": 2, "mentions": 2, "conditions": 6, "set_aside": 0}
    row = store.conn.execute(
        "SELECT metric, value, unit, model, hardware, engine, span_start, span_end FROM claims "
        "WHERE path='/p/a.md' AND ord=0").fetchone()
    assert row == ("throughput", 21500.0, "token / second / gpu", "qwen", "H200-SXM", None, 34, 44)
    conds = store.conn.execute(
        "SELECT name, status, value, where_note FROM conditions WHERE ord=0 ORDER BY name").fetchall()
    assert conds == [("hardware", "stated", '"H200"', None), ("model", "stated", '"Qwen"', None),
                     ("warmup", "unrecoverable", None, "setup section")]


def test_store_base_values_make_units_comparable(store):
    store.put_record(_record("/p/a.md"))
    (base, sig), = store.conn.execute("SELECT base_value, base_unit FROM claims WHERE ord=1")
    assert base == pytest.approx(0.25)          # 250 ms in seconds
    assert sig == base_quantity(1, "second")[1]
    assert base_quantity(1, "token / second / gpu")[1] == base_quantity(1, "token / gpu / second")[1]


def test_store_replacing_a_document_leaves_no_old_rows(store):
    store.put_record(_record("/p/a.md"))
    store.put_record(_record("/p/b.md"))
    store.put_record(_record("/p/a.md", sha="b" * 64, claims=[_claim(0, 9, "token / second")]))
    assert store.counts() == {"documents": 2, "claims": 3, "mentions": 3, "conditions": 9, "set_aside": 0}
    assert store.state("/p/a.md") == ("b" * 64, "1.0", "r1", "ok")


def test_store_error_replaces_claims_and_is_never_current(store):
    store.put_record(_record("/p/a.md"))
    assert store.is_current("/p/a.md", "a" * 64, "1.0", "r1")
    assert not store.is_current("/p/a.md", "a" * 64, "1.0", "r2")
    store.put_error(DocumentError(doc="a.md", path="/p/a.md", sha256="a" * 64, error="boom",
                                  kind="timeout"), extractor_version="1.0", rules_version="r1")
    assert store.counts() == {"documents": 1, "claims": 0, "mentions": 0, "conditions": 0, "set_aside": 0}
    assert store.conn.execute("SELECT status, error, error_kind FROM documents").fetchone() == \
        ("failed", "boom", "timeout")
    assert not store.is_current("/p/a.md", "a" * 64, "1.0", "r1")


def test_store_failed_write_rolls_back_whole_document(store, monkeypatch):
    store.put_record(_record("/p/a.md"))
    import extractor.corpus.store as mod

    def broken(*a, **k):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(mod, "condition_rows", broken)
    with pytest.raises(RuntimeError):
        store.put_record(_record("/p/a.md", sha="c" * 64))
    assert store.counts() == {"documents": 1, "claims": 2, "mentions": 2, "conditions": 6, "set_aside": 0}
    assert store.state("/p/a.md")[0] == "a" * 64


def test_store_record_json_round_trips_sorted(store):
    recs = [_record("/p/b.md"), _record("/p/a.md")]
    for r in recs:
        store.put_record(r)
    out = [DocumentRecord.model_validate_json(js) for js in store.record_json()]
    assert [r.path for r in out] == ["/p/a.md", "/p/b.md"]
    assert out[0] == recs[1]
    assert list(store.record_json(["/p/b.md", "/missing"])) == [recs[0].model_dump_json()]


def test_store_uses_wal_and_rejects_foreign_schema(tmp_path):
    with Store(tmp_path / "c.db") as s:
        assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("PRAGMA user_version=99")
    with pytest.raises(StoreError):
        Store(other)


def test_a_store_closed_inside_loading_keeps_the_blocks_own_error(tmp_path):
    """A store closed inside `loading` (a batch that abandons it on an error) has no connection to restore: the
    block's own error comes out, not one of the closed connection's."""
    store = Store(tmp_path / "closed.db")
    with pytest.raises(OSError, match="disk left"):
        with store.loading():
            store.close()
            raise OSError("no disk left")
    assert store.closed
