"""The worker side of a batch: extract a few documents, each into a record or an error, as JSON.

Shared by every runner (in-process, process pool, Dask): workers only extract; the batch
process stores what they send back.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Callable, Iterator

from pydantic import BaseModel

from extractor import api
from extractor.errors import DocumentFailure
from extractor.records import DocumentError

CHUNK = 8            # documents per task sent to a worker
IN_FLIGHT_PER_JOB = 3


class Outcome(BaseModel):
    """What a worker sends back for one document: its record or its error, as JSON."""

    path: str
    ok: bool
    record_json: str
    n_claims: int = 0



def extract_one(path: str, rules_dir: str | None, max_bytes: int,
                timeout: float | None = None) -> Outcome:
    """Extract one file; any failure becomes a DocumentError outcome instead of an exception."""
    try:
        rec = api.extract_path(path, rules_dir=rules_dir, max_bytes=max_bytes, timeout=timeout)
        return Outcome(path=path, ok=True, record_json=rec.model_dump_json(), n_claims=len(rec.claims))
    except DocumentFailure as err:
        kind, reason = err.kind, err.reason
    except Exception as err:  # noqa: BLE001 - one broken document never stops a batch
        kind, reason = "error", f"{type(err).__name__}: {err}"
    error = DocumentError(doc=Path(path).name, path=path, sha256=file_sha256(path, max_bytes),
                          error=reason, kind=kind)
    return Outcome(path=path, ok=False, record_json=error.model_dump_json())


def extract_chunk(paths: list[str], rules_dir: str | None, max_bytes: int,
                  timeout: float | None = None) -> list[Outcome]:
    """Worker task: extract a few documents."""
    return [extract_one(p, rules_dir, max_bytes, timeout) for p in paths]


def file_sha256(path: str, max_bytes: int) -> str | None:
    """sha256 of a file's bytes; None when it is over the size limit or cannot be read."""
    try:
        if os.path.getsize(path) > max_bytes:
            return None
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()
    except OSError:
        return None


# a runner takes chunks of paths and yields the outcomes of each chunk
Runner = Callable[[Iterator[list[str]]], Iterator[list[Outcome]]]
