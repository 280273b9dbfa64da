"""kill -9 in the middle of `benchclaims batch`, run again: exactly the rows of an uninterrupted run."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from extractor.corpus.batch import run_batch
from store_checks import stored_documents

N_POSTS = 150


def write_posts(folder: Path, n: int) -> None:
    """Synthetic posts of a few KB each (own wording)."""
    folder.mkdir()
    for i in range(n):
        rows = "\n".join(f"| {c} | {c * (900 + i)} | {40 + c + i % 11} |" for c in (1, 4, 16, 64))
        prose = (f"We pushed a {7 + i % 60}B model through {1 + i % 8} accelerators and logged "
                 f"{2 * i + 500} tokens/s at {i % 32 + 1} concurrent users. ") * 12
        (folder / f"bench-{i:04d}.md").write_text(
            f"# Run {i}\n\n{prose}\n\n## Sweep\n\n| users | tok/s | TPOT (ms) |\n|---|---|---|\n{rows}\n",
            encoding="utf-8")




def batch_cmd(folder: Path, db: Path) -> list[str]:
    return [sys.executable, "-m", "extractor", "batch", str(folder), "--db", str(db), "--jobs", "2"]


def test_batch_sigkill_then_rerun_matches_uninterrupted_run(db_rows, tmp_path):
    folder = tmp_path / "posts"
    write_posts(folder, N_POSTS)
    db = tmp_path / "killed.db"
    proc = subprocess.Popen(batch_cmd(folder, db), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while stored_documents(db) < 5 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)   # its worker processes (own session)
        except ProcessLookupError:
            pass
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, "batch finished before it could be killed"
    at_kill = stored_documents(db)
    print("documents stored when killed:", at_kill)
    assert 0 < at_kill < N_POSTS

    rerun = subprocess.run(batch_cmd(folder, db), capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{N_POSTS - at_kill} new, 0 changed, {at_kill} skipped, 0 failed" in rerun.stdout

    clean = tmp_path / "clean.db"
    run_batch([folder], db=clean, jobs=2, progress=False)
    assert db_rows(db) == db_rows(clean)
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(DISTINCT path), count(*) FROM documents").fetchone() == \
        (N_POSTS, N_POSTS)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
