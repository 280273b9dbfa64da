"""Rendering a diff: terminal text (colour rules), stable JSON, self-contained HTML with highlights."""
from __future__ import annotations

import io
import json
import re

from extractor.review.diff import diff_records
from extractor.review.render import render_json, render_text, use_color
from extractor.review.render_html import highlight_pair, render_html
from extractor.records import Claim, Condition, DocumentRecord


def claim(metric, value, quote, start, unit="token / second", **kw):
    return Claim(metric=metric, value=value, unit=unit, quote=quote, span=(start, start + len(quote)), **kw)


def record(doc, claims, sha="1" * 64):
    return DocumentRecord(doc=doc, path=f"blog/{doc}", sha256=sha, extractor_version="0.1",
                          rules_version="r", claims=claims)


def sample_report():
    old = [record("serve.md", [
        claim("throughput", 640, "decoding reaches 640 tok/s per user", 12, per="user",
              conditions={"engine_version": Condition(status="stated", value="v0.6.2")}),
        claim("e2e_latency", 2.4, "end-to-end latency <2.4 s> at p99", 200, unit="second"),
    ]), record("old-only.md", [claim("speedup", 2, "2x over eager mode", 3, unit="x")])]
    new = [record("serve.md", [
        claim("throughput", 690, "decoding reaches 690 tok/s per user", 12, per="user",
              conditions={"engine_version": Condition(status="unrecoverable", where="release notes")}),
        claim("accuracy", 71.5, "MMLU accuracy of 71.5% is unchanged", 400, unit="percent"),
    ])]
    return diff_records(old, new, old_label="runA.jsonl", new_label="runB.jsonl")


def test_text_summary_counts_per_kind_field_and_document():
    text = render_text(sample_report())
    assert "\x1b[" not in text
    lines = text.splitlines()
    assert lines[0] == "diff runA.jsonl -> runB.jsonl"
    assert "documents: 2 compared, 1 changed, 0 added, 1 removed, 0 unchanged" in text
    assert "claims:    +1 added, -2 removed, ~1 changed, 0 unchanged" in text
    assert re.search(r"^  conditions\.engine_version\.status\s+1$", text, re.M)
    assert re.search(r"^  value\s+1$", text, re.M)
    assert "== serve.md (blog/serve.md)  claims +1, -1, ~1" in text
    assert '      value: 640 -> 690' in text
    assert '      conditions.engine_version.where: (none) -> "release notes"' in text
    assert "== old-only.md (blog/old-only.md) [document removed]" in text
    # the summary precedes the per-document section
    assert text.index("fields changed:") < text.index("== serve.md")


def test_colour_only_on_a_tty_and_never_with_no_color(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(Tty()) and not use_color(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(Tty())
    coloured = render_text(sample_report(), color=True)
    assert "\x1b[32m+1 added\x1b[0m" in coloured
    assert re.sub(r"\x1b\[\d+m", "", coloured) == render_text(sample_report())


def test_no_differences_text():
    r = record("same.md", [claim("ttft", 80, "TTFT 80 ms", 0, unit="millisecond")])
    text = render_text(diff_records([r], [r]))
    assert text.rstrip().endswith("no differences")


def test_json_is_stable_and_complete():
    a, b = render_json(sample_report()), render_json(sample_report())
    assert a == b and a.endswith("\n")
    data = json.loads(a)
    assert list(data) == ["old_label", "new_label", "summary", "documents", "errors"]
    assert data["summary"]["claims"] == {"added": 1, "removed": 2, "changed": 1, "unchanged": 0}
    assert list(data["summary"]["fields"]) == sorted(data["summary"]["fields"])
    serve = next(d for d in data["documents"] if d["doc"] == "serve.md")
    changed = next(c for c in serve["claims"] if c["kind"] == "changed")
    assert changed["old"]["value"] == 640 and changed["new"]["value"] == 690
    assert {f["field"] for f in changed["fields"]} == {
        "value", "quote", "conditions.engine_version.status", "conditions.engine_version.value",
        "conditions.engine_version.where"}


def test_highlight_marks_only_the_changed_characters_and_escapes():
    o, n = highlight_pair("reaches 640 tok/s <fast>", "reaches 690 tok/s <fast>")
    assert o == 'reaches 6<del class="hl">4</del>0 tok/s &lt;fast&gt;'
    assert n == 'reaches 6<ins class="hl">9</ins>0 tok/s &lt;fast&gt;'


def test_html_is_self_contained_with_filters_and_escaped_text():
    page = render_html(sample_report())
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "<link" not in page and "@import" not in page and "url(" not in page
    for kind in ("all", "added", "removed", "changed"):
        assert f'data-filter="{kind}"' in page
    assert page.count('<tbody class="chg') == 4
    assert 'class="chg changed" data-kind="changed"' in page
    assert "latency &lt;2.4 s&gt; at p99" in page and "<2.4 s>" not in page
    assert '6<del class="hl">4</del>0' in page and '6<ins class="hl">9</ins>0' in page
    assert "<script>" in page and 'id="filter-status"' in page
