"""`benchclaims query`: filter the claims database."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from extractor.cli.app import app


@app.command("query")
def query_cmd(
    metric: Optional[str] = typer.Option(None, "--metric", help="e.g. throughput, ttft, tpot."),
    model: Optional[str] = typer.Option(None, "--model", help="Substring of the model (case-insensitive)."),
    hardware: Optional[str] = typer.Option(None, "--hardware", help="Substring of the hardware."),
    engine: Optional[str] = typer.Option(None, "--engine", help="Substring of the engine/version."),
    condition: List[str] = typer.Option([], "--condition", help="NAME=STATUS, e.g. warmup=unrecoverable (repeatable)."),
    min_: Optional[float] = typer.Option(None, "--min", help="Lower bound of the value (in --unit)."),
    max_: Optional[float] = typer.Option(None, "--max", help="Upper bound of the value (in --unit)."),
    unit: Optional[str] = typer.Option(None, "--unit", help="Unit of --min/--max and of the shown values, e.g. 'tok/s/gpu'."),
    fmt: str = typer.Option("table", "--format", help="table, json or csv."),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="At most this many claims."),
    db: Path = typer.Option(Path("claims.db"), "--db", help="SQLite database to read."),
) -> None:
    """Claims matching all the given filters; values converted through pint when --unit is given."""
    from pydantic import ValidationError

    from extractor.corpus.query import ClaimFilter, QueryError, find_claims, format_rows
    from extractor.corpus.store import StoreError

    if fmt not in ("table", "json", "csv"):
        raise typer.BadParameter("must be table, json or csv", param_hint="--format")
    try:
        f = ClaimFilter(metric=metric, model=model, hardware=hardware, engine=engine,
                        conditions=condition, min=min_, max=max_, unit=unit, limit=limit)
        rows = find_claims(db, f)
    except (QueryError, StoreError, ValidationError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2)
    typer.echo(format_rows(rows, fmt, unit))  # type: ignore[arg-type]
