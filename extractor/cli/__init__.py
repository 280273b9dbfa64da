"""The `benchclaims` command line: one module per sub-command, all registered on `app`."""
import gc

from extractor import gc_policy
from extractor.cli.app import app
from extractor.cli import extract_cmd  # noqa: F401,E402
from extractor.cli import batch_cmd, export_cmd, query_cmd  # noqa: F401,E402
from extractor.cli import diff_cmd  # noqa: F401,E402
from extractor.cli import quantities_cmd  # noqa: F401,E402
from extractor.cli import rules_cmd  # noqa: F401,E402
from extractor.cli import audit_cmd, eval_cmd, report_cmd  # noqa: F401,E402
from extractor.cli import compare_cmd  # noqa: F401,E402


def main() -> None:
    """Entry point of the `benchclaims` console script; an invalid rule file stops it with file, entry and reason."""
    import sys

    import typer

    from extractor.cli.conventions import usage_error_line
    from extractor.rules_io import RuleError

    gc_policy.tune()
    try:   # click's own error display (a box, wrapped at the terminal's width) is replaced by one plain line
        code = app(standalone_mode=False, prog_name="benchclaims")
        sys.exit(code if isinstance(code, int) else 0)
    except typer.TyperException as err:   # usage errors: bad value, unknown option, missing argument
        if type(err).__name__ == "NoArgsIsHelpError":   # no arguments: the help is the answer
            err.show()   # type: ignore[attr-defined]
        else:
            print(usage_error_line(err), file=sys.stderr)
        sys.exit(getattr(err, "exit_code", 2))
    except typer.Abort:
        print("benchclaims: aborted", file=sys.stderr)
        sys.exit(1)
    except RuleError as err:
        print(f"benchclaims: invalid rules: {err}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("benchclaims: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:  # the reader went away (`| head`): nothing left to say to it
        sys.stderr.close()
        sys.exit(1)
    except Exception as err:  # noqa: BLE001 - the last net: a message, never a traceback
        print(f"benchclaims: error: {type(err).__name__}: {err}", file=sys.stderr)
        sys.exit(2)
    finally:
        gc.freeze()  # the process ends here: its exit need not walk every object again (~0.2 s)
