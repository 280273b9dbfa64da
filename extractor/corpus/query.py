"""Querying the claims store: filters, unit-aware value ranges, sorting, and the rows' conditions.

    result = run_query("claims.db", ClaimFilter(metric="TTFT", max=200, sort="value"))
    print(format_rows(result.rows, "text", result.unit))

Names are checked before anything runs: a metric may be written as any of its cue phrases
(TTFT, time_to_first_token...); an unknown metric, condition, status, column or sort field is a
`QueryError` that names the closest choices. Value ranges and value sorting go through pint: with
`--unit` the bounds are converted to base units and only claims of compatible units are kept; without
it, claims in several units of one dimension (TTFT in ms and in s) are converted to the metric's
canonical unit (a note says so), and claims of different dimensions are refused, never mixed.
"""
from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator

from extractor.corpus.names import (CONDITION_NAMES, STATUSES, QueryError, check_name, resolve_metric)
from extractor.corpus.query_output import format_count, format_rows, parse_columns  # noqa: F401 (re-exported)
from extractor.corpus.store import Store, base_factor
from extractor.records import Per

COLUMNS = ("path", "doc", "title", "claim_id", "metric", "value", "value_max", "unit", "qualifier",
           "tokens", "per", "baseline", "headline", "model", "hardware", "engine", "quote",
           "span_start", "span_end", "date", "source", "n_mentions", "restates")
DOCUMENT_FIELDS = ("title", "date", "source")   # columns read from the documents table
# `restates`: the claim id and post of the figure this claim restates from another post ('ID@doc'), else null
RESTATES = ("(SELECT r.other_claim_id || '@' || r.other_doc FROM restatements r "
            "WHERE r.path = c.path AND r.ord = c.ord) AS restates")
# The unit values of a time metric are shown in when a query mixes several time units.
CANONICAL_UNITS = {"ttft": "ms", "tpot": "ms", "itl": "ms", "latency": "ms", "e2e_latency": "s"}

__all__ = ["ClaimFilter", "QueryError", "QueryResult", "find_claims", "run_query", "format_rows", "format_count",
           "parse_columns", "COLUMNS"]


class ClaimFilter(BaseModel):
    """Filters of `benchclaims query`: every given filter must hold; `--condition`s combine by `match`."""

    metric: str | None = None
    model: str | None = None          # case-insensitive substring of the canonical/stated model
    hardware: str | None = None
    engine: str | None = None
    conditions: list[tuple[str, str]] = Field(default_factory=list)   # (name, status)
    match: Literal["all", "any"] = "all"   # all: every condition holds; any: at least one does
    headline: bool | None = None
    per: Per | None = None
    doc: str | None = None            # glob (`*`, `?`) or case-insensitive substring of the doc/path
    min: float | None = None
    max: float | None = None
    unit: str | None = None           # unit of min/max and of the `value_in_unit` column
    since: str | None = None          # posts dated on or after this day (YYYY-MM-DD); undated ones are left out
    until: str | None = None          # posts dated on or before this day
    source: str | None = None         # the source's name, exactly (as `batch` stored it)
    hide_restatements: bool = False   # leave out claims that restate another post's figure (`restates`)
    sort: str | None = None           # a column, `-column` for descending
    limit: int | None = None

    def __init__(self, **data: Any) -> None:
        """As a pydantic model, but an invalid filter is one QueryError naming each problem."""
        try:
            super().__init__(**data)
        except ValidationError as err:
            raise QueryError("; ".join(
                (f"--{'.'.join(map(str, e['loc']))}: " if e["type"] != "value_error" else "")
                + e["msg"].removeprefix("Value error, ") for e in err.errors())) from None

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

    @field_validator("metric", mode="before")
    @classmethod
    def _metric(cls, v: Any) -> Any:
        return None if v is None else resolve_metric(v)

    @field_validator("sort", mode="before")
    @classmethod
    def _sort(cls, v: Any) -> Any:
        if v is None:
            return v
        check_name(str(v).lstrip("-"), COLUMNS, "sort field")
        return v

    @field_validator("conditions", mode="before")
    @classmethod
    def _parse_conditions(cls, v: Any) -> Any:
        out = []
        for item in v or []:
            if isinstance(item, str):
                name, sep, status = item.partition("=")
                if not sep or not name.strip() or not status.strip():
                    raise QueryError(f"condition filter {item!r} is not NAME=STATUS "
                                     f"(STATUS: {' or '.join(STATUSES)})")
                item = (name.strip(), status.strip())
            name, status = item
            out.append((check_name(name, CONDITION_NAMES, "condition"), check_name(status, STATUSES, "status")))
        return out


