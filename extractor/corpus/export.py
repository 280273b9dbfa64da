"""Exporting the claims store: Parquet (pyarrow, extra `export`), CSV, or JSONL records.

Parquet and CSV hold one row per claim: the claim's fields, its document's title, date (a date in
Parquet), source and set-aside count, and per load condition its `status`, a typed `value` (a number for
the numeric conditions, whose sweeps and ranges fill `_min`/`_max`; else the canonical name or the stated
text), the partial value of an unrecoverable one, its quote and scope, and for an unrecoverable one
`where` to look and `why` it is absent. `COLUMNS` describes every column (`benchclaims export --describe`).
JSONL holds one `extract` record per document, with every claim's mentions. `out` "-" writes to standard
output (Parquet as bytes).
"""
from __future__ import annotations

import csv
import datetime
import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Iterator, Literal

from extractor.corpus.store import Store
from extractor.records import CONDITIONS

ExportFormat = Literal["parquet", "csv", "jsonl"]

# (column, arrow type, description): the claim and its document
CLAIM_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("path", "string", "the post's file as the batch read it"),
    ("doc", "string", "the post's file name"),
    ("title", "string", "the post's title"),
    ("date", "date32", "publication date (a date in Parquet, YYYY-MM-DD in CSV); empty when the post gives none"),
    ("date_source", "string", "where the date came from: front_matter, file_name, html_meta, html_time, json_ld"),
    ("authorship", "string", "who wrote the post about whose system (vendor, third party...)"),
    ("source", "string", "the blog or site the post came from (batch --source, else its folder)"),
    ("n_set_aside", "int64", "how many figures with a performance unit the post's record sets aside (datasheet, "
                             "target, cited...; see the record's set_aside)"),
    ("ord", "int64", "position of the claim in its record"),
    ("claim_id", "string", "the claim's id (stable across runs; `audit --claim ID`)"),
    ("metric", "string", "throughput, request_throughput, ttft, tpot, itl, e2e_latency, latency, speedup, ..."),
    ("value", "float64", "the figure as stated, in `unit` (a range's low end): compare values with "
                         "base_value, since one metric is stated in several units (ms and s)"),
    ("value_max", "float64", "a range's high end, in `unit`"),
    ("unit", "string", "the stated unit, canonical pint spelling ('token / second / gpu', 'millisecond')"),
    ("base_value", "float64", "value in pint base units (seconds, tokens/second...): the column to compare and "
                              "sort on; empty when the unit is not known to pint"),
    ("base_value_max", "float64", "value_max in base units"),
    ("base_unit", "string", "the base units' signature ('gpu^-1 second^-1 token^1'): equal signatures compare"),
    ("qualifier", "string", "exact, approx, at_least, up_to or range"),
    ("tokens", "string", "what a throughput counts: total, output, input or unspecified"),
    ("statistic", "string", "the statistic stated: mean, median, min, max or pNN; empty when the post does not say"),
    ("per", "string", "gpu, user, node or system: what the figure is divided by"),
    ("baseline", "string", "what a speedup or relative change compares against"),
    ("direction", "string", "for speedup and relative_change: better, worse or neutral"),
    ("cited_from", "string", "who the post credits the figure to: not a measurement of this post"),
    ("headline", "bool_", "the figure is where the post leads (title, summary, TL;DR)"),
    ("quote", "string", "the claim's text"),
    ("span_start", "int64", "start offset of the quote in the post's text (characters)"),
    ("span_end", "int64", "end offset (exclusive)"),
    ("section", "string", "the section path, joined with ' > '"),
    ("block", "string", "paragraph, table, list, heading, code..."),
    ("n_mentions", "int64", "how many places of the post state this figure (title, TL;DR, table...)"),
)
# conditions stated as numbers: their value column is a number, sweeps and ranges fill _min/_max
NUMERIC_CONDITIONS = ("batch_or_concurrency", "input_length", "output_length", "gpu_count")
CONDITION_PARTS: tuple[tuple[str, str, str], ...] = (   # (suffix, arrow type, description); _value: see below
    ("status", "string", "stated or unrecoverable"),
    ("value", "", "stated: the canonical name, else the stated text; numeric conditions: the number (empty "
                  "for a sweep or range, see _min/_max)"),
    ("min", "float64", "numeric conditions: a sweep's or range's low end"),
    ("max", "float64", "numeric conditions: a sweep's or range's high end"),
    ("partial", "string", "unrecoverable: what the post does say (a family without a size...)"),
    ("quote", "string", "stated: the text the value was read from"),
    ("scope", "string", "stated: where it was found relative to the claim: sentence, table_row, section, "
                        "document, restatement... (outside the sentence or row: check it applies)"),
    ("where", "string", "unrecoverable: where the condition could be found"),
    ("why", "string", "unrecoverable: why the post does not give it for this claim"),
)


