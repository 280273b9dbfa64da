"""Compare records in tests: failures read as the reviewer's diff; expected files for a corpus.

    assert_records_equal(expected, actual)   # AssertionError message = `benchclaims diff` text
    write_expected(record, path)             # normalised JSON; returns True when the file changed
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from pydantic import BaseModel, ConfigDict, Field

from extractor.review.diff import diff_records
from extractor.review.render import render_text
from extractor.records import DocumentRecord

VOLATILE: tuple[str, ...] = ("path", "extractor_version", "rules_version")
KNOWN_WRONG = "known_wrong"   # the key of an expected-record file that lists its known-wrong results


def normalise(record: DocumentRecord, ignore: Iterable[str] = VOLATILE) -> DocumentRecord:
    """The record with volatile document fields blanked (None for optional ones, '' otherwise)."""
    blank = {f: (None if f == "path" else "") for f in ignore}
    return record.model_copy(update=blank)


def _deep_diff(a: Any, b: Any, where: str = "") -> list[str]:
    """JSON paths where two plain JSON values differ (fallback for fields the claim diff does not cover)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            out += _deep_diff(a.get(k), b.get(k), f"{where}.{k}" if where else str(k))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += _deep_diff(x, y, f"{where}[{i}]")
        return out
    return [] if a == b else [f"{where}: {json.dumps(a, ensure_ascii=False)} -> {json.dumps(b, ensure_ascii=False)}"]


def records_diff_text(expected: list[DocumentRecord], actual: list[DocumentRecord],
                      ignore: Iterable[str] = VOLATILE) -> str | None:
    """None when the records are equal (volatile fields ignored), else the diff text a reviewer reads."""
    ignore = tuple(ignore)
    exp = [normalise(r, ignore) for r in expected]
    act = [normalise(r, ignore) for r in actual]
    report = diff_records(exp, act, old_label="expected", new_label="actual")
    if report.has_differences():
        return render_text(report, color=False)
    rest = []
    for e, a in zip(sorted(exp, key=lambda r: r.doc), sorted(act, key=lambda r: r.doc)):
        rest += [f"{e.doc}: {line}" for line in _deep_diff(e.model_dump(mode="json"), a.model_dump(mode="json"))]
    if rest:
        return "records differ outside the reviewed fields:\n" + "\n".join(f"  {line}" for line in rest) + "\n"
    return None


def assert_records_equal(expected: DocumentRecord | list[DocumentRecord],
                         actual: DocumentRecord | list[DocumentRecord],
                         ignore: Iterable[str] = VOLATILE) -> None:
    """Raise AssertionError with the terminal diff text when the records differ."""
    exp = [expected] if isinstance(expected, DocumentRecord) else list(expected)
    act = [actual] if isinstance(actual, DocumentRecord) else list(actual)
    text = records_diff_text(exp, act, ignore)
    if text is not None:
        raise AssertionError("\n" + text)


class KnownWrong(BaseModel):
    """A result an expected-record file holds although it is known to be wrong: the golden file snapshots
    it (so any other change still shows) without blessing it. `gap` names the analyst-true expectation
    the result fails (a case id of tests/pipeline/test_corpus_claims.py); `reason` says what is wrong."""

    model_config = ConfigDict(extra="forbid")

    gap: str
    reason: str = Field(min_length=1)


def expected_json(record: DocumentRecord, ignore: Iterable[str] = VOLATILE,
                  known_wrong: list[KnownWrong] = ()) -> str:
    """The stable text of an expected-record file (volatile fields blanked, its `known_wrong` marks last,
    trailing newline)."""
    data = normalise(record, ignore).model_dump(mode="json")
    if known_wrong:
        data[KNOWN_WRONG] = [k.model_dump() for k in known_wrong]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def read_expected(path: Path) -> DocumentRecord:
    """The record of an expected-record file (its `known_wrong` marks aside)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    data.pop(KNOWN_WRONG, None)
    return DocumentRecord.model_validate(data)


def read_known_wrong(path: Path) -> list[KnownWrong]:
    """The `known_wrong` marks of an expected-record file (none when it has none)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return [KnownWrong.model_validate(k) for k in data.get(KNOWN_WRONG, [])]


def write_expected(record: DocumentRecord, path: Path) -> bool:
    """Write the expected record when its text differs, keeping the file's `known_wrong` marks; True when
    the file was (re)written."""
    path = Path(path)
    text = expected_json(record, known_wrong=read_known_wrong(path) if path.exists() else [])
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True
