"""`benchclaims diff` and `benchclaims rerun`: formats, output file, exit codes as diff(1)."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from extractor.api import extract_path
from extractor.cli import app
from extractor.records import Claim, DocumentRecord

runner = CliRunner()


def claim(value: float, quote: str, start: int = 0, metric: str = "throughput") -> Claim:
    return Claim(metric=metric, value=value, unit="token / second", quote=quote, span=(start, start + len(quote)))


def record(doc: str, claims: list[Claim]) -> DocumentRecord:
    return DocumentRecord(doc=doc, path=f"p/{doc}", sha256="f" * 64, extractor_version="0.1", rules_version="r",
                          claims=claims)


def write_jsonl(path, records):
    path.write_text("".join(r.model_dump_json() + "\n" for r in records), encoding="utf-8")
    return str(path)


def sides(tmp_path):
    old = write_jsonl(tmp_path / "old.jsonl", [record("a.md", [claim(300, "300 tok/s at batch 8"),
                                                               claim(75, "75 tok/s single stream", 100)])])
    new = write_jsonl(tmp_path / "new.jsonl", [record("a.md", [claim(310, "310 tok/s at batch 8")])])
    return old, new


def test_identical_sides_exit_0(tmp_path):
    old, _ = sides(tmp_path)
    res = runner.invoke(app, ["diff", old, old])
    assert res.exit_code == 0, res.output
    assert "no differences" in res.output


def test_differences_exit_1_with_text_report(tmp_path):
    old, new = sides(tmp_path)
    res = runner.invoke(app, ["diff", old, new])
    assert res.exit_code == 1
    assert "claims:    +0 added, -1 removed, ~1 changed" in res.output
    assert "value: 300 -> 310" in res.output
    assert "\x1b[" not in res.output           # not a terminal: no colour


def test_fail_on_restricts_the_kinds_that_fail(tmp_path):
    old, new = sides(tmp_path)
    assert runner.invoke(app, ["diff", old, new, "--fail-on", "added"]).exit_code == 0
    assert runner.invoke(app, ["diff", old, new, "--fail-on", "added,removed"]).exit_code == 1
    assert runner.invoke(app, ["diff", old, new, "--fail-on", "changed"]).exit_code == 1
    res = runner.invoke(app, ["diff", old, new, "--fail-on", "moved"])
    assert res.exit_code == 2 and "unknown kind(s) moved" in res.output


def test_json_and_html_to_file(tmp_path):
    old, new = sides(tmp_path)
    res = runner.invoke(app, ["diff", old, new, "--format", "json"])
    data = json.loads(res.output)
    assert data["summary"]["claims"]["changed"] == 1
    out = tmp_path / "report.html"
    res = runner.invoke(app, ["diff", old, new, "--format", "html", "-o", str(out)])
    assert res.exit_code == 1 and res.output == f"wrote {out} (diff report, html)\n"
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_errors_exit_2(tmp_path):
    old, _ = sides(tmp_path)
    res = runner.invoke(app, ["diff", old, str(tmp_path / "missing.jsonl")])
    assert res.exit_code == 2 and "missing.jsonl: no such file" in res.output
    res = runner.invoke(app, ["diff", old, old, "--format", "xml"])
    assert res.exit_code == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text("[1, 2\n", encoding="utf-8")
    res = runner.invoke(app, ["diff", old, str(bad)])
    assert res.exit_code == 2 and "bad.jsonl: line 1: not JSON" in res.output


def _posts(tmp_path):
    docs = tmp_path / "posts"
    docs.mkdir()
    (docs / "one.md").write_text("# Results\n\nThe server sustains 4,200 tokens per second on 2x L40S.\n",
                                 encoding="utf-8")
    (docs / "two.txt").write_text("Median TTFT was 180 ms under 32 concurrent users.\n", encoding="utf-8")
    return [extract_path(p) for p in sorted(docs.iterdir())]


def test_rerun_of_an_unchanged_run_has_no_differences(tmp_path):
    saved = write_jsonl(tmp_path / "saved.jsonl", _posts(tmp_path))
    res = runner.invoke(app, ["rerun", "--against", saved])
    assert res.exit_code == 0, res.output
    assert "documents: 2 compared" in res.output


def test_rerun_reports_what_changed_since_the_saved_run(tmp_path):
    records = _posts(tmp_path)
    stale = records[0].model_copy(update={"claims": records[0].claims + [claim(1.0, "a claim the rules dropped",
                                                                              9000, metric="other")]})
    saved = write_jsonl(tmp_path / "saved.jsonl", [stale, records[1]])
    res = runner.invoke(app, ["rerun", "--against", saved, "--format", "json"])
    assert res.exit_code == 1
    data = json.loads(res.output)
    [doc] = data["documents"]
    assert doc["doc"] == "one.md" and [c["kind"] for c in doc["claims"]] == ["removed"]
    assert doc["claims"][0]["old"]["quote"] == "a claim the rules dropped"


def test_rerun_with_a_missing_source_file_exits_2(tmp_path):
    records = _posts(tmp_path)
    saved = write_jsonl(tmp_path / "saved.jsonl", records)
    (tmp_path / "posts" / "two.txt").unlink()
    res = runner.invoke(app, ["rerun", "--against", saved])
    assert res.exit_code == 2
    assert "two.txt" in res.output and "no longer exists" in res.output


def test_rerun_rules_must_be_a_folder(tmp_path):
    saved = write_jsonl(tmp_path / "saved.jsonl", _posts(tmp_path))
    res = runner.invoke(app, ["rerun", "--against", saved, "--rules", str(tmp_path / "nowhere")])
    assert res.exit_code == 2 and "is not a folder" in res.output


def test_rerun_in_parallel_and_with_the_changed_posts_audit_pages(tmp_path):
    import shutil
    from pathlib import Path

    from extractor.api import get_extractor

    corpus = Path(__file__).resolve().parents[2] / "corpus"
    posts = tmp_path / "posts"
    posts.mkdir()
    for name in ("figure-caption-footnote.md", "html-results-table.html", "plain-text-cost.txt"):
        shutil.copy(corpus / name, posts / name)
    before = tmp_path / "before.jsonl"
    assert runner.invoke(app, ["batch", str(posts), "--db", str(tmp_path / "c.db"), "--jsonl", str(before)]).exit_code == 0
    rules = tmp_path / "rules"   # an edit: SGLang is no longer a known engine name
    shutil.copytree(get_extractor().rules_dir, rules, ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    engines = rules / "gazetteers" / "engines.jsonl"
    engines.write_text("".join(line for line in engines.read_text(encoding="utf-8").splitlines(keepends=True)
                               if '"pattern": "SGLang"' not in line), encoding="utf-8")
    one = runner.invoke(app, ["rerun", "--against", str(before), "--rules", str(rules), "-f", "json"])
    two = runner.invoke(app, ["rerun", "--against", str(before), "--rules", str(rules), "-f", "json", "-j", "2"])
    assert one.exit_code == two.exit_code == 1 and one.stdout == two.stdout
    changed = {d["doc"] for d in json.loads(one.stdout)["documents"]}
    assert changed and "plain-text-cost.txt" not in changed
    site = tmp_path / "site"
    site.mkdir()
    res = runner.invoke(app, ["rerun", "--against", str(before), "--rules", str(rules), "-f", "html",
                              "-o", str(site / "diff.html"), "--audit-pages"])
    assert res.exit_code == 1 and f"wrote {len(changed)} audit pages of changed posts" in res.output
    assert sorted(p.name for p in site.glob("*.audit.html")) == sorted(f"{Path(d).stem}.audit.html" for d in changed)
    page = (site / "diff.html").read_text(encoding="utf-8")
    assert all(f'href="{Path(d).stem}.audit.html' in page for d in changed)
