"""`benchclaims query`: filter the claims database."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from extractor.cli.app import app
from extractor.cli.conventions import check_format, example, format_help


FORMATS = ("text", "json", "jsonl", "csv")


@app.command("query", epilog=example("benchclaims query --metric ttft --hardware h200 --max 200 --unit ms",
                                     "benchclaims query --since 2025-06-01 --source vllm-blog --format csv"))
def query_cmd(
    metric: Optional[str] = typer.Option(None, "--metric", help="e.g. throughput, ttft, tpot."),
    model: Optional[str] = typer.Option(None, "--model", help="Substring of the model (case-insensitive)."),
    hardware: Optional[str] = typer.Option(None, "--hardware", help="Substring of the hardware."),
    engine: Optional[str] = typer.Option(None, "--engine", help="Substring of the engine/version."),
    condition: List[str] = typer.Option([], "--condition", help="NAME=STATUS, e.g. warmup=unrecoverable (repeatable)."),
    min_: Optional[float] = typer.Option(None, "--min", help="Lower bound of the value (in --unit)."),
    max_: Optional[float] = typer.Option(None, "--max", help="Upper bound of the value (in --unit)."),
    unit: Optional[str] = typer.Option(None, "--unit", help="Unit of --min/--max and of the shown values, e.g. 'tok/s/gpu'."),
    since: Optional[str] = typer.Option(None, "--since", help="Posts dated on or after this day (YYYY-MM-DD)."),
    until: Optional[str] = typer.Option(None, "--until", help="Posts dated on or before this day (YYYY-MM-DD)."),
    source: Optional[str] = typer.Option(None, "--source", help="Posts of this source (as `batch` named it)."),
    fmt: str = typer.Option("text", "--format", "-f", help=format_help(FORMATS) + " ('table' is accepted for text)"),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="At most this many claims."),
    db: Path = typer.Option(Path("claims.db"), "--db", help="SQLite database to read."),
) -> None:
    """Claims matching all the given filters; values converted through pint when --unit is given."""
    from pydantic import ValidationError

    from extractor.corpus.query import ClaimFilter, QueryError, find_claims, format_rows

    try:
        fmt = check_format(fmt, FORMATS)
    except ValueError as err:
        raise typer.BadParameter(str(err).split(": ", 1)[1], param_hint="--format") from None
    try:
        f = ClaimFilter(metric=metric, model=model, hardware=hardware, engine=engine,
                        conditions=condition, min=min_, max=max_, unit=unit, since=since,
                        until=until, source=source, limit=limit)
        rows = find_claims(db, f)
    except (QueryError, ValidationError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2)
    typer.echo(format_rows(rows, fmt, unit))  # type: ignore[arg-type]
