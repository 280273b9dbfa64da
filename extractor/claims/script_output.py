"""Results printed by a program and shown in a code block ("Avg latency: 2.31 seconds", "Output token
throughput (tok/s): 1234.5", "dt_test=18.76 ms", "INFO ... Avg prompt throughput: 512.3 tokens/s, ..."):
one claim per labelled result.

Which lines a program printed is `OutputBlocks`' job (output_blocks.py: structure, not the fence language).
An output line is cut into segments (", ", "; ", " | ", tabs) and each segment read as `Label: value [unit]`,
`Label: key=value [unit]` or `key=value [unit]`; a bare `value unit` segment after a labelled one takes its
label ("Run time: 4.10 sec total, 52.30 tokens/sec"). A result is a segment whose label or unit
names a metric the way a table header does (the table reader's header reading); labels of counts and settings
("Batch size: 64", "Successful requests: 100", "Request timeout: 30 s") are left out, as are error lines.

Load generators print latency statistics under labels that name only the statistic ("Average: 0.036 secs",
"Slowest: 10.1 secs", "P99: 41 ms") and percentile lines ("99% in 0.1501 secs"): a time under such a label is
a latency with that statistic (`statistic_labels` of `program_output.yaml`); a percentile line's quote holds
its percentile.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from extractor.claims.classify import unit_class
from extractor.claims.output_blocks import OutputBlocks, OutputLine
from extractor.claims.tables import RESIDUAL_METRICS
from extractor.contracts import CREATED, StageContract
from extractor.ingest import Document
from extractor.ingest.segment import Passage
from extractor.records import Claim, ClaimContext

if TYPE_CHECKING:
    from extractor.claims.set_aside import ProseFigures
    from extractor.claims.tables import TableReader

_VALUE = r"[-+~≈]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?"
_UNIT = r"(?:[ \t]*(?:[A-Za-zµ%$][A-Za-z0-9µ%$]*(?:[ \t]*/[ \t]*[A-Za-z0-9]+)*\.?))?"
# "Label: value [unit] [words]", "Label: key=value [unit]", "key=value [unit]"; the label has a letter and no
# sentence inside it (a colon or equals sign ends it)
SEGMENT = re.compile(
    rf"(?P<label>[A-Za-z(\[][^:=\n]{{0,80}}?)[ \t.]*[:=][ \t]*(?:(?P<key>[A-Za-z_][\w.]{{0,40}})[ \t]*=[ \t]*)?"
    rf"(?P<value>{_VALUE}{_UNIT})(?P<rest>[^\d]{{0,24}})$")
BARE = re.compile(rf"(?P<value>{_VALUE}{_UNIT})(?P<rest>[^\d]{{0,24}})$")
# a latency percentile line of a load generator: "99% in 0.1501 secs", "p90 in 12 ms"
PERCENTILE = re.compile(rf"[ \t]*(?P<pct>\d{{1,2}}(?:\.\d+)?)[ \t]*%[ \t]+in[ \t]+(?P<value>{_VALUE}{_UNIT})[ \t]*$")
# a printed line of figures alone, without a label: "14488.24 iter/s (0.6902s)", "512.0 tokens/s"
_FIGURE = rf"{_VALUE}[ \t]*[A-Za-zµ%][A-Za-z0-9µ%]*(?:[ \t]*/[ \t]*[A-Za-z0-9]+)*"
FIGURES_LINE = re.compile(rf"[ \t]*(?P<value>{_FIGURE})(?:[ \t]*\([ \t]*(?P<second>{_FIGURE})[ \t]*\))?[ \t]*$")
# a printed line written as a sentence: two words before its first number
_PROSE_LINE = re.compile(r"[^\d\n]*?[A-Za-z]{2,}[^\d\n]*?\s[A-Za-z]{2,}[^\d\n]*?\d")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
PROSE_LINE_MAX = 100
_PARENS = re.compile(r"\(([^()]*)\)")
# a group line naming latencies: "Latency distribution:", "Response time:", "Request latency (ms):"
_LATENCY_GROUP = re.compile(r"\b(?:latenc(?:y|ies)|response\s+times?|round[- ]trip)\b", re.I)
# where a line's segments part: a comma or semicolon before a word, a bar, a tab before a word
SPLIT = re.compile(r"[,;][ \t]+(?=[A-Za-z(~≈+-]|\d)|[ \t]+\|[ \t]+|\t+(?=[A-Za-z])")


class ScriptOutputReader:
    """Reads labelled results of program output lines, with the table reader's header reading."""

    contract = StageContract("program_output", "creates one claim per labelled result a program printed",
                             assigns=CREATED, creates=True)

    def __init__(self, tables: "TableReader", blocks: OutputBlocks):
        self.tables = tables
        self.blocks = blocks

    def segments(self, d: Document, line: OutputLine) -> list[tuple[str, int, int, bool]]:
        """(label, value start, value end, bare) of each result segment of a line; a bare value takes the
        label of the segment before it. A percentile line ("99% in 0.15 secs") is one segment labelled with
        its percentile ("p99")."""
        text = d.text
        out: list[tuple[str, int, int, bool]] = []
        label = ""
        if (p := PERCENTILE.fullmatch(text, line.start, line.end)) is not None:
            value = p.group("value").rstrip(". \t")
            return [(f"p{p.group('pct')}", p.start("value"), p.start("value") + len(value), False)]
        if (f := FIGURES_LINE.fullmatch(text, line.start, line.end)) is not None:
            # figures alone: unlabelled, each read as an unnamed result (a claim unless a set-aside rule applies)
            return [("", f.start(g), f.end(g), False) for g in ("value", "second") if f.group(g) is not None]
        cuts = [m for m in SPLIT.finditer(text, line.start, line.end)]
        for lo, hi in zip([line.start] + [m.end() for m in cuts], [m.start() for m in cuts] + [line.end]):
            piece = text[lo:hi]
            m = SEGMENT.match(piece)
            if m:
                label = " ".join(m.group("label").split())
                if m.group("key"):
                    label += " " + m.group("key").replace("_", " ")
            elif label and (m := BARE.match(piece)) is None:
                continue
            if m is None or not label:
                continue
            value = m.group("value").rstrip(". \t")
            out.append((label, lo + m.start("value"), lo + m.start("value") + len(value), m.re is BARE))
        return out

    def sentences(self, d: Document) -> list[Passage]:
        """The short output lines written as a sentence around one figure, with no labelled result ("[INFO]
        First token after 0.11s (TTFT)", "Total time taken is 2.40s"): read by the sentence reader, as prose is.
        A line of several numbers ("latency 32805 usec (std 43 usec)", "40 GB = cache(26) + rss(14)") or a long
        one (a model's generated text) is left to the structured reading."""
        out = []
        for line in self.blocks.lines(d):
            text = d.text[line.start:line.end]
            if line.error or len(text) > PROSE_LINE_MAX or len(_NUMBER.findall(text)) != 1 \
                    or not _PROSE_LINE.match(text) or self.segments(d, line):
                continue
            out.append(Passage(line.start, line.end, "code", line.block, d.blocks[line.block].section))
        return out

    def claims(self, d: Document, seen: "ProseFigures",
               residual: list[tuple[Claim, Passage]] | None = None) -> list[tuple[Claim, Passage]]:
        """One claim per labelled result of the program output lines; `seen` gains the quantities of the
        output segments read. `residual` gains the printed figures whose label names no metric ("pre_process:
        25.70%"), each as a claim of its unit's metric: a claim unless a set-aside rule applies."""
        out: list[tuple[Claim, Passage]] = []
        x = self.tables.x
        found = [(line, seg) for line in self.blocks.lines(d) if not line.error for seg in self.segments(d, line)]
        found = [(line, seg) for line, seg in found if not self.blocks.is_setting(seg[0])]
        if not found:
            return out
        analysed = x.analyse([d.text[s:e] for _, (_, s, e, _) in found], [s for _, (_, s, _, _) in found],
                             seen=seen)
        groups = self.groups(d)
        per_line: dict[int, int] = {}
        for (line, (label, start, _, bare)), (qs, cues) in zip(found, analysed):
            place = per_line[line.start] = per_line.get(line.start, -1) + 1
            header = self.tables.header(label)
            q = next((q for q in qs if q.span[0] == start or q.span[0] == start + 1), None)
            if q is None or header.counts:
                continue
            cls, unit = unit_class(q.unit), q.unit
            own_unit = cls is not None        # the figure carries its unit (not only its label)
            named = any(c.label.startswith("metric:") for c in header.cues)
            stat = None if named else self.blocks.statistic(label)
            if stat is None and not named and cls == "time" and line.start in groups:
                # "Details (average, fastest, slowest):" over "queue: 0.041 secs, 0.009 secs, 6.20 secs"
                stat = self._group_statistic(groups[line.start], place, sum(1 for ln, _ in found if ln is line))
            if stat is not None and cls == "time":
                # "Average: 0.036 secs", "99% in 0.15 secs": a latency, named by its statistic alone
                claim = self._statistic_claim(d, line, label, q, stat)
                out.append((claim, Passage(line.start, line.end, "code", line.block, d.blocks[line.block].section)))
                continue
            if cls is None:
                if bare:
                    continue      # a bare number after a labelled one ("Latency: 12, 13"): no result of its own
                if not header.cls or header.cls == "score":
                    continue
                cls, unit = header.cls, header.unit
                q = q.model_copy(update={"unit": unit})
            metric = x.builder.metric_for(q, cls, list(cues), q.span[0], q.span[1], header.cues) \
                if header.cues else None   # "Elapsed: 3 s" with no metric word: not shown as a result
            block = d.blocks[line.block]
            context = ClaimContext(section=d.section_path(block.section), block="code", row_header=header.text)
            if metric is None:
                if residual is not None and own_unit and cls in RESIDUAL_METRICS \
                        and q.value >= 0 and not self.tables.names_setting([header], list(cues)):
                    claim = x.builder.claim(q, RESIDUAL_METRICS[cls], cls, list(cues), d.text, 0, 0, context,
                                            header.cues, unit, written=d.text)
                    residual.append((claim, Passage(line.start, line.end, "code", line.block, block.section)))
                continue
            claim = x.builder.claim(q, metric, cls, list(cues), d.text, 0, 0, context, header.cues, unit,
                                    written=d.text)
            out.append((claim, Passage(line.start, line.end, "code", line.block, block.section)))
        return out

    def groups(self, d: Document) -> dict[int, str]:
        """The group line over each output line, by the line's start: the last line before it in its block
        that ends with a colon and holds no digit ("Latency distribution:", "Details (average, fastest,
        slowest):"); lines under no such line are left out."""
        out: dict[int, str] = {}
        block, group = -1, None
        for line in self.blocks.lines(d):
            if line.block != block:
                block, group = line.block, None
            text = d.text[line.start:line.end].strip()
            if text.endswith(":") and not any(ch.isdigit() for ch in text):
                group = text
            elif group is not None:
                out[line.start] = group
        return out

    def _group_statistic(self, group: str, place: int, count: int) -> str | None:
        """The statistic a group line gives the value at `place` of a line of `count` values: the statistics
        it lists in parentheses, in order ("(average, fastest, slowest)"), when they are as many as the
        values; else the one statistic or latency word it names ("Latency distribution:": no statistic
        stated, "" for a latency without one). None when the group line names neither."""
        listed = _PARENS.search(group)
        if listed is not None:
            stats = [self.blocks.statistic(w) for w in listed.group(1).split(",")]
            if len(stats) == count and all(stats):
                return stats[place]
        return "" if _LATENCY_GROUP.search(group) else None

    def _statistic_claim(self, d: Document, line: OutputLine, label: str, q, stat: str) -> Claim:
        """The latency a statistic label names; a percentile line's quote starts at its percentile."""
        x = self.tables.x
        if label.startswith("p") and (p := PERCENTILE.fullmatch(d.text, line.start, line.end)) is not None:
            q = q.model_copy(update={"span": (p.start("pct"), q.span[1]),
                                     "quote": d.text[p.start("pct"):q.span[1]]})
        context = ClaimContext(section=d.section_path(d.blocks[line.block].section), block="code", row_header=label)
        claim = x.builder.claim(q, "latency", "time", [], d.text, 0, 0, context, [], q.unit, written=d.text)
        return claim.model_copy(update={"statistic": stat or None})
