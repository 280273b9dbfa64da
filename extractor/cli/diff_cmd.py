"""`benchclaims diff OLD NEW` and `benchclaims rerun --against OLD`: review what changed between runs.

Exit codes as diff(1): 0 no differences, 1 differences (of the `--fail-on` kinds), 2 error.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from extractor.cli.app import app
from extractor.diff import KINDS, DiffReport, diff_records
from extractor.diff_render import render, use_color
from extractor.diff_sources import Side, SourceError, failure_errors, load_side, reextract

FORMATS = ("text", "json", "html")


def parse_fail_on(value: str | None) -> set[str] | None:
    """`added,removed` -> {'added', 'removed'}; None means any difference fails."""
    if not value:
        return None
    kinds = {k.strip() for k in value.split(",") if k.strip()}
    bad = sorted(kinds - set(KINDS))
    if bad:
        raise ValueError(f"--fail-on: unknown kind(s) {', '.join(bad)}; choose from {', '.join(KINDS)}")
    return kinds


def diff_sides(old: Side, new: Side, extra_errors: list[str] | None = None) -> DiffReport:
    """Diff two loaded sides, with failed documents and extra errors listed in the report."""
    errors = list(extra_errors or []) + failure_errors(old, new)
    return diff_records(old.records, new.records, old_label=old.label, new_label=new.label, errors=errors)


def exit_code(report: DiffReport, fail_on: set[str] | None) -> int:
    """2 when the comparison had errors, 1 when differences of the chosen kinds exist, else 0."""
    if report.errors:
        return 2
    return 1 if report.has_differences(fail_on) else 0


def emit(report: DiffReport, fmt: str, output: Path | None) -> None:
    """Write the rendered report to a file, or to stdout (colour only on a terminal)."""
    if output is not None:
        output.write_text(render(report, fmt), encoding="utf-8")
        return
    sys.stdout.write(render(report, fmt, color=fmt == "text" and use_color(sys.stdout)))
    sys.stdout.flush()


def _check(fmt: str, fail_on: str | None) -> set[str] | None:
    if fmt not in FORMATS:
        raise ValueError(f"--format: {fmt!r} is not one of {', '.join(FORMATS)}")
    return parse_fail_on(fail_on)


FORMAT_OPT = typer.Option("text", "--format", "-f", help="text, json or html")
OUTPUT_OPT = typer.Option(None, "--output", "-o", help="write the report to this file")
FAIL_ON_OPT = typer.Option(None, "--fail-on", help="comma list of kinds that make exit 1: "
                           "added,removed,changed,document (default: any)")


@app.command("diff")
def diff_command(old: str = typer.Argument(..., help="old run: JSONL, claims .db, or folder of record JSON"),
                 new: str = typer.Argument(..., help="new run: JSONL, claims .db, or folder of record JSON"),
                 fmt: str = FORMAT_OPT, output: Optional[Path] = OUTPUT_OPT,
                 fail_on: Optional[str] = FAIL_ON_OPT) -> None:
    """Compare two extraction runs: added, removed and changed claims, per field and document."""
    try:
        kinds = _check(fmt, fail_on)
        report = diff_sides(load_side(old), load_side(new))
        emit(report, fmt, output)
    except (SourceError, ValueError, OSError) as err:
        typer.echo(f"benchclaims diff: {err}", err=True)
        raise typer.Exit(2) from None
    raise typer.Exit(exit_code(report, kinds))


@app.command("rerun")
def rerun_command(against: str = typer.Option(..., "--against", help="saved run to compare with "
                                              "(JSONL, claims .db, or folder of record JSON)"),
                  rules: Optional[Path] = typer.Option(None, "--rules", help="rules folder (default: current)"),
                  fmt: str = FORMAT_OPT, output: Optional[Path] = OUTPUT_OPT,
                  fail_on: Optional[str] = FAIL_ON_OPT) -> None:
    """Re-extract the documents of a saved run with the current rules and diff against it."""
    try:
        kinds = _check(fmt, fail_on)
        if rules is not None and not rules.is_dir():
            raise ValueError(f"--rules: {rules} is not a folder")
        old = load_side(against)
        base = Path(against).resolve().parent
        new, errors = reextract(old, rules_dir=str(rules) if rules else None, base=base)
        report = diff_sides(old, new, errors)
        emit(report, fmt, output)
    except (SourceError, ValueError, OSError) as err:
        typer.echo(f"benchclaims rerun: {err}", err=True)
        raise typer.Exit(2) from None
    raise typer.Exit(exit_code(report, kinds))
