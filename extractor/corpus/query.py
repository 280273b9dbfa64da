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
import re
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator

from extractor.corpus.names import (CONDITION_NAMES, STATUSES, QueryError, check_name, resolve_metric)
from extractor.corpus.query_output import format_count, format_rows, parse_columns  # noqa: F401 (re-exported)
from extractor.corpus.rows import base_factor
from extractor.corpus.store import Store
from extractor.records import STATISTIC_PATTERN, Per, Tokens

COLUMNS = ("path", "doc", "title", "claim_id", "metric", "value", "value_max", "unit", "qualifier",
           "tokens", "statistic", "per", "baseline", "direction", "cited_from", "headline", "model", "hardware",
           "engine", "quote", "span_start", "span_end", "date", "source", "n_mentions", "restates")
DOCUMENT_FIELDS = ("title", "date", "source")   # columns read from the documents table
# `restates`: the claim id and post of the figure this claim restates from another post ('ID@doc'), else null
RESTATES = ("(SELECT r.other_claim_id || '@' || r.other_doc FROM restatements r "
            "WHERE r.path = c.path AND r.ord = c.ord) AS restates")
# The unit values of a time metric are shown in when a query mixes several time units.
CANONICAL_UNITS = {"ttft": "ms", "tpot": "ms", "itl": "ms", "latency": "ms", "e2e_latency": "s"}

__all__ = ["ClaimFilter", "QueryError", "QueryResult", "find_claims", "run_query", "format_rows", "format_count",
           "parse_columns", "COLUMNS"]


class ClaimFilter(BaseModel):
    """Filters of `benchclaims query`: every given field must hold (AND); the several values of one field
    are alternatives (OR); `--condition`s combine by `match`."""

    metric: list[str] = Field(default_factory=list)
    model: list[str] = Field(default_factory=list)      # exact canonical name, or `~substring` (matching.py)
    hardware: list[str] = Field(default_factory=list)
    engine: list[str] = Field(default_factory=list)
    tokens: list[Tokens] = Field(default_factory=list)  # what a throughput counts: total, output, input...
    statistic: list[str] = Field(default_factory=list)  # mean, median, min, max, pNN
    conditions: list[tuple[str, str]] = Field(default_factory=list)   # (name, status)
    match: Literal["all", "any"] = "all"   # all: every condition holds; any: at least one does
    headline: bool | None = None
    per: list[Per] = Field(default_factory=list)
    doc: list[str] = Field(default_factory=list)        # glob (`*`, `?`) or case-insensitive substring
    min: float | None = None
    max: float | None = None
    unit: str | None = None           # unit of min/max and of the `value_in_unit` column
    since: str | None = None          # posts dated on or after this day (YYYY-MM-DD); undated ones are left out
    until: str | None = None          # posts dated on or before this day
    source: list[str] = Field(default_factory=list)     # the source's name, exactly (as `batch` stored it)
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

    @field_validator("metric", "model", "hardware", "engine", "tokens", "statistic", "per", "doc", "source",
                     mode="before")
    @classmethod
    def _listed(cls, v: Any) -> Any:
        """One value or several (a repeated option); None or empty: no filter."""
        return [] if v is None else [v] if isinstance(v, str) else list(v)

    @field_validator("metric")
    @classmethod
    def _metric(cls, v: list[str]) -> list[str]:
        return [resolve_metric(m) for m in v]

    @field_validator("statistic")
    @classmethod
    def _statistic(cls, v: list[str]) -> list[str]:
        out = []
        for s in v:
            name = {"p50": "median", "average": "mean", "avg": "mean"}.get(s.strip().lower(), s.strip().lower())
            if not re.match(STATISTIC_PATTERN, name):
                raise QueryError(f"--statistic: {s!r} is not mean, median, min, max or a percentile (p90, p99)")
            out.append(name)
        return out

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


def _one_of(where: list[str], params: list[Any], column: str, values: list[Any]) -> None:
    """`column IN (values)`: a field's several values are alternatives."""
    if values:
        where.append(f"{column} IN ({','.join('?' * len(values))})")
        params.extend(values)


def _doc_test(doc: str, params: list[Any]) -> str:
    if any(ch in doc for ch in "*?["):
        params += [doc, doc if doc.startswith(("/", "*")) else "*/" + doc]
        return "(d.doc GLOB ? OR d.path GLOB ?)"
    params.append(_like(doc))
    return "lower(d.path) LIKE ? ESCAPE '\\'"


def _names(store: Store, f: ClaimFilter, notes: list[str]) -> dict[str, list[str]]:
    """The stored model, hardware and engine names each name filter picks (see matching.py); a term that
    picks none is said in a note with the closest stored names."""
    from extractor.corpus.matching import SUBSTRING, names_matching
    from extractor.corpus.names import suggestions

    picked: dict[str, list[str]] = {}
    for col in ("model", "hardware", "engine"):
        terms = getattr(f, col)
        if not terms:
            continue
        stored = [r[0] for r in store.conn.execute(f"SELECT DISTINCT {col} FROM claims WHERE {col} IS NOT NULL "
                                                   f"ORDER BY {col}")]
        picked[col] = names_matching(col, terms, stored)
        for term in terms:
            if not names_matching(col, [term], stored):
                close = suggestions(term.lstrip(SUBSTRING), stored)
                hint = f"; stored names close to it: {', '.join(close)}" if close else ""
                notes.append(f"--{col} {term!r} names no {col} of the database{hint} "
                             f"(exact names; {SUBSTRING}TEXT matches a part of a name)")
    return picked


