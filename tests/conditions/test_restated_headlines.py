"""A headline figure stated in the summary, in the introduction and again in the body: both headlines take the
body's conditions (restatements.py `fill_from_restatements`); a headline filled from the body is a copy of it,
not a second restatement that ties with it. Sentences written for this test."""
from __future__ import annotations

from extractor.api import extract_text

# (the three mentions name the baseline three ways, as writers do: three claims, not one)
_POST = ("---\ntitle: Fast serving\nsummary: \"Our engine gives up to 12x throughput over Old Server.\"\n---\n\n"
         "Serving is hard. Our engine gives up to 12x higher throughput than OldServer, with no model changes.\n\n"
         "## Results\n\nWe evaluate Mistral-7B on one NVIDIA L4 GPU with prompts from the ShareGPT dataset. "
         "The engine reaches up to 12x higher throughput compared to OS.\n")


def test_summary_and_introduction_both_take_the_body_restatement() -> None:
    rec = extract_text(_POST, "t.md")
    heads = [c for c in rec.claims if c.headline and c.value == 12]
    assert len(heads) == 2
    for c in heads:
        assert c.conditions["model"].value == "Mistral-7B", c.quote
        assert c.conditions["model"].scope == "restatement"
        assert c.conditions["hardware"].value == "1x NVIDIA L4"


def test_a_figure_the_body_never_restates_is_filled_from_no_restatement() -> None:
    text = _POST.replace("reaches up to 12x higher", "reaches up to 9x higher")
    for c in extract_text(text, "t.md").claims:
        if c.headline:
            assert all(v.scope != "restatement" for v in c.conditions.values()), c.quote
