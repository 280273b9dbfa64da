"""`benchclaims rules check [DIR]` and `benchclaims rules usage PATH...`: validate a rules folder; count where its entries fire."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from extractor.cli.app import app
from extractor.cli.conventions import format_option, example, format_flag

rules_app = typer.Typer(add_completion=False, no_args_is_help=True, help="Work with rule folders.",
                        epilog=example("benchclaims rules check my-rules/"))
app.add_typer(rules_app, name="rules")


FORMATS = ("text", "json", "jsonl")


@rules_app.command("check", epilog=example("benchclaims rules check my-rules/", "benchclaims rules check --format jsonl"))
def check_cmd(
    folder: Optional[Path] = typer.Argument(None, help="Rules folder (default: $BENCHCLAIMS_RULES, else the installed rules)."),
    no_run: bool = typer.Option(False, "--no-run", help="Skip building and running an extractor on the rules."),
    fmt: str = format_flag("text", FORMATS),
    as_json: bool = typer.Option(False, "--json", hidden=True, help="Same as --format jsonl (older name)."),
) -> None:
    """Validate every rule file (file, line or entry, reason) and report duplicates and conflicts; exit 1 if any."""
    from extractor.rules_check import check_rules

    fmt = format_option(fmt, FORMATS)
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


USAGE_FORMATS = ("text", "json")


@rules_app.command("usage", epilog=example("benchclaims rules usage corpus/ posts/ --lists-only",
                                           "benchclaims rules usage posts/ --rules my-rules/ --format json"))
def usage_cmd(
    paths: list[str] = typer.Argument(..., help="Posts: files, folders or globs (.md .html .txt)."),
    rules: Optional[Path] = typer.Option(None, "--rules", help="Rules folder (default: $BENCHCLAIMS_RULES, else the installed rules)."),
    fmt: str = format_flag("text", USAGE_FORMATS),
    every: bool = typer.Option(True, "--all/--lists-only", help="List every entry, or only the two lists."),
) -> None:
    """For every rule entry (file, line, name, text): on how many documents and how often it fires over the posts;
    then the entries that fire on nothing, and those that fire on exactly one document: phrasings (condition
    patterns, regexes, phrases of several words) apart from vocabulary (gazetteer lines, unit spellings,
    one-word cues, name lists)."""
    from extractor.corpus.batch import collect_paths
    from extractor.rules_usage import rules_usage

    fmt = format_option(fmt, USAGE_FORMATS)
    try:
        found = collect_paths(paths)
    except FileNotFoundError as err:
        typer.echo(f"benchclaims rules usage: {err}", err=True)
        raise typer.Exit(2)
    report = rules_usage(found, rules)
    if fmt == "json":
        typer.echo(report.model_dump_json(indent=1))
        return
    header = f"{'file:line':<34} {'entry':<36} {'text':<40} {'docs':>5} {'matches':>7}"
    if every:
        typer.echo(header)
        for e in report.entries:
            typer.echo(e.row())
    unused, phrasing, vocabulary = report.unused(), report.single("phrasing"), report.single("vocabulary")
    typer.echo(f"\nFire on no document ({len(unused)}):")
    for e in unused:
        typer.echo(f"  {e.row()}")
    typer.echo(f"\nPhrasings that fire on exactly one document ({len(phrasing)}): condition patterns, regexes and "
               "phrases of several words; one post's wording? make it general or drop it")
    for e in phrasing:
        typer.echo(f"  {e.row()}  <- {e.examples[0]}")
    typer.echo(f"\nVocabulary that fires on exactly one document ({len(vocabulary)}): gazetteer lines, unit "
               "spellings, one-word cues, name lists")
    for e in vocabulary:
        typer.echo(f"  {e.row()}  <- {e.examples[0]}")
    for f in report.failed:
        typer.echo(f"unreadable: {f}", err=True)
    typer.echo(f"\n{report.documents} documents, {len(report.entries)} entries: {len(unused)} fire on none, "
               f"{len(phrasing) + len(vocabulary)} on exactly one ({len(phrasing)} phrasings, "
               f"{len(vocabulary)} vocabulary)")
