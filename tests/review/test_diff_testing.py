"""assert_records_equal: failures read as the reviewer's diff; expected-record files round-trip."""
from __future__ import annotations

import pytest

from extractor.review.diff import diff_records
from extractor.review.render import render_text
from extractor.review.testing import (assert_records_equal, expected_json, normalise, read_expected,
                                    write_expected)
from extractor.records import Claim, Condition, DocumentRecord


def rec(value: float = 96.0, **kw) -> DocumentRecord:
    quote = f"batch-1 latency of {value:g} ms"
    fields = dict(doc="lat.md", path="corpus/lat.md", sha256="9" * 64, extractor_version="0.1",
                  rules_version="r1",
                  claims=[Claim(metric="latency", value=value, unit="millisecond", quote=quote,
                                span=(0, len(quote)),
                                conditions={"hardware": Condition(status="stated", value="A10G", quote="A10G",
                                                                  span=(40, 44))})])
    fields.update(kw)
    return DocumentRecord(**fields)


def test_equal_records_pass_ignoring_volatile_fields():
    assert_records_equal(rec(), rec(path="/elsewhere/lat.md", extractor_version="9.9", rules_version="r2"))


def test_failure_message_is_the_reviewer_diff_text():
    with pytest.raises(AssertionError) as info:
        assert_records_equal(rec(96), rec(104))
    expected_text = render_text(diff_records([normalise(rec(96))], [normalise(rec(104))],
                                             old_label="expected", new_label="actual"))
    assert str(info.value) == "\n" + expected_text
    assert "value: 96 -> 104" in str(info.value)


def test_differences_outside_reviewed_fields_still_fail():
    other = rec()
    other.claims[0].conditions["hardware"] = Condition(status="stated", value="A10G", quote="A10G", span=(50, 54))
    with pytest.raises(AssertionError, match=r"lat\.md: claims\[0\]\.conditions\.hardware\.span\[0\]: 40 -> 50"):
        assert_records_equal(rec(), other)


def test_expected_files_are_normalised_and_rewritten_only_on_change(tmp_path):
    target = tmp_path / "expected" / "lat.json"
    assert write_expected(rec(), target) is True
    assert write_expected(rec(rules_version="r7"), target) is False
    text = target.read_text(encoding="utf-8")
    assert text == expected_json(rec()) and '"rules_version": ""' in text and '"path": null' in text
    assert_records_equal(read_expected(target), rec())
    assert write_expected(rec(120), target) is True
    assert read_expected(target).claims[0].value == 120


def test_known_wrong_marks_are_kept_on_rewrite_and_are_not_part_of_the_record(tmp_path):
    from extractor.review.testing import KnownWrong, read_known_wrong
    target = tmp_path / "doc.json"
    mark = KnownWrong(gap="doc.md::claim::x", reason="the 192 GB is not a claim")
    target.write_text(expected_json(rec(), known_wrong=[mark]), encoding="utf-8")
    assert read_known_wrong(target) == [mark]
    assert_records_equal(read_expected(target), rec())
    assert write_expected(rec(120), target) is True
    assert read_known_wrong(target) == [mark] and read_expected(target).claims[0].value == 120
