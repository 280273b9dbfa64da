"""The worker side of a batch: extract a few documents, each into a record or an error, as JSON.

Shared by every runner (in-process, process pool, Dask): workers only extract; the batch
process stores what they send back.
"""
from __future__ import annotations

import hashlib
import os
import signal
import stat
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

from pydantic import BaseModel

from extractor import api, gc_policy
from extractor.corpus.stopping import worker_signals
from extractor.errors import DocumentFailure
from extractor.records import DocumentError

CHUNK = 8            # documents per task sent to a worker
IN_FLIGHT_PER_JOB = 3
PR_SET_PDEATHSIG = 1  # prctl option (linux/prctl.h)
ORPHAN_POLL_S = 0.5


class Outcome(BaseModel):
    """What a worker sends back for one document: its record or its error, as JSON."""

    path: str
    ok: bool
    record_json: str
    n_claims: int = 0
    retried: bool = False   # extracted again, alone, after the worker that had it died


def extract_one(path: str, rules_dir: str | None, max_bytes: int,
                timeout: float | None = None, max_claims: int | None = None) -> Outcome:
    """Extract one file; any failure becomes a DocumentError outcome instead of an exception."""
    try:
        rec = api.extract_path(path, rules_dir=rules_dir, max_bytes=max_bytes, timeout=timeout,
                               max_claims=max_claims)
        return Outcome(path=path, ok=True, record_json=rec.model_dump_json(), n_claims=len(rec.claims))
    except DocumentFailure as err:
        kind, reason = err.kind, err.reason
    except Exception as err:  # noqa: BLE001 - one broken document never stops a batch
        kind, reason = "error", f"{type(err).__name__}: {err}"
    error = DocumentError(doc=Path(path).name, path=path, sha256=file_sha256(path, max_bytes),
                          error=reason, kind=kind)
    return Outcome(path=path, ok=False, record_json=error.model_dump_json())


def died_outcome(path: str, max_bytes: int) -> Outcome:
    """The failure recorded for a document whose worker process died twice while extracting it."""
    error = DocumentError(doc=Path(path).name, path=path, sha256=file_sha256(path, max_bytes), kind="crashed",
                          error="the worker process extracting it died (killed, out of memory or crashed), "
                                "twice: once in its chunk, once alone")
    return Outcome(path=path, ok=False, record_json=error.model_dump_json())


def worker_init(parent_pid: int) -> None:
    """Pool worker start-up: the command's garbage-collector settings, and exit when the batch process dies
    (kill -9 of the parent must not leave workers computing): Linux's parent-death signal, and elsewhere a
    watcher thread that notices the worker was re-parented."""
    gc_policy.tune()
    worker_signals()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:  # the parent died before the signal was asked for
        os._exit(1)
    threading.Thread(target=_exit_when_orphaned, args=(parent_pid,), daemon=True, name="orphan-watch").start()


def _exit_when_orphaned(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(ORPHAN_POLL_S)
    os._exit(1)


def extract_chunk(paths: list[str], rules_dir: str | None, max_bytes: int,
                  timeout: float | None = None, max_claims: int | None = None) -> list[Outcome]:
    """Worker task: extract a few documents (`max_claims`: the cap, resolved by the batch; 0: none)."""
    return [extract_one(p, rules_dir, max_bytes, timeout, max_claims) for p in paths]


def file_sha256(path: str, max_bytes: int) -> str | None:
    """sha256 of a regular file's bytes; None when it is over the size limit, cannot be read, or is not a
    regular file (a FIFO or device is never read here: it may never end)."""
    try:
        st = os.stat(path)   # before opening: opening a FIFO waits for a writer
        if not stat.S_ISREG(st.st_mode) or st.st_size > max_bytes:
            return None
        with open(path, "rb", buffering=0) as fh:
            h = hashlib.sha256()
            read = 0
            for block in iter(lambda: fh.read(1 << 20), b""):
                read += len(block)
                if read > max_bytes:   # grew while being read
                    return None
                h.update(block)
        return h.hexdigest()
    except OSError:
        return None


# a runner takes chunks of paths and yields the outcomes of each chunk
Runner = Callable[[Iterator[list[str]]], Iterator[list[Outcome]]]
