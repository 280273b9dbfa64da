"""`benchclaims audit`: the load-condition audit of one document (text, Markdown or JSON)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from extractor.cli.app import app


@app.command("audit")
def audit_cmd(
    file: str = typer.Argument(..., help="A Markdown, HTML or text file; '-' reads standard input."),
    fmt: str = typer.Option("text", "--format", "-f", help="text, markdown or json"),
    rules: Optional[Path] = typer.Option(None, "--rules", help="Rules folder (default: the installed rules)."),
) -> None:
    """Audit one document: headline figure, stated conditions, caveats, scenario, absent conditions."""
    from extractor.api import decode, extract_path, extract_text
    from extractor.audit import render_audit
    from extractor.errors import DocumentFailure

    if fmt not in ("text", "markdown", "json"):
        raise typer.BadParameter("must be text, markdown or json", param_hint="--format")
    rules_dir = str(rules) if rules else None
    try:
        if file == "-":
            record = extract_text(decode(sys.stdin.buffer.read(), "<stdin>"), "-", rules_dir=rules_dir)
        else:
            record = extract_path(file, rules_dir=rules_dir)
    except DocumentFailure as err:
        typer.echo(f"benchclaims: {err}", err=True)
        raise typer.Exit(2)
    except FileNotFoundError:
        typer.echo(f"benchclaims: {file}: no such file", err=True)
        raise typer.Exit(2)
    typer.echo(render_audit(record, fmt), nl=False)  # type: ignore[arg-type]
