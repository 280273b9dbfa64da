"""Querying the claims store: filters, unit-aware value ranges, table/JSON/CSV output.

    rows = find_claims("claims.db", ClaimFilter(metric="throughput", min=20000, unit="tok/s/gpu"))
    print(format_rows(rows, "table"))

Value ranges go through pint: the bounds are converted to base units and compared
with each claim's stored base value, and only claims whose unit has the same base
dimensions are kept (incompatible units are excluded, never coerced).
"""
from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from extractor.corpus.store import Store, base_factor

Format = Literal["text", "table", "json", "jsonl", "csv"]   # "table" is the older name of "text"

COLUMNS = ("path", "doc", "title", "claim_id", "metric", "value", "value_max", "unit", "qualifier",
           "tokens", "per", "baseline", "headline", "model", "hardware", "engine", "quote",
           "span_start", "span_end", "date", "source")
DOCUMENT_FIELDS = ("title", "date", "source")   # columns read from the documents table
TABLE_COLUMNS = ("doc", "metric", "value", "unit", "model", "hardware", "engine", "quote")


class QueryError(ValueError):
    """A query cannot be run as asked (unknown unit, malformed condition filter)."""


class ClaimFilter(BaseModel):
    """Filters of `benchclaims query`; all given filters must hold."""

    metric: str | None = None
    model: str | None = None          # case-insensitive substring of the canonical/stated model
    hardware: str | None = None
    engine: str | None = None
    conditions: list[tuple[str, str]] = Field(default_factory=list)   # (name, status)
    min: float | None = None
    max: float | None = None
    unit: str | None = None           # unit of min/max and of the `value_in_unit` column
    since: str | None = None          # posts dated on or after this day (YYYY-MM-DD); undated ones are left out
    until: str | None = None          # posts dated on or before this day
    source: str | None = None         # the source's name, exactly (as `batch` stored it)
    limit: int | None = None

    @field_validator("since", "until", mode="before")
    @classmethod
    def _iso_day(cls, v: Any) -> Any:
        from extractor.ingest.dates import NotADate, parse_date

        if v is None:
            return v
        try:
            return parse_date(v)
        except NotADate as err:
            raise ValueError(f"{v!r} is not a date (YYYY-MM-DD): {err}") from None

    @field_validator("conditions", mode="before")
    @classmethod
    def _parse_conditions(cls, v: Any) -> Any:
        out = []
        for item in v or []:
            if isinstance(item, str):
                name, sep, status = item.partition("=")
                if not sep or not name.strip() or not status.strip():
                    raise ValueError(f"condition filter {item!r} is not NAME=STATUS")
                item = (name.strip(), status.strip())
            out.append(item)
        return out


def _like(s: str) -> str:
    return "%" + s.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def build_sql(f: ClaimFilter) -> tuple[str, list[Any], tuple[float, str] | None]:
    """SQL, parameters and the (factor, base signature) of the query unit."""
    where, params = [], []
    if f.metric:
        where.append("c.metric = ?")
        params.append(f.metric)
    for col in ("model", "hardware", "engine"):
        val = getattr(f, col)
        if val:
            where.append(f"lower(c.{col}) LIKE ? ESCAPE '\\'")
            params.append(_like(val))
    if f.since:
        where.append("d.date >= ?")
        params.append(f.since)
    if f.until:
        where.append("d.date <= ?")
        params.append(f.until)
    if f.source:
        where.append("d.source = ?")
        params.append(f.source)
    for name, status in f.conditions:
        where.append("EXISTS (SELECT 1 FROM conditions k WHERE k.path=c.path AND k.ord=c.ord "
                     "AND k.name=? AND k.status=?)")
        params += [name, status]
    unit = None
    if f.unit:
        unit = base_factor(f.unit)
        if unit is None:
            raise QueryError(f"unknown unit {f.unit!r}")
        where.append("c.base_unit = ?")
        params.append(unit[1])
        lo_col, hi_col = "c.base_value", "coalesce(c.base_value_max, c.base_value)"
        scale = unit[0]
    else:
        lo_col, hi_col, scale = "c.value", "coalesce(c.value_max, c.value)", 1.0
    # a range claim matches when it overlaps [min, max]
    if f.min is not None:
        where.append(f"{hi_col} >= ?")
        params.append(f.min * scale)
    if f.max is not None:
        where.append(f"{lo_col} <= ?")
        params.append(f.max * scale)
    cols = ", ".join(f"d.{c}" if c in DOCUMENT_FIELDS else
                     "d.doc" if c == "doc" else f"c.{c}" for c in COLUMNS)
    sql = (f"SELECT {cols}, c.base_value, c.base_value_max FROM claims c "
           f"JOIN documents d ON d.path = c.path")
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY c.path, c.ord"
    if f.limit:
        sql += f" LIMIT {int(f.limit)}"
    return sql, params, unit


def find_claims(db: str | Path, f: ClaimFilter) -> list[dict[str, Any]]:
    """Claims matching the filter, in document order; with `value_in_unit` when a unit is given."""
    if not Path(db).exists():
        raise QueryError(f"{db}: no such database (run `benchclaims batch` first)")
    sql, params, unit = build_sql(f)
    with Store(db) as store:
        store.conn.row_factory = sqlite3.Row
        rows = []
        for r in store.conn.execute(sql, params):
            row = {c: r[c] for c in COLUMNS}
            row["headline"] = bool(row["headline"])
            if unit:
                row["value_in_unit"] = r["base_value"] / unit[0]
                row["value_max_in_unit"] = (None if r["base_value_max"] is None
                                            else r["base_value_max"] / unit[0])
            rows.append(row)
    return rows


def _num(v: float | None) -> str:
    return "" if v is None else f"{v:.6g}"


def _cell(row: dict[str, Any], col: str, unit: str | None) -> str:
    if col == "value":
        key = "value_in_unit" if unit else "value"
        lo, hi = row[key], row[key.replace("value", "value_max", 1)]
        return _num(lo) + (f"-{_num(hi)}" if hi is not None else "")
    if col == "unit":
        return unit or row["unit"]
    v = row.get(col)
    s = "" if v is None else str(v).replace("\n", " ")
    return s if len(s) <= 60 else s[:57] + "..."


def format_rows(rows: list[dict[str, Any]], fmt: Format = "table", unit: str | None = None) -> str:
    """Rows as an aligned text table, a JSON array, JSON lines, or CSV (header + one line per claim)."""
    if fmt == "json":
        return json.dumps(rows, indent=2, ensure_ascii=False)
    if fmt == "jsonl":
        return "\n".join(json.dumps(r, ensure_ascii=False) for r in rows)
    if fmt == "csv":
        buf = io.StringIO()
        fields = list(rows[0]) if rows else list(COLUMNS)
        w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        return buf.getvalue().rstrip("\n")
    if not rows:
        return "no matching claims"
    table = [list(TABLE_COLUMNS)] + [[_cell(r, c, unit) for c in TABLE_COLUMNS] for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(TABLE_COLUMNS))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in table]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines) + f"\n({len(rows)} claims)"
