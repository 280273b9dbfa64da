"""Batch runs: walking inputs, incremental skips, rules changes, failures recorded, parallel = serial."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.api import EXTRACTOR_VERSION
from extractor.corpus.batch import collect_paths, current_rules_version, run_batch
from extractor.cli import app
from extractor.records import DocumentError, DocumentRecord
from extractor.rules_io import default_rules_dir

MODELS = ["Mixtral 8x7B", "Llama 3.1 405B", "Qwen2.5 32B", "Gemma 2 27B"]
GPUS = ["A100 80GB", "H100 SXM", "L40S", "MI300X"]


def write_posts(folder: Path, n: int) -> list[Path]:
    """`n` small synthetic benchmark posts (own wording, varied numbers)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        model, gpu = MODELS[i % 4], GPUS[(i // 4) % 4]
        body = (f"# Serving {model} on {gpu}, part {i}\n\n"
                f"With {2 ** (i % 4)} x {gpu} and a batch of {8 * (i % 7 + 1)} requests, the server "
                f"sustained {1000 + 37 * i:,} output tokens per second per GPU.\n\n"
                f"| concurrency | TTFT (ms) |\n|---|---|\n| {i % 9 + 1} | {120 + i} |\n")
        p = folder / (f"post-{i:03d}.md" if i % 3 else f"post-{i:03d}.txt")
        p.write_text(body, encoding="utf-8")
        out.append(p)
    return out



def test_batch_collects_files_folders_and_globs(tmp_path):
    write_posts(tmp_path / "a", 3)
    (tmp_path / "a" / "notes.pdf").write_bytes(b"%PDF")
    (tmp_path / "a" / "sub").mkdir()
    (tmp_path / "a" / "sub" / "x.HTML").write_text("<p>hi</p>")
    (tmp_path / "b.markdown").write_text("# b")
    got = collect_paths([tmp_path / "a", str(tmp_path / "*.markdown"), tmp_path / "a" / "post-001.md"])
    assert [Path(p).relative_to(tmp_path).as_posix() for p in got] == \
        ["a/post-000.txt", "a/post-001.md", "a/post-002.md", "a/sub/x.HTML", "b.markdown"]
    assert collect_paths([tmp_path / "a" / "notes.pdf"]) == [str(tmp_path / "a" / "notes.pdf")]
    with pytest.raises(FileNotFoundError):
        collect_paths([tmp_path / "missing"])


def test_batch_second_run_skips_and_changes_are_reextracted(db_rows, tmp_path):
    posts = write_posts(tmp_path / "posts", 12)
    db = tmp_path / "c.db"
    first = run_batch([tmp_path / "posts"], db=db, progress=False)
    assert (first.total, first.new, first.changed, first.skipped, first.failed) == (12, 12, 0, 0, 0)
    before = db_rows(db)
    second = run_batch([tmp_path / "posts"], db=db, progress=False)
    assert (second.new, second.changed, second.skipped) == (0, 0, 12)
    assert db_rows(db) == before
    posts[5].write_text(posts[5].read_text() + "\nOne more line.\n")
    write_posts(tmp_path / "more", 1)
    third = run_batch([tmp_path / "posts", tmp_path / "more"], db=db, progress=False)
    assert (third.new, third.changed, third.skipped) == (1, 1, 11)
    rec = DocumentRecord.model_validate_json(
        sqlite3.connect(db).execute("SELECT record_json FROM documents WHERE path=?",
                                    (str(posts[5]),)).fetchone()[0])
    assert rec.sha256 != before["documents"][5][2] and rec.extractor_version == EXTRACTOR_VERSION


def test_batch_rules_change_reextracts_everything(tmp_path):
    write_posts(tmp_path / "posts", 6)
    rules = tmp_path / "rules"
    shutil.copytree(default_rules_dir(), rules, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    db = tmp_path / "c.db"
    assert run_batch([tmp_path / "posts"], db=db, rules_dir=rules, progress=False).new == 6
    assert run_batch([tmp_path / "posts"], db=db, rules_dir=rules, progress=False).skipped == 6
    old = current_rules_version(str(rules))
    touched = sorted(p for p in rules.rglob("*") if p.is_file())[0]
    touched.write_bytes(touched.read_bytes() + b"\n# touched\n")
    new = current_rules_version(str(rules))
    assert new != old
    again = run_batch([tmp_path / "posts"], db=db, rules_dir=rules, progress=False)
    assert (again.changed, again.reextracted, again.skipped) == (0, 6, 0)
    assert again.differ == 0    # a comment in a rule file changes no record
    assert "6 re-extracted (0 with different records)" in again.line()
    versions = {r[0] for r in sqlite3.connect(db).execute("SELECT rules_version FROM documents")}
    assert versions == {new}


def test_batch_records_failures_and_goes_on(tmp_path):
    folder = tmp_path / "mixed"
    write_posts(folder, 4)
    (folder / "binary.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 10)
    (folder / "garbled.txt").write_bytes(bytes(range(128, 256)) * 20)
    (folder / "huge.md").write_text("tokens per second " * 400)
    db = tmp_path / "c.db"
    jsonl = tmp_path / "out.jsonl"
    res = CliRunner().invoke(app, ["batch", str(folder), "--db", str(db), "--jsonl", str(jsonl),
                                   "--max-bytes", "4000", "--jobs", "2"])
    assert res.exit_code == 1, res.output
    assert "4 new, 0 changed, 0 skipped, 3 failed" in res.stdout
    failed = dict(sqlite3.connect(db).execute(
        "SELECT doc, error_kind FROM documents WHERE status='failed'").fetchall())
    assert failed == {"binary.md": "unreadable", "garbled.txt": "unreadable", "huge.md": "too_large"}
    lines = jsonl.read_text().splitlines()
    assert len(lines) == 7
    err = DocumentError.model_validate_json(lines[0])
    assert err.doc == "binary.md" and "binary" in err.error
    # failures are retried; a raised size limit lets the large file through
    res = CliRunner().invoke(app, ["batch", str(folder), "--db", str(db), "--max-bytes", "100000"])
    assert res.exit_code == 1 and "1 changed, 4 skipped, 2 failed" in res.stdout


def test_batch_unexpected_exception_is_recorded(tmp_path, monkeypatch):
    write_posts(tmp_path / "p", 3)
    import extractor.api as api

    real = api.extract_path

    def flaky(path, **kw):
        if path.endswith("post-001.md"):
            raise KeyError("bug in a rule component")
        return real(path, **kw)

    monkeypatch.setattr(api, "extract_path", flaky)
    s = run_batch([tmp_path / "p"], db=tmp_path / "c.db", progress=False)
    assert (s.new, s.failed) == (2, 1)
    kind, err = sqlite3.connect(tmp_path / "c.db").execute(
        "SELECT error_kind, error FROM documents WHERE status='failed'").fetchone()
    assert kind == "error" and "KeyError" in err


def test_batch_parallel_equals_serial(db_rows, tmp_path):
    write_posts(tmp_path / "p", 30)
    run_batch([tmp_path / "p"], db=tmp_path / "one.db", jobs=1, progress=False,
              jsonl=tmp_path / "one.jsonl")
    run_batch([tmp_path / "p"], db=tmp_path / "two.db", jobs=2, progress=False,
              jsonl=tmp_path / "two.jsonl")
    assert db_rows(tmp_path / "one.db") == db_rows(tmp_path / "two.db")
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


def test_batch_time_budget_failures_are_recorded(tmp_path):
    write_posts(tmp_path / "p", 3)
    db = tmp_path / "c.db"
    res = CliRunner().invoke(app, ["batch", str(tmp_path / "p"), "--db", str(db), "--timeout", "0.000001"])
    assert res.exit_code == 1 and "0 new, 0 changed, 0 skipped, 3 failed" in res.stdout
    kinds = {k for (k,) in sqlite3.connect(db).execute("SELECT error_kind FROM documents")}
    assert kinds == {"timeout"}
    res = CliRunner().invoke(app, ["batch", str(tmp_path / "p"), "--db", str(db)])
    assert res.exit_code == 0 and "0 new, 0 changed, 3 re-extracted (3 with different records), 0 skipped, 0 failed" in res.stdout


def test_batch_without_input_files_is_an_error(tmp_path):
    (tmp_path / "posts").mkdir()
    (tmp_path / "posts" / "notes.pdf").write_bytes(b"%PDF")
    db = tmp_path / "c.db"
    for args in ([str(tmp_path / "posts" / "*.mdx")], [str(tmp_path / "posts")]):
        res = CliRunner().invoke(app, ["batch", *args, "--db", str(db)])
        assert res.exit_code == 2
        assert res.stderr.startswith("benchclaims: no input files matched " + args[0])
        assert not db.exists()