def _where(f: ClaimFilter, names: dict[str, list[str]] | None = None) -> tuple[list[str], list[Any]]:
    """SQL conditions and parameters of every filter except the value range; `names` holds the stored
    names the model/hardware/engine filters picked."""
    where: list[str] = []
    params: list[Any] = []
    _one_of(where, params, "c.metric", f.metric)
    for col, picked in (names or {}).items():
        if not picked:
            where.append("0")    # the filter names nothing stored: no claim answers it
        _one_of(where, params, f"c.{col}", picked)
    _one_of(where, params, "c.tokens", f.tokens)
    _one_of(where, params, "c.statistic", f.statistic)
    if f.headline is not None:
        where.append("c.headline = ?")
        params.append(int(f.headline))
    _one_of(where, params, "c.per", f.per)
    if f.doc:
        where.append("(" + " OR ".join(_doc_test(d, params) for d in f.doc) + ")")
    if f.since:
        where.append("d.date >= ?")
        params.append(f.since)
    if f.until:
        where.append("d.date <= ?")
        params.append(f.until)
    _one_of(where, params, "d.source", f.source)
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
    unit = (CANONICAL_UNITS.get(f.metric[0]) if len(f.metric) == 1 else None) or sorted(counts, key=lambda u: (-counts[u], u))[0]
    notes.append(f"values converted to {unit} (the claims state {', '.join(sorted(counts))}); "
                 "give --unit to choose another")
    return unit


def _dimension(base_unit: str) -> str:
    """A base-unit signature as a person reads it: 'gpu^-1 second^-1 token^1' -> 'token / second / gpu'."""
    up = [n if e == "1" else f"{n}^{e}" for n, _, e in (p.partition("^") for p in base_unit.split())
          if not e.startswith("-")]
    down = [n if e == "-1" else f"{n}^{e[1:]}" for n, _, e in (p.partition("^") for p in base_unit.split())
            if e.startswith("-")]
    return " / ".join([" * ".join(up) or "1", *down])


def _check_unit_kind(store: Store, unit_name: str, base_unit: str, where: list[str], params: list[Any]) -> None:
    """QueryError when no matching claim is of the kind of `--unit` but some are of another kind (a time
    unit for a throughput): naming the claims' dimension and units instead of answering nothing."""
    sql = ("SELECT c.base_unit, group_concat(DISTINCT c.unit) FROM claims c JOIN documents d ON d.path=c.path"
           + (" WHERE " + " AND ".join(where) if where else "") + " GROUP BY c.base_unit")
    kinds = {b: units for b, units in store.conn.execute(sql, params) if b}
    if kinds and base_unit not in kinds:
        found = "; ".join(f"{_dimension(b)} ({', '.join(sorted(set(u.split(','))))})" for b, u in sorted(kinds.items()))
        raise QueryError(f"--unit {unit_name!r} measures {_dimension(base_unit)}, but the matching claims are in "
                         f"{found}: give a unit of that kind, or a --metric whose claims are in {unit_name}")


def run_query(db: str | Path, f: ClaimFilter) -> QueryResult:
    """Claims matching the filter, sorted as asked (document order by default)."""
    if not Path(db).exists():
        raise QueryError(f"{db}: no such database (run `benchclaims batch` first)")
    notes: list[str] = []
    with Store(db, readonly=True) as store:
        store.conn.row_factory = sqlite3.Row
        where, params = _where(f, _names(store, f, notes))
        unit_name = f.unit
        by_value = f.sort is not None and f.sort.lstrip("-") in ("value", "value_max")
        if unit_name is None and (f.min is not None or f.max is not None or by_value):
            unit_name = _pick_unit(store, f, where, params, notes)
        unit = None
        if unit_name:
            unit = base_factor(unit_name)
            if unit is None:
                raise QueryError(f"unknown unit {unit_name!r}")
            _check_unit_kind(store, unit_name, unit[1], where, params)
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
    for k in store.conn.execute("SELECT name, status, value, canonical, quote, scope, value_partial, where_note, "
                                "why FROM conditions WHERE path=? AND ord=? ORDER BY name", (path, ord_)):
        entry: dict[str, Any] = {"status": k["status"]}
        if k["status"] == "stated":
            entry["value"] = None if k["value"] is None else json.loads(k["value"])
            if k["canonical"]:
                entry["canonical"] = k["canonical"]
            entry["quote"] = k["quote"]
            if k["scope"]:
                entry["scope"] = k["scope"]
        else:
            for key, col in (("value_partial", "value_partial"), ("why", "why"), ("where", "where_note")):
                if k[col]:
                    entry[key] = k[col]
        out[k["name"]] = entry
    return out


def find_claims(db: str | Path, f: ClaimFilter) -> list[dict[str, Any]]:
    """The rows of `run_query` (with `value_in_unit` when a unit is given or chosen)."""
    return run_query(db, f).rows

