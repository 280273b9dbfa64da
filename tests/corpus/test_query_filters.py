"""Querying the store: filters, pint unit ranges, formats, and the query/export commands."""
from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from extractor.cli import app
from extractor.corpus.query import ClaimFilter, QueryError, find_claims, format_rows, run_query
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
    assert ids(find_claims(db, ClaimFilter(model="~deepseek"))) == ["throughput-1.5", "throughput-9000"]
    assert ids(find_claims(db, ClaimFilter(model="deepseek-v3"))) == ["throughput-1.5", "throughput-9000"]
    assert find_claims(db, ClaimFilter(model="deepseek")) == []   # exact: a family is not a model
    assert ids(find_claims(db, ClaimFilter(hardware="H100", metric="throughput"))) == ["throughput-24000"]
    assert ids(find_claims(db, ClaimFilter(engine="~sglang"))) == ["throughput-1.5", "throughput-9000"]
    assert find_claims(db, ClaimFilter(model="~100%_")) == []     # LIKE wildcards are literal


def test_repeated_filters_are_alternatives_and_fields_combine(db):
    both = ClaimFilter(hardware=["h100", "h200"], metric="throughput")
    assert ids(find_claims(db, both)) == ["throughput-24000", "throughput-15000"]
    assert ids(find_claims(db, ClaimFilter(hardware=["h100", "h200"], model="~qwen"))) == ["throughput-15000"]
    assert ids(find_claims(db, ClaimFilter(metric=["ttft", "throughput"], hardware="h100"))) == [
        "throughput-24000", "ttft-180"]


def test_exact_hardware_is_not_a_prefix_and_tilde_is_a_substring(db):
    res = run_query(db, ClaimFilter(hardware="h20"))
    assert res.rows == [] and "H200" in res.notes[0] and "~" in res.notes[0]   # said, not silent
    assert ids(find_claims(db, ClaimFilter(hardware="~h20"))) == ["throughput-15000"]


def test_a_unit_of_the_wrong_kind_names_the_claims_dimension(db):
    with pytest.raises(QueryError, match=r"measures token / second.*second \(millisecond\)"):
        run_query(db, ClaimFilter(metric="ttft", unit="tok/s"))


def test_tokens_and_statistic_filters(tmp_path):
    path = tmp_path / "s.db"
    claims = [Claim(id="a", metric="ttft", value=40, unit="millisecond", statistic="p99", quote="40", span=(0, 2)),
              Claim(id="b", metric="ttft", value=20, unit="millisecond", statistic="median", quote="20", span=(3, 5)),
              Claim(id="c", metric="throughput", value=9, unit="token / second", tokens="output", quote="9",
                    span=(6, 7))]
    with Store(path) as s:
        s.put_record(DocumentRecord(doc="s.md", path="/s.md", sha256="0" * 64, extractor_version="t",
                                    rules_version="t", claims=claims))
    assert ids(find_claims(path, ClaimFilter(statistic="p50"))) == ["b"]          # P50 is the median
    assert ids(find_claims(path, ClaimFilter(statistic=["p99", "median"]))) == ["a", "b"]
    assert ids(find_claims(path, ClaimFilter(tokens="output"))) == ["c"]
    with pytest.raises(QueryError, match="percentile"):
        ClaimFilter(statistic="p-high")


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
    assert table.num_rows == 5 and table.column("model_value").to_pylist()[0] == "llama-3-70b"
    out = tmp_path / "c.csv"
    assert run(app, ["export", "--db", str(db), "--format", "csv", "-o", str(out)]).exit_code == 0
    assert len(list(csv.DictReader(out.open()))) == 5
    out = tmp_path / "c.jsonl"
    assert run(app, ["export", "--db", str(db), "--format", "jsonl", "-o", str(out)]).exit_code == 0
    recs = [DocumentRecord.model_validate_json(line) for line in out.read_text().splitlines()]
    assert [r.path for r in recs] == ["/c/one.md", "/c/two.md"] and len(recs[1].claims) == 3


def test_query_names_are_checked_with_suggestions(db):
    # a metric may be written as any of its usual names
    for name in ("TTFT", "time_to_first_token", "Time-To-First-Token", "ttft"):
        assert ids(find_claims(db, ClaimFilter(metric=name))) == ["ttft-180"], name
    with pytest.raises(QueryError, match="did you mean 'throughput'"):
        ClaimFilter(metric="throughtput")
    with pytest.raises(QueryError, match="unknown condition 'warm_up'; did you mean 'warmup'"):
        ClaimFilter(conditions=["warm_up=unrecoverable"])
    with pytest.raises(QueryError, match="unknown status 'missing'.*choices: stated, unrecoverable"):
        ClaimFilter(conditions=["warmup=missing"])
    with pytest.raises(QueryError, match="unknown sort field 'vaule'; did you mean 'value'"):
        ClaimFilter(sort="-vaule")
    run = CliRunner().invoke
    for args, said in ((["--metric", "TTFT"], None),
                       (["--metric", "time_to_first_token"], None),
                       (["--condition", "warm_up=unrecoverable"], "did you mean 'warmup'"),
                       (["--condition", "warmup=missing"], "unknown status 'missing'"),
                       (["--columns", "doc,hardwar"], "did you mean 'hardware'"),
                       (["--per", "gpus"], "per")):
        res = run(app, ["query", "--db", str(db), *args])
        if said is None:
            assert res.exit_code == 0 and "(1 claim)" in res.stdout, res.output
        else:
            assert res.exit_code == 2 and said in res.stderr, (args, res.output)
            assert res.stderr.startswith("benchclaims: ")


