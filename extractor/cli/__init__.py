"""The `benchclaims` command line: one module per sub-command, all registered on `app`."""
import gc

from extractor.cli.app import app
from extractor.cli import extract_cmd  # noqa: F401,E402
from extractor.cli import batch_cmd, export_cmd, query_cmd  # noqa: F401,E402
from extractor.cli import diff_cmd  # noqa: F401,E402
from extractor.cli import quantities_cmd  # noqa: F401,E402
from extractor.cli import rules_cmd  # noqa: F401,E402
from extractor.cli import audit_cmd  # noqa: F401,E402

# A command first builds ~200,000 objects that live until it ends (spaCy, pint, the compiled
# rules). With the default threshold (700) the collector walks them over and over while they are
# built: the young generation is collected only after this many new objects instead, more than
# start-up makes (extraction itself makes no reference cycles; others are still collected).
YOUNG_GENERATION = 300_000


def main() -> None:
    """Entry point of the `benchclaims` console script; an invalid rule file stops it with file, entry and reason."""
    import sys

    from extractor.rules_io import RuleError

    gc.set_threshold(YOUNG_GENERATION, *gc.get_threshold()[1:])
    try:
        app()
    except RuleError as err:
        print(f"benchclaims: invalid rules: {err}", file=sys.stderr)
        sys.exit(2)
    finally:
        gc.freeze()  # the process ends here: its exit need not walk every object again (~0.2 s)
