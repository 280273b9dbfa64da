"""`benchclaims compare`: rows, verdicts, unit conversions, caveats and restatements, on the corpus's
compare-*.md posts (two engines' posts on one setup, a table changing one setting a row, a vendor roundup).

Every rule of rules/compare.yaml is checked on a pair that differs in that one condition (the table's rows
where the post has one, otherwise the reference claim with that one condition replaced), and on a pair
where only one side states it."""
from __future__ import annotations

import json
import sqlite3
from functools import lru_cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.api import extract_path
from extractor.cli import app
from extractor.compare import ClaimRef, compare, load_compare_rules
from extractor.compare.groups import comparable_groups, find_restatements
from extractor.records import Condition, DocumentRecord

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
LARK, QUILL, TABLE, VENDOR = ("compare-vllm-h100.md", "compare-sglang-h100.md",
                              "compare-one-condition.md", "compare-vendor-roundup.md")
RULES = load_compare_rules()


@lru_cache(maxsize=None)
def record(name: str) -> DocumentRecord:
    return extract_path(CORPUS / name)


def ref(name: str, value: float) -> ClaimRef:
    rec = record(name)
    found = [i for i, c in enumerate(rec.claims) if c.value == value]
    assert len(found) == 1, f"{name}: {len(found)} claims of value {value}"
    return ClaimRef.of(rec, found[0])


def with_condition(r: ClaimRef, name: str, cond: Condition | None, **fields) -> ClaimRef:
    """The claim `r` with condition `name` replaced (None: unrecoverable) and claim fields set."""
    conds = dict(r.claim.conditions)
    conds[name] = cond or Condition(status="unrecoverable", where="the harness log", why="not stated")
    claim = r.claim.model_copy(update={"conditions": conds, **fields})
    return r.model_copy(update={"claim": claim, "ref": f"{r.ref}+{name}"})


def stated(value, canonical: str | None = None) -> Condition:
    return Condition(status="stated", value=value, canonical=canonical, quote=str(value), span=(0, 1))


# -- comparable --------------------------------------------------------------------------------------
def test_two_engines_on_one_setup_are_comparable():
    res = compare(ref(LARK, 9200), ref(QUILL, 10400))
    assert res.verdict == "comparable", res.verdict_line
    rows = {r.name: r for r in res.rows}
    for name in ("model", "hardware", "batch_or_concurrency", "input_length", "output_length", "precision",
                 "tokens", "dataset"):
        assert rows[name].status == "same", name
    assert rows["hardware"].a == "8x NVIDIA H100"
    # neither post names a scenario or a warm-up: listed, not blocking
    assert {"scenario", "warmup"} <= set(res.unstated)
    assert res.verdict_line.startswith("comparable (neither states: ")
    assert res.ratio == pytest.approx(9200 / 10400)


def test_a_table_row_and_another_posts_figure_are_comparable():
    """The table's GPU count comes from its own column (gpu_count), the other post's from '8x H100'."""
    res = compare(ref(TABLE, 9150), ref(LARK, 9200))
    assert res.verdict == "comparable", res.verdict_line
    assert {r.name: r.status for r in res.rows}["dataset"] == "same"   # 'random prompts' within the other's words


# -- one condition apart ------------------------------------------------------------------------------
@pytest.mark.parametrize("value, condition", [(5020, "hardware"), (6480, "precision"),
                                              (12300, "batch_or_concurrency"), (5870, "input_length"),
                                              (10900, "output_length")])
def test_table_rows_differ_in_their_one_setting(value, condition):
    res = compare(ref(TABLE, 9150), ref(TABLE, value))
    assert res.verdict == "not comparable" and res.reasons == [condition], res.verdict_line
    assert res.verdict_line == f"not comparable: {condition}"


VARIANTS = {   # a stated value different from the reference run's, per condition of the rules
    "model": stated("Llama-3.1-8B-Instruct", "Llama 3.1 8B"),
    "hardware": stated("8x H200", "NVIDIA H200").model_copy(update={"count": 8}),
    "batch_or_concurrency": stated(256),
    "input_length": stated(2048),
    "output_length": stated(128),
    "precision": stated("BF16", "BF16"),
    "scenario": stated("Server scenario", "Server"),
    "dataset": stated("ShareGPT", "ShareGPT"),
    "warmup": stated("no warm-up", "no warmup"),
    "speculative_decoding": stated("MTP", "MTP"),
    "prefix_caching": stated("prefix caching disabled", "disabled"),
    "engine_version": stated("vLLM v0.9.1", "vLLM"),
    "parallelism": stated("TP4", "TP4"),
}


