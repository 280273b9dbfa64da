"""A parallel batch survives a lost worker: its documents are tried again alone, the store ends complete
and identical to a clean run, and the summary line says what happened."""
from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from extractor.corpus.batch import run_batch
from store_checks import stored_documents
from extractor.corpus.runners import chunks, run_pool

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="kills forked pool workers")

POST = "# Note {i}\n\nThe gateway served {n} requests/s on four H100 GPUs with 64 concurrent users.\n"


def write_posts(folder: Path, n: int) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (folder / f"note-{i:04d}.md").write_text(POST.format(i=i, n=200 + i), encoding="utf-8")
    return sorted(str(p) for p in folder.iterdir())


def test_a_pool_broken_between_two_submits_retries_what_it_had_and_goes_on(tmp_path):
    """The worker dies while the batch is about to submit: submit itself raises BrokenProcessPool."""
    paths = write_posts(tmp_path / "posts", 40)

    def work():
        it = chunks(paths, size=4)
        yield next(it)
        for child in multiprocessing.active_children():   # the pool's workers
            os.kill(child.pid, signal.SIGKILL)
        time.sleep(1.0)   # the pool notices and marks itself broken
        yield from it

    outcomes = [o for batch in run_pool(2, None, 1 << 20)(work()) for o in batch]
    assert sorted(o.path for o in outcomes) == paths     # every document once, none lost
    assert all(o.ok for o in outcomes)
    assert any(o.retried for o in outcomes)



def test_batch_with_a_worker_killed_mid_run_ends_complete_and_equal_to_a_clean_run(tmp_path, db_rows):
    folder = tmp_path / "posts"
    n = 600
    write_posts(folder, n)
    db = tmp_path / "killed.db"
    proc = subprocess.Popen([sys.executable, "-m", "extractor", "batch", str(folder), "--db", str(db),
                             "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while stored_documents(db) < 60 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    workers = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
    assert workers and proc.poll() is None, "the batch ended before a worker could be killed"
    os.kill(int(workers[0]), signal.SIGKILL)   # as the kernel's OOM killer would
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert f"{n} documents: {n} new, 0 changed, 0 skipped, 0 failed" in out
    assert "a worker process died:" in out and "0 failed" in out.split("a worker process died:")[1]
    assert "Error" not in err
    clean = tmp_path / "clean.db"
    run_batch([folder], db=clean, jobs=1, progress=False)
    assert db_rows(db) == db_rows(clean)
