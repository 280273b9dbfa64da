"""Batch extraction: walk inputs, skip what is current, extract the rest in parallel, store.

    summary = run_batch(["corpus/"], db="claims.db", jobs=2)
    print(summary.line())     # 120 documents: 3 new, 1 changed, 116 skipped, 0 failed

Workers only extract; the parent process is the single writer of the store and
commits each document in its own transaction, so the run can be killed at any
moment and resumed. At most a few chunks are in flight, so memory stays flat
however many documents there are.
"""
from __future__ import annotations

import glob
import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Callable, Iterable, Iterator, Literal, Sequence

from pydantic import BaseModel
from tqdm import tqdm

from extractor import api, limits
from extractor.corpus.runners import chunks, make_runner
from extractor.corpus.stopping import BatchStopped, Interrupts, stop_reason
from extractor.corpus.work import Outcome, file_sha256
from extractor.records import DocumentError, DocumentRecord
from extractor.rules_io import default_rules_dir, rules_fingerprint
from extractor.corpus.comparisons import relink_restatements
from extractor.corpus.restatements import HeldRecords
from extractor.corpus.store import Store

SUFFIXES = frozenset({".md", ".markdown", ".mdx", ".html", ".htm", ".txt"})


class BatchSummary(BaseModel):
    """Counts of one batch run."""

    total: int = 0
    new: int = 0
    changed: int = 0         # stored before, and the file's bytes changed
    reextracted: int = 0     # same bytes, extracted again: the rules or extractor changed, or it failed before
    differ: int = 0          # of the re-extracted, those whose claims, caveats or provenance differ now
    skipped: int = 0
    failed: int = 0
    claims: int = 0
    not_read: dict[str, int] = {}   # files under the folders given that are no document format: extension -> count
    failed_by: dict[str, int] = {}  # failed documents by reason (error kind) and extension: "unreadable .md" -> count
    retried: int = 0         # tried again alone after the worker process extracting them died
    lost: int = 0            # of the retried, those whose worker died again: failed

    def line(self) -> str:
        again = f"{self.reextracted} re-extracted ({self.differ} with different records), " if self.reextracted else ""
        return (f"{self.total} documents: {self.new} new, {self.changed} changed, {again}"
                f"{self.skipped} skipped, {self.failed} failed ({self.claims} claims extracted)"
                f"{self.failed_note()}{self.not_read_note()}{self.retry_note()}")

    def failed_note(self) -> str:
        if not self.failed_by:
            return ""
        return "; failed: " + ", ".join(f"{n} {why}" for why, n in sorted(self.failed_by.items()))

    def not_read_note(self) -> str:
        if not self.not_read:
            return ""
        kinds = ", ".join(f"{n} {ext}" for ext, n in sorted(self.not_read.items(), key=lambda e: (-e[1], e[0])))
        return f"; {sum(self.not_read.values())} other files not read (not a document format: {kinds})"

    def retry_note(self) -> str:
        if not self.retried:
            return ""
        return (f"; a worker process died: {self.retried} documents tried again alone, "
                f"{self.retried - self.lost} stored, {self.lost} failed")


def _content_key(record_json: str) -> str:
    """A record without its versions: what a re-extraction may change."""
    rec = json.loads(record_json)
    rec.pop("extractor_version", None)
    rec.pop("rules_version", None)
    return json.dumps(rec, sort_keys=True)


# -- walking -----------------------------------------------------------------------------------
class PathProblem(BaseModel):
    """A path the walk found but cannot hand to a worker (a folder it cannot list, a name not UTF-8)."""

    path: str       # printable: bytes that are not UTF-8 shown as \xNN escapes
    reason: str
    source: str