# what the reference post does not state, stated for these tests
REFERENCE = {"scenario": stated("Offline scenario", "Offline"), "warmup": stated("10 warm-up requests", "warmup"),
             "speculative_decoding": stated("Eagle-3 speculation", "Eagle-3"),
             "prefix_caching": stated("prefix caching on", "enabled"),
             "parallelism": stated("TP8", "TP8")}


def reference(name: str) -> ClaimRef:
    """The vLLM post's node figure, with condition `name` stated."""
    base = ref(LARK, 9200)
    return with_condition(base, name, REFERENCE[name]) if name in REFERENCE else base


def test_every_condition_rule_has_a_variant():
    assert set(VARIANTS) == set(RULES.conditions)
    assert all(ref(LARK, 9200).claim.conditions[n].status == "stated" for n in set(VARIANTS) - set(REFERENCE))


@pytest.mark.parametrize("name", sorted(RULES.conditions))
def test_each_condition_rule_one_condition_apart(name):
    base = reference(name)
    other = with_condition(base, name, VARIANTS[name])
    role = RULES.conditions[name].role
    res = compare(base, other)
    if role == "shown":    # the engine and the layout are what a comparison is usually about
        assert res.verdict == "comparable", res.verdict_line
        assert {r.name: r.status for r in res.rows}[name] == "differs"
    else:
        assert (res.verdict, res.reasons) == ("not comparable", [name]), res.verdict_line


@pytest.mark.parametrize("name", sorted(RULES.conditions))
def test_each_condition_rule_unknown_on_one_side(name):
    """Stated on one side, unrecoverable on the other: never comparable (`cannot tell`), except a
    condition the rules only show."""
    one = with_condition(ref(LARK, 9200), name, VARIANTS[name])
    other = with_condition(ref(LARK, 9200), name, None)
    res = compare(one, other)
    row = {r.name: r for r in res.rows}[name]
    assert row.status == "unknown"
    if RULES.conditions[name].role == "shown":
        assert res.verdict == "comparable"
    else:
        assert (res.verdict, res.reasons) == ("cannot tell", [name]), res.verdict_line
        assert row.note and "B: the harness log" in row.note   # where the other side could say it


def test_unknown_on_both_sides_blocks_only_required_conditions():
    base = ref(LARK, 9200)
    a, b = (with_condition(with_condition(base, "batch_or_concurrency", None), "scenario", None) for _ in "ab")
    res = compare(a, b)
    assert (res.verdict, res.reasons) == ("cannot tell", ["batch_or_concurrency"])
    assert "scenario" in res.unstated


@pytest.mark.parametrize("field, a, b", [("tokens", "output", "total"), ("tokens", "output", "unspecified"),
                                         ("statistic", "median", "p99"), ("statistic", "median", None)])
def test_claim_field_rules(field, a, b):
    metric = "throughput" if field == "tokens" else "ttft"
    base = ref(LARK, 9200) if field == "tokens" else ref(LARK, 180)
    one = base.model_copy(update={"claim": base.claim.model_copy(update={field: a})})
    two = base.model_copy(update={"claim": base.claim.model_copy(update={field: b})})
    res = compare(one, two)
    assert one.claim.metric == metric
    expected = "not comparable" if b not in (None, "unspecified") else "cannot tell"
    assert (res.verdict, res.reasons) == (expected, [field]), res.verdict_line


def test_speedups_compare_only_against_the_same_baseline():
    base = ref(LARK, 9200)

    def speedup(baseline):
        return base.model_copy(update={"claim": base.claim.model_copy(update={
            "metric": "speedup", "value": 1.4, "unit": "x", "tokens": None, "per": None, "baseline": baseline})})

    assert compare(speedup("H100"), speedup("the H100 node")).verdict == "comparable"
    assert compare(speedup("H100"), speedup("vLLM v0.6")).reasons == ["baseline"]
    assert compare(speedup("H100"), speedup(None)).verdict == "cannot tell"


def test_different_metrics_are_not_comparable():
    res = compare(ref(LARK, 9200), ref(LARK, 180))
    assert res.verdict == "not comparable" and res.reasons[0] == "metric"
    assert res.b_value is None   # no conversion between a throughput and a latency


