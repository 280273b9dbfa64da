"""`benchclaims export`: write the claims database as Parquet, CSV or JSONL (to a file, or `-o -`)."""
from __future__ import annotations

import sys
from pathlib import Path

import typer

from extractor.cli.app import app
from extractor.cli.conventions import check_output, error_exit, write_output, wrote, format_option, example, is_stdout, format_flag

FORMATS = ("parquet", "csv", "jsonl")


@app.command("export", epilog=example("benchclaims export --format csv -o claims.csv", "benchclaims export --describe",
                                      "benchclaims export --format jsonl -o - | jq .title"))
def export_cmd(
    fmt: str = format_flag("csv", FORMATS, " csv and parquet: one row per claim; jsonl: one record per document."),
    out: str = typer.Option("-", "-o", "--output", help="File to write; '-' (the default) writes to standard output."),
    db: Path = typer.Option(Path("claims.db"), "--db", help="SQLite database to read."),
    describe: bool = typer.Option(False, "--describe", help="Print the data dictionary of the csv/parquet columns "
                                  "(a Markdown table; with --format json, JSON) and exit."),
) -> None:
    """Export every claim (parquet/csv: one row per claim, each condition's status, typed value, quote, scope,
    where and why) or every document record (jsonl). `--describe` lists the columns."""
    from extractor.corpus.export import ExportError, describe as data_dictionary, export
    from extractor.corpus.store import StoreError

    if describe:
        write_output(data_dictionary("json" if fmt in ("json", "jsonl") else "text"), out)
        return

    fmt = format_option(fmt, FORMATS)
    if fmt == "parquet" and is_stdout(out) and sys.stdout.isatty():
        raise error_exit("will not write Parquet (binary) to a terminal; redirect it or give -o FILE")
    check_output(out)
    try:
        n = export(db, fmt, out)  # type: ignore[arg-type]
    except (ExportError, StoreError) as err:
        raise error_exit(err)
    except OSError as err:  # -o names a folder, or a place that cannot be written
        raise error_exit(f"{out}: cannot write ({err.strerror or err})")
    # the count is a message for the person: on stderr when the data goes to standard output
    what = f"{n} {'records' if fmt == 'jsonl' else 'claims'}"
    if is_stdout(out):
        typer.echo(f"wrote {what} to standard output", err=True)
    else:
        wrote(out, f"{what}, {fmt}")
