"""The typer application that sub-command modules register on, with the global `--version`."""
import typer

from extractor.cli.conventions import example

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Extract LLM-inference benchmark claims and their load conditions, with provenance.",
                  epilog=example("benchclaims batch posts/ && benchclaims report -o report.html"))


def _print_version(value: bool) -> None:
    if value:
        from extractor import __version__

        typer.echo(f"benchclaims {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """Extract LLM-inference benchmark claims and their load conditions, with provenance."""
