"""What `benchclaims diff` and `benchclaims rerun` do once parsed: check options, diff, render, exit code.

Kept apart from `diff_cmd` so that other sub-commands start without importing the diff machinery.
"""
from __future__ import annotations

import sys
from pathlib import Path

from extractor.cli.conventions import error_exit, format_option, wrote
from extractor.review.context import attach_context
from extractor.review.diff import KINDS, DiffReport, diff_records
from extractor.review.excerpts import TextLibrary
from extractor.review.links import link_audit_pages
from extractor.review.render import render, use_color
from extractor.review.render_html import render_html
from extractor.review.sources import Side, failure_errors

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


def side_bases(spec: str) -> list[Path]:
    """Folders a side's relative record paths may be relative to (besides the current one): the folder
    of a JSONL/.db file, or a records folder and its parent."""
    p = Path(spec).resolve()
    return [p, p.parent] if p.is_dir() else [p.parent]


def diff_sides(old: Side, new: Side, extra_errors: list[str] | None = None, *,
               old_bases: list[Path] | None = None, new_bases: list[Path] | None = None,
               rules_dir: str | None = None) -> DiffReport:
    """Diff two loaded sides, with failed documents and extra errors listed in the report, and each
    change's context read from the posts (where their files still hold the recorded content)."""
    errors = list(extra_errors or []) + failure_errors(old, new)
    report = diff_records(old.records, new.records, old_label=old.label, new_label=new.label, errors=errors)
    return attach_context(report, TextLibrary.for_rules(rules_dir), old_bases=old_bases, new_bases=new_bases)


def exit_code(report: DiffReport, fail_on: set[str] | None) -> int:
    """2 when the comparison had errors, 1 when differences of the chosen kinds exist, else 0."""
    if report.errors:
        return 2
    return 1 if report.has_differences(fail_on) else 0


def emit(report: DiffReport, fmt: str, output: Path | None, audit_dir: Path | None = None,
         pages_from: Side | None = None, base: Path | None = None) -> None:
    """Write the rendered report to a file, or to stdout for no file or '-' (colour only on a terminal), with
    links to the posts' audit pages found in `audit_dir` (default: the report's folder, or the current one);
    with `pages_from` (the new side), the pages of the changed posts are written there first."""
    to_file = output is not None and str(output) != "-"
    report_dir = output.parent if to_file and output is not None else Path.cwd()
    folder = audit_dir if audit_dir is not None else report_dir
    if pages_from is not None:
        from extractor.cli.audit_pages import write_audit_pages

        changed = {d.doc for d in report.documents}
        written, skipped = write_audit_pages([r for r in pages_from.records if r.doc in changed], folder, base)
        print(f"wrote {len(written)} audit pages of changed posts to {folder}", file=sys.stderr if not to_file else sys.stdout)
        for doc in skipped:
            print(f"benchclaims: note: no audit page for {doc}: its file is gone or changed", file=sys.stderr)
    link_audit_pages(report, folder, report_dir)
    if to_file and output is not None:
        text = render_html(report, output.stem + ".verdicts.json") if fmt == "html" else render(report, fmt)
        output.write_text(text, encoding="utf-8")
        wrote(output, f"diff report, {fmt}")
        return
    sys.stdout.write(render(report, fmt, color=fmt == "text" and use_color(sys.stdout)))
    sys.stdout.flush()


def check_options(fmt: str, fail_on: str | None) -> set[str] | None:
    """The `--fail-on` kinds, after checking `--format`; ValueError names the bad option."""
    format_option(fmt, FORMATS)
    try:
        return parse_fail_on(fail_on)
    except ValueError as err:
        raise error_exit(err) from None