# -- cannot tell ---------------------------------------------------------------------------------------
def test_a_per_gpu_figure_on_an_unnamed_gpu_count_cannot_be_told():
    res = compare(ref(VENDOR, 1300), ref(QUILL, 10400))
    assert res.verdict == "cannot tell"
    assert res.reasons[:2] == ["per", "hardware"]
    assert {"batch_or_concurrency", "input_length", "output_length"} <= set(res.reasons)
    assert res.b_value is None    # per GPU vs per system: not converted without both device counts
    per = {r.name: r for r in res.rows}["per"]
    assert per.status == "unknown" and "both sides state their device count" in per.note


def test_a_named_scenario_against_none_cannot_be_told():
    res = compare(ref(VENDOR, 22), ref(LARK, 24))
    assert res.verdict == "cannot tell" and "scenario" in res.reasons
    assert {r.name: r for r in res.rows}["scenario"].a == "Offline"


# -- unit conversions ----------------------------------------------------------------------------------
def test_seconds_and_milliseconds():
    res = compare(ref(LARK, 180), ref(QUILL, 0.21))
    assert res.unit == "millisecond" and res.b_value == pytest.approx(210)
    assert res.conversion == "second -> millisecond"


def test_ms_per_token_is_a_tpot_in_ms():
    res = compare(ref(LARK, 24), ref(VENDOR, 22))
    assert res.b_value == pytest.approx(22) and res.unit == "millisecond"


def test_per_gpu_against_per_system_with_both_device_counts():
    res = compare(ref(LARK, 1150), ref(QUILL, 10400))
    assert res.verdict == "comparable", res.verdict_line
    assert res.b_value == pytest.approx(1300) and res.unit == "token / second / gpu"
    assert "divided by its 8 GPUs" in res.conversion
    back = compare(ref(QUILL, 10400), ref(LARK, 1150))
    assert back.b_value == pytest.approx(9200) and "times its 8 GPUs" in back.conversion


def test_caveats_beside_each_claim():
    res = compare(ref(VENDOR, 1300), ref(LARK, 9200))
    approx = ClaimRef.of(extract_path(CORPUS / "mlperf-offline-server.md"), 1)
    assert any("approximate" in c for c in compare(approx, ref(LARK, 9200)).a.caveats)
    assert res.b.caveats == []


# -- groups and restatements ------------------------------------------------------------------------------
def refs_of(*names: str) -> list[ClaimRef]:
    return [ClaimRef.of(record(n), i) for n in names for i in range(len(record(n).claims))]


def test_groups_and_near_misses():
    found = comparable_groups([r for r in refs_of(LARK, QUILL, TABLE, VENDOR) if r.claim.metric == "throughput"])
    values = [sorted(r.claim.value for r in g) for g in found.groups]
    # the SGLang post's restated 9,200 is in the group too (restatements are left out by the store's groups)
    assert [1150, 9150, 9200, 9200, 10400] in values
    apart = {(m.a.claim.value, m.b.claim.value): m.row.name for m in found.near_misses}
    assert apart[(9150, 12300)] == "batch_or_concurrency"
    assert apart[(9150, 5020)] == "hardware"
    assert all(m.row.blocks for m in found.near_misses)


def test_restatement_across_posts():
    links = find_restatements(refs_of(LARK, QUILL, TABLE, VENDOR))
    assert [(l.claim.doc, l.claim.claim.value, l.restates.doc) for l in links] == [(QUILL, 9200, LARK)]


def test_no_restatement_within_a_post_or_without_the_system():
    rec = record(LARK)
    twin = rec.model_copy(update={"doc": "twin.md", "path": "twin.md", "date": "2027-01-01"})
    assert find_restatements([ClaimRef.of(rec, 0), ClaimRef.of(rec, 0)]) == []
    unnamed = with_condition(ClaimRef.of(twin, 0), "hardware", None)
    assert find_restatements([ClaimRef.of(rec, 0), unnamed]) == []
    assert len(find_restatements([ClaimRef.of(rec, 0), ClaimRef.of(twin, 0)])) == 1


