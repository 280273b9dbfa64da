"""`benchclaims eval`: score the extraction against hand-made gold (is it right?)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from extractor.cli.app import app
from extractor.cli.conventions import error_exit, format_option, example, write_output, format_flag

FORMATS = ("text", "json")


@app.command("eval", epilog=example("benchclaims eval --gold corpus/gold --docs corpus",
                                    "benchclaims eval --gold my-gold --docs posts --format json -o eval.json"))
def eval_cmd(
    gold: Path = typer.Option(..., "--gold", help="Folder of gold files, one per document (NAME.json)."),
    docs: Path = typer.Option(..., "--docs", help="Folder holding the documents the gold files name."),
    fmt: str = format_flag("text", FORMATS),
    detail: bool = typer.Option(False, "--detail", help="text: also list missed and extra claims and wrong conditions."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="File to write ('-' or none: standard output)."),
    rules: Optional[Path] = typer.Option(None, "--rules", help="Rules folder (default: the installed rules)."),
) -> None:
    """Extract the documents a gold folder annotates and report claim recall and precision, headline
    recall, metric accuracy, condition accuracy and guessed conditions, per document and in total.
    The gold format is in docs/cli.md ("Is it right? benchclaims eval"); corpus/gold/ holds an example set."""
    from extractor.evaluation.gold import GoldError
    from extractor.evaluation.render import render
    from extractor.evaluation.score import evaluate

    fmt = format_option(fmt, FORMATS)
    try:
        report = evaluate(gold, docs, rules_dir=str(rules) if rules else None)
    except (GoldError, ValueError) as err:
        raise error_exit(err) from None
    write_output(render(report, fmt, detail), output)
