"""Alignment of documents and claims, and the per-field diff, over hand-built records."""
from __future__ import annotations

from extractor.review.diff import align_claims, claim_keys, diff_records
from extractor.records import Claim, ClaimContext, Condition, DocumentRecord, Note

SHA_A, SHA_B = "a" * 64, "b" * 64


def claim(metric: str, value: float, quote: str, start: int, unit: str = "token / second", **kw) -> Claim:
    return Claim(metric=metric, value=value, unit=unit, quote=quote, span=(start, start + len(quote)), **kw)


def record(doc: str, claims: list[Claim], sha: str = SHA_A, path: str | None = "", **kw) -> DocumentRecord:
    return DocumentRecord(doc=doc, path=f"posts/{doc}" if path == "" else path, sha256=sha,
                          extractor_version="0.1", rules_version="r1", claims=claims, **kw)


def base_claims() -> list[Claim]:
    return [
        claim("throughput", 1850, "serves 1,850 output tokens per second on one H100", 40,
              tokens="output", per="gpu", conditions={
                  "model": Condition(status="stated", value="Mistral-7B"),
                  "warmup": Condition(status="unrecoverable", where="harness log")}),
        claim("ttft", 95, "median time to first token stays at 95 ms", 300, unit="millisecond"),
        claim("speedup", 3.1, "3.1x higher throughput than the stock server", 520, unit="x",
              baseline="stock server"),
    ]


def test_identical_runs_have_no_differences():
    old = [record("p.md", base_claims())]
    new = [record("p.md", base_claims())]
    report = diff_records(old, new)
    assert not report.has_differences()
    assert report.documents == []
    assert report.summary.claims == {"added": 0, "removed": 0, "changed": 0, "unchanged": 3}
    assert report.summary.documents["unchanged"] == 1


def test_value_and_condition_changes_are_named_per_field():
    new_claims = base_claims()
    new_claims[0] = claim("throughput", 1850, "serves 1,850 output tokens per second on one H100", 40,
                          tokens="total", per="gpu", conditions={
                              "model": Condition(status="stated", value="Mistral-7B-Instruct"),
                              "warmup": Condition(status="unrecoverable", where="benchmark command line")})
    new_claims[2] = claim("speedup", 3.1, "3.1x higher throughput than the stock server", 520, unit="x",
                          baseline="stock server", headline=True, qualifier="approx")
    report = diff_records([record("p.md", base_claims())], [record("p.md", new_claims)])
    [doc] = report.documents
    assert [c.kind for c in doc.claims] == ["changed", "changed"]
    assert [f.field for f in doc.claims[0].fields] == [
        "tokens", "conditions.model.value", "conditions.warmup.where"]
    assert [(f.old, f.new) for f in doc.claims[0].fields][1] == ("Mistral-7B", "Mistral-7B-Instruct")
    assert [f.field for f in doc.claims[1].fields] == ["qualifier", "headline"]
    assert report.summary.fields == {"conditions.model.value": 1, "conditions.warmup.where": 1,
                                     "headline": 1, "qualifier": 1, "tokens": 1}
    assert report.summary.claims["unchanged"] == 1
    assert report.kinds_present() == {"changed"}


def test_condition_status_flip_reports_status_value_and_where():
    old = base_claims()
    new = base_claims()
    new[0].conditions["model"] = Condition(status="unrecoverable", where="not named in the post")
    [doc] = diff_records([record("p.md", old)], [record("p.md", new)]).documents
    fields = {f.field: (f.old, f.new) for f in doc.claims[0].fields}
    assert fields == {"conditions.model.status": ("stated", "unrecoverable"),
                      "conditions.model.value": ("Mistral-7B", None),
                      "conditions.model.where": (None, "not named in the post")}


def test_edited_quote_aligns_fuzzily_as_a_change_not_add_remove():
    new_claims = base_claims()
    new_claims[1] = claim("ttft", 90, "median time to first token stays at 90 ms", 300, unit="millisecond")
    report = diff_records([record("p.md", base_claims())], [record("p.md", new_claims)])
    [cd] = report.documents[0].claims
    assert cd.kind == "changed" and cd.match == "fuzzy"
    assert [f.field for f in cd.fields] == ["value", "quote"]


def test_claims_that_moved_align_by_content_not_offsets():
    moved = base_claims()
    # text inserted above: every span shifts, and the document hash changes
    moved = [c.model_copy(update={"span": (c.span[0] + 500, c.span[1] + 500)}) for c in moved]
    report = diff_records([record("p.md", base_claims())], [record("p.md", moved, sha=SHA_B)])
    assert not report.has_differences()
    assert report.summary.documents["hash_changed"] == 1
    [doc] = report.documents          # listed for its hash change only
    assert doc.hash_changed and doc.claims == []


