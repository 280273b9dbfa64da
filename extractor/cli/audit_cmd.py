"""`benchclaims audit`: the load-condition audit of one document (text, Markdown, JSON or an HTML page)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from extractor.cli.app import app
from extractor.cli.conventions import example, fail, format_help, write_output

FORMATS = ("text", "markdown", "json", "html")


@app.command("audit", epilog=example("benchclaims audit corpus/version-compare-docker.md --format html -o audit.html",
                                     "benchclaims audit corpus/recipe-repo-command.md --claim b9ee18a96951"))
def audit_cmd(
    file: str = typer.Argument(..., help="A Markdown, HTML or text file; '-' reads standard input."),
    fmt: str = typer.Option("text", "--format", "-f", help=format_help(FORMATS)),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="File to write ('-' or none: standard output)."),
    rules: Optional[Path] = typer.Option(None, "--rules", help="Rules folder (default: the installed rules)."),
    claim: Optional[str] = typer.Option(None, "--claim", help="Audit this claim (its id, or a unique prefix; see `extract`) instead of the headline (text, markdown, json)."),
) -> None:
    """Audit one document: headline figure, stated conditions, caveats, scenario, absent conditions.

    `--format html` writes one self-contained page (no network fetch): the post's text with every claim
    marked; clicking a claim shows its record and highlights the spans its conditions came from.
    """
    from extractor.api import decode, detect_format, extract_path, extract_text, read_document
    from extractor.audit import render_audit, render_audit_html
    from extractor.errors import DocumentFailure
    from extractor.ingest import ingest

    if fmt not in FORMATS:
        raise typer.BadParameter(f"must be one of {', '.join(FORMATS)}", param_hint="--format")
    rules_dir = str(rules) if rules else None
    try:
        if file == "-":
            name = "-"
            text = decode(sys.stdin.buffer.read(), "<stdin>")
            record = extract_text(text, name, rules_dir=rules_dir)
        else:
            name = Path(file).name
            record = extract_path(file, rules_dir=rules_dir)
            text = read_document(file)[0] if fmt == "html" else ""
    except DocumentFailure as err:
        raise fail(err)
    except FileNotFoundError:
        raise fail(f"{file}: no such file")
    if fmt == "html":
        fmt_in = detect_format(name, text)
        view = ingest(text, name, fmt_in).view if fmt_in == "html" else None
        out = render_audit_html(record, text, view)
    else:
        from extractor.audit.checklist import UnknownClaim

        try:
            out = render_audit(record, fmt, claim)  # type: ignore[arg-type]
        except UnknownClaim as err:
            raise fail(err) from None
    write_output(out, output)