class QueryResult(BaseModel):
    """Matching claims, the unit their `value_in_unit` is in (if any), and notes for the person."""

    rows: list[dict[str, Any]]
    unit: str | None = None
    notes: list[str] = Field(default_factory=list)


def _like(s: str) -> str:
    return "%" + s.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _where(f: ClaimFilter) -> tuple[list[str], list[Any]]:
    """SQL conditions and parameters of every filter except the value range."""
    where: list[str] = []
    params: list[Any] = []
    if f.metric:
        where.append("c.metric = ?")
        params.append(f.metric)
    for col in ("model", "hardware", "engine"):
        val = getattr(f, col)
        if val:
            where.append(f"lower(c.{col}) LIKE ? ESCAPE '\\'")
            params.append(_like(val))
    if f.headline is not None:
        where.append("c.headline = ?")
        params.append(int(f.headline))
    if f.per:
        where.append("c.per = ?")
        params.append(f.per)
    if f.doc:
        if any(ch in f.doc for ch in "*?["):
            where.append("(d.doc GLOB ? OR d.path GLOB ?)")
            params += [f.doc, f.doc if f.doc.startswith(("/", "*")) else "*/" + f.doc]
        else:
            where.append("lower(d.path) LIKE ? ESCAPE '\\'")
            params.append(_like(f.doc))
    if f.since:
        where.append("d.date >= ?")
        params.append(f.since)
    if f.until:
        where.append("d.date <= ?")
        params.append(f.until)
    if f.source:
        where.append("d.source = ?")
        params.append(f.source)
    if f.hide_restatements:
        where.append("NOT EXISTS (SELECT 1 FROM restatements r WHERE r.path=c.path AND r.ord=c.ord)")
    if f.conditions:
        tests = ["EXISTS (SELECT 1 FROM conditions k WHERE k.path=c.path AND k.ord=c.ord "
                 "AND k.name=? AND k.status=?)"] * len(f.conditions)
        where.append("(" + (" OR " if f.match == "any" else " AND ").join(tests) + ")")
        for name, status in f.conditions:
            params += [name, status]
    return where, params


def _pick_unit(store: Store, f: ClaimFilter, where: list[str], params: list[Any],
               notes: list[str]) -> str | None:
    """The unit values are compared and sorted in when the query did not give one.

    One unit among the candidates: None (compare as stated). Several units of one dimension: the
    metric's canonical unit, else the most used one, with a note. Several dimensions: QueryError."""
    sql = ("SELECT c.unit, c.base_unit, count(*) FROM claims c JOIN documents d ON d.path=c.path"
           + (" WHERE " + " AND ".join(where) if where else "") + " GROUP BY c.unit, c.base_unit")
    found = store.conn.execute(sql, params).fetchall()
    if len({u for u, _, _ in found}) <= 1:
        return None
    dims = sorted({b or "?" for _, b, _ in found})
    if len(dims) > 1:
        units = ", ".join(sorted({u for u, _, _ in found}))
        raise QueryError(f"these claims are in units of different kinds ({units}); give --unit to compare "
                         "values in one of them (claims in other kinds are left out), or narrow with "
                         "--metric/--per")
    counts = Counter({u: n for u, _, n in found})
    unit = CANONICAL_UNITS.get(f.metric or "") or sorted(counts, key=lambda u: (-counts[u], u))[0]
    notes.append(f"values converted to {unit} (the claims state {', '.join(sorted(counts))}); "
                 "give --unit to choose another")
    return unit


