"""`benchclaims quantities`: every number with its unit found in a file, as JSON lines or a table."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from extractor.cli.app import app
from extractor.cli.conventions import check_format, example, format_help

if TYPE_CHECKING:
    from extractor.records import QuantityRecord

FORMATS = ("jsonl", "json", "text")
FIELDS = ("value", "value_max", "unit", "surface_unit", "qualifier", "span", "quote")


def format_quantities(records: list[QuantityRecord], fmt: str) -> str:
    """JSON lines (`jsonl`: one record a line, stable key order), a JSON array (`json`) or an aligned
    text table (`text`)."""
    if fmt == "jsonl":
        return "\n".join(json.dumps(q.model_dump(include=set(FIELDS)), ensure_ascii=False, sort_keys=True)
                         for q in records)
    if fmt == "json":
        return json.dumps([q.model_dump(include=set(FIELDS)) for q in records], ensure_ascii=False,
                          sort_keys=True, indent=2)
    rows = [("value", "value_max", "unit", "qualifier", "span", "quote")]
    for q in records:
        rows.append((f"{q.value:g}", "" if q.value_max is None else f"{q.value_max:g}", q.unit, q.qualifier,
                      f"{q.span[0]}-{q.span[1]}", q.quote.replace("\n", "\\n")))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] for r in rows)


def read_utf8(file: str) -> str:
    """The file's text decoded as UTF-8 exactly (no newline translation); '-' reads stdin."""
    data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    return data.decode("utf-8")


@app.command("quantities", epilog=example("benchclaims quantities post.md --format text",
                                          "echo 'TTFT fell to 42 ms' | benchclaims quantities -"))
def quantities_cmd(
    file: str = typer.Argument(..., help="A text file; '-' reads standard input."),
    fmt: str = typer.Option("jsonl", "--format", "-f", help=format_help(FORMATS)),
    rules: Optional[Path] = typer.Option(None, "--rules", help="Rules folder (default: the installed rules)."),
) -> None:
    """List every quantity (value, value_max, unit, qualifier, span, quote) found in FILE."""
    from extractor.quantities.finder import default_finder
    from extractor.rules_io import RuleError

    try:
        fmt = check_format(fmt, FORMATS)
    except ValueError as err:
        raise typer.BadParameter(str(err).split(": ", 1)[1], param_hint="--format") from None
    try:
        text = read_utf8(file)
        records = default_finder(rules).find(text)
    except FileNotFoundError:
        typer.echo(f"benchclaims: {file}: no such file", err=True)
        raise typer.Exit(2)
    except UnicodeDecodeError as err:
        typer.echo(f"benchclaims: {file}: not UTF-8 (byte {err.start})", err=True)
        raise typer.Exit(2)
    except RuleError as err:
        typer.echo(f"benchclaims: {err}", err=True)
        raise typer.Exit(2)
    out = format_quantities(records, fmt)
    if out:
        typer.echo(out)
