"""Conventions every sub-command follows: one vocabulary of `--format` names, `-o -` for standard
output, and an example at the end of `--help`."""
from __future__ import annotations

import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    import typer

# The one meaning of each --format name, whichever command takes it.
FORMATS: dict[str, str] = {
    "text": "text for a person (a table where rows are listed)",
    "markdown": "Markdown",
    "json": "one JSON document",
    "jsonl": "JSON lines, one object a line",
    "csv": "CSV with a header line",
    "parquet": "Apache Parquet",
    "html": "one self-contained HTML page (works offline)",
}
FORMAT_HELP = "Output format: {formats}."
FORMAT_ALIASES = {"table": "text"}   # older names still accepted


def example(*commands: str) -> str:
    """The `--help` epilog: an example (or a few) of the command in use."""
    lines = "\n".join(f"  $ {c}" for c in commands)
    return f"\b\nExample{'s' if len(commands) > 1 else ''}:\n{lines}"


def check_format(fmt: str, allowed: tuple[str, ...]) -> str:
    """The canonical name of `fmt` when the command supports it; ValueError names the choices."""
    name = FORMAT_ALIASES.get(fmt, fmt)
    if name not in allowed:
        raise ValueError(f"--format: {fmt!r} is not one of {', '.join(allowed)}")
    return name


def format_option(fmt: str, allowed: tuple[str, ...]) -> str:
    """The canonical name of a `--format` value, or a usage error (exit 2) naming the choices."""
    import typer

    try:
        return check_format(fmt, allowed)
    except ValueError as err:
        raise typer.BadParameter(str(err).removeprefix("--format: "), param_hint="--format") from None


def format_help(allowed: tuple[str, ...]) -> str:
    """Help text of a --format option: the names this command takes."""
    return FORMAT_HELP.format(formats=", ".join(allowed))


def format_flag(default: str, allowed: tuple[str, ...], more: str = "") -> "typer.models.OptionInfo":
    """The `--format`/`-f` option of a command: its default, the names it takes (`format_help`) and what more
    its help says (" Several files: ..."); the value is checked with `format_option`."""
    import typer

    return typer.Option(default, "--format", "-f", help=format_help(allowed) + more)


def is_stdout(output: Path | str | None) -> bool:
    """True when output goes to standard output: no -o, or `-o -`."""
    return output is None or str(output) == "-"


def check_output(output: Path | str | None, option: str = "-o") -> None:
    """Refuse (exit 2, before any work) an output file whose folder does not exist or that names a folder."""
    if is_stdout(output):
        return
    path = Path(output)  # type: ignore[arg-type]
    if path.is_dir():
        raise error_exit(f"{option} {output}: cannot write: it is a folder (give a file name)")
    parent = path.parent
    if not parent.is_dir():
        what = "is not a folder" if parent.exists() else "no such folder"
        raise error_exit(f"{option} {output}: {parent}: {what} (create it first)")


def wrote(output: Path | str, what: str = "") -> None:
    """Tell the person what was written: `wrote PATH (WHAT)` on standard output (the data went to the file)."""
    import typer

    typer.echo(f"wrote {output}{f' ({what})' if what else ''}")


def write_output(text: str, output: Path | str | None, what: str = "") -> None:
    """Write `text` to the file `output` (and say so, with `what` it holds), or to standard output for None
    or '-' (ending in one newline)."""
    write_chunks([text], output, what)


def write_chunks(chunks: Iterable[str], output: Path | str | None, what: str = "") -> None:
    """Write the pieces of one text as they come (a long record is never held whole), to the file
    `output` (saying so) or to standard output for None or '-', ending in one newline like `write_output`."""
    check_output(output)
    with ExitStack() as stack:
        out = sys.stdout if is_stdout(output) else stack.enter_context(
            open(output, "w", encoding="utf-8"))  # type: ignore[arg-type]
        last = ""
        for chunk in chunks:
            if chunk:
                out.write(chunk)
                last = chunk
        if not last.endswith("\n"):
            out.write("\n")
        out.flush()
    if not is_stdout(output):
        wrote(output, what)  # type: ignore[arg-type]


ERROR_PREFIX = "benchclaims: "   # the one prefix of every error message, whichever command fails


def print_error(message: object) -> None:
    """Print `benchclaims: MESSAGE` on standard error (a command that goes on past the error: the next file)."""
    import typer

    typer.echo(f"{ERROR_PREFIX}{message}", err=True)


def error_exit(message: object, code: int = 2) -> "typer.Exit":
    """Print `benchclaims: MESSAGE` on standard error; returns the Exit to raise (`raise error_exit(err)`)."""
    import typer

    print_error(message)
    return typer.Exit(code)


def usage_error_line(err: Exception, prog: str = "benchclaims") -> str:
    """A click usage error (bad option value, unknown option, missing argument) as the one error style:
    `benchclaims: MESSAGE` and a pointer to the command's help, never boxed nor wrapped. A missing argument
    or option is followed by the command's usage line (`Usage: benchclaims extract [OPTIONS] FILES...`)."""
    format_message = getattr(err, "format_message", None)
    message = format_message() if callable(format_message) else str(err)
    ctx = getattr(err, "ctx", None)
    command = ctx.command_path if ctx is not None else prog
    usage = f"{ctx.get_usage()}\n" if ctx is not None and type(err).__name__ == "MissingParameter" else ""
    return f"{ERROR_PREFIX}{message.strip().replace(chr(10), ' ')}\n{usage}{ERROR_PREFIX}see '{command} --help'"
