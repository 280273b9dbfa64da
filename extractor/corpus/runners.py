"""Batch runners: how chunks of documents reach workers (in this process, a process pool, or Dask)."""
from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Iterable, Iterator, Literal

from extractor import gc_policy
from extractor.corpus.work import CHUNK, IN_FLIGHT_PER_JOB, Outcome, Runner, extract_chunk


def chunks(paths: Iterable[str], size: int = CHUNK) -> Iterator[list[str]]:
    buf: list[str] = []
    for p in paths:
        buf.append(p)
        if len(buf) == size:
            yield buf
            buf = []
    if buf:
        yield buf


def run_inline(rules_dir: str | None, max_bytes: int, timeout: float | None = None) -> Runner:
    """Extract in this process (jobs=1)."""
    def run(work: Iterator[list[str]]) -> Iterator[list[Outcome]]:
        for chunk in work:
            yield extract_chunk(chunk, rules_dir, max_bytes, timeout)
    return run


def run_pool(jobs: int, rules_dir: str | None, max_bytes: int, timeout: float | None = None) -> Runner:
    """Extract in `jobs` worker processes with a bounded number of chunks in flight."""
    def run(work: Iterator[list[str]]) -> Iterator[list[Outcome]]:
        limit = jobs * IN_FLIGHT_PER_JOB
        # the workers are processes of ours: they collect garbage as the command does (whatever the start method)
        with ProcessPoolExecutor(max_workers=jobs, initializer=gc_policy.tune) as pool:
            pending: set[Future] = set()
            for chunk in work:
                pending.add(pool.submit(extract_chunk, chunk, rules_dir, max_bytes, timeout))
                if len(pending) >= limit:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for f in done:
                        yield f.result()
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    yield f.result()
    return run


def make_runner(engine: Literal["local", "dask"], jobs: int, rules_dir: str | None,
                max_bytes: int, timeout: float | None = None, scheduler: str | None = None) -> Runner:
    """The runner for an engine: in-process (jobs=1), a process pool, or Dask."""
    if engine == "dask":
        from extractor.corpus.dask_runner import run_dask

        return run_dask(rules_dir, max_bytes, timeout, scheduler=scheduler, workers=jobs)
    if jobs <= 1:
        return run_inline(rules_dir, max_bytes, timeout)
    return run_pool(jobs, rules_dir, max_bytes, timeout)
