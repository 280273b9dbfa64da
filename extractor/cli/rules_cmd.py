"""`benchclaims rules check [DIR]`: validate a rules folder, listing every problem."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from extractor.cli.app import app

rules_app = typer.Typer(add_completion=False, no_args_is_help=True, help="Work with rule folders.")
app.add_typer(rules_app, name="rules")


@rules_app.command("check")
def check_cmd(
    folder: Optional[Path] = typer.Argument(None, help="Rules folder (default: $BENCHCLAIMS_RULES, else the installed rules)."),
    no_run: bool = typer.Option(False, "--no-run", help="Skip building and running an extractor on the rules."),
    as_json: bool = typer.Option(False, "--json", help="Print the problems as JSON lines."),
) -> None:
    """Validate every rule file (file, line or entry, reason) and report duplicates and conflicts; exit 1 if any."""
    from extractor.rules_check import check_rules

    problems = check_rules(folder, smoke=not no_run)
    for p in problems:
        typer.echo(p.model_dump_json() if as_json else p.line())
    if not as_json:
        where = folder or "the installed rules"
        typer.echo(f"{where}: {len(problems)} problem(s)" if problems else f"{where}: rules OK", err=bool(problems))
    raise typer.Exit(1 if problems else 0)