def test_span_change_is_reported_when_the_text_is_unchanged():
    new_claims = base_claims()
    c = new_claims[1]
    new_claims[1] = c.model_copy(update={"span": (c.span[0], c.span[1] + 4)})
    [doc] = diff_records([record("p.md", base_claims())], [record("p.md", new_claims)]).documents
    assert [f.field for f in doc.claims[0].fields] == ["span"]


def test_unrelated_claims_are_added_and_removed_not_paired():
    new_claims = base_claims()
    new_claims[1] = claim("itl", 11, "inter-token latency of 11 ms", 300, unit="millisecond")
    [doc] = diff_records([record("p.md", base_claims())], [record("p.md", new_claims)]).documents
    assert sorted(c.kind for c in doc.claims) == ["added", "removed"]
    assert doc.counts == {"added": 1, "removed": 1, "changed": 0, "unchanged": 2}


def test_repeated_identical_claims_align_by_rank():
    q = "peak of 900 tokens/s"
    old = [claim("throughput", 900, q, 10), claim("throughput", 900, q, 200)]
    assert [k[3] for k in claim_keys(old)] == [0, 1]
    new = [claim("throughput", 900, q, 10)]
    pairs = align_claims(old, new)
    assert (0, 0, "key", 100.0) in pairs and (1, None, None, None) in pairs


def test_fuzzy_assignment_is_greedy_by_score_and_deterministic():
    old = [claim("throughput", 1000, "system A reaches 1,000 tok/s", 0),
           claim("throughput", 2000, "system B reaches 2,000 tok/s", 100)]
    new = [claim("throughput", 2100, "system B reaches 2,100 tok/s", 100),
           claim("throughput", 1100, "system A reaches 1,100 tok/s", 0)]
    new_sorted = sorted(new, key=lambda c: c.span)
    runs = {tuple(align_claims(old, new_sorted)) for _ in range(3)}
    assert len(runs) == 1
    [pairs] = runs
    assert {(i, j) for i, j, _, _ in pairs} == {(0, 0), (1, 1)}


def test_documents_align_by_path_then_doc_name_then_hash():
    old = [record("a.md", base_claims(), path="/old/root/a.md"), record("b.md", [], sha=SHA_B, path="x/b.md"),
           record("gone.md", [], sha="c" * 64)]
    new = [record("a.md", base_claims(), path="/new/root/a.md"),
           record("renamed.md", [], sha=SHA_B, path="x/renamed.md"), record("fresh.md", [], sha="d" * 64)]
    report = diff_records(old, new)
    by_doc = {d.doc: d for d in report.documents}
    assert by_doc["a.md"].status == "common" and by_doc["a.md"].renamed_from == "/old/root/a.md"
    assert by_doc["renamed.md"].status == "common" and by_doc["renamed.md"].renamed_from == "x/b.md"
    assert by_doc["gone.md"].status == "removed" and by_doc["fresh.md"].status == "added"
    assert report.summary.documents == {"compared": 4, "added": 1, "removed": 1, "changed": 0,
                                        "fields_changed": 0, "hash_changed": 0, "unchanged": 2}
    assert report.kinds_present() == {"document"}
    assert report.has_differences() and not report.has_differences({"added", "removed", "changed"})


def test_added_document_counts_its_claims_as_added():
    report = diff_records([], [record("new.md", base_claims())])
    assert report.summary.claims["added"] == 3
    assert report.kinds_present() == {"added", "document"}


def test_document_level_fields_are_compared():
    old = record("p.md", [], title="Fast serving", caveats=[Note(kind="vendor", message="vendor post")])
    new = record("p.md", [], title="Faster serving", caveats=[])
    [doc] = diff_records([old], [new]).documents
    assert [(f.field, f.old, f.new) for f in doc.fields] == [
        ("title", "Fast serving", "Faster serving"), ("caveats", ["vendor: vendor post"], [])]


def test_context_and_ids_do_not_count_as_changes():
    new_claims = [c.model_copy(update={"id": f"x{i}", "context": ClaimContext(section=["Results"])})
                  for i, c in enumerate(base_claims())]
    assert not diff_records([record("p.md", base_claims())], [record("p.md", new_claims)]).has_differences()


def test_table_cell_with_a_new_number_aligns_by_its_row_and_column():
    ctx = ClaimContext(section=["Results"], block="table", row_header="Llama 70B", column_header="TTFT (ms)")
    old = [claim("ttft", 1885.25, "1885.25", 900, unit="millisecond", context=ctx)]
    new = [claim("ttft", 1702.4, "1702.40", 900, unit="millisecond", context=ctx)]
    [doc] = diff_records([record("t.md", old)], [record("t.md", new, sha=SHA_B)]).documents
    [cd] = doc.claims
    assert cd.kind == "changed" and [f.field for f in cd.fields] == ["value", "quote"]
