"""A condition mention placed in its document (`Located`): its block, section, table cell, and what ties it
to something other than the claims around it. `DocumentReader` (document_reader.py) builds each one whole."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from extractor.conditions.mentions import Mention

# A mention of kind `engine` states the condition `engine_version`; every other kind is its condition.
KIND_TO_CONDITION = {"engine": "engine_version"}
NUMERIC_KINDS = {"input_length", "output_length", "batch_or_concurrency", "gpu_count"}
MEASURED_KINDS = {"input_length", "output_length", "batch_or_concurrency"}   # a run's load settings


def condition_of(kind: str) -> str:
    """The condition a mention of this kind states."""
    return KIND_TO_CONDITION.get(kind, kind)


@dataclass(slots=True)
class Located:
    """A mention and where it sits in the document."""

    m: Mention
    block: int
    section: int | None
    table: int | None = None
    row: int | None = None   # -1: header row
    col: int | None = None
    code: bool = False       # inside a code block that holds a benchmark or launch command
    output: bool = False     # on a line a program printed (a setup line of the results printed with it)
    example: bool = False    # given as an example ("e.g. ...", a command the post calls an example)
    bound: str | None = None  # the metric family it was measured for ("ITL measured at 12 QPS": latency)
    accuracy: bool = False   # a dataset of an accuracy evaluation, not a serving workload
    accuracy_clause: bool = False   # a dataset its clause says a score was kept on ('no accuracy drop on X')
    slo_from: int | None = None   # a load after 'meet our SLOs' in its clause: where that phrase starts
    speed: bool = False      # a system setting of a sentence about speed runs ('Performance benchmarks on X')
    measured: str | None = None   # the metric family its sentence says the run measured ("..., measuring latency")
    for_family: str | None = None   # a setting its sentence gives one metric family of several ("BS=1 for TTFT")
    for_mode: str | None = None     # a setting its sentence gives one named mode ("BS=1, min-latency mode")
    for_device: str | None = None   # ... one device of several ("H100 BS 8, H200 BS 32")
    for_model: str | None = None    # ... one model of several ("Model-A: BS 8 | Model-B: BS 64")
    sentence: tuple[int, int] | None = None   # its sentence (prose and captions; None in tables and code)
    compares: bool = False   # its sentence makes a comparison of its own ("quicker than X with 4 users")
    side: bool = False   # one side of a comparison its words do not rank ("A versus B", "between A and B")
    name: str = field(init=False)     # the condition it states
    usable: bool = field(init=False)  # a value, not a column header's label or an overflowing number

    def __post_init__(self) -> None:
        self.name = condition_of(self.m.kind)
        self.usable = self.m.value != "header" and _finite(self.m.value)


def _finite(value) -> bool:
    """A number too large for a float (a 400-digit "rate") states nothing usable."""
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return not isinstance(value, float) or math.isfinite(value)
