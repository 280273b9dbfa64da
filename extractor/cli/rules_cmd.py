"""`benchclaims rules check [DIR]`: validate a rules folder, listing every problem."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from extractor.cli.app import app
from extractor.cli.conventions import check_format, example, format_help

rules_app = typer.Typer(add_completion=False, no_args_is_help=True, help="Work with rule folders.",
                        epilog=example("benchclaims rules check my-rules/"))
app.add_typer(rules_app, name="rules")


FORMATS = ("text", "json", "jsonl")


@rules_app.command("check", epilog=example("benchclaims rules check my-rules/", "benchclaims rules check --format jsonl"))
def check_cmd(
    folder: Optional[Path] = typer.Argument(None, help="Rules folder (default: $BENCHCLAIMS_RULES, else the installed rules)."),
    no_run: bool = typer.Option(False, "--no-run", help="Skip building and running an extractor on the rules."),
    fmt: str = typer.Option("text", "--format", "-f", help=format_help(FORMATS)),
    as_json: bool = typer.Option(False, "--json", hidden=True, help="Same as --format jsonl (older name)."),
) -> None:
    """Validate every rule file (file, line or entry, reason) and report duplicates and conflicts; exit 1 if any."""
    from extractor.rules_check import check_rules

    try:
        fmt = check_format(fmt, FORMATS)
    except ValueError as err:
        raise typer.BadParameter(str(err).split(": ", 1)[1], param_hint="--format") from None
    as_json = as_json or fmt == "jsonl"
    problems = check_rules(folder, smoke=not no_run)
    if fmt == "json":
        import json

        typer.echo(json.dumps([p.model_dump(mode="json") for p in problems], indent=2, ensure_ascii=False))
        raise typer.Exit(1 if problems else 0)
    for p in problems:
        typer.echo(p.model_dump_json() if as_json else p.line())
    if not as_json:
        where = folder or "the installed rules"
        typer.echo(f"{where}: {len(problems)} problem(s)" if problems else f"{where}: rules OK", err=bool(problems))
    raise typer.Exit(1 if problems else 0)
