"""Regression: every corpus document extracts to its expected record (corpus/expected/<name>.json).

A failure prints the same diff a reviewer reads from `benchclaims diff`. After an intended change,
`pytest tests/pipeline/test_corpus_regression.py --update-expected` rewrites the expected records; review
them with `git diff corpus/expected`. Volatile fields (path, extractor_version, rules_version)
are ignored. A result an expected file holds although it is known to be wrong is listed in the file's
`known_wrong` (with its KNOWN_GAPS case and reason; tests/pipeline/test_corpus_claims.py checks the marks), so a
golden file never silently blesses a bug; `--update-expected` keeps the marks.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from extractor.api import extract_path
from extractor.review.testing import assert_records_equal, read_expected, write_expected

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
EXPECTED = CORPUS / "expected"
SUFFIXES = (".md", ".html", ".txt")


def corpus_documents() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.iterdir() if p.is_file() and p.suffix in SUFFIXES)


def expected_path(doc: Path) -> Path:
    return EXPECTED / f"{doc.stem}.json"


DOCS = corpus_documents()


@pytest.mark.skipif(not DOCS, reason="corpus/ holds no .md/.html/.txt documents yet")
@pytest.mark.parametrize("doc", DOCS, ids=[p.name for p in DOCS])
def test_corpus_document_matches_expected(doc: Path, update_expected: bool):
    actual = extract_path(doc)
    target = expected_path(doc)
    if update_expected:
        write_expected(actual, target)
        return
    if not target.exists():
        pytest.fail(f"{target.relative_to(CORPUS.parent)} is missing; create it with "
                    f"`pytest tests/pipeline/test_corpus_regression.py --update-expected` and review it")
    assert_records_equal(read_expected(target), actual)


def test_every_expected_record_has_its_document():
    if not EXPECTED.is_dir():
        pytest.skip("corpus/expected/ does not exist yet")
    stems = [p.stem for p in DOCS]
    assert len(stems) == len(set(stems)), f"corpus documents share a name: {sorted(stems)}"
    orphans = sorted(p.name for p in EXPECTED.glob("*.json") if p.stem not in set(stems))
    assert not orphans, f"expected records without a corpus document: {orphans}"
