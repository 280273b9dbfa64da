"""What a diff report shows around each change: excerpts, context groups, condition changes.

Plain pydantic models (they go into `--format json` as they are); `excerpts.py` reads them off the
post, `context.py` attaches them to a `DiffReport`.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Span = tuple[int, int]
Source = Literal["document", "record"]


class ViewModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Excerpt(ViewModel):
    """A span in its context: the sentence (or table cell with its headers) and the section path.

    `text` is the sentence, table cell or line that holds the span, as displayed (markup blanked, blank
    runs collapsed; from the record: the quote itself); `mark` is the quote's [start, end) in `text`;
    `span` is the extent of the sentence, cell or line in the post.
    """

    source: Source
    section: list[str] = Field(default_factory=list)
    block: str = "paragraph"
    text: str = ""
    mark: Span = (0, 0)
    span: Span | None = None
    row_header: str | None = None
    column_header: str | None = None
    caption: str | None = None


class Place(ViewModel):
    """Which sentence or table cell a span is in (internal to the grouping; not in the report)."""

    kind: Literal["sentence", "cell", "other"]
    start: int
    end: int
    table: int | None = None
    row: int | None = None
    col: int | None = None


class Mark(ViewModel):
    """A marked quote in a group's sentence: [start, end) in the text, the change kind, the claim."""

    start: int
    end: int
    kind: str
    claim: int


class CellMark(ViewModel):
    """A marked table cell: its column, the change kind, the claim (index in the document's claims)."""

    col: int
    kind: str
    claim: int


class TableRow(ViewModel):
    """A table row that holds a listed claim: its cells as displayed and the marked ones (-1 = header)."""

    index: int
    cells: list[str]
    marks: list[CellMark] = Field(default_factory=list)


class ContextGroup(ViewModel):
    """Claims that share a sentence or a table, listed under it (`claims`: indexes into the document's claims).

    kind `sentence`: `text` with `marks`; `table`: `columns`, `caption` and the `rows` holding a listed claim
    (of `row_count`); `claim`: one claim whose post text is not at hand (its excerpt is the stored quote).
    """

    id: str
    kind: Literal["sentence", "table", "claim"]
    source: Source
    section: list[str] = Field(default_factory=list)
    block: str = "paragraph"
    text: str | None = None
    span: Span | None = None
    marks: list[Mark] = Field(default_factory=list)
    caption: str | None = None
    columns: list[str] = Field(default_factory=list)
    rows: list[TableRow] = Field(default_factory=list)
    row_count: int | None = None
    claims: list[int] = Field(default_factory=list)


class ConditionSide(ViewModel):
    """One side of a changed condition, with the excerpt of its span when it has one."""

    status: str
    value: Any = None
    quote: str | None = None
    span: Span | None = None
    scope: str | None = None
    where: str | None = None
    context: Excerpt | None = None


class ConditionChange(ViewModel):
    """A condition of a changed claim whose status, value or where-note differs: both sides."""

    name: str
    old: ConditionSide | None = None
    new: ConditionSide | None = None
