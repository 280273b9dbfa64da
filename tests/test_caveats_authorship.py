"""Authorship from front matter, byline, acknowledgements and, failing those, the post's subject."""
from __future__ import annotations

import pytest

from extractor.notes.caveats import CaveatReader
from extractor.ingest import ingest

CASES = [
    ("---\ntitle: Faster decode\nauthor: \"The SGLang Team\"\n---\n\nWe made decode faster.\n", "engine-project"),
    ("---\ntitle: Faster decode\nauthor: \"AMD ROCm Performance Team\"\n---\n\nWe made decode faster.\n", "hardware-vendor"),
    ("# Serving on our cloud\n\nBy the CoreWeave inference group\n\nWe measured serving costs.\n", "cloud-provider"),
    ("---\ntitle: Notes\nauthor: \"Kim Park (Acme Robotics)\"\n---\n\nWe benchmarked two engines.\n", "independent"),
    # independent author + an engine team credited as contributors -> mixed
    ("---\ntitle: Notes\nauthor: \"Acme Research Team\"\n---\n\nText.\n\n## Acknowledgments\n\n"
     "Thanks to the vLLM community for reviews.\n", "mixed"),
    # engine-project author + many vendor-affiliated contributors -> mixed
    ("---\ntitle: Notes\nauthor: \"vLLM Team\"\n---\n\nText.\n\n## Acknowledgements\n\n"
     "Ana Silva (AMD), Bo Chen (AMD), Cy Diaz (Inferact)\n", "mixed"),
    # one vendor contributor among engine people stays engine-project
    ("---\ntitle: Notes\nauthor: \"vLLM Team\"\n---\n\nText.\n\n## Acknowledgements\n\n"
     "Ana Silva (AMD), Bo Chen (Inferact), Cy Diaz (Inferact), Di Wu (Inferact)\n", "engine-project"),
    # teams credited ("Hardware (names)") are not affiliations
    ("---\ntitle: Notes\nauthor: \"The SGLang Team\"\n---\n\nText.\n\n## Acknowledgement\n\n"
     "Platform (Ann Lee, Bo Chen), Networking (Cy Diaz, Di Wu)\n", "engine-project"),
    # no byline organisation: the product the post presents
    ("# Llama on Gaudi with TGI\n\nIntel Gaudi accelerators run this model well.\n", "hardware-vendor"),
    ("---\ntitle: Notes\nauthor: \"Ann Lee, Bo Chen\"\n---\n\nSGLang now supports a new kernel.\n", "engine-project"),
]


@pytest.mark.parametrize("text,expected", CASES)
def test_authorship(text, expected):
    d = ingest(text, "a.md", "markdown")
    rec = CaveatReader.from_rules().read(d, [])
    assert rec.authorship == expected
    evidence = [n for n in rec.provenance if n.kind == "authorship" and n.span]
    assert evidence, "authorship evidence must carry a span"
    for n in evidence:
        assert text[n.span[0]:n.span[1]] == n.quote


def test_authorship_unknown_without_any_evidence():
    d = ingest("Plain notes about serving.\n", "a.md", "markdown")
    rec = CaveatReader.from_rules().read(d, [])
    assert rec.authorship is None and not [n for n in rec.provenance if n.kind == "authorship"]
