"""Load one side of a diff: a JSONL export, a claims SQLite database, a folder or file of records.

Also `reextract`: the same documents extracted again with the current (or given) rules.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from extractor.records import DocumentError, DocumentRecord

SQLITE_MAGIC = b"SQLite format 3\x00"


class SourceError(ValueError):
    """A diff side cannot be read; the message names the file (and line) and the reason."""


class Side(BaseModel):
    """The records of one run, and the documents that failed in it."""

    model_config = ConfigDict(extra="forbid")

    label: str
    records: list[DocumentRecord] = Field(default_factory=list)
    failures: list[DocumentError] = Field(default_factory=list)


def _reason(err: ValidationError) -> str:
    e = err.errors()[0]
    loc = ".".join(str(x) for x in e["loc"])
    more = f" (+{err.error_count() - 1} more)" if err.error_count() > 1 else ""
    return f"{loc}: {e['msg']}{more}" if loc else e["msg"] + more


def parse_item(data: object, where: str, side: Side) -> None:
    """Add one decoded JSON value (record, error, or list of them) to a side."""
    if isinstance(data, list):
        for k, item in enumerate(data):
            parse_item(item, f"{where} item {k}", side)
        return
    if not isinstance(data, dict):
        raise SourceError(f"{where}: expected a JSON object, got {type(data).__name__}")
    try:
        if "error" in data and "claims" not in data:
            side.failures.append(DocumentError.model_validate(data))
        else:   # (an expected-record file's `known_wrong` marks are not part of the record)
            side.records.append(DocumentRecord.model_validate({k: v for k, v in data.items() if k != "known_wrong"}))
    except ValidationError as err:
        raise SourceError(f"{where}: not a DocumentRecord: {_reason(err)}") from None


def _loads(text: str, where: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise SourceError(f"{where}: not JSON ({err.msg} at line {err.lineno} column {err.colno})") from None


def load_jsonl(path: Path, side: Side) -> None:
    """One record (or error) JSON per line; blank lines skipped."""
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if line.strip():
                parse_item(_loads(line, f"{path}: line {lineno}"), f"{path}: line {lineno}", side)


def load_json_file(path: Path, side: Side) -> None:
    """A JSON file holding one record or a list of records."""
    parse_item(_loads(path.read_text(encoding="utf-8"), str(path)), str(path), side)


def load_sqlite(path: Path, side: Side) -> None:
    """`documents.record_json` of a claims store, read-only, in path order."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as err:
        raise SourceError(f"{path}: cannot open database ({err})") from None
    try:
        cols = {row[1] for row in conn.execute("PRAGMA table_info(documents)")}
        if "record_json" not in cols:
            raise SourceError(f"{path}: no documents.record_json column; not a benchclaims store")
        order = "path" if "path" in cols else "rowid"
        for rowid, js in conn.execute(f"SELECT rowid, record_json FROM documents ORDER BY {order}"):
            if js:
                where = f"{path}: documents row {rowid}"
                parse_item(_loads(js, where), where, side)
    except sqlite3.Error as err:
        raise SourceError(f"{path}: cannot read database ({err})") from None
    finally:
        conn.close()


def load_folder(path: Path, side: Side) -> None:
    """Every *.json (one record or a list) and *.jsonl file below a folder, in sorted path order."""
    files = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in (".json", ".jsonl"))
    if not files:
        raise SourceError(f"{path}: folder holds no .json or .jsonl record files")
    for f in files:
        (load_jsonl if f.suffix == ".jsonl" else load_json_file)(f, side)


def load_side(spec: str | Path, label: str | None = None) -> Side:
    """Read a side of a diff, detecting its kind: folder, SQLite database, JSONL, or JSON file."""
    path = Path(spec)
    side = Side(label=label or str(spec))
    if not path.exists():
        raise SourceError(f"{path}: no such file or folder")
    if path.is_dir():
        load_folder(path, side)
        return side
    with open(path, "rb") as fh:
        head = fh.read(len(SQLITE_MAGIC))
    if head == SQLITE_MAGIC:
        load_sqlite(path, side)
    elif path.suffix == ".json":
        load_json_file(path, side)
    else:
        try:
            load_jsonl(path, side)
        except UnicodeDecodeError:
            raise SourceError(f"{path}: not UTF-8 text, a SQLite database, or a folder") from None
    return side


def resolve_document(record_path: str, base: Path | None) -> Path | None:
    """The file a record was extracted from: as recorded, else relative to `base`; None when missing."""
    p = Path(record_path)
    if p.is_file():
        return p
    if base is not None and not p.is_absolute() and (base / p).is_file():
        return base / p
    return None


def _extract_one(found: str, rules_dir: str | None) -> tuple[str, str, str]:
    """(outcome, payload, kind) of extracting one file: ("ok", record JSON, ""), ("failed", reason, kind) or
    ("unreadable", message, ""); a plain function so a process pool can run it."""
    from extractor.api import extract_path
    from extractor.errors import DocumentFailure

    try:
        return "ok", extract_path(found, rules_dir=rules_dir).model_dump_json(), ""
    except DocumentFailure as err:
        return "failed", err.reason, err.kind
    except OSError as err:
        return "unreadable", f"cannot read {found}: {err.strerror or err}", ""


def reextract(old: Side, *, rules_dir: str | None = None, base: Path | None = None,
              jobs: int = 1) -> tuple[Side, list[str]]:
    """Extract the documents of `old` again (in `jobs` processes); returns the new side and errors
    (missing files, failures). New records keep the old record's `path` string so documents align one to
    one, in the old side's order whatever the number of jobs.
    """
    new = Side(label=f"rerun ({rules_dir or 'current rules'})")
    errors: list[str] = []
    targets = [(r.doc, r.path) for r in old.records] + [(f.doc, f.path) for f in old.failures]
    work: list[tuple[str, str, Path]] = []
    for doc, rec_path in targets:
        if not rec_path:
            errors.append(f"{doc}: record has no path; cannot re-extract")
            continue
        found = resolve_document(rec_path, base)
        if found is None:
            errors.append(f"{doc}: source file {rec_path} no longer exists")
            continue
        work.append((doc, rec_path, found))
    if jobs > 1 and len(work) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=min(jobs, len(work))) as pool:
            outcomes = list(pool.map(_extract_one, [str(w[2]) for w in work], [rules_dir] * len(work)))
    else:
        outcomes = [_extract_one(str(found), rules_dir) for _, _, found in work]
    for (doc, rec_path, _), (outcome, payload, kind) in zip(work, outcomes):
        if outcome == "ok":
            rec = DocumentRecord.model_validate_json(payload)
            new.records.append(rec.model_copy(update={"path": rec_path}))
        elif outcome == "failed":
            new.failures.append(DocumentError(doc=doc, path=rec_path, error=payload, kind=kind))
        else:
            errors.append(f"{doc}: {payload}")
    return new, errors


def failure_errors(old: Side, new: Side) -> list[str]:
    """Documents that failed on one side only, or failed differently: one message each."""
    def key(f: DocumentError) -> str:
        return f.path or f.doc

    ofail = {key(f): f for f in old.failures}
    nfail = {key(f): f for f in new.failures}
    out = []
    for k in sorted(set(ofail) | set(nfail)):
        o, n = ofail.get(k), nfail.get(k)
        if o and n and (o.kind, o.error) == (n.kind, n.error):
            continue
        if n:
            out.append(f"{new.label}: {n.doc} failed ({n.kind}): {n.error}")
        if o:
            out.append(f"{old.label}: {o.doc} failed ({o.kind}): {o.error}")
    return out
