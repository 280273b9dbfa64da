"""How extraction cost grows with the size of one document: time, peak memory and the fitted exponent.

    .venv/bin/python benchmarks/bench_scaling.py                       # 0.25, 1, 4, 16 MiB; 500, 2000, 8000 rows
    .venv/bin/python benchmarks/bench_scaling.py --mib 0.06 0.25 --rows 250 1000 --html-rows 250 1000   # quick

Two families of one-document inputs, written by this script's own generator (no real post's text):

* posts: a long Markdown post made of many generated benchmark write-ups one after the other (title,
  introduction with headline figures, a set-up section of labelled lines, results prose, a results
  table, a benchmark command, a caveats list), with numbers, models, hardware and engines varied;
* table: one Markdown results table of N rows x 8 numeric columns under one heading;
* html-table: the same table as an HTML page.

Each size runs in a fresh process (so peak memory is that document's: ru_maxrss of the child, start-up
included) with no time budget and no cap on candidate claims (a 1 MiB generated post holds ~17,000, over
the default cap of 10,000: see extractor/limits.py); the time is the CPU time of `extract_text` alone (one core). The exponent is the slope of
log(time) over log(size) fitted by least squares: 1.0 is linear. Targets (issue 14): exponent <= 1.15,
peak memory under 1 GB, a 16 MiB post within the default 60 s budget on one core.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODELS = ["Llama 3.1 8B", "Llama 3.3 70B", "Qwen2.5 32B", "Mistral Small 24B", "DeepSeek-V3", "Gemma 2 27B",
          "Mixtral 8x7B", "Phi-4 14B"]
HARDWARE = ["H100 SXM", "H200", "A100 80GB", "MI300X", "L40S", "B200", "MI325X", "GH200"]
ENGINES = [("vLLM", "v0.{}.{}"), ("SGLang", "v0.{}.{}"), ("TensorRT-LLM", "{}.{}.0"), ("TGI", "{}.{}.1")]
PRECISIONS = ["FP8", "BF16", "FP16", "INT4 AWQ"]
VERBS = ["reached", "sustained", "delivered", "peaked at", "held"]
DATASETS = ["ShareGPT", "a synthetic random dataset", "LongBench prompts", "our chat traces"]


def make_post(rng: random.Random, i: int) -> str:
    """One generated benchmark write-up (~4 KB of Markdown)."""
    model, hw, prec, ds = rng.choice(MODELS), rng.choice(HARDWARE), rng.choice(PRECISIONS), rng.choice(DATASETS)
    engine, vfmt = rng.choice(ENGINES)
    version = vfmt.format(rng.randrange(3, 12), rng.randrange(0, 9))
    gpus = rng.choice([1, 2, 4, 8])
    conc = rng.choice([1, 8, 16, 32, 64, 128, 256])
    isl, osl = rng.choice([(128, 128), (1024, 256), (2048, 512), (4096, 1024)])
    tput = rng.randrange(800, 40000)
    speed = round(rng.uniform(1.1, 4.5), 1)
    ttft, tpot = rng.randrange(20, 900), round(rng.uniform(5, 60), 1)
    rows = []
    for c in (1, 4, 16, 64, 256):
        rows.append(f"| {c} | {rng.randrange(100, 50000):,} | {rng.randrange(15, 2000)} | {round(rng.uniform(4, 90), 1)} |")
    table = "\n".join(rows)
    return f"""# Run {i}: {engine} {version} serves {model} {speed}x faster on {hw}

We upgraded our serving stack and measured {model} again. In short, the new release {rng.choice(VERBS)}
{tput:,} tokens/s of output throughput on {gpus}x {hw}, about {speed}x the previous release.

## Experimental setup

- Model: {model} ({prec})
- Hardware: {gpus}x {hw}
- Engine: {engine} {version}
- Concurrency: {conc} requests
- Input / output length: {isl} / {osl} tokens
- Dataset: {ds}

