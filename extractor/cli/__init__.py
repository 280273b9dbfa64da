"""The `benchclaims` command line: one module per sub-command, all registered on `app`."""
from extractor.cli.app import app
from extractor.cli import extract_cmd  # noqa: F401,E402
from extractor.cli import batch_cmd, export_cmd, query_cmd  # noqa: F401,E402
from extractor.cli import diff_cmd  # noqa: F401,E402
from extractor.cli import quantities_cmd  # noqa: F401,E402
from extractor.cli import rules_cmd  # noqa: F401,E402
from extractor.cli import audit_cmd  # noqa: F401,E402


def main() -> None:
    """Entry point of the `benchclaims` console script; an invalid rule file stops it with file, entry and reason."""
    import sys

    from extractor.rules_io import RuleError

    try:
        app()
    except RuleError as err:
        print(f"benchclaims: invalid rules: {err}", file=sys.stderr)
        sys.exit(2)
