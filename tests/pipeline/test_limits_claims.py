"""The cap on candidate claims per document: configurable by argument and environment, refused early with a
message naming the limit, recorded as a failed document in a batch (nothing lost silently)."""
from __future__ import annotations

import json
import sqlite3
import time

import pytest

from extractor import api, limits
from extractor.corpus.batch import run_batch
from extractor.errors import TooManyClaims


def results(n: int) -> str:
    """One paragraph of `n` results, each its own sentence (our own wording)."""
    return "".join(f"The next run served {100 + i} tokens per second. " for i in range(n))


def test_a_document_over_the_cap_is_refused_naming_the_limit():
    with pytest.raises(TooManyClaims) as err:
        api.extract_text(results(60), "many.md", max_claims=50, timeout=0)
    assert err.value.kind == "too_many_claims"
    assert "many.md" in str(err.value) and "limit of 50 candidate claims" in str(err.value)
    assert limits.MAX_CLAIMS_ENV in str(err.value)


def test_under_the_cap_or_without_one_every_claim_is_kept():
    assert len(api.extract_text(results(60), "ok.md", max_claims=60, timeout=0).claims) == 60
    assert len(api.extract_text(results(60), "ok.md", max_claims=0, timeout=0).claims) == 60


def test_the_cap_from_the_environment(monkeypatch):
    monkeypatch.setenv(limits.MAX_CLAIMS_ENV, "20")
    with pytest.raises(TooManyClaims, match="limit of 20 "):
        api.extract_text(results(30), "env.md", timeout=0)
    assert len(api.extract_text(results(30), "env.md", max_claims=40, timeout=0).claims) == 30  # argument wins
    monkeypatch.setenv(limits.MAX_CLAIMS_ENV, "0")
    assert len(api.extract_text(results(30), "env.md", timeout=0).claims) == 30
    for bad in ("-3", "many", "2.5"):
        monkeypatch.setenv(limits.MAX_CLAIMS_ENV, bad)
        with pytest.raises(limits.LimitError, match=limits.MAX_CLAIMS_ENV):
            api.extract_text(results(3), "env.md", timeout=0)


def test_the_default_cap_is_generous_for_real_posts():
    # the largest real posts hold a few hundred claims
    assert limits.max_claims() == limits.DEFAULT_MAX_CLAIMS >= 5_000
    assert len(api.extract_text(results(500), "long.md", timeout=0).claims) == 500


@pytest.mark.parametrize("text", [
    "".join(f"Throughput is {i} tok/s. " for i in range(100_000)),              # one paragraph of results
    "".join(f"## Part {i}\n\nThroughput is {i} tok/s.\n\n" for i in range(30_000)),   # a result per heading
], ids=["100k-sentences", "30k-headings"])
def test_generated_lists_of_results_are_refused_fast(text):
    t0 = time.process_time()
    with pytest.raises(TooManyClaims, match="candidate claims"):
        api.extract_text(text, "bait.md", timeout=0)
    assert time.process_time() - t0 < 10


def test_a_batch_records_the_refused_document_and_stores_the_others(tmp_path, monkeypatch):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "many.md").write_text(results(40), encoding="utf-8")
    (folder / "few.md").write_text(results(3), encoding="utf-8")
    monkeypatch.setenv(limits.MAX_CLAIMS_ENV, "30")
    db = tmp_path / "c.db"
    summary = run_batch([folder], db=db, progress=False)
    assert (summary.total, summary.failed) == (2, 1)
    rows = dict(sqlite3.connect(db).execute("SELECT path, record_json FROM documents").fetchall())
    err = json.loads(rows[str(folder / "many.md")])
    assert err["kind"] == "too_many_claims" and "limit of 30 candidate claims" in err["error"]
    assert len(json.loads(rows[str(folder / "few.md")])["claims"]) == 3
