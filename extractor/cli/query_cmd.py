"""`benchclaims query`: filter, sort and count the claims database."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from extractor.cli.app import app
from extractor.cli.conventions import check_format, example, fail, format_help, write_output
from extractor.cli.common import check_bound

FORMATS = ("text", "json", "jsonl", "csv")


@app.command("query", epilog=example(
    "benchclaims query --metric throughput --per gpu --sort -value --limit 1 --columns value,unit,hardware,model",
    "benchclaims query --headline --condition warmup=unrecoverable --condition scenario=unrecoverable --match any --count",
    "benchclaims query --metric TTFT --max 200 --unit ms --columns doc,value,unit,hardware"))
def query_cmd(
    metric: Optional[str] = typer.Option(None, "--metric", help="ttft, tpot, throughput... or a usual name (TTFT, time_to_first_token)."),
    model: Optional[str] = typer.Option(None, "--model", help="Substring of the model (case-insensitive)."),
    hardware: Optional[str] = typer.Option(None, "--hardware", help="Substring of the hardware."),
    engine: Optional[str] = typer.Option(None, "--engine", help="Substring of the engine/version."),
    condition: List[str] = typer.Option([], "--condition", help="NAME=STATUS, STATUS stated or unrecoverable, e.g. warmup=unrecoverable (repeatable; see --match)."),
    match: str = typer.Option("all", "--match", help="How several --condition combine: all (every one holds) or any (at least one holds)."),
    headline: Optional[bool] = typer.Option(None, "--headline/--not-headline", help="Only headline claims (or only the others)."),
    per: Optional[str] = typer.Option(None, "--per", help="Only claims per gpu, user, node or system."),
    doc: Optional[str] = typer.Option(None, "--doc", help="Documents whose name or path contains this, or matches this glob (*, ?)."),
    min_: Optional[float] = typer.Option(None, "--min", callback=check_bound, help="Lower bound of the value (in --unit; several units of one kind are converted, saying so)."),
    max_: Optional[float] = typer.Option(None, "--max", callback=check_bound, help="Upper bound of the value (in --unit)."),
    unit: Optional[str] = typer.Option(None, "--unit", help="Unit of --min/--max, of sorting and of the shown values, e.g. 'tok/s/gpu'."),
    since: Optional[str] = typer.Option(None, "--since", help="Posts dated on or after this day (YYYY-MM-DD)."),
    until: Optional[str] = typer.Option(None, "--until", help="Posts dated on or before this day (YYYY-MM-DD)."),
    source: Optional[str] = typer.Option(None, "--source", help="Posts of this source (as `batch` named it)."),
    sort: Optional[str] = typer.Option(None, "--sort", help="Sort by a column (value, date, doc, metric...); -FIELD for descending."),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="At most this many claims (after sorting)."),
    count: bool = typer.Option(False, "--count", help="Print only the number of matching claims."),
    columns: Optional[str] = typer.Option(None, "--columns", help="Comma-separated columns: claim fields, condition names (warmup, scenario...) or NAME_status."),
    fmt: str = typer.Option("text", "--format", "-f", help=format_help(FORMATS) + " ('table' is accepted for text)"),
    output: Optional[str] = typer.Option(None, "-o", "--output", help="File to write; '-' (default) writes to standard output."),
    db: Path = typer.Option(Path("claims.db"), "--db", help="SQLite database to read."),
) -> None:
    """Claims matching all the given filters, sorted, counted or limited; JSON keeps each claim's conditions."""
    from extractor.corpus.query import (COLUMNS, ClaimFilter, QueryError, format_count, format_rows,
                                        parse_columns, run_query)
    from extractor.corpus.store import StoreError

    try:
        fmt = check_format(fmt, FORMATS)
    except ValueError as err:
        raise typer.BadParameter(str(err).split(": ", 1)[1], param_hint="--format") from None
    try:
        shown = parse_columns(columns, COLUMNS)
        f = ClaimFilter(metric=metric, model=model, hardware=hardware, engine=engine, conditions=condition,
                        match=match, headline=headline, per=per, doc=doc, min=min_, max=max_, unit=unit,
                        since=since, until=until, source=source, sort=sort, limit=limit)
        result = run_query(db, f)
    except (QueryError, StoreError) as err:
        raise fail(err)
    for note in result.notes:
        typer.echo(f"benchclaims: note: {note}", err=True)
    if count:
        write_output(format_count(len(result.rows), fmt), output)   # type: ignore[arg-type]
    else:
        write_output(format_rows(result.rows, fmt, result.unit, shown), output)  # type: ignore[arg-type]
