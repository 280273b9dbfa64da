"""`benchclaims extract` and `benchclaims schema`: one document's record, and the record's JSON Schema."""
from __future__ import annotations

from itertools import chain
from pathlib import Path
from typing import Callable, Iterable, Iterator, List, Optional, TypeVar

import typer

from extractor.cli.app import app
from extractor.cli.common import POST_FILES, check_input_format, check_max_claims, check_rules, check_timeout, read_record
from extractor.cli.conventions import format_option, example, write_chunks, format_flag

T = TypeVar("T")

FORMATS = ("json", "jsonl", "text")


@app.command("extract", epilog=example("benchclaims extract post.md",
                                       "benchclaims extract posts/a.md posts/b.html -f jsonl -o records.jsonl",
                                       "curl -s URL | benchclaims extract - --input-format html --format text"))
def extract_cmd(
    files: List[str] = POST_FILES,
    fmt: str = format_flag("json", FORMATS, " json: the record (an array of records for several files)."),
    output: Optional[str] = typer.Option(None, "-o", "--output", help="File to write; '-' (default) writes to standard output."),
    rules: Optional[Path] = typer.Option(None, "--rules", callback=check_rules,
                                         help="Rules folder (default: the installed rules)."),
    doc_format: Optional[str] = typer.Option(None, "--input-format", callback=check_input_format,
                                             help="markdown, html or text (default: by suffix, else by content)."),
    max_bytes: Optional[int] = typer.Option(None, "--max-bytes", min=1,
                                            help="Size limit (default: $BENCHCLAIMS_MAX_BYTES, else 20 MiB)."),
    timeout: Optional[float] = typer.Option(None, "--timeout", callback=check_timeout,
                                            help="Time budget in seconds, 0 or inf = none (default: $BENCHCLAIMS_TIMEOUT, else 60)."),
    max_claims: Optional[str] = typer.Option(None, "--max-claims", metavar="N", callback=check_max_claims,
                                             help="Candidate claims per document, 0 = none (default: $BENCHCLAIMS_MAX_CLAIMS, else 10,000)."),
) -> None:
    """Extract every claim of each document with its conditions, as JSON, JSON lines or text.

    A file that cannot be read or extracted is reported and the others still are (exit 2)."""
    from extractor.render import record_json_chunks, record_text

    fmt = format_option(fmt, FORMATS)
    records, failed = [], False
    for file in files:
        record = _extract_one(file, rules, doc_format, max_bytes, timeout, max_claims)
        failed |= record is None
        if record is not None:
            records.append(record)
    if fmt == "text":
        chunks = _joined("\n\n", map(record_text, records), lambda text: [text])
    elif fmt == "jsonl":
        chunks = _joined("\n", records, lambda r: record_json_chunks(r, indent=None))
    elif len(files) == 1:
        chunks = record_json_chunks(records[0]) if records else iter(())
    else:
        chunks = chain(["[\n"], _joined(",\n", records, record_json_chunks), ["\n]"]) if records else iter(["[]"])
    first = next(chunks, "")
    if first:   # a record is written a claim at a time: a long table's text is never held whole
        write_chunks(chain([first], chunks), output)
    if failed:
        raise typer.Exit(2)


def _joined(sep: str, items: Iterable[T], pieces: Callable[[T], Iterable[str]]) -> Iterator[str]:
    """The pieces of each item, `sep` between items (a streamed `sep.join`)."""
    for i, item in enumerate(items):
        if i:
            yield sep
        yield from pieces(item)


def _extract_one(file: str, rules: Path | None, doc_format: str | None, max_bytes: int | None,
                 timeout: float | None, max_claims: int | None):
    """The record of one input, or None after printing why it could not be extracted."""
    try:
        return read_record(file, rules=rules, fmt=doc_format, max_bytes=max_bytes, timeout=timeout,
                           max_claims=max_claims)
    except typer.Exit:   # read_record printed the reason
        return None


@app.command("schema", epilog=example("benchclaims schema > record.schema.json"))
def schema_cmd() -> None:
    """Print the JSON Schema of the document record."""
    import json

    from extractor.records import DocumentRecord

    typer.echo(json.dumps(DocumentRecord.model_json_schema(), indent=2, sort_keys=True))
