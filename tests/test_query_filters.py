"""Querying the store: filters, pint unit ranges, formats, and the query/export commands."""
from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from extractor.cli import app
from extractor.corpus.query import ClaimFilter, QueryError, find_claims, format_rows
from extractor.records import Claim, Condition, DocumentRecord
from extractor.corpus.store import Store


def _cond(value: str, canonical: str | None = None) -> Condition:
    return Condition(status="stated", value=value, canonical=canonical, quote=value, span=(0, len(value)),
                     scope="sentence")


def _claim(metric, value, unit, model, hw, engine=None, warmup=True, value_max=None) -> Claim:
    conds = {"model": _cond(model, model.lower()), "hardware": _cond(hw, hw.upper())}
    conds["engine_version"] = _cond(engine) if engine else Condition(
        status="unrecoverable", where="not in the post", why="no engine named")
    conds["warmup"] = _cond("10 warm-up requests") if warmup else Condition(
        status="unrecoverable", where="methodology section", why="absent")
    return Claim(id=f"{metric}-{value}", metric=metric, value=value, value_max=value_max, unit=unit,
                 quote=f"{value}", span=(0, 1), conditions=conds)


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "q.db"
    docs = {
        "/c/one.md": [_claim("throughput", 24000, "token / second / gpu", "Llama-3-70B", "h100", "vLLM 0.6"),
                      _claim("ttft", 180, "millisecond", "Llama-3-70B", "h100", "vLLM 0.6", warmup=False)],
        "/c/two.md": [_claim("throughput", 1.5, "token / millisecond / gpu", "DeepSeek-V3", "mi300x",
                             "SGLang 0.4"),
                      _claim("throughput", 9000, "token / second", "DeepSeek-V3", "mi300x", "SGLang 0.4"),
                      _claim("throughput", 15000, "token / second / gpu", "Qwen2-72B", "h200",
                             value_max=30000, warmup=False)],
    }
    with Store(path) as s:
        for p, claims in docs.items():
            s.put_record(DocumentRecord(doc=p[3:], path=p, sha256="0" * 64, extractor_version="t",
                                        rules_version="t", claims=claims))
    return path


def ids(rows):
    return [r["claim_id"] for r in rows]


def test_query_filters_by_metric_model_hardware_engine(db):
    assert ids(find_claims(db, ClaimFilter(metric="ttft"))) == ["ttft-180"]
    assert ids(find_claims(db, ClaimFilter(model="deepseek"))) == ["throughput-1.5", "throughput-9000"]
    assert ids(find_claims(db, ClaimFilter(hardware="H100", metric="throughput"))) == ["throughput-24000"]
    assert ids(find_claims(db, ClaimFilter(engine="sglang"))) == ["throughput-1.5", "throughput-9000"]
    assert find_claims(db, ClaimFilter(model="100%_")) == []     # LIKE wildcards are literal


def test_query_condition_status(db):
    rows = find_claims(db, ClaimFilter(conditions=["warmup=unrecoverable"]))
    assert ids(rows) == ["ttft-180", "throughput-15000"]
    rows = find_claims(db, ClaimFilter(conditions=["warmup=unrecoverable", "engine_version=stated"]))
    assert ids(rows) == ["ttft-180"]
    with pytest.raises(ValueError):
        ClaimFilter(conditions=["warmup"])


def test_query_value_range_converts_units_and_drops_incompatible(db):
    # 1.5 tok/ms/gpu = 1500 tok/s/gpu; 9000 tok/s has no per-gpu and is excluded
    rows = find_claims(db, ClaimFilter(min=20000, unit="tok/s/gpu"))
    assert ids(rows) == ["throughput-24000", "throughput-15000"]   # the range 15k-30k overlaps
    rows = find_claims(db, ClaimFilter(min=1, max=2, unit="ktok/s/gpu"))
    assert ids(rows) == ["throughput-1.5"]
    assert rows[0]["value_in_unit"] == pytest.approx(1.5)
    rows = find_claims(db, ClaimFilter(max=0.2, unit="s"))
    assert ids(rows) == ["ttft-180"] and rows[0]["value_in_unit"] == pytest.approx(0.18)
    with pytest.raises(QueryError):
        find_claims(db, ClaimFilter(min=1, unit="furlongs of joy"))


def test_query_formats(db):
    rows = find_claims(db, ClaimFilter(metric="throughput", unit="tok/s/gpu"))
    data = json.loads(format_rows(rows, "json"))
    assert [d["claim_id"] for d in data] == ids(rows)
    parsed = list(csv.DictReader(io.StringIO(format_rows(rows, "csv"))))
    assert [float(p["value_in_unit"]) for p in parsed] == pytest.approx([24000, 1500, 15000])
    table = format_rows(rows, "table", "tok/s/gpu").splitlines()
    assert table[0].split()[:4] == ["doc", "metric", "value", "unit"]
    assert "15000-30000" in table[4] and table[-1] == "(3 claims)"


def test_query_and_export_commands(db, tmp_path):
    run = CliRunner().invoke
    res = run(app, ["query", "--db", str(db), "--metric", "throughput", "--min", "20000",
                    "--unit", "tok/s/gpu", "--format", "json"])
    assert res.exit_code == 0, res.output
    assert [r["doc"] for r in json.loads(res.stdout)] == ["one.md", "two.md"]
    assert run(app, ["query", "--db", str(tmp_path / "none.db")]).exit_code == 2
    assert run(app, ["query", "--db", str(db), "--condition", "oops"]).exit_code == 2

    import pyarrow.parquet as pq

    out = tmp_path / "c.parquet"
    assert run(app, ["export", "--db", str(db), "--format", "parquet", "-o", str(out)]).exit_code == 0
    table = pq.read_table(out)
    assert table.num_rows == 5 and table.column("model").to_pylist()[0] == "llama-3-70b"
    out = tmp_path / "c.csv"
    assert run(app, ["export", "--db", str(db), "--format", "csv", "-o", str(out)]).exit_code == 0
    assert len(list(csv.DictReader(out.open()))) == 5
    out = tmp_path / "c.jsonl"
    assert run(app, ["export", "--db", str(db), "--format", "jsonl", "-o", str(out)]).exit_code == 0
    recs = [DocumentRecord.model_validate_json(line) for line in out.read_text().splitlines()]
    assert [r.path for r in recs] == ["/c/one.md", "/c/two.md"] and len(recs[1].claims) == 3
