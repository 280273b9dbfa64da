"""`benchclaims extract` and `benchclaims schema`: one document's record, and the record's JSON Schema."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from extractor.cli.app import app
from extractor.cli.conventions import check_format, example, format_help

FORMATS = ("json", "text")


@app.command("extract", epilog=example("benchclaims extract post.md",
                                       "curl -s URL | benchclaims extract - --input-format html --format text"))
def extract_cmd(
    file: str = typer.Argument(..., help="A Markdown, HTML or text file; '-' reads standard input."),
    fmt: str = typer.Option("json", "--format", "-f", help=format_help(FORMATS)),
    rules: Optional[Path] = typer.Option(None, "--rules", help="Rules folder (default: the installed rules)."),
    doc_format: Optional[str] = typer.Option(None, "--input-format", help="markdown, html or text (default: by suffix)."),
    max_bytes: Optional[int] = typer.Option(None, "--max-bytes", min=1,
                                            help="Size limit (default: $BENCHCLAIMS_MAX_BYTES, else 20 MiB)."),
    timeout: Optional[float] = typer.Option(None, "--timeout",
                                            help="Time budget in seconds, 0 = none (default: $BENCHCLAIMS_TIMEOUT, else 60)."),
) -> None:
    """Extract every claim of one document with its conditions, as JSON or text."""
    from extractor.api import decode, extract_path, extract_text
    from extractor.errors import DocumentFailure
    from extractor.render import record_json, record_text
    from extractor.rules_io import RuleError

    try:
        fmt = check_format(fmt, FORMATS)
    except ValueError as err:
        raise typer.BadParameter(str(err).split(": ", 1)[1], param_hint="--format") from None
    rules_dir = str(rules) if rules else None
    try:
        if file == "-":
            text = decode(sys.stdin.buffer.read(), "<stdin>")
            record = extract_text(text, "-", fmt=doc_format, rules_dir=rules_dir, max_bytes=max_bytes,
                                  timeout=timeout)
        else:
            record = extract_path(file, rules_dir=rules_dir, max_bytes=max_bytes, timeout=timeout)
    except DocumentFailure as err:
        typer.echo(f"benchclaims: {err}", err=True)
        raise typer.Exit(2)
    except FileNotFoundError:
        typer.echo(f"benchclaims: {file}: no such file", err=True)
        raise typer.Exit(2)
    except ValueError as err:  # a malformed $BENCHCLAIMS_MAX_BYTES / $BENCHCLAIMS_TIMEOUT
        if isinstance(err, RuleError):
            raise
        typer.echo(f"benchclaims: {err}", err=True)
        raise typer.Exit(2)
    typer.echo(record_json(record) if fmt == "json" else record_text(record))


@app.command("schema", epilog=example("benchclaims schema > record.schema.json"))
def schema_cmd() -> None:
    """Print the JSON Schema of the document record."""
    import json

    from extractor.records import DocumentRecord

    typer.echo(json.dumps(DocumentRecord.model_json_schema(), indent=2, sort_keys=True))
