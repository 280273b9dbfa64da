"""Reading one rule match into condition mentions: what a gazetteer or pattern match states.

`MentionFinder` (mentions.py) finds the matches; `MatchReader` turns each into `Mention`s with exact
spans: the value, its canonical name, a device count, an engine version, a sweep.
"""
from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from extractor.conditions.canonical import LABELLED_FUZZ_THRESHOLD, Canonicalizer, CompiledEntry, render_id
from extractor.conditions.patterns import CompiledPattern, Kind, Rules
from extractor.conditions.scan import BLANKS, LIST_NUM_RE, covering, lengths

_VALUE_GROUPS = frozenset({"n", "list", "min", "max", "isl", "osl", "rate", "nodes", "per"})


_TRAILING_VERSION = re.compile(r"(?P<letter>[A-Za-z]?)\d+(?:\.\d+)*$")   # "V3" of "DeepSeek-V3", "3" of "Llama 3"

class Mention(BaseModel):
    """One condition mention: `text[span[0]:span[1]] == quote` (span includes the offset)."""

    model_config = ConfigDict(extra="forbid")

    kind: Kind
    value: str | int | float | dict[str, Any]
    canonical: str | None = None
    sweep: bool = False
    count: int | None = None
    nodes: int | None = Field(None, description="hardware: machines the count is spread over (2 nodes x 8 GPUs)")
    version: str | None = None
    quote: str
    span: tuple[int, int]
    rule: str = Field("", description="the rule entry that produced it (file:line or pattern name)")
    fallback: bool = Field(False, description="from a generic gazetteer form: yields to any other mention")


