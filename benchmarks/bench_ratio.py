"""One run, side by side: spaCy's bare tokenizer and `benchclaims batch --jobs 1` over the same folder.

    .venv/bin/python benchmarks/bench_ratio.py [FOLDER] [--rounds 3] [--startup-runs 5]

FOLDER defaults to ../shared/wide/docs when present, else corpus/. Both sides run as whole processes
(interpreter start, imports and all; a small wrapper process reads each one's peak memory, its own start-up
~0.02 s is counted on both sides), one after the other, `--rounds` times interleaved; each side's best
round is kept (a busy neighbour slows a round, never speeds one up). Time is the CPU time (user + system)
of the child process, read from `resource.getrusage(RUSAGE_CHILDREN)`, so the ratio holds on a shared
machine; wall time is printed beside it. The batch writes to a fresh database each round. Peak memory is
the batch process's max RSS. Last, the start-up of `benchclaims extract` on a small file: the best of
`--startup-runs` fresh processes (wall time, which is what a user waits for, and CPU time, which a busy
machine does not inflate).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = (".md", ".markdown", ".mdx", ".html", ".htm", ".txt")

TOKENIZE = """
import sys
from pathlib import Path
import spacy
folder = Path(sys.argv[1])
texts = [p.read_text(encoding="utf-8", errors="replace")
         for p in sorted(folder.rglob("*")) if p.is_file() and p.suffix.lower() in {suffixes!r}]
nlp = spacy.blank("en")
nlp.max_length = 10**9
n = sum(len(doc) for doc in nlp.pipe(texts))
print(len(texts), n)
"""

SMALL_POST = """# A small post

On 8x H100 with vLLM v0.6.0, Llama-3.1-8B reached 12,400 output tokens/s at concurrency 64.
"""


def default_folder() -> Path:
    wide = ROOT.parent / "shared" / "wide" / "docs"
    return wide if wide.is_dir() else ROOT / "corpus"


# Runs the command as its only child and prints that child's peak RSS (KB): the peak of one process alone.
PEAK = ("import resource, subprocess, sys; rc = subprocess.run(sys.argv[1:]).returncode; "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(rc)")


# A user's install has bytecode caches; a shell that sets PYTHONDONTWRITEBYTECODE would make every child
# compile every module from source (~0.4 s of start-up), which is no cost of either side.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_child(argv: list[str]) -> tuple[float, float, float]:
    """Run one process to completion: (CPU seconds, wall seconds, its peak RSS in MB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK, *argv], check=True, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, env=CHILD_ENV)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, int(done.stderr.strip().splitlines()[-1]) / 1024


def benchclaims_exe() -> str:
    exe = Path(sys.executable).with_name("benchclaims")
    return str(exe) if exe.exists() else shutil.which("benchclaims") or "benchclaims"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path, default=None)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--startup-runs", type=int, default=5)
    args = ap.parse_args(argv)
    folder = (args.folder or default_folder()).resolve()
    files = [p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES]
    size = sum(p.stat().st_size for p in files)
    exe = benchclaims_exe()
    tokenize = [sys.executable, "-c", TOKENIZE.format(suffixes=set(SUFFIXES)), str(folder)]
    best_tok = best_batch = (float("inf"), float("inf"))
    peak = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp) / "small.md"
        small.write_text(SMALL_POST, encoding="utf-8")
        run_child([exe, "extract", str(small)])   # writes the bytecode caches, if missing
        for r in range(args.rounds):
            cpu, wall, _ = run_child(tokenize)
            best_tok = min(best_tok, (cpu, wall))
            db = Path(tmp) / f"round{r}.db"
            cpu, wall, rss = run_child([exe, "batch", str(folder), "--db", str(db), "--jobs", "1"])
            best_batch = min(best_batch, (cpu, wall))
            peak = max(peak, rss)
        startups = [run_child([exe, "extract", str(small)]) for _ in range(args.startup_runs)]
        startup_wall = min(s[1] for s in startups)
        startup_cpu = min(s[0] for s in startups)
    print(f"folder: {folder} ({len(files)} files, {size / 1e6:.2f} MB); best of {args.rounds} rounds")
    print(f"spaCy bare tokenizer (whole process): {best_tok[0]:.2f} s CPU, {best_tok[1]:.2f} s wall")
    print(f"benchclaims batch --jobs 1:          {best_batch[0]:.2f} s CPU, {best_batch[1]:.2f} s wall, "
          f"peak RSS {peak:.0f} MB")
    print(f"ratio (CPU): {best_batch[0] / best_tok[0]:.2f}x   ratio (wall): {best_batch[1] / best_tok[1]:.2f}x")
    print(f"extract start-up on a small file: {startup_wall:.2f} s wall, {startup_cpu:.2f} s CPU "
          f"(best of {args.startup_runs})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
