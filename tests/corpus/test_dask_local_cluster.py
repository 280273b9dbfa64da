"""`--engine dask` on a LocalCluster stores exactly what the local process pool stores."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("dask.distributed")

from extractor.corpus.batch import run_batch  # noqa: E402


def write_posts(folder: Path, n: int) -> None:
    folder.mkdir()
    for i in range(n):
        (folder / f"d{i:02d}.md").write_text(
            f"# Decode speed {i}\n\nOn {1 + i % 4} GPUs the engine produced {300 + 11 * i} tok/s "
            f"for {i + 1} concurrent streams; first token after {90 + i} ms.\n", encoding="utf-8")
    (folder / "broken.md").write_bytes(b"\x00\x01binary")



def test_dask_local_cluster_matches_local_run(db_rows, tmp_path):
    folder = tmp_path / "posts"
    write_posts(folder, 20)
    local = run_batch([folder], db=tmp_path / "local.db", jsonl=tmp_path / "local.jsonl", jobs=2,
                      progress=False)
    dask = run_batch([folder], db=tmp_path / "dask.db", jsonl=tmp_path / "dask.jsonl", jobs=2,
                     engine="dask", progress=False)
    assert local == dask and (dask.new, dask.failed) == (20, 1)
    assert db_rows(tmp_path / "local.db") == db_rows(tmp_path / "dask.db")
    assert (tmp_path / "local.jsonl").read_bytes() == (tmp_path / "dask.jsonl").read_bytes()
    again = run_batch([folder], db=tmp_path / "dask.db", engine="dask", jobs=1, progress=False)
    assert (again.skipped, again.failed) == (20, 1)   # incremental on Dask too
