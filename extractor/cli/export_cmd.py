"""`benchclaims export`: write the claims database as Parquet, CSV or JSONL."""
from __future__ import annotations

from pathlib import Path

import typer

from extractor.cli.app import app


@app.command("export")
def export_cmd(
    fmt: str = typer.Option(..., "--format", help="parquet, csv (one row per claim) or jsonl (one record per document)."),
    out: Path = typer.Option(..., "-o", "--output", help="File to write."),
    db: Path = typer.Option(Path("claims.db"), "--db", help="SQLite database to read."),
) -> None:
    """Export every claim (parquet/csv) or every document record (jsonl)."""
    from extractor.corpus.export import ExportError, export
    from extractor.corpus.store import StoreError

    if fmt not in ("parquet", "csv", "jsonl"):
        raise typer.BadParameter("must be parquet, csv or jsonl", param_hint="--format")
    try:
        n = export(db, fmt, out)  # type: ignore[arg-type]
    except (ExportError, StoreError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2)
    except OSError as err:  # -o names a folder, or a place that cannot be written
        typer.echo(f"error: {out}: cannot write ({err.strerror or err})", err=True)
        raise typer.Exit(2)
    typer.echo(f"wrote {n} {'records' if fmt == 'jsonl' else 'claims'} to {out}")
