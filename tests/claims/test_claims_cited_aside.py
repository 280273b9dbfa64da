"""A figure the text credits to another party is that party's claim, not the post's: it leaves `claims` and is set
aside as `cited`, with the citation rule that credits it. A credit that is a link alone, or the post's own PR, issue
or earlier post (which may be the writer's own earlier work), keeps the claim with `cited_from`. Sentences and tables
written for these tests."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def _split(text: str) -> tuple[dict[str, str | None], dict[str, tuple[str, str]]]:
    """({claim quote: cited_from}, {set-aside quote: (reason, rule)}) of `text`."""
    rec = extract_text(text, "t.md")
    return ({c.quote: c.cited_from for c in rec.claims},
            {a.quote: (a.reason, a.rule) for a in rec.set_aside})


@pytest.mark.parametrize("sentence,rule", [
    ("According to the Wrenfield paper, its scheduler decodes 1,730 tokens/s on one L40S.", "scopes.citation_cue"),
    ("One study of paged caches found that 1,730 tokens/s is reachable on one L40S.", "scopes.citation_cue"),
    ("Research shows that a tuned loader sustains 1,730 tokens/s on one L40S.", "scopes.citation_cue"),
    ("The authors of Wrenfield report that their kernel holds 1,730 tokens/s on one L40S.", "scopes.citation_cue"),
    ("A fused sampler holds 1,730 tokens/s on one L40S (Varga et al., 2025).", "scopes.reference_marker"),
    ("A fused sampler holds 1,730 tokens/s on one L40S [7].", "scopes.reference_marker"),
    # a work named with a link to its paper: the sentence gives that work's published figure
    ("A paged scheduler, Wrenfield ([paper](https://arxiv.org/abs/2501.01234)), decodes 1,730 tokens/s on one "
     "L40S.", "scopes.citation_cue"),
    ("On one L40S, the decoder of Wrenfield ([arXiv](https://arxiv.org/abs/2501.01234), [code](https://github.com/"
     "acme/wrenfield)) holds 1,730 tokens/s.", "scopes.citation_cue"),
])
def test_a_figure_credited_to_another_party_by_text_is_set_aside_as_cited(sentence: str, rule: str) -> None:
    claims, aside = _split(f"# Background\n\n{sentence}\n\nOur server reaches 2,480 tokens/s on one L40S.\n")
    assert "1,730 tokens/s" not in claims
    assert aside["1,730 tokens/s"] == ("cited", rule)
    assert claims["2,480 tokens/s"] is None   # the post's own figure stays its claim


def test_a_figure_in_a_section_reviewing_other_work_is_set_aside() -> None:
    claims, aside = _split("## Related work\n\nA prefix-aware router cut TTFT by 37% on a chat trace.\n\n"
                           "## Results\n\nOur router cut TTFT by 22% on the same trace.\n")
    assert aside["37%"] == ("cited", "scopes.cited_sections")
    assert "22%" in claims and "37%" not in claims


TABLE = ("# Scores\n\n| Model | Quiz-A | Quiz-B |\n|---|---|---|\n| **Kestrel-8B (ours)** | 64.2 | 71.5 |\n"
         "| Plover-7B | 58.1 | 66.3 |\n| Tern-9B | 60.7 | 69.9 |\n\n"
         "\\* Scores of the other models are taken from their official reported results.\n")


def test_the_compared_rows_a_table_note_credits_are_set_aside_and_our_row_stays() -> None:
    claims, aside = _split(TABLE)
    assert {q: claims[q] for q in ("64.2", "71.5")} == {"64.2": None, "71.5": None}
    for quote in ("58.1", "66.3", "60.7", "69.9"):
        assert quote not in claims and aside[quote] == ("cited", "scopes.table_note_credit")


@pytest.mark.parametrize("sentence,party", [
    ("The PR reports that the fused path reaches 1,730 tokens/s on one L40S.", "The PR"),
    ("The Changelog reports that the fused path reaches 1,730 tokens/s on one L40S.", "The Changelog"),
    ("Issue #4127 reports that the fused path reaches 1,730 tokens/s on one L40S.", None),
])
def test_a_figure_credited_to_the_projects_own_pr_or_issue_stays_a_claim(sentence: str, party: str | None) -> None:
    claims, aside = _split(f"# Changes\n\n{sentence}\n")
    assert claims["1,730 tokens/s"] == party and "1,730 tokens/s" not in aside


@pytest.mark.parametrize("sentence", [
    "In [our earlier post](https://blog.example.org/2025/kestrel-part-1), the server held 1,730 tokens/s on one L40S.",
    "The first release held [1,730 tokens/s on one L40S](https://blog.example.org/2025/kestrel-part-1).",
    "A fused sampler holds 1,730 tokens/s on one L40S ([source](https://blog.example.org/2025/kestrel-part-1)).",
])
def test_a_figure_credited_by_a_link_or_to_our_earlier_post_stays_a_claim(sentence: str) -> None:
    claims, aside = _split(f"# Background\n\n{sentence}\n")
    assert "1,730 tokens/s" in claims and "1,730 tokens/s" not in aside


def test_a_work_with_its_paper_linked_is_the_posts_own_when_the_title_names_it() -> None:
    text = ("# Wrenfield: a paged scheduler\n\nOn one L40S, Wrenfield ([paper](https://arxiv.org/abs/2501.01234)) "
            "decodes 1,730 tokens/s.\n")
    claims, aside = _split(text)
    assert "1,730 tokens/s" in claims and "1,730 tokens/s" not in aside


@pytest.mark.parametrize("sentence", [
    # a paper link elsewhere in the sentence, a plain parenthesis: no named work with its paper
    "Our scheduler decodes 1,730 tokens/s on one L40S (see the [paper](https://arxiv.org/abs/2501.01234)).",
    "Wrenfield (paper edition) decodes 1,730 tokens/s on one L40S.",
])
def test_no_work_named_with_its_paper_link_keeps_the_claim(sentence: str) -> None:
    claims, aside = _split(f"# Results\n\n{sentence}\n")
    assert "1,730 tokens/s" in claims and "1,730 tokens/s" not in aside


def test_a_paragraph_opened_by_a_work_with_its_paper_linked_describes_that_works_figures() -> None:
    text = ("# Drafting methods\n\nOne option is Wrenfield ([preprint](https://arxiv.org/abs/2501.01234), "
            "[site](https://wrenfield.example.org)). Its draft trees are reused across turns, for 1.4-1.9x faster "
            "replies in the authors' chat traces. In our runs on one L40S it gives 1.6x.\n\n"
            "On its own, our server reaches 2,480 tokens/s on one L40S.\n")
    claims, aside = _split(text)
    assert aside["1.4-1.9x"] == ("cited", "scopes.citation_cue") and "1.4-1.9x" not in claims
    # the post's own sentence in that paragraph, and the next paragraph, stay the post's
    assert "1.6x" in claims and "2,480 tokens/s" in claims