def test_query_sort_limit_count_headline_per_doc(db):
    rows = find_claims(db, ClaimFilter(metric="throughput", unit="tok/s/gpu", sort="-value"))
    assert ids(rows) == ["throughput-24000", "throughput-15000", "throughput-1.5"]   # 1.5 tok/ms = 1500 tok/s
    rows = find_claims(db, ClaimFilter(metric="throughput", unit="tok/s/gpu", sort="value", limit=1))
    assert ids(rows) == ["throughput-1.5"]
    assert ids(find_claims(db, ClaimFilter(sort="-doc", limit=1))) == ["throughput-1.5"]
    assert ids(find_claims(db, ClaimFilter(doc="one"))) == ["throughput-24000", "ttft-180"]
    assert ids(find_claims(db, ClaimFilter(doc="t*.md"))) == ["throughput-1.5", "throughput-9000",
                                                              "throughput-15000"]
    assert find_claims(db, ClaimFilter(headline=True)) == []
    assert len(find_claims(db, ClaimFilter(headline=False))) == 5
    assert find_claims(db, ClaimFilter(per="gpu")) == []        # the fixture's claims state no per
    res = CliRunner().invoke(app, ["query", "--db", str(db), "--metric", "throughput", "--count"])
    assert res.exit_code == 0 and res.stdout == "4\n"
    res = CliRunner().invoke(app, ["query", "--db", str(db), "--count", "-f", "json"])
    assert json.loads(res.stdout) == {"count": 5}


def test_query_conditions_any_or_all(db):
    # all (default): every --condition holds; any: at least one
    all_ = ClaimFilter(conditions=["warmup=unrecoverable", "engine_version=unrecoverable"])
    any_ = ClaimFilter(conditions=["warmup=unrecoverable", "engine_version=unrecoverable"], match="any")
    assert ids(find_claims(db, all_)) == ["throughput-15000"]
    assert ids(find_claims(db, any_)) == ["ttft-180", "throughput-15000"]


def test_query_mixed_units_are_converted_saying_so_or_refused(db, tmp_path):
    with Store(db) as s:
        s.put_record(DocumentRecord(doc="three.md", path="/c/three.md", sha256="1" * 64, extractor_version="t",
                                    rules_version="t",
                                    claims=[_claim("ttft", 0.15, "second", "Llama-3-8B", "l40s"),
                                            _claim("ttft", 17, "second", "Llama-3-8B", "l40s")]))
    res = run_query(db, ClaimFilter(metric="ttft", max=200))
    assert ids(res.rows) == ["ttft-180", "ttft-0.15"]          # 17 s is not under 200 ms
    assert res.unit == "ms" and "converted to ms" in res.notes[0]
    assert [r["value_in_unit"] for r in res.rows] == pytest.approx([180, 150])
    # different kinds of unit (tok/s and tok/s/gpu) are never compared without --unit
    with pytest.raises(QueryError, match="different kinds"):
        run_query(db, ClaimFilter(metric="throughput", min=1000))
    res = CliRunner().invoke(app, ["query", "--db", str(db), "--metric", "ttft", "--max", "200"])
    assert res.exit_code == 0 and "values converted to ms" in res.stderr
    assert "17" not in res.stdout.split()
    res = CliRunner().invoke(app, ["query", "--db", str(db), "--metric", "throughput", "--min", "1000"])
    assert res.exit_code == 2 and "give --unit" in res.stderr


def test_query_json_has_conditions_and_columns_choose(db):
    rows = find_claims(db, ClaimFilter(metric="ttft"))
    data = json.loads(format_rows(rows, "json"))
    assert data[0]["conditions"]["warmup"] == {"status": "unrecoverable", "where": "methodology section",
                                               "why": "absent"}
    assert data[0]["conditions"]["hardware"]["canonical"] == "H100"
    text = format_rows(rows, "text", columns=("doc", "value", "hardware", "warmup", "warmup_status"))
    assert text.splitlines()[2].split() == ["one.md", "180", "H100", "unrecoverable", "unrecoverable"]
    data = json.loads(format_rows(rows, "json", columns=("claim_id", "model")))
    assert data == [{"claim_id": "ttft-180", "model": "llama-3-70b"}]
    flat = list(csv.DictReader(io.StringIO(format_rows(rows, "csv"))))
    assert flat[0]["hardware_status"] == "stated" and flat[0]["hardware_value"] == "H100"
    assert flat[0]["warmup_status"] == "unrecoverable" and flat[0]["warmup_value"] == ""
    header = format_rows(rows, "text").splitlines()[0].split()
    assert {"headline", "per"} <= set(header)   # the qualifier marks the value cell (<=, >=, ~)
