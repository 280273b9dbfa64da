"""Benchmark `benchclaims batch`: documents/s with --jobs 1 and 2, peak memory, and the Dask run.

    .venv/bin/python benchmarks/bench_batch.py [FOLDER] [--docs 1000] [--no-dask]

FOLDER (default: corpus/, else built-in synthetic posts) is copied round-robin into a
temporary folder of --docs documents, each perturbed so its hash differs. Every
configuration runs in a fresh process on a fresh database; peak memory is the
max RSS of that process and of its children (resource.getrusage). Memory is also
measured on a quarter of the documents: flat means the two peaks are about equal.
"""
from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = {".md", ".markdown", ".html", ".htm", ".txt"}


def synthetic(i: int) -> str:
    return (f"# Throughput notes {i}\n\nOn {1 + i % 8} GPUs a {7 + i % 70}B model reached "
            f"{900 + 13 * i} output tokens/s at concurrency {1 + i % 64}; median TTFT {80 + i % 200} ms.\n"
            * 20)


def make_docs(source: Path | None, n: int, dest: Path) -> None:
    """n documents in dest: copies of source's files (or synthetic posts), each made unique."""
    files = sorted(p for p in source.rglob("*") if p.suffix.lower() in SUFFIXES) if source else []
    dest.mkdir(parents=True)
    for i in range(n):
        if files:
            src = files[i % len(files)]
            text = src.read_text(encoding="utf-8", errors="replace") + f"\n\nCopy {i} of {src.name}.\n"
            (dest / f"{i:05d}-{src.name}").write_text(text, encoding="utf-8")
        else:
            (dest / f"{i:05d}.md").write_text(synthetic(i), encoding="utf-8")


def run_one(folder: str, db: str, jobs: int, engine: str) -> dict:
    """Run in a fresh process: one batch, its time and peak memory (MB)."""
    from extractor.corpus.batch import run_batch

    t0 = time.perf_counter()
    s = run_batch([folder], db=db, jobs=jobs, engine=engine, progress=False)  # type: ignore[arg-type]
    dt = time.perf_counter() - t0
    kb = 1024  # ru_maxrss is in KiB on Linux
    return {"docs": s.total, "failed": s.failed, "claims": s.claims, "seconds": dt,
            "self_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / kb,
            "children_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / kb}


def measure(folder: Path, jobs: int, engine: str, tmp: Path) -> dict:
    db = tmp / f"bench-{engine}-{jobs}-{folder.name}.db"
    out = subprocess.run([sys.executable, __file__, "--run-one", str(folder), str(db), str(jobs), engine],
                         capture_output=True, text=True, cwd=ROOT)
    if out.returncode:
        raise SystemExit(f"{engine} --jobs {jobs} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", nargs="?", type=Path)
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--run-one", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.run_one:
        folder, db, jobs, engine = args.run_one
        print(json.dumps(run_one(folder, db, int(jobs), engine)))
        return
    source = args.folder or (ROOT / "corpus")
    if not any(p.suffix.lower() in SUFFIXES for p in source.rglob("*")) if source.exists() else True:
        source = None
    tmp = Path(tempfile.mkdtemp(prefix="bench-batch-"))
    try:
        full, quarter = tmp / "full", tmp / "quarter"
        make_docs(source, args.docs, full)
        make_docs(source, max(1, args.docs // 4), quarter)
        size_kb = sum(p.stat().st_size for p in full.iterdir()) / len(list(full.iterdir())) / 1024
        configs = [("local", 1, quarter), ("local", 1, full), ("local", 2, quarter), ("local", 2, full)]
        if not args.no_dask:
            configs.append(("dask", 2, full))
        print(f"{args.docs} documents from {source or 'synthetic posts'} (mean {size_kb:.1f} KB)")
        print(f"{'engine':<7}{'jobs':>5}{'docs':>7}{'seconds':>9}{'docs/s':>9}{'claims':>8}"
              f"{'failed':>8}{'main MB':>9}{'child MB':>10}", flush=True)
        for engine, jobs, folder in configs:
            r = measure(folder, jobs, engine, tmp)
            print(f"{engine:<7}{jobs:>5}{r['docs']:>7}{r['seconds']:>9.2f}{r['docs'] / r['seconds']:>9.1f}"
                  f"{r['claims']:>8}{r['failed']:>8}{r['self_mb']:>9.0f}{r['children_mb']:>10.0f}", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