class MatchReader:
    """Turns gazetteer and pattern matches into mentions, under one set of rules."""

    def __init__(self, rules: Rules, canonicalizer: Canonicalizer):
        self.rules = rules
        self.canonicalizer = canonicalizer
        self._accelerators: list[CompiledEntry] | None = None   # the hardware entries that are no host

    def gazetteer(self, text: str, ce: CompiledEntry, m: re.Match[str]) -> list[Mention]:
        """The mentions a gazetteer match states (a device count and its single-device parallelism, an
        engine's version, a model's quantisation suffix)."""
        start, end = m.span()
        groups = m.groupdict()
        kind = ce.kind
        canon = ce.render(m)
        count = version = nodes = None
        where = ce.where
        extra: list[Mention] = []
        if kind == "hardware":
            start, end, count, nodes = self._hardware_count(text, start, end, ce)
            if ce.entry.host and self._names_a_host(text, start, end):
                return []
            single = self.rules.conditions.hardware_count.single_device
            if count == 1 and single and not self.rules.hw_not_single.match(text, end, end + 48):
                extra.append(Mention(kind="parallelism", value=single, canonical=single, quote=text[start:end],
                                     span=(start, end), rule=where))
        elif kind == "engine":
            version = groups.get("version")
            if groups.get("digest"):
                version = f"{version}@{groups['digest']}" if version else groups["digest"]
            if version is None:
                end, version = self._engine_version(text, end)
        elif kind == "model":
            if groups.get("quant"):
                qs, qe = m.span("quant")
                extra.append(Mention(kind="precision", value=groups["quant"], canonical=groups["quant"].upper(),
                                     quote=text[qs:qe], span=(qs, qe), rule=where))
            end, canon = self._whole_name(text, end, canon)
            if not groups.get("quant"):
                extra.extend(self._listed_sizes(text, start, end, canon, where))
                extra.extend(self._listed_version(text, start, end, canon, where))
        quote = text[start:end]
        value: str | int | float | dict[str, Any] = BLANKS.sub(" ", quote.strip())
        if kind == "dataset" and groups.get("r"):
            value = {"name": ce.entry.id, "random_range_ratio": float(groups["r"])}
        elif kind == "dataset" and groups.get("name"):
            value = groups["name"]   # an option's value names the dataset: "--dataset-name random" is "random"
        return [Mention(kind=kind, value=value, canonical=canon, count=count, nodes=nodes, version=version,
                        quote=quote, span=(start, end), rule=where, fallback=ce.entry.fallback)] + extra

    def _whole_name(self, text: str, end: int, canon: str | None) -> tuple[int, str | None]:
        """(end, canonical) of a model's name read to its end as written: the words a family's pattern left
        off ("Qwen3-Coder" of "Qwen3-Coder-Next", "Qwen-1" of "Qwen-1.8B", a tag ":7b") and a second name after
        a slash ("DeepSeek-V3/R1"); a name cut short would be another model's (conditions.yaml `model_name`)."""
        rules = self.rules
        tail = text[end:end + 64]
        cm = rules.model_continuation.match(tail)
        grown = cm.end() if cm else 0
        am = rules.model_alternative.match(tail, grown)
        grown = am.end() if am else grown
        if not grown:
            return end, canon
        more = BLANKS.sub(" ", re.sub(r"[-_:/]", " ", tail[:grown]))
        return end + grown, (canon + (more if more.startswith(".") else " " + more.strip())) if canon else canon

    def _listed_version(self, text: str, start: int, end: int, canon: str | None, where: str) -> list[Mention]:
        """The model a second version listed after a name ending in a version names ("DeepSeek-V3 & 3.1":
        DeepSeek-V3.1; "Model-R1 and V3": Model-V3), the family written before the first version with the listed
        one; the quote is the listed version as written."""
        m = self.rules.model_listed_version.match(text, end)
        own = _TRAILING_VERSION.search(text, start, end)
        if m is None or own is None:
            return []
        letter = m["letter"] or own["letter"] or ""
        name = text[start:own.start()] + letter + m["version"]
        other_canon = canon[:len(canon) - len(own[0])] + letter + m["version"] \
            if canon and canon.endswith(own[0]) else None
        return [Mention(kind="model", value=BLANKS.sub(" ", name), canonical=other_canon, quote=m["listed"],
                        span=m.span("listed"), rule=where)]

    def _listed_sizes(self, text: str, start: int, end: int, canon: str | None, where: str) -> list[Mention]:
        """The models a list of sizes after a model's name names ("OPT-1.3B, 2.7B and 13B": OPT-2.7B, OPT-13B),
        each the family written before the first size with its own size; the quote is the size as written."""
        own = self.rules.model_size.search(text, start, end)
        if own is None:
            return []
        family, size = text[start:own.start("size")], own["size"]
        out: list[Mention] = []
        pos = end
        while (m := self.rules.model_size_list.match(text, pos)) is not None:
            other = m["size"]
            if other[-1].upper() != size[-1].upper():
                return []   # "Llama-3-8B, 1M ...": a count in millions, not a model of the family
            name = BLANKS.sub(" ", family + other)
            other_canon = canon.replace(size, other) if canon and size in canon else None
            out.append(Mention(kind="model", value=name, canonical=other_canon, quote=other, span=m.span("size"),
                               rule=where))
            pos = m.end()
        if out and not self.rules.model_size_end.match(text, pos):
            return []   # the last size goes on as something else ("3B quantized draft heads"): no list of models
        return out

    def _hardware_count(self, text: str, start: int, end: int, ce: CompiledEntry
                        ) -> tuple[int, int, int | None, int | None]:
        """(start, end, count, nodes) of a hardware name: the devices written before it ("8x", "eight", "2 nodes,
        each with 8", "a 4-GPU"), after it ("x 8"), or none. A count that is no measured system's is not
        read: a multiplier ("2.5x H100", "delivers 3x H100 ..."), a capacity ("up to 72 ... GPUs", "... per
        rack")."""
        rules = self.rules
        left = text[max(0, start - 40):start]
        right = text[end:end + 48]
        per_unit = ce.entry.gpus_per_unit or 1
        if rules.hw_not_after.match(right) or ce.entry.machine and not ce.entry.gpus_per_unit:
            return start, end, None, None   # (a number before a machine of unstated size counts machines)
        for rx in rules.hw_machines:
            lm = rx.search(left)
            if lm and not rules.hw_not_before.search(left, 0, lm.start()):
                nodes, per = int(lm.group("nodes")), int(lm.group("count")) * per_unit
                return start - (len(left) - lm.start()), end, nodes * per, nodes
        for i, rx in enumerate(rules.hw_left):
            lm = rx.search(left)
            if not lm or rules.hw_not_before.search(left, 0, lm.start()):
                continue
            if lm.groupdict().get("count") and _ends_a_name(ce, text, start - len(left) + lm.end("count")):
                continue   # "... on Gaudi 3 | Intel Gaudi 3": the number is the name's before, not a count
            g = lm.groupdict()
            bare = i > 0
            # a bare number needs a device word after the name ("16 GB200 GPUs"; "two H100 nodes" counts
            # machines); a count word ("a single H100", "one MI300X", "on an RTX 4090") only needs no machine noun
            worded = bool(g.get("word")) and not ce.entry.machine and not rules.hw_not_single.match(right)
            # ... and so does a device written with its memory ("4 A100x80GB", "8 H100 80GB"), unless a machine
            # noun follows ("2 H100 80GB nodes")
            sized = bool(rules.hw_memory.search(text, start, end)) and not rules.hw_not_single.match(right)
            if bare and not (ce.entry.gpus_per_unit or worded or sized or rules.hw_bare_right.match(right)):
                continue
            if g.get("count"):
                n = int(g["count"])
            else:
                n = rules.hw_words.get(BLANKS.sub(" ", (g.get("word") or "").lower()))
                if n is None:
                    continue
            return start - (len(left) - lm.start()), end, n * per_unit, None
        for rx in rules.hw_right:
            if rm := rx.match(right):
                return start, end + rm.end(), int(rm.group("count")) * per_unit, None
        return start, end, None, None

    def _names_a_host(self, text: str, start: int, end: int) -> bool:
        """Whether the processor at [start, end) is named as the host of accelerators (`host_processor`)."""
        rules = self.rules
        # a label match opens at the line's start: its newline (the last before the name), or the text's start
        # (a line without one in the 200 characters before used to be searched from the start of the text:
        # the whole text before it, for each such name)
        line_start = text.rfind("\n", 0, start) + 1
        if rules.host_label.search(text, line_start - 1 if line_start else 0, start):
            return True
        a, b = covering(text, start, end, "sentence")
        if rules.host_words.search(text, a, start):
            return True
        if rules.host_comparison.search(text, a, b):
            return False
        if self._accelerators is None:
            self._accelerators = [e for e in rules.gazetteer if e.kind == "hardware" and not e.entry.host]
        sentence = text[a:b]
        return any(e.rx.search(sentence) for e in self._accelerators)

    def _engine_version(self, text: str, end: int) -> tuple[int, str | None]:
        right = text[end:end + 96]
        for rx in self.rules.eng_right:
            vm = rx.match(right)
            if vm:
                return end + vm.end(), vm.group("version")
        return end, None

    def pattern(self, cp: CompiledPattern, m: re.Match[str], k_base: int | None) -> list[Mention]:
        """The mentions a condition pattern's match states (a value, a range or list as a sweep, lengths)."""
        e = cp.entry
        g = {k: v for k, v in m.groupdict().items() if v is not None}
        # alternatives of one pattern name their groups n, n2, n3... (a name cannot repeat in a regex)
        for k in [k for k in g if k[-1].isdigit()]:
            base = k.rstrip("0123456789")
            if base in _VALUE_GROUPS:
                g.setdefault(base, g[k])
        # alternatives of one pattern name their text group text, text2, text3...
        tname = next((k for k in sorted(g) if k.startswith("text") and k[4:].isdigit() or k == "text"), None)
        if tname:
            g["text"] = g[tname]
        span = m.span()
        quote = m.group(0)
        name = e.name
        sweep = e.sweep
        try:
            if e.kind == "io_length":
                isl, osl = lengths([g["isl"], g["osl"]], k_base)
                return [Mention(kind="input_length", value=isl, quote=quote, span=span, rule=name),
                        Mention(kind="output_length", value=osl, quote=quote, span=span, rule=name)]
            value: Any
            if e.value is not None:
                value = e.value
                if isinstance(value, str) and "{n}" in value and g.get("n", "").lower() in self.rules.hw_words:
                    value = value.replace("{n}", str(self.rules.hw_words[g["n"].lower()]))   # "two-way" -> 2
                if isinstance(value, str) and "{" in value:
                    value = render_id(value, m, self.rules.family_cut) or quote
                if "text" in g:
                    span, quote = m.span(tname), g["text"]
            elif "min" in g and "max" in g:
                lo, hi = (int(x) if float(x).is_integer() else x for x in lengths([g["min"], g["max"]], k_base))
                if hi <= lo:
                    return []
                value, sweep = {"min": lo, "max": hi}, True
            elif "list" in g:
                vals = [int(v) for v in lengths(LIST_NUM_RE.findall(g["list"]), k_base)]
                if len(vals) == 1:
                    value = vals[0]
                else:
                    value, sweep = {"min": min(vals), "max": max(vals), "values": vals}, True
            elif "rate" in g:
                r = float(g["rate"].replace(",", ""))
                value = {"rate": int(r) if r.is_integer() else r}
            elif "nodes" in g or "per" in g:
                value = {}
                if "nodes" in g:
                    nodes = g["nodes"]   # a count written as a word ("two nodes") as rules/numbers.yaml spells it
                    value["nodes"] = int(self.rules.spelled(nodes)) if nodes[:1].isalpha() else int(nodes.replace(",", ""))
                if "per" in g:
                    value["gpus_per_node"] = int(g["per"])
                if "nodes" in value and "gpus_per_node" in value:
                    value["total"] = value["nodes"] * value["gpus_per_node"]
            elif "n" in g:
                # a count written as a word ("twenty concurrent requests") is read as rules/numbers.yaml spells it
                value = self.rules.spelled(g["n"]) if g["n"][:1].isalpha() else lengths([g["n"]], k_base)[0]
                if e.kind in ("input_length", "output_length", "gpu_count", "batch_or_concurrency"):
                    if not float(value).is_integer() or value <= 0:
                        return []
                    value = int(value)
            elif "text" in g:
                value = BLANKS.sub(" ", g["text"].strip())
                span = m.span(tname)
                quote = g["text"]
            else:
                value = BLANKS.sub(" ", quote.strip())
        except (ValueError, KeyError):
            return []
        canon = self._canonical_word(e.kind, quote)
        if canon is None and e.kind == "parallelism":
            canon = self.rules.layout(value if isinstance(value, str) else quote)
            if canon is not None and _ZERO_DEGREE.search(canon):
                return []   # "TP=0" numbers a rank ("rank 0 of each group (TP=0)"), not a layout's degree
        if canon is None and e.kind == "dataset" and isinstance(value, str):
            canon = self.canonicalizer.canonical(e.kind, value, LABELLED_FUZZ_THRESHOLD)
        return [Mention(kind=e.kind, value=value, canonical=canon, sweep=sweep, quote=quote, span=span, rule=name)]

    def _canonical_word(self, kind: str, quote: str) -> str | None:
        for rx, canon in self.rules.canon_words.get(kind, ()):
            if rx.search(quote):
                return canon
        return None


_ZERO_DEGREE = re.compile(r"[A-Z]0\b")   # a scheme of degree 0 in a canonical layout ("TP0", "TP8 PP0")


def _ends_a_name(ce: CompiledEntry, text: str, end: int) -> bool:
    """Whether a name of `ce`'s kind ends at `end` ("Gaudi 3" before "Intel Gaudi 3 accelerators")."""
    window = text[max(0, end - 40):end]
    return any(m.end() == len(window) for m in ce.rx.finditer(window))

