"""The per-document short cuts of condition resolution give what the plain computations give.

Section look-up by bisection, the count of set-up label lines tried only where the pattern can match,
and the flattened prose view, on the corpus posts and on small texts written for their edge cases.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from extractor.api import detect_format, get_extractor, read_document
from extractor.conditions._internals.lookups import SectionLookup
from extractor.conditions.context import flat_prose
from extractor.ingest import Document, ingest

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
EDGE_CASES = {
    "blank-runs.md": "# Setup\n\n\n\n   \n\nHardware: 8x H100\n\n\n  \n\nSoftware:\n\n## Results\n\n- - -\n\nModel:  x\n",
    "colon-later.md": "# A\n\nHardware\n\n: H100 and then\nsome text: with colons\n\nGPU ::: four\n",
    "code-and-lists.md": ("# Bench\n\nIntro line one\nline two\n\n```\nsetup: a\nconfig: b\n```\n\n"
                          "- Model: Llama\n  wrapped item\n- Engine: vLLM\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"),
}


def _documents() -> list[tuple[str, Document]]:
    docs = []
    for p in sorted(CORPUS.iterdir()):
        if p.suffix in (".md", ".html", ".txt"):
            text, _ = read_document(p)
            docs.append((p.name, ingest(text, p.name, detect_format(p.name, text))))
    docs += [(name, ingest(text, name, "markdown")) for name, text in EDGE_CASES.items()]
    return docs


DOCS = _documents()


@pytest.mark.parametrize("name,d", DOCS, ids=[n for n, _ in DOCS])
def test_conditions_lookups_section_by_bisection_is_section_at(name, d):
    lookup = SectionLookup(d)
    assert [lookup(i) for i in range(len(d.text) + 2)] == [d.section_at(i) for i in range(len(d.text) + 2)]


@pytest.mark.parametrize("name,d", DOCS, ids=[n for n, _ in DOCS])
def test_conditions_lookups_label_lines_count_what_findall_finds(name, d):
    reader = get_extractor(None).conditions.reader
    line_starts = [0] + [i + 1 for i, ch in enumerate(d.view) if ch == "\n"]
    bounds = [(s.end, s.body_end) for s in d.sections] + [(0, len(d.view)), (1, len(d.view) // 2)]
    for lo, hi in bounds:
        assert reader._label_lines(d.view, line_starts, lo, hi) == len(reader.setup_label.findall(d.view, lo, hi))


@pytest.mark.parametrize("name,d", DOCS, ids=[n for n, _ in DOCS])
def test_conditions_lookups_flat_prose_joins_prose_lines_only(name, d):
    flat = flat_prose(d)
    prose = [(b.start, b.end) for b in d.blocks if b.kind not in ("code", "table")]
    assert len(flat) == len(d.view)
    for i, (a, b) in enumerate(zip(d.view, flat)):
        in_prose = any(s <= i < e for s, e in prose)
        assert b == (" " if a == "\n" and in_prose else a), (i, a, b)