def _condition_columns() -> tuple[tuple[str, str, str], ...]:
    out = []
    for name in CONDITIONS:
        numeric = name in NUMERIC_CONDITIONS
        for part, kind, text in CONDITION_PARTS:
            if part in ("min", "max") and not numeric:
                continue
            if part == "value":
                kind = "float64" if numeric else "string"
            out.append((f"{name}_{part}", kind, f"{name}: {text}"))
    return tuple(out)


COLUMNS: tuple[tuple[str, str, str], ...] = CLAIM_COLUMNS + _condition_columns()
FIELDS: tuple[tuple[str, str], ...] = tuple((c, t) for c, t, _ in COLUMNS)
CLAIM_FIELDS = tuple(c for c, _, _ in CLAIM_COLUMNS)
_DOC_COLS = {"doc", "title", "date", "authorship", "source", "date_source", "n_set_aside"}
STDOUT = "-"


class ExportError(RuntimeError):
    """The export cannot be written (missing optional dependency, no database)."""


def claim_rows(store: Store) -> Iterator[dict[str, Any]]:
    """Every claim joined with its document, ordered by path and position, with its condition columns."""
    cols = ", ".join(f"d.{c}" if c in _DOC_COLS else f"c.{c}" for c in CLAIM_FIELDS)
    sql = f"SELECT {cols} FROM claims c JOIN documents d ON d.path=c.path ORDER BY c.path, c.ord"
    conds = store.conn.cursor().execute(
        "SELECT k.path, k.ord, k.name, k.status, k.canonical, k.value, k.value_partial, k.quote, k.scope, "
        "k.where_note, k.why FROM conditions k JOIN claims c ON c.path=k.path AND c.ord=k.ord ORDER BY k.path, k.ord")
    pending = next(conds, None)
    empty = {c: None for c, _, _ in COLUMNS[len(CLAIM_COLUMNS):]}
    for row in store.conn.cursor().execute(sql):
        rec = dict(zip(CLAIM_FIELDS, row))
        rec["headline"] = bool(rec["headline"])
        rec.update(empty)
        key = (rec["path"], rec["ord"])
        while pending is not None and (pending[0], pending[1]) <= key:
            if (pending[0], pending[1]) == key and pending[2] in CONDITIONS:
                rec.update(condition_cells(*pending[2:]))
            pending = next(conds, None)
        yield rec


def _number(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def condition_cells(name: str, status: str, canonical: str | None, value_json: str | None,
                    partial: str | None, quote: str | None, scope: str | None, where: str | None,
                    why: str | None) -> dict[str, Any]:
    """The export columns of one condition: status, typed value (and _min/_max), partial, quote, scope,
    where, why."""
    out: dict[str, Any] = {f"{name}_status": status, f"{name}_partial": partial, f"{name}_quote": quote,
                           f"{name}_scope": scope, f"{name}_where": where, f"{name}_why": why}
    value = None if status != "stated" or value_json is None else json.loads(value_json)
    if name in NUMERIC_CONDITIONS:
        out[f"{name}_value"] = _number(value)
        bounds: list[float] = []
        if isinstance(value, dict):
            bounds = [b for b in (_number(value.get("min")), _number(value.get("max"))) if b is not None]
            bounds += [b for b in map(_number, value.get("values") or []) if b is not None]
        elif isinstance(value, list):
            bounds = [b for b in map(_number, value) if b is not None]
        out[f"{name}_min"] = min(bounds) if bounds else None
        out[f"{name}_max"] = max(bounds) if bounds else None
    elif status == "stated":
        out[f"{name}_value"] = canonical or (value if isinstance(value, str) or value is None
                                             else json.dumps(value, ensure_ascii=False, sort_keys=True))
    return out


def describe(fmt: str = "text") -> str:
    """The data dictionary of the CSV/Parquet export: every column, its type and meaning (text: Markdown
    table; json: a list of {column, type, description})."""
    if fmt == "json":
        return json.dumps([{"column": c, "type": t.rstrip("_"), "description": d} for c, t, d in COLUMNS], indent=1)
    lines = ["| column | type | meaning |", "| --- | --- | --- |"]
    lines += [f"| `{c}` | {t.rstrip('_')} | {d} |" for c, t, d in COLUMNS]
    return "\n".join(lines)


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
    day = datetime.date.fromisoformat
    sink = sys.stdout.buffer if str(out) == STDOUT else str(out)
    with pq.ParquetWriter(sink, schema) as writer:
        buf: list[dict[str, Any]] = []
        for row in claim_rows(store):
            if row["date"]:
                row["date"] = day(row["date"])
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
