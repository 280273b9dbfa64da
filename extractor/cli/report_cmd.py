"""`benchclaims report`: the corpus report of a claims database (an HTML page with plots, or JSON)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from extractor.cli.app import app
from extractor.cli.conventions import fail, format_option, example, format_help, write_output

FORMATS = ("html", "json")


@app.command("report", epilog=example("benchclaims report --db claims.db -o report.html",
                                      "benchclaims report --db claims.db --format json -o report.json"))
def report_cmd(
    db: Path = typer.Option(Path("claims.db"), "--db", help="SQLite database to read (made by `batch`)."),
    fmt: str = typer.Option("html", "--format", "-f", help=format_help(FORMATS)),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="File to write ('-' or none: standard output)."),
    top: int = typer.Option(10, "--top", min=1, help="How many hardware and model names to rank."),
) -> None:
    """The disclosure scorecard of the corpus: per checklist condition the share of claims (and of
    headline claims) that state it, per source and per authorship; claims per metric; the most-claimed
    hardware and models; stated vs unrecoverable over time. HTML: one offline page, plots as inline SVG."""
    from extractor.corpus.report import ReportError, build_report, report_json

    fmt = format_option(fmt, FORMATS)
    try:
        report = build_report(db, top=top)
    except (ReportError, ValueError) as err:
        raise fail(err) from None
    if fmt == "json":
        write_output(report_json(report), output)
        return
    from extractor.corpus.report_page import render_report_html

    write_output(render_report_html(report), output)
