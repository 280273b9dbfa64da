"""A prompt the post quotes on its own after a lead-in ("The input prompt is:", then the quoted prompt in a block of
its own, then "which consists of 7 tokens ..."): the single prompt the runs send and, when the paragraph right after
the quote gives it, its length in tokens. The sentence runs across three blocks, which the condition patterns (read
within a block) do not see; the lead-in and the length are `prompt_lead_in` and `prompt_length_tail` in
rules/scopes.yaml."""
from __future__ import annotations

import re

from extractor.conditions.code.python import prompt_value
from extractor.conditions.readings import Mention
from extractor.conditions.rules import ScopeRules
from extractor.ingest import Document

RULE = "scopes.yaml:prompt_lead_in"
_QUOTES = "\"'“”‘’`"
_MAX_PROMPT = 160   # a longer text is no short fixed prompt (a document, an example answer)


class PromptQuotes:
    """Finds the prompts a post quotes after a lead-in, and their stated length."""

    def __init__(self, scopes: ScopeRules):
        self.lead = re.compile(scopes.prompt_lead_in, re.I)
        self.tail = re.compile(scopes.prompt_length_tail, re.I)

    def mentions(self, d: Document) -> list[Mention]:
        """The dataset ('single prompt "..."') and input-length mentions of the quoted prompts of `d`."""
        out: list[Mention] = []
        blocks, view = d.blocks, d.view
        for i in range(len(blocks) - 1):
            lead, quoted = blocks[i], blocks[i + 1]
            if lead.kind != "paragraph" or quoted.kind not in ("quote", "paragraph") \
                    or not self.lead.search(view, lead.start, lead.end):
                continue
            raw = view[quoted.start:quoted.end].strip()
            if quoted.kind == "paragraph" and not (raw[:1] in _QUOTES and raw[-1:] in _QUOTES):
                continue   # a paragraph after the lead-in is the prompt only when it is a quotation
            prompt = raw.strip(_QUOTES + " ")
            if not prompt or "\n" in prompt or len(prompt) > _MAX_PROMPT:
                continue
            start = view.find(raw, quoted.start)
            out.append(Mention(kind="dataset", value=prompt_value(prompt), quote=d.text[start:start + len(raw)],
                               span=(start, start + len(raw)), rule=RULE))
            if i + 2 < len(blocks) and blocks[i + 2].kind == "paragraph":
                m = self.tail.match(view, blocks[i + 2].start, blocks[i + 2].end)
                if m is not None:
                    out.append(Mention(kind="input_length", value=int(m["n"]), quote=d.text[m.start():m.end()],
                                       span=m.span(), rule="scopes.yaml:prompt_length_tail"))
        return out
