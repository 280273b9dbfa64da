"""What `benchclaims diff` and `benchclaims rerun` do once parsed: check options, diff, render, exit code.

Kept apart from `diff_cmd` so that other sub-commands start without importing the diff machinery.
"""
from __future__ import annotations

import sys
from pathlib import Path

from extractor.review.diff import KINDS, DiffReport, diff_records
from extractor.review.render import render, use_color
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
    """Write the rendered report to a file, or to stdout for no file or '-' (colour only on a terminal)."""
    if output is not None and str(output) != "-":
        output.write_text(render(report, fmt), encoding="utf-8")
        return
    sys.stdout.write(render(report, fmt, color=fmt == "text" and use_color(sys.stdout)))
    sys.stdout.flush()


def check_options(fmt: str, fail_on: str | None) -> set[str] | None:
    """The `--fail-on` kinds, after checking `--format`; ValueError names the bad option."""
    if fmt not in FORMATS:
        raise ValueError(f"--format: {fmt!r} is not one of {', '.join(FORMATS)}")
    return parse_fail_on(fail_on)
