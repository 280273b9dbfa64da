"""Same input and rules give byte-identical JSON: across runs, processes (any hash seed) and --jobs values."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from extractor import api
from extractor.render import record_json

POSTS = {
    "serving.md": """---
title: Serving a 70B model on eight GPUs
date: 2025-03-01
---
# Serving a 70B model on eight GPUs

## Setup

We ran Llama-3-70B with vLLM 0.6.3 on 8x H100 (TP=8), input length 1024 and output length 256,
after a warm-up of 10 requests.

## Results

At concurrency 64 the server sustained 3,150 output tokens/s, with a median TTFT of 210 ms and a
TPOT of 38 ms. Against the previous release this is 1.7x faster.

| Concurrency | Throughput (tok/s) | TTFT (ms) |
|---|---|---|
| 16 | 1,480 | 95 |
| 64 | 3,150 | 210 |
""",
    "page.html": """<html><body><h1>FP8 on one GPU</h1>
<p>With SGLang on a single H200 and FP8 weights, Mixtral 8x7B reached about 2,000 tokens per second
at batch size 32; p99 latency stayed under 1.2 s.</p>
<table><tr><th>Batch</th><th>Tokens/s</th></tr><tr><td>8</td><td>740</td></tr><tr><td>32</td><td>2,010</td></tr></table>
</body></html>""",
    "notes.txt": """Quick numbers from the lab.

Two A100 GPUs, TensorRT-LLM, batch 16: 920 tokens/s total throughput and 45 ms per output token.
Prefix caching was on; the ShareGPT prompts were used.
""",
}


def _write(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, text in POSTS.items():
        p = folder / name
        p.write_text(text, encoding="utf-8")
        out.append(p)
    return out


def test_same_process_runs_are_identical(tmp_path):
    for p in _write(tmp_path):
        first = record_json(api.extract_path(p))
        api.get_extractor.cache_clear()  # a rebuilt extractor too
        assert record_json(api.extract_path(p)) == first
        assert record_json(api.extract_path(p)) == first


def _cli(*args: str, seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    r = subprocess.run([sys.executable, "-m", "extractor", *args], capture_output=True, env=env, timeout=180)
    assert r.returncode == 0, r.stderr.decode()
    return r.stdout.decode("utf-8")


def test_separate_processes_with_different_hash_seeds_are_identical(tmp_path):
    path = _write(tmp_path)[0]
    outs = {_cli("extract", str(path), seed=s) for s in ("0", "1", "12345")}
    assert len(outs) == 1
    assert outs.pop().strip() == record_json(api.extract_path(path))


def test_batch_jsonl_same_for_one_and_two_jobs(tmp_path):
    docs = tmp_path / "docs"
    _write(docs)
    for i in range(5):  # enough documents for several worker chunks
        (docs / f"copy-{i}.md").write_text(POSTS["serving.md"].replace("3,150", f"3,1{i}0"), encoding="utf-8")
    outs = []
    for jobs in ("1", "2"):
        jl = tmp_path / f"out-{jobs}.jsonl"
        r = subprocess.run([sys.executable, "-m", "extractor", "batch", str(docs), "--db", str(tmp_path / f"{jobs}.db"),
                            "--jsonl", str(jl), "--jobs", jobs], capture_output=True, timeout=300,
                           env={**os.environ, "PYTHONHASHSEED": jobs})
        assert r.returncode == 0, r.stderr.decode()
        outs.append(jl.read_bytes())
    assert outs[0] == outs[1]
    assert outs[0].count(b"\n") == len(POSTS) + 5
