"""The typer application that sub-command modules register on."""
import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)
