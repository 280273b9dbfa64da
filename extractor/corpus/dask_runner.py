"""Scale-out: run batch extraction on a Dask distributed cluster.

Workers run the same `extract_chunk` as local processes and send back JSON
records; the client (the `benchclaims batch` process) writes them to the store,
so the database never has to be reachable from the cluster. Workers must see
the input paths (shared filesystem) and the benchclaims package (and the rules
folder when `--rules` is given) at the same locations.

    benchclaims batch corpus/ --engine dask                          # LocalCluster
    benchclaims batch /shared/posts --engine dask --scheduler tcp://10.0.0.5:8786
"""
from __future__ import annotations

from typing import Iterator

from extractor.corpus.work import IN_FLIGHT_PER_JOB, Outcome, Runner, extract_chunk


def run_dask(rules_dir: str | None, max_bytes: int, timeout: float | None = None, *,
             scheduler: str | None = None,
             workers: int = 1, max_claims: int | None = None) -> Runner:
    """A batch runner on the cluster at `scheduler` (a new LocalCluster of `workers` when None)."""
    def run(work: Iterator[list[str]]) -> Iterator[list[Outcome]]:
        from dask.distributed import Client, LocalCluster, as_completed

        cluster = None
        if scheduler is None:
            cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1,
                                   processes=True, dashboard_address=None)
            client = Client(cluster)
        else:
            client = Client(scheduler)
        try:
            limit = max(2, sum(client.nthreads().values()) * IN_FLIGHT_PER_JOB)
            queue = as_completed()
            inflight = 0
            for chunk in work:
                queue.add(client.submit(extract_chunk, chunk, rules_dir, max_bytes, timeout,
                                         max_claims, pure=False))
                inflight += 1
                if inflight >= limit:
                    yield next(queue).result()
                    inflight -= 1
            for fut in queue:
                yield fut.result()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    return run
