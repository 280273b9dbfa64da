"""The rows of a query as text (an aligned table), JSON, JSON lines or CSV; and the columns to show.

A column is a claim field (`metric`, `value`, `qualifier`...), a condition name (its stated value,
canonical when there is one, or `unrecoverable`) or `<condition>_status`.
"""
from __future__ import annotations

import csv
import io
import json
from typing import Any, Literal

from extractor.corpus.names import CONDITION_NAMES, check_name
from extractor.records import CHECKLIST

Format = Literal["text", "table", "json", "jsonl", "csv"]   # "table" is the older name of "text"

# The default table fits about 150 characters; `--columns` chooses others, `--columns +a,b` adds to these.
TABLE_COLUMNS = ("doc", "metric", "value", "unit", "statistic", "per", "model", "hardware", "batch_or_concurrency",
                 "headline", "n_mentions")
# table headings that differ from the column name (n_mentions: how many places of the post state the claim)
HEADINGS = {"n_mentions": "mentions", "batch_or_concurrency": "batch", "statistic": "stat",
            "input_length": "input", "output_length": "output", "engine_version": "engine"}
CELL_WIDTH = {"quote": 50, "doc": 32, "title": 40}   # longer cells are cut with "..." (other cells: 30)
PARTIAL = " (partial)"
# the default table has no qualifier column: the value cell carries it ("up to 25K" is "<=25000")
QUALIFIER_MARKS = {"approx": "~", "at_least": ">=", "up_to": "<="}   # after the partial value of an unrecoverable condition: what the post does say


def column_names(claim_columns: tuple[str, ...]) -> tuple[str, ...]:
    """Every name `--columns` accepts."""
    return claim_columns + CONDITION_NAMES + tuple(f"{c}_status" for c in CONDITION_NAMES)


def parse_columns(spec: str | None, claim_columns: tuple[str, ...]) -> tuple[str, ...] | None:
    """`--columns a,b,c` checked against the known names (QueryError with suggestions); `+a,b` adds
    them to the default table columns."""
    if not spec:
        return None
    names = column_names(claim_columns)
    extra = spec.startswith("+")
    picked = tuple(check_name(c.strip(), names, "column") for c in spec.lstrip("+").split(",") if c.strip())
    return TABLE_COLUMNS + tuple(c for c in picked if c not in TABLE_COLUMNS) if extra else picked


def condition_text(row: dict[str, Any], name: str) -> str | None:
    """A condition of the row as a cell: its canonical or stated value, or `unrecoverable`."""
    cond = row.get("conditions", {}).get(name)
    if cond is None:
        return None
    if cond["status"] != "stated":
        return cond["value_partial"] + PARTIAL if cond.get("value_partial") else cond["status"]
    value = cond.get("canonical") or cond.get("value")
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def cell_value(row: dict[str, Any], col: str) -> Any:
    """The value of a column for one row (claim field, condition, or condition status)."""
    if col in row and col != "conditions":
        if row[col] is None and col in CONDITION_NAMES:   # model, hardware: a partial value says something
            return condition_text(row, col)
        return row[col]
    if col.endswith("_status") and col[:-7] in CONDITION_NAMES:
        cond = row.get("conditions", {}).get(col[:-7])
        return cond["status"] if cond else None
    if col in CONDITION_NAMES:
        return condition_text(row, col)
    return None


def _num(v: float | None) -> str:
    return "" if v is None else f"{v:.6g}"


def _cell(row: dict[str, Any], col: str, unit: str | None) -> str:
    if col == "value":
        key = "value_in_unit" if unit else "value"
        lo, hi = row[key], row[key.replace("value", "value_max", 1)]
        mark = QUALIFIER_MARKS.get(row.get("qualifier") or "", "")
        return mark + _num(lo) + (f"-{_num(hi)}" if hi is not None else "")
    if col == "unit":
        return unit or row["unit"]
    if col == "headline":
        return "yes" if row["headline"] else ""
    v = cell_value(row, col)
    s = "" if v is None else str(v).replace("\n", " ")
    width = CELL_WIDTH.get(col, 30)
    return s if len(s) <= width else s[:width - 3] + "..."


def why_lines(row: dict[str, Any], names: tuple[str, ...] = CHECKLIST) -> list[str]:
    """`--why`: for each unrecoverable condition of the row, why it is absent and where to look."""
    out = []
    for name in names:
        cond = row.get("conditions", {}).get(name)
        if cond is None or cond["status"] == "stated":
            continue
        partial = f"{cond['value_partial']}{PARTIAL}; " if cond.get("value_partial") else ""
        why = cond.get("why") or "not stated for this claim"
        where = f"; look in: {cond['where']}" if cond.get("where") else ""
        out.append(f"    {name}: {partial}{why}{where}")
    return out


def _flat(row: dict[str, Any], columns: tuple[str, ...] | None) -> dict[str, Any]:
    """A row for CSV: the chosen columns, else every field with `<condition>_status/_value` pairs."""
    if columns:
        return {c: cell_value(row, c) for c in columns}
    out = {k: v for k, v in row.items() if k != "conditions"}
    for name in CONDITION_NAMES:
        out[f"{name}_status"] = cell_value(row, f"{name}_status")
        out[f"{name}_value"] = condition_text(row, name) if out[f"{name}_status"] == "stated" else None
    return out


def format_rows(rows: list[dict[str, Any]], fmt: Format = "text", unit: str | None = None,
                columns: tuple[str, ...] | None = None, why: bool = False) -> str:
    """Rows as an aligned text table, one JSON array, JSON lines, or CSV (header + one line per claim).

    JSON keeps each claim's conditions; `columns` narrows every format to those columns; `why` (text)
    lists under each claim its unrecoverable checklist conditions with why and where to look."""
    if fmt in ("json", "jsonl"):
        data = rows if not columns else [{c: cell_value(r, c) for c in columns} for r in rows]
        if fmt == "json":
            return json.dumps(data, indent=2, ensure_ascii=False)
        return "\n".join(json.dumps(r, ensure_ascii=False) for r in data)
    if fmt == "csv":
        flat = [_flat(r, columns) for r in rows]
        fields = list(flat[0]) if flat else list(columns or TABLE_COLUMNS)   # a header even when nothing matched
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(flat)
        return buf.getvalue().rstrip("\n")
    if not rows:
        return "no matching claims"
    shown = columns or TABLE_COLUMNS
    table = [[HEADINGS.get(c, c) for c in shown]] + [[_cell(r, c, unit) for c in shown] for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(shown))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in table]
    if why:
        lines = lines[:1] + [part for line, row in zip(lines[1:], rows) for part in (line, *why_lines(row))]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines) + f"\n({len(rows)} claim{'' if len(rows) == 1 else 's'})"


def format_count(n: int, fmt: Format = "text") -> str:
    """`--count`: the number of matching claims in the asked format."""
    if fmt in ("json", "jsonl"):
        return json.dumps({"count": n})
    if fmt == "csv":
        return f"count\n{n}"
    return str(n)