def shown_path(path: str) -> str:
    """A path as text that can be stored and printed (undecodable bytes escaped)."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def collect_sources(inputs: Sequence[str | Path], problems: list[PathProblem] | None = None,
                    not_read: dict[str, int] | None = None) -> dict[str, str]:
    """Absolute path of each document named by files, folders and globs -> the name of its source.

    The source is the folder the document was found through: a folder given on the command line
    names all the posts under it (`batch blogs/vllm blogs/lmsys`); a file or a glob match is named
    by the folder it sits in. Folders and globs keep Markdown, HTML and text files only; a file named
    explicitly is always taken (a FIFO or device too: if it cannot be read, the batch records why).
    A document reached twice keeps its first source. Folders that cannot be listed and file names
    that are not valid UTF-8 go to `problems` (when given), never silently away; files of a folder that
    are no document format are counted by extension in `not_read` (when given).
    """
    found: dict[str, str] = {}
    problems = problems if problems is not None else []

    def add(path: str | Path, source: str) -> None:
        full = os.path.abspath(path)
        if full != shown_path(full):
            problems.append(PathProblem(path=shown_path(full), reason="the file name is not valid UTF-8",
                                        source=source))
        else:
            found.setdefault(full, source)

    def walk_folder(folder: str, source: str) -> None:
        def unlisted(err: OSError) -> None:
            where = shown_path(os.path.abspath(err.filename or folder))
            problems.append(PathProblem(path=where, reason=f"folder cannot be read ({err.strerror or err})",
                                        source=source))

        for root, dirs, files in os.walk(folder, onerror=unlisted):
            dirs.sort()
            for name in sorted(files):
                f = os.path.join(root, name)
                ext = os.path.splitext(name)[1].lower()
                if ext in SUFFIXES and os.path.isfile(f):
                    add(f, source)
                elif not_read is not None and not name.startswith("."):
                    key = shown_path(ext) if ext else "without extension"
                    not_read[key] = not_read.get(key, 0) + 1

    for item in inputs:
        s = str(item)
        p = Path(s)
        if p.is_dir():
            walk_folder(s, folder_name(p))
        elif p.exists() or p.is_symlink():   # a file, FIFO, device or dangling link named explicitly
            add(p, folder_name(p.parent))
        elif glob.has_magic(s):
            for m in sorted(glob.glob(s, recursive=True)):
                mp = Path(m)
                if mp.is_dir():
                    walk_folder(m, folder_name(mp))
                elif mp.is_file() and mp.suffix.lower() in SUFFIXES:
                    add(mp, folder_name(mp.parent))
        else:
            raise FileNotFoundError(f"{shown_path(s)}: no such file, folder or matching glob")
    return found


def folder_name(folder: Path) -> str:
    """The name a folder goes by as a source (its own name, resolved: `.` is the current folder's)."""
    return folder.resolve().name or str(folder.resolve())


def collect_paths(inputs: Sequence[str | Path], problems: list[PathProblem] | None = None) -> list[str]:
    """Absolute paths of the documents named by files, folders and globs; sorted, no duplicates."""
    return sorted(collect_sources(inputs, problems))


def current_rules_version(rules_dir: str | None) -> str:
    """The rules version, rebuilding the cached extractor if the rules changed on disk since."""
    version = api.rules_version(rules_dir)
    folder = Path(rules_dir) if rules_dir else default_rules_dir()
    if version != rules_fingerprint(folder):
        api.get_extractor.cache_clear()
        version = api.rules_version(rules_dir)
    return version


# -- the batch ---------------------------------------------------------------------------------
def run_batch(inputs: Sequence[str | Path], *, db: str | Path = "claims.db",
              jsonl: str | Path | None = None, jobs: int = 1, rules_dir: str | Path | None = None,
              max_bytes: int | None = None, timeout: float | None = None, max_claims: int | None = None,
              engine: Literal["local", "dask"] = "local",
              scheduler: str | None = None, progress: bool | None = None,
              source: str | None = None) -> BatchSummary:
    """Extract every input document that is not current in the store; return the counts.

    Each document is stored with its source: `source` when given, else the folder it was found
    through (see `collect_sources`).

    `max_bytes`/`timeout`/`max_claims` default to the extractor's limits ($BENCHCLAIMS_MAX_BYTES,
    $BENCHCLAIMS_TIMEOUT, $BENCHCLAIMS_MAX_CLAIMS; 0: no time budget, no cap); `progress=None` shows the bar only on a terminal; False hides it.
    """
    max_bytes = limits.max_bytes(max_bytes)
    budget = limits.timeout(timeout)   # checked once here (LimitError), not once per document by the workers
    timeout = 0.0 if budget is None else budget
    cap = limits.max_claims(max_claims)   # checked once here, and handed to the workers resolved
    max_claims = 0 if cap is None else cap
    problems: list[PathProblem] = []
    not_read: dict[str, int] = {}
    sources = collect_sources(inputs, problems, not_read)
    if source is not None:
        sources = dict.fromkeys(sources, source)
    paths = sorted(sources)
    if not paths and not problems:
        raise FileNotFoundError(f"no input files matched {' '.join(map(str, inputs))} "
                                f"(documents: {', '.join(sorted(SUFFIXES))})")
    rules = str(rules_dir) if rules_dir else None
    ext_v, rules_v = api.EXTRACTOR_VERSION, current_rules_version(rules)
    summary = BatchSummary(total=len(paths) + len(problems), failed=len(problems), not_read=not_read)
    with Store(db) as store:
        for problem in problems:
            _failed(summary, "unreadable", problem.path)
            store.put_error(DocumentError(doc=os.path.basename(problem.path), path=problem.path,
                                          error=problem.reason, kind="unreadable"),
                            path=problem.path, extractor_version=ext_v, rules_version=rules_v,
                            source=source or problem.source)
        stored: dict[str, str | None] = {}   # path -> None: new; "changed"; or the old content key (re-extracted)
        todo: list[str] = []
        for p in paths:
            state = store.state(p)
            if state is not None and state[3] == "ok" and state[1:3] == (ext_v, rules_v) \
                    and state[0] == file_sha256(p, max_bytes):
                summary.skipped += 1
                store.set_source(p, sources[p])
                continue
            if state is None:
                stored[p] = None
            elif state[0] != file_sha256(p, max_bytes):
                stored[p] = "changed"
            else:
                stored[p] = _content_key(next(store.record_json([p])))
            todo.append(p)
        bar = tqdm(total=len(paths), initial=summary.skipped, unit="doc", file=sys.stderr,
                   disable=False if progress else None if progress is None else True,
                   dynamic_ncols=True)
        done = 0
        held = HeldRecords(rules)   # the stored records relinking reads: kept, not read back from the store
        results = make_runner(engine, jobs, rules, max_bytes, timeout, scheduler, max_claims)(chunks(todo))
        try:
            with Interrupts() as interrupts, store.loading():
                for outcomes in results:
                    for o in outcomes:
                        with interrupts.critical():
                            record = _store_outcome(store, o, ext_v, rules_v, sources[o.path])
                            if record is not None:
                                held.offer(o.path, record)
                            done += 1
                            _count(summary, o, stored[o.path])
                    bar.update(len(outcomes))
                    bar.set_postfix(claims=summary.claims, errors=summary.failed, refresh=False)
        except (KeyboardInterrupt, OSError, sqlite3.Error) as err:
            stop = stop_reason(err)
            if stop is None:
                raise
            results.close()   # ends the workers now, before the store closes
            raise BatchStopped(stop[0], stop[1], stored=done, todo=len(todo),
                               current=summary.skipped) from None
        finally:
            results.close()
            bar.close()
        if todo or problems:   # stored claims changed: the figures restated across posts are linked anew
            relink_restatements(store, rules, held)
        if jsonl:
            write_jsonl(store, jsonl, paths)
    return summary


def _failed(summary: BatchSummary, kind: str, path: str) -> None:
    ext = os.path.splitext(path)[1].lower() or "without extension"
    key = f"{kind} ({ext})"
    summary.failed_by[key] = summary.failed_by.get(key, 0) + 1


def _count(summary: BatchSummary, o: Outcome, before: str | None) -> None:
    """Add one stored outcome to the summary (`before`: None new, "changed", else the old content key)."""
    if not o.ok:
        summary.failed += 1
        _failed(summary, json.loads(o.record_json).get("kind") or "error", o.path)
    elif before is None:
        summary.new += 1
    elif before == "changed":
        summary.changed += 1
    else:
        summary.reextracted += 1
        summary.differ += before != _content_key(o.record_json)
    summary.claims += o.n_claims
    summary.retried += o.retried
    summary.lost += o.retried and not o.ok


def _store_outcome(store: Store, o: Outcome, ext_v: str, rules_v: str, source: str) -> DocumentRecord | None:
    """Store one outcome; the record stored (None for a failure)."""
    if o.ok:
        record = o.record()
        store.put_record(record, path=o.path, record_json=o.record_json, source=source)
        return record
    store.put_error(DocumentError.model_validate_json(o.record_json), path=o.path,
                    extractor_version=ext_v, rules_version=rules_v, source=source)
    return None


def write_jsonl(store: Store, out: str | Path, paths: Iterable[str] | None = None) -> int:
    """Write the stored records (of `paths`, else all) one JSON a line, sorted by path."""
    n = 0
    with open(out, "w", encoding="utf-8") as fh:
        for js in store.record_json(paths):
            fh.write(js + "\n")
            n += 1
    return n