def run_query(db: str | Path, f: ClaimFilter) -> QueryResult:
    """Claims matching the filter, sorted as asked (document order by default)."""
    if not Path(db).exists():
        raise QueryError(f"{db}: no such database (run `benchclaims batch` first)")
    notes: list[str] = []
    with Store(db) as store:
        store.conn.row_factory = sqlite3.Row
        where, params = _where(f)
        unit_name = f.unit
        by_value = f.sort is not None and f.sort.lstrip("-") in ("value", "value_max")
        if unit_name is None and (f.min is not None or f.max is not None or by_value):
            unit_name = _pick_unit(store, f, where, params, notes)
        unit = None
        if unit_name:
            unit = base_factor(unit_name)
            if unit is None:
                raise QueryError(f"unknown unit {unit_name!r}")
            where.append("c.base_unit = ?")
            params.append(unit[1])
            lo_col, hi_col, scale = "c.base_value", "coalesce(c.base_value_max, c.base_value)", unit[0]
        else:
            lo_col, hi_col, scale = "c.value", "coalesce(c.value_max, c.value)", 1.0
        # a range claim matches when it overlaps [min, max]
        if f.min is not None:
            where.append(f"{hi_col} >= ?")
            params.append(f.min * scale)
        if f.max is not None:
            where.append(f"{lo_col} <= ?")
            params.append(f.max * scale)
        cols = ", ".join(f"d.{c}" if c in DOCUMENT_FIELDS else "d.doc" if c == "doc" else
                         RESTATES if c == "restates" else f"c.{c}" for c in COLUMNS)
        sql = (f"SELECT {cols}, c.ord, c.base_value, c.base_value_max FROM claims c "
               "JOIN documents d ON d.path = c.path")
        if where:
            sql += " WHERE " + " AND ".join(where)
        order = "c.path, c.ord"
        if f.sort:
            field = f.sort.lstrip("-")
            desc = " DESC" if f.sort.startswith("-") else ""
            expr = {"value": lo_col, "value_max": hi_col, "restates": "restates"}.get(field) or (
                f"d.{field}" if field in DOCUMENT_FIELDS or field == "doc" else f"c.{field}")
            order = f"{expr} IS NULL, {expr}{desc}, {order}"    # missing values last, either way
        sql += f" ORDER BY {order}"
        if f.limit:
            sql += f" LIMIT {int(f.limit)}"
        rows = []
        for r in store.conn.execute(sql, params):
            row = {c: r[c] for c in COLUMNS}
            row["headline"] = bool(row["headline"])
            if unit:
                row["value_in_unit"] = r["base_value"] / unit[0]
                row["value_max_in_unit"] = (None if r["base_value_max"] is None
                                            else r["base_value_max"] / unit[0])
            row["conditions"] = _conditions(store, r["path"], r["ord"])
            rows.append(row)
    return QueryResult(rows=rows, unit=unit_name, notes=notes)


def _conditions(store: Store, path: str, ord_: int) -> dict[str, dict[str, Any]]:
    """A claim's conditions: status, value (canonical when there is one), quote, or where to look."""
    out: dict[str, dict[str, Any]] = {}
    for k in store.conn.execute("SELECT name, status, value, canonical, quote, where_note FROM conditions "
                                "WHERE path=? AND ord=? ORDER BY name", (path, ord_)):
        entry: dict[str, Any] = {"status": k["status"]}
        if k["status"] == "stated":
            entry["value"] = None if k["value"] is None else json.loads(k["value"])
            if k["canonical"]:
                entry["canonical"] = k["canonical"]
            entry["quote"] = k["quote"]
        elif k["where_note"]:
            entry["where"] = k["where_note"]
        out[k["name"]] = entry
    return out


def find_claims(db: str | Path, f: ClaimFilter) -> list[dict[str, Any]]:
    """The rows of `run_query` (with `value_in_unit` when a unit is given or chosen)."""
    return run_query(db, f).rows

