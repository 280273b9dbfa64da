"""Exporting the claims store: Parquet (pyarrow, extra `export`), CSV, or JSONL records.

Parquet and CSV hold one row per claim: the claim fields, the document's title, date and source,
the model/hardware/engine keys, `n_mentions` (how many places of the post state the claim), and every
load condition flattened into `<condition>_status` (stated / unrecoverable) and `<condition>_value`
(its canonical form, else its stated value; JSON text when the value is not a string; empty when
unrecoverable). JSONL holds one `extract` record per document, with every claim's mentions.
`out` "-" writes to standard output (Parquet as bytes).
"""
from __future__ import annotations

import csv
import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Iterator, Literal

from extractor.corpus.store import Store
from extractor.records import CONDITIONS

ExportFormat = Literal["parquet", "csv", "jsonl"]

FIELDS: tuple[tuple[str, str], ...] = (   # (column, arrow type)
    ("path", "string"), ("doc", "string"), ("title", "string"), ("date", "string"),
    ("authorship", "string"), ("ord", "int64"), ("claim_id", "string"), ("metric", "string"),
    ("value", "float64"), ("value_max", "float64"), ("unit", "string"), ("qualifier", "string"),
    ("tokens", "string"), ("per", "string"), ("baseline", "string"), ("headline", "bool_"),
    ("quote", "string"), ("span_start", "int64"), ("span_end", "int64"), ("section", "string"),
    ("block", "string"), ("base_value", "float64"), ("base_value_max", "float64"),
    ("base_unit", "string"), ("model", "string"), ("hardware", "string"), ("engine", "string"),
    ("source", "string"), ("date_source", "string"), ("n_mentions", "int64"),
) + tuple((f"{name}_{part}", "string") for name in CONDITIONS for part in ("status", "value"))
CLAIM_FIELDS = tuple(c for c, _ in FIELDS if not c.endswith(("_status", "_value")))
_DOC_COLS = {"doc", "title", "date", "authorship", "source", "date_source"}
STDOUT = "-"


class ExportError(RuntimeError):
    """The export cannot be written (missing optional dependency, no database)."""


def claim_rows(store: Store) -> Iterator[dict[str, Any]]:
    """Every claim joined with its document, ordered by path and position."""
    cols = ", ".join(f"d.{c}" if c in _DOC_COLS else f"c.{c}" for c in CLAIM_FIELDS)
    sql = f"SELECT {cols} FROM claims c JOIN documents d ON d.path=c.path ORDER BY c.path, c.ord"
    conds = store.conn.cursor().execute(
        "SELECT k.path, k.ord, k.name, k.status, k.canonical, k.value FROM conditions k "
        "JOIN claims c ON c.path=k.path AND c.ord=k.ord ORDER BY k.path, k.ord")
    pending = next(conds, None)
    for row in store.conn.cursor().execute(sql):
        rec = dict(zip(CLAIM_FIELDS, row))
        rec["headline"] = bool(rec["headline"])
        for name in CONDITIONS:
            rec[f"{name}_status"] = rec[f"{name}_value"] = None
        key = (rec["path"], rec["ord"])
        while pending is not None and (pending[0], pending[1]) <= key:
            if (pending[0], pending[1]) == key and pending[2] in CONDITIONS:
                rec[f"{pending[2]}_status"] = pending[3]
                rec[f"{pending[2]}_value"] = _condition_value(pending[3], pending[4], pending[5])
            pending = next(conds, None)
        yield rec


def _condition_value(status: str, canonical: str | None, value_json: str | None) -> str | None:
    """A condition as one cell: canonical form, else the stated value (JSON text unless a string)."""
    if status != "stated":
        return None
    if canonical:
        return canonical
    if value_json is None:
        return None
    value = json.loads(value_json)
    return value if isinstance(value, str) else value_json


@contextmanager
def _text_out(out: Path | str) -> Iterator[IO[str]]:
    """The file to write, or standard output for "-"."""
    if str(out) == STDOUT:
        yield sys.stdout
        sys.stdout.flush()
        return
    with open(out, "w", encoding="utf-8", newline="") as fh:
        yield fh


def export_csv(store: Store, out: Path | str) -> int:
    n = 0
    with _text_out(out) as fh:
        w = csv.DictWriter(fh, fieldnames=[c for c, _ in FIELDS], lineterminator="\n")
        w.writeheader()
        for row in claim_rows(store):
            w.writerow(row)
            n += 1
    return n


def export_parquet(store: Store, out: Path | str, batch_size: int = 10_000) -> int:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ExportError("parquet export needs pyarrow: pip install 'benchclaims[export]'") from None
    schema = pa.schema([(c, getattr(pa, t)()) for c, t in FIELDS])
    n = 0
    sink = sys.stdout.buffer if str(out) == STDOUT else str(out)
    with pq.ParquetWriter(sink, schema) as writer:
        buf: list[dict[str, Any]] = []
        for row in claim_rows(store):
            buf.append(row)
            if len(buf) >= batch_size:
                writer.write_table(pa.Table.from_pylist(buf, schema=schema))
                n, buf = n + len(buf), []
        if buf or n == 0:
            writer.write_table(pa.Table.from_pylist(buf, schema=schema))
            n += len(buf)
    return n


def export_jsonl(store: Store, out: Path | str) -> int:
    n = 0
    with _text_out(out) as fh:
        for js in store.record_json():
            fh.write(js + "\n")
            n += 1
    return n


def export(db: str | Path, fmt: ExportFormat, out: str | Path) -> int:
    """Write the store to `out` in `fmt` ("-": standard output); returns the number of rows (claims,
    or documents for jsonl)."""
    if not Path(db).exists():
        raise ExportError(f"{db}: no such database (run `benchclaims batch` first)")
    writer = {"parquet": export_parquet, "csv": export_csv, "jsonl": export_jsonl}[fmt]
    with Store(db, readonly=True) as store:
        return writer(store, out if str(out) == STDOUT else Path(out))
