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


@pytest.mark.parametrize("text,org,category", [
    ("# Faster decode\n\nWe, as the Nebius Inference Team, benchmarked the new release on our fleet.\n",
     "Nebius Inference Team", "cloud-provider"),
    ("# Faster decode\n\nWe at the AMD Performance Team tuned the kernels for this release.\n",
     "AMD Performance Team", "hardware-vendor"),
])
def test_self_identification_names_the_author(text, org, category):
    rec = CaveatReader.from_rules().read(ingest(text, "a.md", "markdown"), [])
    assert rec.authorship == category
    assert any(f"authored by {org}" in n.message and "self-identification" in n.message for n in rec.provenance)


@pytest.mark.parametrize("text", [
    # "we at first": no team named after "we at"
    "# Faster decode\n\nWe at first thought the Nebius Team results were wrong, so we measured again.\n",
    # "we, as a group": no capitalised team name
    "# Faster decode\n\nWe, as a small group of hobbyists, compared two engines at home.\n",
])
def test_we_as_without_a_named_team_is_no_self_identification(text):
    rec = CaveatReader.from_rules().read(ingest(text, "a.md", "markdown"), [])
    assert not any("self-identification" in n.message for n in rec.provenance)
