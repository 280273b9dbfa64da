"""What several commands share: option checks (usage errors, exit 2) and reading one document into a record.

Every way a document or an option can be wrong ends in a one-line message and exit 2, never a traceback.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, Optional, TypeVar

import typer

from extractor.cli import conventions

INPUT_FORMATS = ("html", "markdown", "text")
# the FILES argument of the commands that read posts (extract, audit)
POST_FILES = typer.Argument(..., help="Markdown, HTML or text files; '-' reads standard input.")
T = TypeVar("T")


def _checked_limit(value: object, validate: Callable[[object], object], option: str, off: object):
    """An option's value through its limit's one validation (shared with the environment variable); the
    limit's "none" comes back as `off`, so the option wins over whatever the environment says."""
    from extractor.limits import LimitError

    if value is None:
        return None
    try:
        checked = validate(value)
    except LimitError as err:
        raise typer.BadParameter(str(err).removeprefix(f"{option}="), param_hint=option) from None
    return off if checked is None else checked


def check_timeout(value: Optional[float]) -> Optional[float]:
    """--timeout callback: the one validation `limits.valid_timeout` (0 or inf: none; negative, NaN: refused)."""
    from extractor.limits import valid_timeout

    return _checked_limit(value, valid_timeout, "--timeout", 0.0)   # 0: no budget


def check_max_claims(value: Optional[str]) -> Optional[int]:
    """--max-claims callback: the one validation `limits.valid_max_claims` (a whole number >= 0; 0: no cap)."""
    from extractor.limits import valid_max_claims

    return _checked_limit(value, valid_max_claims, "--max-claims", 0)   # 0: no cap


def check_bound(value: Optional[float]) -> Optional[float]:
    """--min/--max callback: a number; NaN compares false with everything, so it would silently match nothing."""
    if value is not None and value != value:
        raise typer.BadParameter("NaN is not a number to compare values with")
    return value


def check_input_format(value: Optional[str]) -> Optional[str]:
    """--input-format callback: one of the known formats."""
    if value is not None and value not in INPUT_FORMATS:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(INPUT_FORMATS)}", param_hint="--input-format")
    return value


def check_rules(value: Optional[Path]) -> Optional[Path]:
    """--rules callback: an existing folder."""
    if value is not None and not value.is_dir():
        raise typer.BadParameter(f"{value}: {'is not a folder' if value.exists() else 'no such folder'}",
                                 param_hint="--rules")
    return value


def guarded(file: str, work: Callable[[], T]) -> T:
    """Run `work` (which reads FILE); a document failure, a missing file or a bad limit exits 2 with a message."""
    from extractor.errors import DocumentFailure
    from extractor.rules_io import RuleError

    try:
        return work()
    except DocumentFailure as err:
        raise conventions.error_exit(str(err))
    except FileNotFoundError:
        raise conventions.error_exit(f"{file}: no such file")
    except RuleError:
        raise   # main() names the rule file
    except ValueError as err:  # a malformed $BENCHCLAIMS_MAX_BYTES / _TIMEOUT / _MAX_CLAIMS
        raise conventions.error_exit(str(err))


def read_record(file: str, *, rules: Optional[Path] = None, fmt: Optional[str] = None,
                max_bytes: Optional[int] = None, timeout: Optional[float] = None,
                max_claims: Optional[int] = None):
    """The record of FILE ('-': stdin), or exit 2 with a message naming the file and the reason."""
    from extractor.api import extract_path, extract_stream

    rules_dir = str(rules) if rules else None
    if file == "-":
        return guarded(file, lambda: extract_stream(sys.stdin.buffer, "-", fmt=fmt, rules_dir=rules_dir,
                                                    max_bytes=max_bytes, timeout=timeout,
                                                    max_claims=max_claims))
    return guarded(file, lambda: extract_path(file, fmt=fmt, rules_dir=rules_dir, max_bytes=max_bytes,
                                              timeout=timeout, max_claims=max_claims))


def read_text(file: str) -> str:
    """The decoded text of FILE ('-': stdin), read within the size limit and time budget; exit 2 on failure."""
    from extractor import limits
    from extractor.ingest.reading import decode, read_file, read_stream

    def read() -> str:
        limit = limits.max_bytes()
        with limits.time_budget(limits.timeout(), file):
            data = read_stream(sys.stdin.buffer, "-", limit) if file == "-" else read_file(file, limit)
            return decode(data, file)
    return guarded(file, read)
