"""A finished corpus shared read-only can be read: `query`, `export`, `report` and `eval` never write, and work
on a read-only file, in a read-only folder (where SQLite cannot make the WAL's -shm file) or on a read-only
mount. Run as an unprivileged user when the suite runs as root (root ignores file modes)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from extractor.corpus.batch import run_batch

pytestmark = pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX file modes")
NOBODY = 65534
REPO = Path(__file__).resolve().parents[2]
POST = "# Bench\n\nWe reached 4,200 tokens/s on two H100 GPUs at batch size 32 with vLLM 0.6.\n"


def as_reader(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`benchclaims ARGS` as a user who cannot write the files (root would write anything)."""
    drop: list[str] = []
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv: file modes would not apply")
        drop = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    env = {**os.environ, "HOME": str(cwd)}
    return subprocess.run([*drop, sys.executable, "-m", "extractor", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd, env=env)


@pytest.fixture
def shared_corpus():
    """A store written by a batch, then made read-only with its folder; in a folder everyone can enter."""
    top = Path(tempfile.mkdtemp(prefix="benchclaims-ro-"))
    top.chmod(0o755)
    folder = top / "corpus"
    (top / "posts").mkdir()
    (top / "posts" / "bench.md").write_text(POST, encoding="utf-8")
    folder.mkdir()
    summary = run_batch([top / "posts"], db=folder / "claims.db", progress=False)
    assert summary.new == 1 and summary.claims >= 1
    assert sorted(p.name for p in folder.iterdir()) == ["claims.db"]   # the WAL files went with the writer
    out = top / "out"
    out.mkdir()
    out.chmod(0o777)
    yield top
    for p in (folder, folder / "claims.db"):
        p.chmod(0o755)
    shutil.rmtree(top)


@pytest.mark.parametrize("folder_mode", [0o555, 0o777], ids=["read-only-folder", "writable-folder"])
def test_query_export_report_read_a_read_only_store(shared_corpus, folder_mode):
    db = shared_corpus / "corpus" / "claims.db"
    before = db.read_bytes()
    db.chmod(0o444)
    db.parent.chmod(folder_mode)
    out = shared_corpus / "out"
    runs = {
        "query": as_reader("query", "--db", str(db), "--count", cwd=out),
        "export": as_reader("export", "--db", str(db), "--format", "csv", "-o", str(out / "c.csv"), cwd=out),
        "report": as_reader("report", "--db", str(db), "-o", str(out / "r.html"), cwd=out),
    }
    for name, r in runs.items():
        assert r.returncode == 0, (name, r.stderr)
        assert "readonly" not in r.stderr
    assert runs["query"].stdout.strip() not in ("", "0")
    assert "4200" in (out / "c.csv").read_text(encoding="utf-8")
    assert (out / "r.html").stat().st_size > 0
    assert db.read_bytes() == before                     # not one byte written
    assert sorted(p.name for p in db.parent.iterdir()) == ["claims.db"] or folder_mode == 0o777


def test_a_non_database_is_still_refused_read_only():
    top = Path(tempfile.mkdtemp(prefix="benchclaims-ro-"))
    try:
        top.chmod(0o755)
        junk = top / "junk.db"
        junk.write_bytes(b"not SQLite\n" * 200)
        r = as_reader("query", "--db", str(junk), "--count", cwd=top)
        assert r.returncode == 2 and "not a usable benchclaims database" in r.stderr
    finally:
        shutil.rmtree(top)


def test_eval_reads_read_only_gold_and_documents(tmp_path):
    top = Path(tempfile.mkdtemp(prefix="benchclaims-ro-"))
    try:
        top.chmod(0o755)
        gold, docs = top / "gold", top / "docs"
        shutil.copytree(REPO / "corpus" / "gold", gold)
        docs.mkdir()
        for g in gold.iterdir():
            shutil.copy(REPO / "corpus" / g.name.removesuffix(".json"), docs)
        for p in [*gold.iterdir(), *docs.iterdir()]:
            p.chmod(0o444)
        gold.chmod(0o555)
        docs.chmod(0o555)
        r = as_reader("eval", "--gold", str(gold), "--docs", str(docs), cwd=top)
        assert r.returncode == 0, r.stderr
        assert "recall" in r.stdout.lower()
    finally:
        for p in (top / "gold", top / "docs"):
            p.chmod(0o755)
        shutil.rmtree(top)
