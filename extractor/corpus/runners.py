"""Batch runners: how chunks of documents reach workers (in this process, a process pool, or Dask)."""
from __future__ import annotations

import os
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Iterable, Iterator, Literal

from extractor.corpus.work import CHUNK, IN_FLIGHT_PER_JOB, Outcome, Runner, died_outcome, extract_chunk, worker_init


def chunks(paths: Iterable[str], size: int = CHUNK) -> Iterator[list[str]]:
    buf: list[str] = []
    for p in paths:
        buf.append(p)
        if len(buf) == size:
            yield buf
            buf = []
    if buf:
        yield buf


def run_inline(rules_dir: str | None, max_bytes: int, timeout: float | None = None,
               max_claims: int | None = None) -> Runner:
    """Extract in this process (jobs=1)."""
    def run(work: Iterator[list[str]]) -> Iterator[list[Outcome]]:
        for chunk in work:
            yield extract_chunk(chunk, rules_dir, max_bytes, timeout, max_claims, keep_record=True)
    return run


def run_pool(jobs: int, rules_dir: str | None, max_bytes: int, timeout: float | None = None,
             max_claims: int | None = None) -> Runner:
    """Extract in `jobs` worker processes with a bounded number of chunks in flight.

    A worker that dies (killed, out of memory, a crash in a C extension) breaks the pool, whether the
    batch notices it on a result or on the next submit: the pool is replaced and the documents of the
    chunks it had in flight (those without a result) are tried once more, one at a time in a fresh
    worker; a document whose worker dies again is recorded as failed. Outcomes of a retry carry
    `retried=True` so the summary can say what happened. The batch always goes on."""
    def run(work: Iterator[list[str]]) -> Iterator[list[Outcome]]:
        limit = jobs * IN_FLIGHT_PER_JOB
        pool = _new_pool(jobs)
        pending: dict[Future, list[str]] = {}

        def task(chunk: list[str]) -> Future:
            return pool.submit(extract_chunk, chunk, rules_dir, max_bytes, timeout, max_claims)

        def replace_pool() -> None:
            nonlocal pool
            pool.shutdown(wait=True, cancel_futures=True)
            pool = _new_pool(jobs)

        def lost(orphans: list[str]) -> Iterator[list[Outcome]]:
            """The pool broke: keep the results that came back, retry every other document alone."""
            for f, chunk in pending.items():
                if f.done() and not f.cancelled() and f.exception() is None:
                    yield f.result()
                else:
                    orphans.extend(chunk)
            pending.clear()
            replace_pool()
            for path in orphans:
                try:
                    outcomes = task([path]).result()
                except BrokenProcessPool:
                    replace_pool()
                    outcomes = [died_outcome(path, max_bytes)]
                yield [o.model_copy(update={"retried": True}) for o in outcomes]

        def harvest(done: Iterable[Future]) -> Iterator[list[Outcome]]:
            orphans: list[str] = []
            for f in done:
                chunk = pending.pop(f)
                try:
                    yield f.result()
                except BrokenProcessPool:
                    orphans.extend(chunk)
            if orphans:
                yield from lost(orphans)

        try:
            for chunk in work:
                try:
                    pending[task(chunk)] = chunk
                except BrokenProcessPool:   # a worker died since the last result
                    yield from lost(list(chunk))
                    continue
                if len(pending) >= limit:
                    done, _ = wait(set(pending), return_when=FIRST_COMPLETED)
                    yield from harvest(done)
            while pending:
                done, _ = wait(set(pending), return_when=FIRST_COMPLETED)
                yield from harvest(done)
        except BaseException:   # the batch stops (Ctrl-C, a signal, a full disk): no task or thread is waited for
            _end_workers(pool)
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown(wait=True, cancel_futures=True)
    return run


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the pool's worker processes (the executor has no public way before Python 3.14)."""
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        if proc.is_alive():
            proc.terminate()


def _new_pool(jobs: int) -> ProcessPoolExecutor:
    # the workers are processes of ours: they collect garbage as the command does, and die with the batch
    return ProcessPoolExecutor(max_workers=jobs, initializer=worker_init, initargs=(os.getpid(),))


def make_runner(engine: Literal["local", "dask"], jobs: int, rules_dir: str | None,
                max_bytes: int, timeout: float | None = None, scheduler: str | None = None,
                max_claims: int | None = None) -> Runner:
    """The runner for an engine: in-process (jobs=1), a process pool, or Dask."""
    if engine == "dask":
        from extractor.corpus.dask_runner import run_dask

        return run_dask(rules_dir, max_bytes, timeout, scheduler=scheduler, workers=jobs, max_claims=max_claims)
    if jobs <= 1:
        return run_inline(rules_dir, max_bytes, timeout, max_claims)
    return run_pool(jobs, rules_dir, max_bytes, timeout, max_claims)
