"""`benchclaims compare`: can two figures be compared? Or: the comparable groups of the corpus."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from extractor.cli.app import app
from extractor.cli.common import check_rules
from extractor.cli.conventions import example, error_exit, format_option, write_output, format_flag

FORMATS = ("text", "markdown", "json")


@app.command("compare", epilog=example(
    "benchclaims compare corpus/mlperf-offline-server.md#1 corpus/mlperf-offline-server.md#3",
    "benchclaims compare 13804fb66944 posts/vendor.md#2 --db claims.db -f markdown",
    "benchclaims compare --metric throughput --hardware H100 --db claims.db"))
def compare_cmd(
    claims: List[str] = typer.Argument(None, help="Two claims: a claim id of the store (or a unique prefix), or "
                                                  "FILE#N, the N-th claim `extract` lists for FILE (from 1)."),
    metric: Optional[str] = typer.Option(None, "--metric", help="Groups mode: the comparable groups of this metric's claims."),
    model: Optional[str] = typer.Option(None, "--model", help="Groups mode: the model, as in `query` (canonical name, or ~substring)."),
    hardware: Optional[str] = typer.Option(None, "--hardware", help="Groups mode: the hardware, as in `query` (canonical name, or ~substring)."),
    engine: Optional[str] = typer.Option(None, "--engine", help="Groups mode: the engine, as in `query` (canonical name, or ~substring)."),
    condition: List[str] = typer.Option([], "--condition", help="Groups mode: NAME=STATUS, as in `query`."),
    headline: Optional[bool] = typer.Option(None, "--headline/--not-headline", help="Groups mode: only headline claims (or only the others)."),
    per: Optional[str] = typer.Option(None, "--per", help="Groups mode: only claims per gpu, user, node or system."),
    doc: Optional[str] = typer.Option(None, "--doc", help="Groups mode: documents whose name contains this, or match this glob."),
    since: Optional[str] = typer.Option(None, "--since", help="Groups mode: posts dated on or after this day."),
    until: Optional[str] = typer.Option(None, "--until", help="Groups mode: posts dated on or before this day."),
    source: Optional[str] = typer.Option(None, "--source", help="Groups mode: posts of this source."),
    with_restatements: bool = typer.Option(False, "--with-restatements", help="Groups mode: keep claims that restate another post's figure (left out by default: the same measurement twice)."),
    fmt: str = format_flag("text", FORMATS),
    output: Optional[str] = typer.Option(None, "-o", "--output", help="File to write; '-' (default) writes to standard output."),
    db: Path = typer.Option(Path("claims.db"), "--db", help="SQLite database to read claim ids and groups from."),
    rules: Optional[Path] = typer.Option(None, "--rules", callback=check_rules, help="Rules folder (default: the installed rules)."),
) -> None:
    """Put two claims side by side: metric, value (converted to one unit through pint; per GPU vs per system
    only when both state their device count), tokens counted, every condition marked `same`, `differs` or
    `unknown` (with where the post could say it), each claim's caveats, and a verdict: `comparable`,
    `not comparable: <conditions that differ>` or `cannot tell: <conditions unknown>`. What must match is
    rules/compare.yaml.

    With --metric (and the filters of `query`) instead of two claims: the groups of claims comparable with
    each other, and each near-miss pair with the one condition that separates them.
    """
    from extractor.compare.render import render_comparison, render_groups
    from extractor.corpus.store import StoreError
    from extractor.corpus.query import ClaimFilter, QueryError, run_query

    fmt = format_option(fmt, FORMATS)
    claims = claims or []
    rules_dir = str(rules) if rules else None
    try:
        if claims:
            if len(claims) != 2 or metric is not None:
                raise error_exit("give two claims (ID or FILE#N), or --metric M (groups) without claims")
            from extractor.compare import compare
            from extractor.corpus.comparisons import resolve_ref

            a, b = (resolve_ref(db, ref, rules_dir) for ref in claims)
            write_output(render_comparison(compare(a, b, rules_dir=rules_dir), fmt), output)  # type: ignore[arg-type]
            return
        if metric is None:
            raise error_exit("give two claims (ID or FILE#N), or --metric M for the comparable groups of the corpus")
        from extractor.corpus.comparisons import store_groups

        f = ClaimFilter(metric=metric, model=model, hardware=hardware, engine=engine, conditions=condition,
                        headline=headline, per=per, doc=doc, since=since, until=until, source=source)
        rows = run_query(db, f).rows
        write_output(render_groups(store_groups(db, rows, hide_restatements=not with_restatements), fmt),  # type: ignore[arg-type]
                     output)
    except (QueryError, StoreError) as err:
        raise error_exit(err) from None
