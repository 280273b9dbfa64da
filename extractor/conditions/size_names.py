"""A model named by its size alone ("our 70B variant", "Scores of the 8B model") in a post
that names one model of that size in full: that model (rules/scopes.yaml `size_reference`). Two models of that size
named in the post ("Llama-3.1-8B", "Qwen3-8B"), or none, leave the size unread."""
from __future__ import annotations

import re

from extractor.conditions.decisions import norm
from extractor.conditions.mentions import Mention

_SIZE = re.compile(r"^\d+(?:\.\d+)?[bm]$")


def size_references(view: str, found: list[Mention], reference: re.Pattern[str]) -> list[Mention]:
    """Model mentions for the sizes `reference` finds in `view` (group `size`) that name one model of `found`,
    each spanning from its size to the end of the match ("8B model" of "the 8B model")."""
    fullest: dict[str, dict[str, Mention]] = {}   # size -> canonical name -> its longest mention
    for m in found:
        if m.kind != "model" or not m.canonical:
            continue
        for word in norm(m.canonical).split()[1:]:
            if _SIZE.match(word):
                names = fullest.setdefault(word, {})
                if m.canonical not in names or len(m.quote) > len(names[m.canonical].quote):
                    names[m.canonical] = m
    if not fullest:
        return []
    out = []
    for hit in reference.finditer(view):
        names = fullest.get(hit["size"].lower(), {})
        if len(names) != 1:
            continue
        (canonical, model), = names.items()
        start = hit.start("size")
        out.append(Mention(kind="model", value=model.value, canonical=canonical, quote=view[start:hit.end()],
                           span=(start, hit.end()), rule="scopes.yaml:size_reference"))
    return out