# -- the store and the command line ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    from extractor.corpus.batch import run_batch

    folder = tmp_path_factory.mktemp("posts")
    for name in (LARK, QUILL, TABLE, VENDOR):
        (folder / name).write_text((CORPUS / name).read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path_factory.mktemp("db") / "claims.db"
    run_batch([folder], db=path, progress=False)
    return path


def run(*args: str):
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_batch_links_restatements_and_query_hides_them(db):
    res = run("query", "--db", str(db), "--metric", "throughput", "--min", "9200", "--max", "9200", "--unit", "tok/s",
              "--format", "json")
    rows = json.loads(res.stdout)
    assert sorted((r["doc"], r["restates"] is not None) for r in rows) == sorted([(LARK, False), (QUILL, True)])
    lark_id = next(r["claim_id"] for r in rows if r["doc"] == LARK)
    assert next(r["restates"] for r in rows if r["doc"] == QUILL) == f"{lark_id}@{LARK}"
    hidden = run("query", "--db", str(db), "--metric", "throughput", "--min", "9200", "--max", "9200", "--unit", "tok/s",
                 "--hide-restatements", "--count")
    assert hidden.stdout.strip() == "1"


def test_an_older_store_is_linked_when_opened(db, tmp_path):
    from extractor.corpus.store import Store

    old = tmp_path / "old.db"
    old.write_bytes(db.read_bytes())
    with sqlite3.connect(old) as conn:
        conn.execute("DROP TABLE restatements")
        conn.execute("PRAGMA user_version=3")
    with Store(old) as store:
        assert store.conn.execute("SELECT other_doc FROM restatements").fetchall() == [(LARK,)]
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == 4


def test_compare_cli_by_id_and_by_file(db):
    with sqlite3.connect(db) as conn:
        lark = conn.execute("SELECT claim_id FROM claims WHERE value=9200 AND path LIKE ?", (f"%{LARK}",)).fetchone()[0]
    res = run("compare", lark, str(CORPUS / QUILL) + "#1", "--db", str(db))
    assert res.exit_code == 0, res.output
    assert "verdict: comparable" in res.stdout and "10400 token / second" in res.stdout
    md = run("compare", str(CORPUS / TABLE) + "#1", str(CORPUS / TABLE) + "#4", "-f", "markdown")
    assert md.stdout.startswith("**Verdict: not comparable: batch_or_concurrency**")
    assert "| batch_or_concurrency | 64 | 128 | **DIFFERS** |" in md.stdout
    js = json.loads(run("compare", str(CORPUS / VENDOR) + "#1", str(CORPUS / QUILL) + "#1", "-f", "json").stdout)
    assert js["verdict"] == "cannot tell" and js["verdict_line"].startswith("cannot tell: per, hardware")


def test_compare_cli_groups(db):
    res = run("compare", "--metric", "throughput", "--db", str(db))
    assert res.exit_code == 0
    assert "1 comparable group" in res.stdout and "group 1: throughput, 4 claims" in res.stdout
    assert "batch_or_concurrency differs (64 / 128)" in res.stdout
    js = json.loads(run("compare", "--metric", "throughput", "--db", str(db), "--with-restatements", "-f", "json").stdout)
    assert sorted(len(g) for g in js["groups"]) == [5]


@pytest.mark.parametrize("args, message", [
    (["nosuchid", "other"], "no claim of that id"),
    ([str(CORPUS / LARK) + "#9", str(CORPUS / LARK) + "#1"], "has 4 claims"),
    ([str(CORPUS / LARK) + "#1"], "give two claims"),
    ([], "give two claims"),
])
def test_compare_cli_bad_references(db, args, message):
    res = CliRunner().invoke(app, ["compare", *args, "--db", str(db)])
    assert res.exit_code == 2 and message in res.output


# -- the rule file --------------------------------------------------------------------------------------
@pytest.mark.parametrize("edit, reason", [
    (("conditions", "model", "role"), "role"),
    (("conditions", "gpu_count"), "device count"),
    (("conditions", "no_such"), "unknown condition"),
    (("claim_fields", "tokens", "metrics"), "unknown metric"),
    (("precision_forms", 0, "regex"), "does not compile"),
])
def test_compare_rules_are_validated_at_load(tmp_path, edit, reason):
    import shutil

    import yaml

    from extractor.rules_io import RuleError, default_rules_dir, fresh_rule_caches
    from extractor.rules_check import check_rules

    rules = tmp_path / "rules"
    shutil.copytree(default_rules_dir(), rules, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    data = yaml.safe_load((rules / "compare.yaml").read_text())
    bad = {"role": "maybe", "gpu_count": {"role": "required", "match": "number"},
           "no_such": {"role": "shown"}, "metrics": ["throughputs"], "regex": "(fp8"}[edit[-1]]
    node = data
    for key in edit[:-1]:
        node = node[key]
    node[edit[-1]] = bad
    (rules / "compare.yaml").write_text(yaml.safe_dump(data))
    with fresh_rule_caches(rules), pytest.raises(RuleError) as err:
        load_compare_rules(rules)
    assert "compare.yaml" in str(err.value) and reason in str(err.value)
    problems = [p for p in check_rules(rules, smoke=False) if p.file.endswith("compare.yaml")]
    assert problems and reason in f"{problems[0].where}: {problems[0].reason}"


# -- the corpus report and the audit page -----------------------------------------------------------------
def test_report_shows_the_comparable_groups(db):
    from extractor.corpus.report import build_report
    from extractor.corpus.report_page import render_report_html

    report = build_report(db)
    [group] = [g for g in report.comparable_groups if g.metric == "throughput"]
    assert sorted(m.value for m in group.claims) == [1150, 9150, 9200, 10400]   # the restated 9,200 left out
    assert group.shared["batch_or_concurrency"] == "64" and group.shared["hardware"] == "NVIDIA H100"
    page = render_report_html(report)
    assert '<a href="#comparable">' in page and "<h2>Comparable groups (" in page
    assert "compare-sglang-h100.md <code>" in page


def _page_claims(page: str) -> list[dict]:
    import re

    data = re.search(r'<script type="application/json" id="record-data">(.*?)</script>', page, re.S).group(1)
    return json.loads(data.replace("<\\/", "</"))["claims"]


def test_audit_page_links_a_claim_to_the_claims_it_is_comparable_with(db):
    own = _page_claims(run("audit", str(CORPUS / LARK), "-f", "html").stdout)
    node, gpu = (next(c for c in own if c["value"] == v) for v in (9200, 1150))
    assert [o["index"] for o in node["comparable"]] == [gpu["index"]]     # the post's own per-GPU figure
    assert next(c for c in own if c["value"] == 180)["comparable"] == []
    page = run("audit", str(CORPUS / TABLE), "-f", "html", "--db", str(db)).stdout
    assert "Comparable with (" in page
    ref_row = next(c for c in _page_claims(page) if c["value"] == 9150)
    assert {(o.get("doc"), o["figure"]) for o in ref_row["comparable"]} >= {
        (LARK, "9200 token / second"), (QUILL, "10400 token / second")}
    assert next(c for c in _page_claims(page) if c["value"] == 12300)["comparable"] == []
    missing = CliRunner().invoke(app, ["audit", str(CORPUS / TABLE), "-f", "html", "--db", "/nonexistent.db"])
    assert missing.exit_code == 2 and "no such database" in missing.output


def test_an_accuracy_score_depends_on_the_benchmark_not_the_load():
    base = ref(LARK, 9200)
    score = base.model_copy(update={"claim": base.claim.model_copy(update={
        "metric": "accuracy", "value": 81.5, "unit": "percent", "tokens": None, "per": None})})
    other_load = with_condition(score, "batch_or_concurrency", stated(512))
    assert compare(score, other_load).verdict == "comparable"
    assert compare(score, with_condition(score, "dataset", stated("GSM8K", "GSM8K"))).reasons == ["dataset"]
    both_unnamed = [with_condition(score, "dataset", None) for _ in "ab"]
    assert compare(*both_unnamed).reasons == ["dataset"]      # required for accuracy: never comparable unnamed


@pytest.mark.parametrize("name, listed", [("precision", "FP8, BF16"), ("dataset", "ShareGPT, synthetic prompts")])
def test_a_condition_listing_alternatives_is_unknown(name, listed):
    base = reference(name)
    res = compare(base, with_condition(base, name, stated(listed)))
    row = {r.name: r for r in res.rows}[name]
    assert (res.verdict, res.reasons, row.status) == ("cannot tell", [name], "unknown")
    assert "lists several" in row.note


def test_two_rows_of_one_table_that_no_condition_tells_apart_cannot_be_told():
    """Were the GPU count of the 'fewer GPUs' row lost, its row label would still set it apart."""
    fewer = with_condition(ref(TABLE, 5020), "gpu_count", stated(8))
    res = compare(ref(TABLE, 9150), fewer)
    assert (res.verdict, res.reasons) == ("cannot tell", ["table row"]), res.verdict_line
    row = {r.name: r for r in res.rows}["table row"]
    assert (row.a, row.b) == ("reference", "fewer GPUs") and "no condition tells them apart" in row.note
    assert compare(ref(TABLE, 9150), ref(TABLE, 5020)).reasons == ["hardware"]   # told apart: no label row


@pytest.mark.parametrize("per, unit, status", [("node", "token / second / node", "unknown"),
                                               ("user", "token / second / user", "differs")])
def test_per_node_is_not_converted_and_per_user_is_another_measure(per, unit, status):
    base = ref(LARK, 1150)
    other = base.model_copy(update={"claim": base.claim.model_copy(update={"per": per, "unit": unit})})
    res = compare(base, other)
    row = {r.name: r for r in res.rows}["per"]
    assert (row.status, res.reasons, res.b_value) == (status, ["per"], None)
