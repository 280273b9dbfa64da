"""`benchclaims report`: the corpus report of a claims database (an HTML page with plots, or JSON)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from extractor.cli.app import app
from extractor.cli.conventions import check_output, error_exit, format_option, example, write_output, format_flag

FORMATS = ("html", "json")


@app.command("report", epilog=example("benchclaims report --db claims.db -o report.html",
                                      "benchclaims report -o site/report.html --audit-pages",
                                      "benchclaims report --db claims.db --format json -o report.json"))
def report_cmd(
    db: Path = typer.Option(Path("claims.db"), "--db", help="SQLite database to read (made by `batch`)."),
    fmt: str = format_flag("html", FORMATS),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="File to write ('-' or none: standard output)."),
    top: int = typer.Option(10, "--top", min=1, help="How many hardware and model names to rank."),
    audit_pages: bool = typer.Option(False, "--audit-pages", help="Also write every post's audit page "
                                     "(<post>.audit.html) into the --audit-dir and link each post to it."),
    audit_dir: Optional[Path] = typer.Option(None, "--audit-dir", help="Folder of the audit pages "
                                             "(default: the report's folder; created when missing)."),
) -> None:
    """The disclosure scorecard of the corpus: per checklist condition the share of claims (and of
    headline claims) that state it, per source and per authorship; claims per metric; the most-claimed
    hardware and models; stated vs unrecoverable over time. HTML: one offline page, plots as inline SVG."""
    from extractor.corpus.report import ReportError, build_report, report_json

    fmt = format_option(fmt, FORMATS)
    check_output(output)
    try:
        report = build_report(db, top=top)
    except (ReportError, ValueError) as err:
        raise error_exit(err) from None
    if audit_pages:
        _link_pages(report, db, output, audit_dir)
    if fmt == "json":
        write_output(report_json(report), output)
        return
    from extractor.corpus.report_page import render_report_html

    write_output(render_report_html(report), output, f"corpus report, {len(report.posts)} posts")


def _link_pages(report, db: Path, output: Optional[Path], audit_dir: Optional[Path]) -> None:
    """Write every post's audit page and set each post row's link to it (relative to the report)."""
    import os

    from extractor.cli.audit_pages import write_audit_pages
    from extractor.corpus.store import Store
    from extractor.records import DocumentRecord

    report_dir = output.parent if output is not None and str(output) != "-" else Path.cwd()
    folder = audit_dir if audit_dir is not None else report_dir
    with Store(db) as store:
        records = [DocumentRecord.model_validate_json(js) for js in store.record_json([p.path for p in report.posts])]
    written, skipped = write_audit_pages(records, folder, base=Path(db).resolve().parent)
    by_doc = {p.doc: p for p in report.posts}
    for doc, page in written.items():
        by_doc[doc].audit = Path(os.path.relpath(page.resolve(), report_dir.resolve())).as_posix()
    typer.echo(f"wrote {len(written)} audit pages to {folder}", err=output is None or str(output) == "-")
    for doc in skipped:
        typer.echo(f"benchclaims: note: no audit page for {doc}: its file is gone or changed since the batch",
                   err=True)
