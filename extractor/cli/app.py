"""The typer application that sub-command modules register on."""
import typer

from extractor.cli.conventions import example

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Extract LLM-inference benchmark claims and their load conditions, with provenance.",
                  epilog=example("benchclaims batch posts/ && benchclaims report -o report.html"))
