"""A long results table keeps its memory: identical conditions of a record are one (frozen) object, and the
record is written a claim at a time, to the same bytes as one `json.dumps` of the whole record."""
from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from extractor.api import extract_text
from extractor.conditions._internals.sharing import ConditionPool
from extractor.records import Claim, Condition, DocumentRecord, Note
from extractor.render import record_json, record_json_chunks


def _table(rows: int) -> str:
    lines = ["# Sweep on 4x H100", "", "Mistral Small 24B served with SGLang, every run at 512 input tokens.", "",
             "| Run | Batch | Output tok/s | TTFT (ms) |", "|---|---|---|---|"]
    lines += [f"| r{i} | {2 ** (i % 4)} | {1500 + 13 * i} | {40 + i % 7} |" for i in range(rows)]
    return "\n".join(lines) + "\n"


def test_the_claims_of_a_long_table_share_their_identical_conditions():
    record = extract_text(_table(60), "sweep.md", timeout=0)
    assert len(record.claims) >= 120
    distinct = {id(c) for claim in record.claims for c in claim.conditions.values()}
    total = sum(len(claim.conditions) for claim in record.claims)
    assert len(distinct) < total / 10, (len(distinct), total)
    # shared only when alike: each claim's batch size is its own row's
    batches = {(claim.context.row_header, claim.conditions["batch_or_concurrency"].value) for claim in record.claims}
    assert len({row for row, _ in batches}) == len(batches) == 60
    first, last = record.claims[0], record.claims[-1]
    assert first.conditions["warmup"] is last.conditions["warmup"]
    assert first.conditions["batch_or_concurrency"].span != last.conditions["batch_or_concurrency"].span


def test_a_shared_condition_cannot_be_changed_in_place():
    cond = Condition(status="unrecoverable", where="the harness log", why="not said")
    with pytest.raises(ValidationError):
        cond.where = "elsewhere"
    changed = cond.model_copy(update={"where": "elsewhere"})
    assert (cond.where, changed.where) == ("the harness log", "elsewhere")


@pytest.mark.parametrize("a, b", [
    (1, 1.0), (1, True), (0.0, -0.0), ({"min": 1, "max": 8}, {"max": 8, "min": 1}), ([1, 2], (1, 2)), ("8", 8)])
def test_conditions_that_would_dump_differently_are_not_shared(a, b):
    pool = ConditionPool()
    first = pool.share({"x": Condition(status="stated", value=a, quote="q", span=(0, 1))})["x"]
    second = pool.share({"x": Condition(status="stated", value=b, quote="q", span=(0, 1))})["x"]
    assert first is not second and type(second.value) is type(b) and repr(second.value) == repr(b)
    alike = pool.share({"x": Condition(status="stated", value=b, quote="q", span=(0, 1))})["x"]
    assert alike is second


def test_conditions_alike_but_for_the_fields_given_are_not_shared():
    pool = ConditionPool()
    given = pool.share({"x": Condition(status="unrecoverable", note=None)})["x"]
    left = pool.share({"x": Condition(status="unrecoverable")})["x"]
    assert given is not left and left.model_dump(exclude_unset=True) == {"status": "unrecoverable"}
    assert pool.share({"x": Condition(status="unrecoverable")})["x"] is left


def _record(claims: list[Claim]) -> DocumentRecord:
    return DocumentRecord(doc="d.md", sha256="0" * 64, title="Ünïcode — “quotes”\n\tand\u2028breaks",
                          extractor_version="0", rules_version="r", claims=claims,
                          caveats=[Note(kind="k", message="m\nn", quote="q", span=(1, 2))])


@pytest.mark.parametrize("indent", [2, None, 0, 4])
def test_the_record_written_in_pieces_is_the_json_of_the_whole(indent):
    record = extract_text(_table(5) + "\nSo it reached 2.5x the baseline’s “best” speed.\n", "t.md", timeout=0)
    odd = _record(record.claims[:2])
    odd.claims[0].conditions = {"batch_or_concurrency": Condition(status="stated", value={"min": 1, "max": [2, {}]},
                                                                  quote="1–2", span=(3, 5), note="a\nb")}
    for rec in (record, odd, _record([])):
        whole = json.dumps(rec.model_dump(mode="json"), indent=indent, ensure_ascii=False, allow_nan=False)
        assert record_json(rec, indent) == "".join(record_json_chunks(rec, indent)) == whole
    assert len(list(record_json_chunks(record, indent))) > len(record.claims)   # a piece per claim at least
