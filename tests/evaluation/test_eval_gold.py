"""`benchclaims eval`: the scoring rules on small gold of our own, and a ratchet on the bundled gold
(corpus/gold/, hand-made for three corpus posts): its figures may rise, never fall."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.cli import app
from extractor.evaluation.gold import GoldDocument, GoldError
from extractor.evaluation.score import evaluate, score_document
from extractor.quantities.units import convert
from extractor.records import Claim, Condition, DocumentRecord

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
GOLD = CORPUS / "gold"

# The figures of the bundled gold when it was written (claims the tool gets wrong are listed in
# `benchclaims eval --detail`): a change may raise them, never lower them. Issue 16 (one claim, many
# mentions) made the gold list a restated figure once (38% and 150 ms in setup-section-h200, 22% in
# two-isl-ambiguous were listed twice): 28 -> 25 gold claims, the same one claim missed and the same
# conditions wrong, hence the lower ratios; without merging restatements the precision would be 0.8889.
# The two guessed scenarios ("a single stream sees ..." read as the single-stream scenario) are gone
# since a count of streams is no longer a scenario: 0.9211 -> 0.9579, guessed 2 -> 0.
# The level a change starts from is the reference's ("p99 ITL went down from 48 ms to 35 ms": 35 ms is the
# claim, 48 ms is set aside as `baseline`, as the dev set's gold reads such changes): 25 -> 24 gold claims, the
# same one claim missed and the same conditions wrong (recall 0.96 -> 0.9583, conditions 0.9579 -> 0.9574,
# conditions scored 190 -> 188).
FLOOR_TOTAL = {"claim_recall": 0.9583, "claim_precision": 1.0, "headline_recall": 1.0,
               "metric_accuracy": 0.9167, "condition_accuracy": 0.9574}
MAX_GUESSED = 0
FLOOR_DOCS = {"plain-text-latency.txt": {"claim_recall": 1.0, "metric_accuracy": 0.7778, "condition_accuracy": 0.9206},
              "setup-section-h200.md": {"claim_recall": 0.9, "metric_accuracy": 1.0, "condition_accuracy": 0.9121},
              "two-isl-ambiguous.md": {"claim_recall": 1.0, "metric_accuracy": 1.0, "condition_accuracy": 1.0}}

TEXT = "Peak decode reached 1,200 tok/s with 4 users. Median TTFT was 0.25 s on our L4 box."


def pred(metric, value, unit, quote, **kw) -> Claim:
    start = TEXT.index(quote)
    return Claim(metric=metric, value=value, unit=unit, quote=quote, span=(start, start + len(quote)), **kw)


def record(*claims: Claim) -> DocumentRecord:
    return DocumentRecord(doc="d.md", sha256="0" * 64, extractor_version="t", rules_version="t", claims=list(claims))


def gold(*claims: dict, complete: bool = True) -> GoldDocument:
    return GoldDocument.model_validate({"doc": "d.md", "complete": complete, "claims": list(claims)})


def test_bundled_gold_keeps_its_figures():
    report = evaluate(GOLD, CORPUS)
    assert [d.doc for d in report.documents] == sorted(FLOOR_DOCS)
    for name, floor in FLOOR_TOTAL.items():
        assert getattr(report.total, name) >= floor, name
    assert report.total.guessed_conditions <= MAX_GUESSED
    assert report.total.gold_claims == 24 and report.total.conditions_scored >= 188
    for d in report.documents:
        for name, floor in FLOOR_DOCS[d.doc].items():
            assert getattr(d.score, name) >= floor, (d.doc, name)


def test_units_convert_and_matching_is_one_to_one():
    g = gold({"metric": "ttft", "value": 250, "unit": "millisecond", "quote": "TTFT was 0.25 s"},
             {"metric": "ttft", "value": 250, "unit": "millisecond", "quote": "0.25 s on"})
    got = score_document(TEXT, g, record(pred("ttft", 0.25, "second", "0.25 s")), convert)
    assert (got.score.matched, got.score.claim_recall) == (1, 0.5)      # one prediction, one gold claim
    assert got.missed_claims == ["0.25 s on"]


def test_value_unit_and_place_must_all_agree():
    g = gold({"metric": "throughput", "value": 1200, "unit": "token/second", "quote": "1,200 tok/s"})
    for wrong in (pred("throughput", 1300, "token / second", "1,200 tok/s"),     # another value
                  pred("throughput", 1200, "millisecond", "1,200 tok/s"),       # no conversion
                  pred("throughput", 1200, "token / second", "Median TTFT")):    # elsewhere in the text
        got = score_document(TEXT, g, record(wrong), convert)
        assert got.score.matched == 0 and got.score.claim_precision == 0.0
    right = score_document(TEXT, g, record(pred("other", 1200, "token / second", "1,200 tok/s")), convert)
    assert (right.score.matched, right.score.metric_accuracy) == (1, 0.0)      # matched, wrong metric


def test_conditions_right_guessed_missed_and_wrong():
    conds = {"hardware": {"status": "stated", "value": "L4"}, "batch_or_concurrency": {"status": "stated", "value": 4},
             "warmup": {"status": "unrecoverable"}, "model": {"status": "unrecoverable"},
             "input_length": {"status": "stated", "value": 512}}
    g = gold({"metric": "throughput", "value": 1200, "unit": "token/second", "quote": "1,200 tok/s",
              "headline": True, "conditions": conds})
    p = pred("throughput", 1200, "token / second", "1,200 tok/s", headline=False, conditions={
        "hardware": Condition(status="stated", value="L4", canonical="NVIDIA L4", quote="L4 box"),
        "batch_or_concurrency": Condition(status="stated", value=4, quote="4 users"),
        "warmup": Condition(status="stated", value="3 runs", quote="3 runs"),        # guessed
        "model": Condition(status="unrecoverable", where="x"),
        "input_length": Condition(status="stated", value=1024, quote="1K")})        # another value
    s = score_document(TEXT, g, record(p), convert)
    assert (s.score.conditions_scored, s.score.conditions_right) == (5, 3)
    assert (s.score.guessed_conditions, s.score.wrong_values, s.score.missed_conditions) == (1, 1, 0)
    assert s.score.headline_recall == 0.0
    assert {m.name: m.kind for m in s.condition_misses} == {"warmup": "guessed", "input_length": "wrong_value"}


def test_incomplete_gold_scores_no_precision():
    g = gold({"metric": "ttft", "value": 0.25, "unit": "second", "quote": "0.25 s"}, complete=False)
    s = score_document(TEXT, g, record(pred("ttft", 250, "millisecond", "0.25 s"),
                                       pred("throughput", 1200, "token / second", "1,200 tok/s")), convert)
    assert s.score.claim_recall == 1.0 and s.score.claim_precision is None


def test_bad_gold_is_a_clear_error(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "d.md").write_text(TEXT, encoding="utf-8")
    g = tmp_path / "gold"
    g.mkdir()
    bad = {"doc": "d.md", "claims": [{"metric": "ttft", "value": 1, "unit": "second", "quote": "not in it"}]}
    (g / "d.md.json").write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(GoldError, match="not in the document"):
        evaluate(g, tmp_path / "docs")
    bad["claims"][0] |= {"quote": "0.25 s", "conditions": {"colour": {"status": "stated"}}}
    (g / "d.md.json").write_text(json.dumps(bad), encoding="utf-8")
    res = CliRunner().invoke(app, ["eval", "--gold", str(g), "--docs", str(tmp_path / "docs")])
    assert res.exit_code == 2 and "unknown condition(s) colour" in res.output


def test_cli_text_and_json():
    res = CliRunner().invoke(app, ["eval", "--gold", str(GOLD), "--docs", str(CORPUS)])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].split() == ["document", "gold", "pred", "match", "recall", "precision", "headline",
                                "metric", "conditions", "guessed"]
    assert any(line.startswith("TOTAL ") for line in lines)
    js = CliRunner().invoke(app, ["eval", "--gold", str(GOLD), "--docs", str(CORPUS), "-f", "json"])
    data = json.loads(js.output)
    assert data["total"]["gold_claims"] == 24 and len(data["documents"]) == 3
