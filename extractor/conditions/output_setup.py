"""Setup lines of program output as conditions of the results printed with them.

A program that prints its results often prints its setup first: "Loading model org/name", "Batch size: 16",
"Input tokens: 512, new tokens: 256", "Default (float32) model translation:". Those lines are
found like every other mention (the condition patterns of rules/conditions.yaml), plus the model a line
names after a model label (`model_labels` in rules/program_output.yaml) without a known name. Which lines a
program printed is `OutputBlocks`' job; the scope ladder's `program_output` rung (rungs_local.py) gives a printed
result the nearest setup line of each condition above it in its block (`nearest_setup`): a run's own lines
come after the lines of the runs before it, and a line printed once for several runs ("== sweep, batch
size 16 ==") covers the runs after it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from extractor.claims.output_blocks import OutputBlocks
from extractor.conditions.mentions import Mention
from extractor.ingest import Document
from extractor.spans import overlaps_near

if TYPE_CHECKING:
    from extractor.conditions.located import Located

MODEL_RULE = "program_output.yaml:model_labels"


class OutputSetup:
    """The printed lines of a document and the models its setup lines name."""

    def __init__(self, blocks: OutputBlocks):
        self.blocks = blocks

    def printed(self, d: Document) -> list[tuple[int, int]]:
        """[start, end) of each printed line that is no error text, in order."""
        return [(line.start, line.end) for line in self.blocks.lines(d) if not line.error]

    def models(self, d: Document, found: list[Mention]) -> list[Mention]:
        """A model named after a model label at the start of a printed line ("Loading model org/name",
        "model=name-7b"), where no other mention names it."""
        rx = self.blocks.model_line
        if rx is None:
            return []
        taken = sorted(m.span for m in found if m.kind == "model")
        out: list[Mention] = []
        for line in self.blocks.lines(d):
            m = None if line.error else rx.match(d.text, line.start, line.end)
            if m is None:
                continue
            span = m.span("id")
            if not overlaps_near(taken, *span):
                out.append(Mention(kind="model", value=m.group("id"), quote=m.group("id"), span=span,
                                   rule=MODEL_RULE))
        return out


def nearest_setup(printed: list["Located"], before: int) -> list["Located"]:
    """Of the mentions on printed lines (in text order), the last of each condition that starts before
    `before`."""
    last: dict[str, "Located"] = {}
    for x in printed:
        if x.m.span[0] >= before:
            break
        if x.usable:
            last[x.name] = x
    return sorted(last.values(), key=lambda x: x.m.span)
