"""`benchclaims query`: filter, sort and count the claims database."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from extractor.cli.app import app
from extractor.cli.conventions import format_option, example, error_exit, write_output, format_flag
from extractor.cli.common import check_bound

FORMATS = ("text", "json", "jsonl", "csv")


@app.command("query", epilog=example(
    "benchclaims query --metric throughput --per gpu --hardware h100 --hardware h200 --sort -value --limit 1",
    "benchclaims query --metric TTFT --max 100 --unit ms --why",
    "benchclaims query --hardware '~mi3' --columns +engine_version,quote",
    "benchclaims query --headline --condition warmup=unrecoverable --condition scenario=unrecoverable --match any --count"))
def query_cmd(
    metric: List[str] = typer.Option([], "--metric", help="ttft, tpot, throughput... or a usual name (TTFT, time_to_first_token). Repeat an option for alternatives (OR); different options must all hold (AND)."),
    model: List[str] = typer.Option([], "--model", help="The model, by its canonical name in any spelling (llama-3.1-70b); ~TEXT: names containing TEXT."),
    hardware: List[str] = typer.Option([], "--hardware", help="The hardware, exactly (h100 is NVIDIA H100, not H100 NVL... nor H200); ~TEXT: names containing TEXT."),
    engine: List[str] = typer.Option([], "--engine", help="The engine (vllm, sglang...); ~TEXT: names containing TEXT."),
    tokens: List[str] = typer.Option([], "--tokens", help="What a throughput counts: output, input, total or unspecified."),
    statistic: List[str] = typer.Option([], "--statistic", help="The statistic the post states: mean, median, min, max, p90, p99..."),
    condition: List[str] = typer.Option([], "--condition", help="NAME=STATUS, STATUS stated or unrecoverable, e.g. warmup=unrecoverable (repeatable; see --match)."),
    match: str = typer.Option("all", "--match", help="How several --condition combine: all (every one holds) or any (at least one holds)."),
    headline: Optional[bool] = typer.Option(None, "--headline/--not-headline", help="Only headline claims (or only the others)."),
    per: List[str] = typer.Option([], "--per", help="Only claims per gpu, user, node or system."),
    doc: List[str] = typer.Option([], "--doc", help="Documents whose name or path contains this, or matches this glob (*, ?)."),
    min_: Optional[float] = typer.Option(None, "--min", callback=check_bound, help="Lower bound of the value (in --unit; several units of one kind are converted, saying so)."),
    max_: Optional[float] = typer.Option(None, "--max", callback=check_bound, help="Upper bound of the value (in --unit)."),
    unit: Optional[str] = typer.Option(None, "--unit", help="Unit of --min/--max, of sorting and of the shown values, e.g. 'tok/s/gpu'."),
    since: Optional[str] = typer.Option(None, "--since", help="Posts dated on or after this day (YYYY-MM-DD)."),
    until: Optional[str] = typer.Option(None, "--until", help="Posts dated on or before this day (YYYY-MM-DD)."),
    source: List[str] = typer.Option([], "--source", help="Posts of this source (as `batch` named it)."),
    hide_restatements: bool = typer.Option(False, "--hide-restatements", help="Leave out claims that restate another post's figure (column `restates`), so a figure is counted once."),
    sort: Optional[str] = typer.Option(None, "--sort", help="Sort by a column (value, date, doc, metric...); -FIELD for descending."),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="At most this many claims (after sorting)."),
    count: bool = typer.Option(False, "--count", help="Print only the number of matching claims."),
    columns: Optional[str] = typer.Option(None, "--columns", help="Comma-separated columns: claim fields (quote, engine, tokens, direction, cited_from...), condition names (warmup, scenario...) or NAME_status; +a,b adds them to the default ones (doc, metric, value, unit, statistic, per, model, hardware, batch, headline, mentions)."),
    why: bool = typer.Option(False, "--why", help="text: under each claim, its unrecoverable checklist conditions with why each is absent and where to look."),
    fmt: str = format_flag("text", FORMATS, " ('table' is accepted for text)"),
    output: Optional[str] = typer.Option(None, "-o", "--output", help="File to write; '-' (default) writes to standard output."),
    db: Path = typer.Option(Path("claims.db"), "--db", help="SQLite database to read."),
) -> None:
    """Claims matching all the given filters, sorted, counted or limited; JSON keeps each claim's conditions.

    Name filters match exactly (any spelling of the canonical name); ~TEXT matches a part of a name.
    Repeating an option gives alternatives: --hardware h100 --hardware h200 is H100 or H200."""
    from extractor.corpus.query import (COLUMNS, ClaimFilter, QueryError, format_count, format_rows,
                                        parse_columns, run_query)
    from extractor.corpus.store import StoreError

    fmt = format_option(fmt, FORMATS)
    try:
        shown = parse_columns(columns, COLUMNS)
        f = ClaimFilter(metric=metric, model=model, hardware=hardware, engine=engine, tokens=tokens,
                        statistic=statistic, conditions=condition,
                        match=match, headline=headline, per=per, doc=doc, min=min_, max=max_, unit=unit,
                        since=since, until=until, source=source, sort=sort, limit=limit,
                        hide_restatements=hide_restatements)
        result = run_query(db, f)
    except (QueryError, StoreError) as err:
        raise error_exit(err)
    for note in result.notes:
        typer.echo(f"benchclaims: note: {note}", err=True)
    if count:
        write_output(format_count(len(result.rows), fmt), output)   # type: ignore[arg-type]
    else:
        write_output(format_rows(result.rows, fmt, result.unit, shown, why=why), output)  # type: ignore[arg-type]
