"""`benchclaims quantities`: every number with its unit found in a file, as JSON lines or a table."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer

from extractor.cli.app import app
from extractor.cli.common import check_rules
from extractor.cli.conventions import format_option, example, error_exit, print_error, format_flag

if TYPE_CHECKING:
    from extractor.records import QuantityRecord

FORMATS = ("jsonl", "json", "text")
FIELDS = ("value", "value_max", "unit", "surface_unit", "qualifier", "span", "quote")


def format_quantities(records: list[QuantityRecord], fmt: str, doc: str | None = None) -> str:
    """JSON lines (`jsonl`: one record a line, stable key order), a JSON array (`json`) or an aligned
    text table (`text`). `doc`, when given, is added to each JSON record as the document's name."""
    if fmt in ("jsonl", "json"):
        dumped = [q.model_dump(include=set(FIELDS)) | ({"doc": doc} if doc is not None else {}) for q in records]
        if fmt == "jsonl":
            return "\n".join(json.dumps(d, ensure_ascii=False, sort_keys=True) for d in dumped)
        return json.dumps(dumped, ensure_ascii=False, sort_keys=True, indent=2)
    rows = [("value", "value_max", "unit", "qualifier", "span", "quote")]
    for q in records:
        rows.append((f"{q.value:g}", "" if q.value_max is None else f"{q.value_max:g}", q.unit, q.qualifier,
                      f"{q.span[0]}-{q.span[1]}", q.quote.replace("\n", "\\n")))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] for r in rows)


def join_documents(parts: list[tuple[str, str]], fmt: str) -> str:
    """Several files' outputs as one: JSON lines concatenated, one JSON array of every record, or each
    text table under a `==> FILE <==` line."""
    if fmt == "jsonl":
        return "\n".join(out for _, out in parts if out)
    if fmt == "json":
        return json.dumps([r for _, out in parts for r in json.loads(out)], ensure_ascii=False, sort_keys=True,
                          indent=2)
    return "\n\n".join(f"==> {name} <==\n{out}" for name, out in parts)


def read_utf8(file: str) -> str:
    """The file's text decoded as UTF-8 exactly (no newline translation); '-' reads stdin.

    The read is bounded by the size limit ($BENCHCLAIMS_MAX_BYTES, else 20 MiB) and the time budget."""
    from extractor import limits
    from extractor.ingest.reading import read_file, read_stream

    limit = limits.max_bytes()
    with limits.time_budget(limits.timeout(), file):
        data = read_stream(sys.stdin.buffer, "-", limit) if file == "-" else read_file(file, limit)
    return data.decode("utf-8")


@app.command("quantities", epilog=example("benchclaims quantities post.md --format text",
                                          "benchclaims quantities a.md b.md -f jsonl",
                                          "echo 'TTFT fell to 42 ms' | benchclaims quantities -"))
def quantities_cmd(
    files: List[str] = typer.Argument(..., help="Text files; '-' reads standard input."),
    fmt: str = format_flag("jsonl", FORMATS, " Several files: each "
                            "JSON record carries its file as `doc`; text opens each table with a line naming the file."),
    rules: Optional[Path] = typer.Option(None, "--rules", callback=check_rules, help="Rules folder (default: the installed rules)."),
) -> None:
    """List every quantity (value, value_max, unit, qualifier, span, quote) found in each file.

    A file that cannot be read is reported and the others are still listed (exit 2)."""
    from extractor.errors import DocumentFailure
    from extractor.quantities.finder import default_finder
    from extractor.rules_io import RuleError

    fmt = format_option(fmt, FORMATS)
    try:
        finder = default_finder(rules)
    except RuleError as err:
        raise error_exit(err) from None
    parts: list[tuple[str, str]] = []
    failed = False
    for file in files:
        try:
            records = finder.find(read_utf8(file))
        except FileNotFoundError:
            print_error(f"{file}: no such file")
            failed = True
            continue
        except UnicodeDecodeError as err:
            print_error(f"{file}: not UTF-8 (byte {err.start})")
            failed = True
            continue
        except DocumentFailure as err:   # over the size limit or the time budget
            print_error(err)
            failed = True
            continue
        except ValueError as err:  # a malformed $BENCHCLAIMS_MAX_BYTES / $BENCHCLAIMS_TIMEOUT
            raise error_exit(err) from None
        doc = None if len(files) == 1 else ("-" if file == "-" else Path(file).name)
        parts.append((file, format_quantities(records, fmt, doc)))
    out = parts[0][1] if len(files) == 1 and parts else join_documents(parts, fmt) if parts else ""
    if out:
        typer.echo(out)
    if failed:
        raise typer.Exit(2)
