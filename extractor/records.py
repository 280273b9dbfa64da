"""Pydantic records: everything that leaves the extractor (the output contract).

A `DocumentRecord` is what `benchclaims extract` prints and what the store, diff
and audit read. Spans are `[start, end)` character offsets into the input text
exactly as read from the file (after decoding), so `text[start:end]` shows the
quoted value.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Span = tuple[int, int]

Metric = Literal[
    "throughput", "request_throughput", "ttft", "tpot", "itl", "e2e_latency", "latency",
    "speedup", "relative_change", "accuracy", "cost", "memory", "bandwidth", "compute",
    "energy_efficiency", "other",
]
Qualifier = Literal["exact", "approx", "at_least", "up_to", "range"]
Tokens = Literal["total", "output", "input", "unspecified"]
Per = Literal["gpu", "user", "node", "system"]
Direction = Literal["better", "worse", "neutral"]
SetAsideReason = Literal[
    "datasheet", "setting", "target", "date_or_version", "model_size", "cited", "example",
    "design_arithmetic", "log_or_error", "markup", "baseline", "adoption",
]
STATISTIC_PATTERN = r"^(mean|median|min|max|p\d+(\.\d+)?)$"
Scope = Literal[
    "sentence", "program_output", "table_row", "table_column", "table_caption", "figure_caption", "footnote",
    "paragraph", "section", "command_line", "code", "setup_section", "front_matter", "restatement", "document",
]

DateSource = Literal["front_matter", "file_name", "html_meta", "html_time", "json_ld"]

CHECKLIST: tuple[str, ...] = (
    "model", "hardware", "batch_or_concurrency", "input_length", "output_length",
    "engine_version", "warmup", "scenario",
)
SECONDARY: tuple[str, ...] = (
    "precision", "parallelism", "dataset", "gpu_count", "prefix_caching", "speculative_decoding",
)
CONDITIONS: tuple[str, ...] = CHECKLIST + SECONDARY


class Record(BaseModel):
    """Base for output records: strict fields, stable field order."""

    model_config = ConfigDict(extra="forbid")


class QuantityRecord(Record):
    """A number with its unit as read from the text, before any claim decision."""

    value: float
    value_max: float | None = None
    unit: str = Field(description="canonical pint unit string, e.g. 'token / second / gpu'")
    surface_unit: str = ""
    qualifier: Qualifier = "exact"
    quote: str
    span: Span


class Condition(Record):
    """One load condition of a claim: stated (with provenance) or unrecoverable (with where-note)."""

    # frozen: the claims of a record share identical conditions (one object each, conditions/_internals/sharing.py),
    # so a condition is replaced (`model_copy(update=...)`), never changed in place (the docstring above
    # is the JSON Schema's description: the note stays a comment)
    model_config = ConfigDict(extra="forbid", frozen=True)

    status: Literal["stated", "unrecoverable"]
    value: Any = None
    canonical: str | None = None
    quote: str | None = None
    span: Span | None = None
    scope: Scope | None = None
    sweep: bool | None = None
    count: int | None = None
    value_partial: str | None = None
    note: str | None = None
    where: str | None = None
    why: str | None = None


class ClaimContext(Record):
    """Where a claim sits in the document structure."""

    section: list[str] = Field(default_factory=list)
    block: str = "paragraph"
    row_header: str | None = None
    column_header: str | None = None


BASELINE_NOT_NAMED = "not named in the text"
"""The baseline of a speed-up or relative change whose text names none (GOLD: never null)."""


class ClaimMention(Record):
    """One place where the post states a claim's figure (the title, the TL;DR, a results table...)."""

    quote: str
    span: Span
    context: ClaimContext = Field(default_factory=ClaimContext)
    headline: bool = Field(False, description="the mention sits where the post leads (title, summary, TL;DR, "
                                              "introduction)")


class Claim(Record):
    """A quantity that states performance, with its conditions.

    A figure the post states several times for one setup is one claim: `mentions` lists every place
    (in text order, the primary one included); `quote`, `span` and `context` are the primary mention's
    (the most specific: a results passage or table cell rather than the title)."""

    id: str = ""
    metric: Metric
    value: float
    value_max: float | None = None
    unit: str
    qualifier: Qualifier = "exact"
    tokens: Tokens | None = None
    per: Per | None = None
    baseline: str | None = Field(
        default=None,
        description="for speedup and relative_change: what the figure is compared with, as the text says it "
                    f"('vLLM v0.5.3', 'H100'); '{BASELINE_NOT_NAMED}' when the text names none; null for other "
                    "metrics")
    direction: Direction | None = Field(
        default=None,
        description="for speedup and relative_change: 'better' when the figure reports an improvement of the "
                    "system the post presents, 'worse' for a regression or cost ('1.4x slowdown', '10x higher "
                    "TTFT'), 'neutral' when it only says two are close; independent of the sign of value; "
                    "also for an absolute change of another metric ('TTFT reduced by 500 ms': value -500); "
                    "null for a level")
    statistic: str | None = Field(
        default=None, pattern=STATISTIC_PATTERN,
        description="the statistic the post states for a latency or rate: 'mean', 'median', 'min', 'max' or a "
                    "percentile 'p90', 'p99', 'p99.9' (P50 is written 'median'); null when the post does not say")
    headline: bool = False
    cited_from: str | None = Field(
        default=None,
        description="the other party the text credits this figure to ('according to X', 'as reported by X', "
                    "'X reports', 'in X's paper'), or the link it gives for it: a figure quoted from another "
                    "paper or post, not a measurement of this post; a cited figure is never a headline")
    quote: str
    span: Span
    context: ClaimContext = Field(default_factory=ClaimContext)
    mentions: list[ClaimMention] = Field(default_factory=list)
    conditions: dict[str, Condition] = Field(default_factory=dict)


class Note(Record):
    """A caveat or provenance signal, tied to the text that raised it when there is one."""

    kind: str
    message: str
    quote: str | None = None
    span: Span | None = None


class SetAside(Record):
    """A figure with a performance unit that the claim stage looked at and kept out of the claims, and why."""

    quote: str
    span: Span
    reason: SetAsideReason = Field(description="why the figure is no claim (see docs: the set-aside reasons)")
    rule: str = Field(description="the rule that decided it (a rules/ entry or the mechanism's name)")


class DocumentRecord(Record):
    """Everything benchclaims extracted from one document."""

    doc: str
    path: str | None = None
    sha256: str
    title: str | None = None
    date: str | None = Field(None, description="publication date, YYYY-MM-DD")
    date_source: DateSource | None = Field(
        None, description="where the date came from: front_matter, file_name, html_meta, html_time or json_ld")
    authorship: str | None = None
    extractor_version: str
    rules_version: str
    claims: list[Claim] = Field(default_factory=list)
    set_aside: list[SetAside] = Field(
        default_factory=list, description="figures with a performance unit that are neither a claim nor a "
                                          "condition of one, each with the reason it was set aside, in text order")
    caveats: list[Note] = Field(default_factory=list)
    provenance: list[Note] = Field(default_factory=list)


class DocumentError(Record):
    """A document that could not be processed, and why (batches go on past it)."""

    doc: str
    path: str | None = None
    sha256: str | None = None
    error: str
    kind: str = "error"
