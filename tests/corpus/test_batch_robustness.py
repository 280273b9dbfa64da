"""A batch never aborts and never skips silently: dead workers, unreadable folders, undecodable names, orphans."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from extractor import api
from extractor.corpus.batch import run_batch

POST = "# Run {i}\n\nOur server reached {n} tokens/s on two A100 GPUs at batch size 32.\n"


def write_posts(folder: Path, n: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        p = folder / f"post-{i:02d}.md"
        p.write_text(POST.format(i=i, n=1000 + i), encoding="utf-8")
        out.append(p)
    return out


def rows(db: Path) -> dict[str, tuple[str, str | None, str | None]]:
    con = sqlite3.connect(db)
    try:
        return {p: (s, k, e) for p, s, k, e in con.execute("SELECT path, status, error_kind, error FROM documents")}
    finally:
        con.close()


@pytest.mark.skipif(sys.platform != "linux", reason="the pool's workers are forked (they inherit the patch)")
def test_a_worker_that_dies_fails_its_document_and_the_batch_goes_on(tmp_path, monkeypatch):
    posts = write_posts(tmp_path / "posts", 12)
    killer = tmp_path / "posts" / "post-05.md"
    real = api.extract_path

    def dies_on_killer(path, **kw):
        if Path(path).name == killer.name:
            os.kill(os.getpid(), signal.SIGKILL)   # as the kernel's OOM killer would
        return real(path, **kw)

    monkeypatch.setattr(api, "extract_path", dies_on_killer)
    db = tmp_path / "c.db"
    summary = run_batch([tmp_path / "posts"], db=db, jobs=2, progress=False)
    assert (summary.total, summary.new, summary.failed) == (12, 11, 1)
    got = rows(db)
    assert got[str(killer)][:2] == ("failed", "crashed") and "worker process" in got[str(killer)][2]
    assert all(got[str(p)][0] == "ok" for p in posts if p != killer)


def test_unreadable_folder_and_undecodable_name_are_failures_the_rest_is_stored(tmp_path, monkeypatch):
    posts = write_posts(tmp_path / "in" / "ok", 3)
    locked = tmp_path / "in" / "locked"
    write_posts(locked, 1)
    bad_name = os.path.join(os.fsencode(tmp_path / "in" / "ok"), b"caf\xe9.md")
    with open(bad_name, "w", encoding="utf-8") as fh:
        fh.write(POST.format(i=9, n=900))
    locked.chmod(0)
    if os.geteuid() == 0:  # root reads any folder: refuse this one as the kernel would for a user
        real_scandir = os.scandir

        def scandir(path="."):
            if os.fspath(path) == str(locked):
                raise PermissionError(13, "Permission denied", str(locked))
            return real_scandir(path)

        monkeypatch.setattr(os, "scandir", scandir)
    try:
        db = tmp_path / "c.db"
        summary = run_batch([tmp_path / "in"], db=db, progress=False)
    finally:
        locked.chmod(0o755)
    assert (summary.total, summary.new, summary.failed) == (5, 3, 2)
    got = rows(db)
    assert all(got[str(p)][0] == "ok" for p in posts)
    assert got[str(locked)][0] == "failed" and "folder cannot be read" in got[str(locked)][2]
    shown = str(tmp_path / "in" / "ok" / "caf\\xe9.md")
    assert got[shown][0] == "failed" and "not valid UTF-8" in got[shown][2]


def test_cli_batch_exit_1_and_summary_with_a_bad_name(tmp_path):
    write_posts(tmp_path / "in", 2)
    with open(os.path.join(os.fsencode(tmp_path / "in"), b"\xff\xfe.md"), "w") as fh:
        fh.write("x")
    r = subprocess.run([sys.executable, "-m", "extractor", "batch", str(tmp_path / "in"), "--db",
                        str(tmp_path / "c.db")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, r.stderr
    assert "3 documents: 2 new, 0 changed, 0 skipped, 1 failed" in r.stdout
    assert "Traceback" not in r.stderr


def test_special_files_named_in_a_batch_are_recorded_not_hung(tmp_path):
    write_posts(tmp_path / "in", 1)
    zero = tmp_path / "in" / "zero.md"
    zero.symlink_to("/dev/zero")
    db = tmp_path / "c.db"
    t0 = time.monotonic()
    summary = run_batch([tmp_path / "in", zero], db=db, max_bytes=1 << 20, progress=False)
    assert time.monotonic() - t0 < 30
    assert (summary.total, summary.failed) == (2, 1)
    err = json.loads(sqlite3.connect(db).execute(
        "SELECT record_json FROM documents WHERE path = ?", (str(zero),)).fetchone()[0])
    assert err["kind"] == "too_large" and "1048576-byte limit" in err["error"]


@pytest.mark.skipif(sys.platform != "linux", reason="parent-death signal is Linux's")
def test_pool_workers_exit_when_the_batch_parent_is_killed(tmp_path):
    folder = tmp_path / "posts"
    folder.mkdir()
    slow = "".join(f"Throughput is {i} tok/s. " for i in range(3000))   # seconds of work each
    for i in range(6):
        (folder / f"slow-{i}.md").write_text(slow, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "extractor", "batch", str(folder), "--db", str(tmp_path / "c.db"),
                             "--jobs", "2", "--timeout", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        workers: list[int] = []
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = _children(proc.pid)
        assert len(workers) >= 2, "the pool never started"
        time.sleep(1.0)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 10
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(w) for w in workers), "pool workers outlived the batch process"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(d.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