We ran two warm-up iterations before each measurement and report the mean of five runs.

## Results

At a concurrency of {conc}, time to first token was {ttft} ms at the median and time per output token
stayed near {tpot} ms. Per GPU this is roughly {tput // gpus:,} tok/s. Compared with the previous
release, p99 end-to-end latency fell by {rng.randrange(5, 60)}% while request throughput rose to
{round(rng.uniform(1, 40), 2)} req/s.

| Concurrency | Output tok/s | TTFT (ms) | TPOT (ms) |
|---|---|---|---|
{table}

The table shows the sweep; the headline figure above is the best point of it.

```bash
{engine.lower()} bench serve --model example/{model.replace(' ', '-')} --num-prompts {conc * 10} --max-concurrency {conc}
```

## Caveats

- The numbers are for one node; multi-node results will follow in a later post.
- Memory use peaked at {rng.randrange(40, 80)} GB per GPU.

"""


def make_posts_doc(n_bytes: int, seed: int = 14) -> str:
    """Generated write-ups appended until the document holds `n_bytes` bytes (UTF-8)."""
    rng = random.Random(seed)
    parts, size, i = [], 0, 0
    while size < n_bytes:
        p = make_post(rng, i)
        parts.append(p)
        size += len(p.encode())
        i += 1
    return "".join(parts)


def make_table_doc(rows: int, seed: int = 14) -> str:
    """One results table of `rows` rows x 8 numeric columns under a heading."""
    rng = random.Random(seed)
    head = "| Config | Batch | Output tok/s | Total tok/s | TTFT (ms) | TPOT (ms) | ITL (ms) | Req/s | GPU mem (GB) |"
    lines = ["# Sweep results", "", f"{rng.choice(MODELS)} on 8x {rng.choice(HARDWARE)}, all runs.", "", head,
             "|" + "---|" * 9]
    for r in range(rows):
        lines.append(f"| cfg-{r} | {2 ** (r % 9)} | {rng.randrange(100, 60000):,} | {rng.randrange(100, 90000):,} | "
                     f"{rng.randrange(10, 3000)} | {round(rng.uniform(3, 90), 1)} | {round(rng.uniform(3, 90), 1)} | "
                     f"{round(rng.uniform(0.1, 60), 2)} | {rng.randrange(20, 80)} |")
    return "\n".join(lines) + "\n"


def make_html_table_doc(rows: int, seed: int = 14) -> str:
    """The results table of `make_table_doc` written as an HTML page (one <table>, a <tr> per row)."""
    md = make_table_doc(rows, seed).splitlines()
    heading, lead, head, body = md[0][2:], md[2], md[4], md[6:]
    cells = lambda line: [c.strip() for c in line.strip().strip("|").split("|")]   # noqa: E731
    out = ["<!DOCTYPE html>", "<html><head><title>Sweep results</title></head><body><article>",
           f"<h1>{heading}</h1>", f"<p>{lead}</p>", "<table>",
           "<thead><tr>" + "".join(f"<th>{c}</th>" for c in cells(head)) + "</tr></thead>", "<tbody>"]
    out += ["<tr>" + "".join(f"<td>{c}</td>" for c in cells(line)) + "</tr>" for line in body]
    out += ["</tbody>", "</table>", "</article></body></html>"]
    return "\n".join(out) + "\n"


def make_real_doc(folder: str, n_bytes: int) -> str:
    """The Markdown posts of `folder`, in name order, appended (again from the first when all are used) until
    the document holds `n_bytes` bytes: the density of claims, tables and set-up of real writing."""
    posts = [p.read_text(encoding="utf-8") for p in sorted(Path(folder).glob("*.md"))]
    if not posts:
        raise SystemExit(f"--from {folder}: no .md posts there")
    parts, size, i = [], 0, 0
    while size < n_bytes:
        parts.append(posts[i % len(posts)])
        size += len(parts[-1].encode()) + 2
        i += 1
    return "\n\n".join(parts)


def make_doc(kind: str, size: float) -> tuple[str, str]:
    """(text, file name) of one input of `kind` (posts, real-posts: `size` MiB; table, html-table: `size` rows)."""
    if kind == "posts":
        return make_posts_doc(int(size * 2**20)), "posts.md"
    if kind == "real-posts":
        return make_real_doc(os.environ["BENCH_SCALING_FROM"], int(size * 2**20)), "real-posts.md"
    if kind == "html-table":
        return make_html_table_doc(int(size)), "table.html"
    return make_table_doc(int(size)), "table.md"


def run_one(kind: str, size: float) -> dict:
    """In this process: build the document, extract it once with no budget, report time and peak RSS."""
    import resource

    from extractor import gc_policy
    from extractor.api import extract_text, get_extractor

    gc_policy.tune()
    text, name = make_doc(kind, size)
    get_extractor(None)   # the cache key extract_text uses
    extract_text(make_post(random.Random(0), 0), "warm-up.md", timeout=0)   # lazily built scanners, spaCy vocab
    t0 = time.process_time()   # CPU time: on a shared machine a neighbour's load does not count
    record = extract_text(text, name, timeout=0, max_bytes=1 << 30, max_claims=0)
    seconds = time.process_time() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {"kind": kind, "size": size, "bytes": len(text.encode()), "seconds": seconds, "peak_bytes": peak,
            "claims": len(record.claims)}


def exponent(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of log(time) over log(size)."""
    xs = [math.log(s) for s, _ in points]
    ys = [math.log(max(t, 1e-6)) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mib", type=float, nargs="*", default=[0.25, 1, 4, 16], help="post sizes in MiB")
    ap.add_argument("--rows", type=int, nargs="*", default=[500, 2000, 8000], help="table sizes in rows")
    ap.add_argument("--html-rows", type=int, nargs="*", default=[500, 2000, 8000],
                    help="sizes in rows of the same table written as HTML")
    ap.add_argument("--from", dest="source", metavar="DIR",
                    help="also measure documents of the --mib sizes made of the real posts (.md) in DIR, appended "
                         "in name order (real density: a few hundred claims per MiB, not ~17,000)")
    ap.add_argument("--kinds", nargs="*", metavar="KIND",
                    help="measure only these kinds (posts, real-posts, table, html-table); default: all that apply")
    ap.add_argument("--one", nargs=2, metavar=("KIND", "SIZE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one[0], float(args.one[1]))))
        return
    lines = ["| input | size | bytes | claims | CPU time (s) | KB/s | peak memory (MB) |", "|---|---|---|---|---|---|---|"]
    kinds = [("posts", args.mib), ("table", args.rows), ("html-table", args.html_rows)]
    if args.source:
        os.environ["BENCH_SCALING_FROM"] = str(Path(args.source).resolve())
        kinds.insert(1, ("real-posts", args.mib))
    if args.kinds is not None:
        kinds = [(kind, sizes) for kind, sizes in kinds if kind in args.kinds]
    for kind, sizes in kinds:
        points = []
        for size in sizes:
            out = subprocess.run([sys.executable, __file__, "--one", kind, str(size)], capture_output=True,
                                 text=True, check=True)
            r = json.loads(out.stdout.strip().splitlines()[-1])
            points.append((r["bytes"], r["seconds"]))
            label = f"{size:g} MiB" if kind.endswith("posts") else f"{int(size)} rows"
            lines.append(f"| {kind} | {label} | {r['bytes']:,} | {r['claims']:,} | {r['seconds']:.2f} | "
                         f"{r['bytes'] / 1e3 / r['seconds']:.0f} | {r['peak_bytes'] / 1e6:.0f} |")
            print(lines[-1], flush=True)
        if len(points) > 1:
            lines.append(f"| {kind} | fitted time exponent | | | {exponent(points):.2f} | | |")
            print(lines[-1], flush=True)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
