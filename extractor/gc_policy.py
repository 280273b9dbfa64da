"""Garbage-collector settings for a process benchclaims owns (the CLI and its batch workers).

Building the extractor makes ~200,000 objects that live as long as the process (spaCy, pint, the
compiled rules). With the default threshold (700 new objects) the collector walks them over and
over, while they are built and then between documents: ~4.8 ms of a ~40 ms document
(benchmarks/bench_extract.py runs with these settings, as the command does). Extraction itself makes no reference
cycles (its objects are freed by reference counting), so the young generation is collected only
after `YOUNG_GENERATION` new objects: more than start-up makes. Cycles elsewhere are still
collected. A library caller keeps its own settings: only the process owner calls `tune`.
"""
from __future__ import annotations

import gc

YOUNG_GENERATION = 300_000


def tune() -> None:
    """Collect the young generation only every `YOUNG_GENERATION` new objects."""
    gc.set_threshold(YOUNG_GENERATION, *gc.get_threshold()[1:])
