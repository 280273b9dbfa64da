"""`benchclaims audit`: the load-condition audit of one document (text, Markdown or JSON)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from extractor.cli.app import app
from extractor.cli.common import check_rules, read_record


@app.command("audit")
def audit_cmd(
    file: str = typer.Argument(..., help="A Markdown, HTML or text file; '-' reads standard input."),
    fmt: str = typer.Option("text", "--format", "-f", help="text, markdown or json"),
    rules: Optional[Path] = typer.Option(None, "--rules", callback=check_rules, help="Rules folder (default: the installed rules)."),
) -> None:
    """Audit one document: headline figure, stated conditions, caveats, scenario, absent conditions."""
    from extractor.audit import render_audit

    if fmt not in ("text", "markdown", "json"):
        raise typer.BadParameter("must be text, markdown or json", param_hint="--format")
    record = read_record(file, rules=rules)
    typer.echo(render_audit(record, fmt), nl=False)  # type: ignore[arg-type]
