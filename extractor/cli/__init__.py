"""The `benchclaims` command line: one module per sub-command, all registered on `app`."""
from extractor.cli.app import app


def main() -> None:
    """Entry point of the `benchclaims` console script."""
    app()
