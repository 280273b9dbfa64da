"""`benchclaims diff OLD NEW` and `benchclaims rerun --against OLD`: review what changed between runs.

Exit codes as diff(1): 0 no differences, 1 differences (of the `--fail-on` kinds), 2 error.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from extractor.cli.app import app
from extractor.cli.conventions import check_output, example, error_exit, format_flag

FORMATS = ("text", "json", "html")

FORMAT_OPT = format_flag("text", FORMATS)
OUTPUT_OPT = typer.Option(None, "--output", "-o", help="write the report to this file ('-' or none: standard output)")
AUDIT_DIR_OPT = typer.Option(None, "--audit-dir", help="folder of the posts' audit pages (<doc stem>.audit.html, "
                             "from `benchclaims audit FILE --format html`) to link from the report "
                             "(default: the report's folder)")
AUDIT_PAGES_OPT = typer.Option(False, "--audit-pages", help="also write the audit page of every changed post "
                               "(new side) into the audit folder and link the report's claims to them")
FAIL_ON_OPT = typer.Option(None, "--fail-on", help="comma list of kinds that make exit 1: "
                           "added,removed,changed,document (default: any)")


@app.command("diff", epilog=example("benchclaims diff old.jsonl claims.db --format html -o review.html"))
def diff_command(old: str = typer.Argument(..., help="old run: JSONL, claims .db, or folder of record JSON"),
                 new: str = typer.Argument(..., help="new run: JSONL, claims .db, or folder of record JSON"),
                 fmt: str = FORMAT_OPT, output: Optional[Path] = OUTPUT_OPT,
                 fail_on: Optional[str] = FAIL_ON_OPT, audit_dir: Optional[Path] = AUDIT_DIR_OPT,
                 audit_pages: bool = AUDIT_PAGES_OPT) -> None:
    """Compare two extraction runs: added, removed and changed claims, per field and document."""
    from extractor.cli.diff_run import check_options, diff_sides, emit, exit_code, side_bases
    from extractor.review.sources import SourceError, load_side

    kinds = check_options(fmt, fail_on)
    check_output(output)
    try:
        new_side = load_side(new)
        report = diff_sides(load_side(old), new_side, old_bases=side_bases(old), new_bases=side_bases(new))
        emit(report, fmt, output, audit_dir, new_side if audit_pages else None, side_bases(new)[-1])
    except (SourceError, ValueError, OSError) as err:
        raise error_exit(err) from None
    raise typer.Exit(exit_code(report, kinds))


@app.command("rerun", epilog=example("benchclaims rerun --against before.jsonl --fail-on removed,changed",
                                     "benchclaims rerun --against before.jsonl --rules my-rules/ -j 2 -f html -o review/diff.html --audit-pages"))
def rerun_command(against: str = typer.Option(..., "--against", help="saved run to compare with "
                                              "(JSONL, claims .db, or folder of record JSON)"),
                  rules: Optional[Path] = typer.Option(None, "--rules", help="rules folder (default: current)"),
                  fmt: str = FORMAT_OPT, output: Optional[Path] = OUTPUT_OPT,
                  fail_on: Optional[str] = FAIL_ON_OPT, audit_dir: Optional[Path] = AUDIT_DIR_OPT,
                  audit_pages: bool = AUDIT_PAGES_OPT,
                  jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="re-extract in this many processes")) -> None:
    """Re-extract the documents of a saved run with the current rules and diff against it."""
    from extractor.cli.diff_run import check_options, diff_sides, emit, exit_code
    from extractor.review.sources import SourceError, load_side, reextract

    kinds = check_options(fmt, fail_on)
    check_output(output)
    try:
        if rules is not None and not rules.is_dir():
            raise ValueError(f"--rules: {rules} is not a folder")
        if rules is not None:   # invalid rules fail the command even when the saved run has no document
            from extractor.api import get_extractor
            from extractor.rules_io import RuleError

            try:
                get_extractor(str(rules))
            except RuleError as err:
                raise error_exit(f"invalid rules: {err}") from None
        old = load_side(against)
        base = Path(against).resolve().parent
        new, errors = reextract(old, rules_dir=str(rules) if rules else None, base=base, jobs=jobs)
        rules_dir = str(rules) if rules else None
        report = diff_sides(old, new, errors, old_bases=[base], new_bases=[base], rules_dir=rules_dir)
        emit(report, fmt, output, audit_dir, new if audit_pages else None, base)
    except (SourceError, ValueError, OSError) as err:
        raise error_exit(err) from None
    raise typer.Exit(exit_code(report, kinds))
