"""A batch stopped before its end (Ctrl-C, SIGTERM, SIGHUP, a full disk) says in one line what was stored and
what was not; the same command then resumes, and the store ends equal to an uninterrupted run."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from extractor.corpus import store as store_module
from extractor.corpus.batch import run_batch
from store_checks import stored_documents
from extractor.corpus.stopping import BatchStopped

POST = "# Log {i}\n\nThe cluster sustained {n} tokens/s on eight MI300X GPUs at batch size 16.\n"
N = 400
STOP_LINE = ("documents to extract were stored", "were not", "run the same command again to resume")


def write_posts(folder: Path, n: int = N) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (folder / f"log-{i:04d}.md").write_text(POST.format(i=i, n=3000 + i), encoding="utf-8")



@pytest.fixture(scope="module")
def posts_and_clean_store(tmp_path_factory) -> tuple[Path, Path]:
    """The N posts and the store of an uninterrupted batch over them, made once for the signal cases (each
    stops and resumes a store of its own over these posts, which no case changes)."""
    root = tmp_path_factory.mktemp("stops")
    folder = root / "posts"
    write_posts(folder)
    clean = root / "clean.db"
    run_batch([folder], db=clean, jobs=1, progress=False)
    return folder, clean


def batch(folder: Path, db: Path, jobs: int) -> list[str]:
    return [sys.executable, "-m", "extractor", "batch", str(folder), "--db", str(db), "--jobs", str(jobs)]


@pytest.mark.skipif(sys.platform != "linux", reason="signals to a process group")
@pytest.mark.parametrize("sig,jobs,code,words", [
    (signal.SIGINT, 2, 130, "Ctrl-C"),    # the terminal sends Ctrl-C to the whole group: workers too
    (signal.SIGTERM, 1, 143, "SIGTERM"),
    (signal.SIGHUP, 2, 129, "SIGHUP"),
])
def test_a_signal_mid_batch_stops_with_one_line_and_the_same_command_resumes(tmp_path, db_rows, sig, jobs,
                                                                            code, words, posts_and_clean_store):
    folder, clean = posts_and_clean_store
    db = tmp_path / "stopped.db"
    proc = subprocess.Popen(batch(folder, db, jobs), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while stored_documents(db) < 20 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert proc.poll() is None, "the batch ended before it could be stopped"
    os.killpg(proc.pid, sig)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == code
    lines = [ln for ln in err.strip().splitlines() if ln.startswith("benchclaims: ")]
    assert len(lines) == 1 and "Traceback" not in err and "OperationalError" not in err, err   # one line
    line = lines[0]
    assert line.startswith("benchclaims: stopped by ") and words in line and all(w in line for w in STOP_LINE)
    stored = stored_documents(db)
    assert f": {stored} of {N} documents to extract were stored, {N - stored} were not" in line

    again = subprocess.run(batch(folder, db, jobs), capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"{N - stored} new, 0 changed, {stored} skipped, 0 failed" in again.stdout
    assert db_rows(db) == db_rows(clean)


def test_a_full_disk_stops_the_batch_with_one_line_and_the_store_intact(tmp_path, db_rows, monkeypatch):
    """SQLite's own SQLITE_FULL (the page limit of the connection reached), not a faked exception."""
    folder = tmp_path / "posts"
    write_posts(folder, 60)
    db = tmp_path / "full.db"
    opened = store_module.Store.__init__

    def small_disk(self, path="claims.db"):
        opened(self, path)
        pages = self.conn.execute("PRAGMA page_count").fetchone()[0]
        self.conn.execute(f"PRAGMA max_page_count={pages + 12}")

    monkeypatch.setattr(store_module.Store, "__init__", small_disk)
    with pytest.raises(BatchStopped) as stop:
        run_batch([folder], db=db, jobs=1, progress=False)
    message = str(stop.value)
    assert message.startswith("stopped: the disk is full (database or disk is full): ")
    assert "run the same command again to resume" in message
    stored = stored_documents(db)
    assert 0 < stored < 60 and f"{stored} of 60 documents to extract were stored" in message
    assert sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone() == ("ok",)

    monkeypatch.setattr(store_module.Store, "__init__", opened)   # space again: the same run resumes
    summary = run_batch([folder], db=db, jobs=1, progress=False)
    assert (summary.new, summary.skipped, summary.failed) == (60 - stored, stored, 0)
    clean = tmp_path / "clean.db"
    run_batch([folder], db=clean, jobs=1, progress=False)
    assert db_rows(db) == db_rows(clean)
