"""`benchclaims batch`: extract many documents into the claims database."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from extractor.cli.app import app
from extractor.cli.common import check_max_claims, check_rules, check_timeout
from extractor.cli.conventions import check_output, example, error_exit, print_error


@app.command("batch", epilog=example("benchclaims batch posts/ --jobs 2 --jsonl out.jsonl",
                                     "benchclaims batch vllm-blog/_posts --source vllm-blog --db claims.db"))
def batch_cmd(
    paths: List[str] = typer.Argument(..., help="Files, folders or globs (md, markdown, html, htm, txt)."),
    db: Path = typer.Option(Path("claims.db"), "--db", help="SQLite database to write."),
    jsonl: Optional[Path] = typer.Option(None, "--jsonl", help="Also write the records, one JSON a line."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Worker processes (Dask: LocalCluster workers)."),
    rules: Optional[Path] = typer.Option(None, "--rules", callback=check_rules, help="Rules folder (default: installed rules)."),
    max_bytes: Optional[int] = typer.Option(None, "--max-bytes", min=1, help="Size limit per document (default $BENCHCLAIMS_MAX_BYTES, else 20 MiB)."),
    timeout: Optional[float] = typer.Option(None, "--timeout", callback=check_timeout, help="Seconds per document (default $BENCHCLAIMS_TIMEOUT, else 60; 0 or inf: none)."),
    max_claims: Optional[str] = typer.Option(None, "--max-claims", metavar="N", callback=check_max_claims, help="Candidate claims per document, 0 = none (default $BENCHCLAIMS_MAX_CLAIMS, else 10,000)."),
    engine: str = typer.Option("local", "--engine", help="local (process pool) or dask."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address, e.g. tcp://host:8786."),
    source: Optional[str] = typer.Option(None, "--source", help="Name the posts' source (blog or site); default: the folder they were found through."),
) -> None:
    """Extract documents into the database, skipping those unchanged since the last run."""
    from extractor.corpus.batch import run_batch
    from extractor.corpus.stopping import BatchStopped
    from extractor.corpus.store import StoreError
    from extractor.rules_io import RuleError

    if engine not in ("local", "dask"):
        raise typer.BadParameter("must be 'local' or 'dask'", param_hint="--engine")
    if jsonl is not None:
        check_output(jsonl, "--jsonl")
    try:
        summary = run_batch(paths, db=db, jsonl=jsonl, jobs=jobs, rules_dir=rules,
                            max_bytes=max_bytes, timeout=timeout, max_claims=max_claims,  # type: ignore[arg-type]
                            engine=engine, scheduler=scheduler,
                            source=source)  # type: ignore[arg-type]
    except (FileNotFoundError, RuleError, StoreError, ValueError) as err:
        raise error_exit(err)
    except BatchStopped as err:   # every stored document is committed; the pool's threads are not waited for
        import os
        import sys

        print_error(err)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(err.code)
    typer.echo(summary.line())
    typer.echo(f"wrote {db}" + (f" and {jsonl}" if jsonl is not None else ""))
    raise typer.Exit(1 if summary.failed else 0)
