"""Results printed by a script and shown in a code block ("Avg latency: 2.31 seconds", "Output token
throughput (tok/s): 1234.5", "Samples per second: 64.7"): one claim per labelled result line.

A line is a result when it is `Label: number [unit]` in a block whose language says it holds output
(`script_output_langs` in `rules/claims.yaml`: plain text, console, log...; a `yaml` or `python` block is
configuration or code), and its label or unit names a metric the way a table header does. Labels of counts
and settings ("Batch size: 64", "Successful requests: 100") are left out as table columns of counts are.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from extractor.claims.classify import unit_class
from extractor.ingest import Document
from extractor.ingest.segment import Passage
from extractor.records import Claim, ClaimContext

if TYPE_CHECKING:
    from extractor.claims.tables import TableReader

# "Label: value [unit]" alone on its line; the label has no underscore (snake_case keys are configuration)
RESULT_LINE = re.compile(
    r"^[ \t]*(?P<label>[A-Za-z][A-Za-z0-9 ()/%.,\-]*?)[ \t.]*:[ \t]*"
    r"(?P<value>[-+]?\d[\d,]*(?:\.\d+)?(?:[ \t]*(?:[A-Za-zµ%][A-Za-z/%µ]*(?:[ \t]*/[ \t]*[A-Za-z]+)*))?)[ \t]*$",
    re.M)


class ScriptOutputReader:
    """Reads labelled result lines of output code blocks, with the table reader's header reading."""

    def __init__(self, tables: "TableReader", langs: list[str]):
        self.tables = tables
        self.langs = {lang.lower() for lang in langs}

    def output_blocks(self, d: Document) -> list[int]:
        """Indices of the code blocks whose language says they hold output."""
        return [i for i, b in enumerate(d.blocks)
                if b.kind == "code" and ((b.lang or "").split() or [""])[0].lower() in self.langs]

    def claims(self, d: Document) -> list[tuple[Claim, Passage]]:
        out: list[tuple[Claim, Passage]] = []
        x = self.tables.x
        for i in self.output_blocks(d):
            block = d.blocks[i]
            lines = [m for m in RESULT_LINE.finditer(d.text, block.start, block.end)]
            if not lines:
                continue
            pieces = [d.text[m.start("value"):m.end("value")] for m in lines]
            analysed = x.analyse(pieces, [m.start("value") for m in lines], located=True)
            for m, (qs, cues) in zip(lines, analysed):
                header = self.tables.header(" ".join(m.group("label").split()))
                q = next((q for q in qs if q.span[0] == m.start("value")), None)
                if q is None or header.counts:
                    continue
                cls, unit = unit_class(q.unit), q.unit
                if cls is None:
                    if not header.cls or header.cls == "score":
                        continue
                    cls, unit = header.cls, header.unit
                    q = q.model_copy(update={"unit": unit})
                if not header.cues:
                    continue          # "Elapsed: 3 s" with no metric word: not shown as a result
                metric = x.builder.metric_for(q, cls, list(cues), q.span[0], q.span[1], header.cues)
                if metric is None:
                    continue
                context = ClaimContext(section=d.section_path(block.section), block="code",
                                       row_header=header.text)
                claim = x.builder.claim(q, metric, cls, list(cues), d.text, 0, 0, context, header.cues, unit)
                claim.quote = d.text[claim.span[0]:claim.span[1]]
                out.append((claim, Passage(m.start(), m.end(), "code", i, block.section)))
        return out
