"""`benchclaims extract` and `benchclaims schema`: one document's record, and the record's JSON Schema."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from extractor.cli.app import app
from extractor.cli.common import check_input_format, check_rules, check_timeout, read_record
from extractor.cli.conventions import check_format, example, format_help

FORMATS = ("json", "text")


@app.command("extract", epilog=example("benchclaims extract post.md",
                                       "curl -s URL | benchclaims extract - --input-format html --format text"))
def extract_cmd(
    file: str = typer.Argument(..., help="A Markdown, HTML or text file; '-' reads standard input."),
    fmt: str = typer.Option("json", "--format", "-f", help=format_help(FORMATS)),
    rules: Optional[Path] = typer.Option(None, "--rules", callback=check_rules,
                                         help="Rules folder (default: the installed rules)."),
    doc_format: Optional[str] = typer.Option(None, "--input-format", callback=check_input_format,
                                             help="markdown, html or text (default: by suffix, else by content)."),
    max_bytes: Optional[int] = typer.Option(None, "--max-bytes", min=1,
                                            help="Size limit (default: $BENCHCLAIMS_MAX_BYTES, else 20 MiB)."),
    timeout: Optional[float] = typer.Option(None, "--timeout", callback=check_timeout,
                                            help="Time budget in seconds, 0 or inf = none (default: $BENCHCLAIMS_TIMEOUT, else 60)."),
) -> None:
    """Extract every claim of one document with its conditions, as JSON or text."""
    from extractor.render import record_json, record_text

    try:
        fmt = check_format(fmt, FORMATS)
    except ValueError as err:
        raise typer.BadParameter(str(err).split(": ", 1)[1], param_hint="--format") from None
    record = read_record(file, rules=rules, fmt=doc_format, max_bytes=max_bytes, timeout=timeout)
    typer.echo(record_json(record) if fmt == "json" else record_text(record))


@app.command("schema", epilog=example("benchclaims schema > record.schema.json"))
def schema_cmd() -> None:
    """Print the JSON Schema of the document record."""
    import json

    from extractor.records import DocumentRecord

    typer.echo(json.dumps(DocumentRecord.model_json_schema(), indent=2, sort_keys=True))
