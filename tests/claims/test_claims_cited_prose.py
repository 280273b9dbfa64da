"""Figures a sentence credits to another work by a reference rather than a cue word (issue 23, cited figures): a
numbered or author-year reference that ends the sentence, a link to another site that opens the sentence and reports
a finding, a parenthesis naming another work's study. Negatives: the post's own measurement in the next sentence or
in a sentence with "we"/"our", a reference in the middle of a sentence (a method's name), a link deeper in the
sentence (what was measured), a link to a code host. Sentences written for these tests."""
from __future__ import annotations

import pytest

from tests.claim_checks import credited_record


def cited(text: str) -> dict[str, str | None]:
    return {c.quote: c.cited_from for c in credited_record(text, "t.md").claims}


def test_a_numbered_reference_ending_the_sentence_credits_its_figure_with_the_reference_entry():
    text = ("# Notes\n\nOn vendor tests the new part trains the encoder 3x faster than the old part [2]. "
            "We measured 1.4x on our own decode runs.\n\n## References\n\n[2] Vendor, \"Matrix engines brief\", 2023.\n")
    found = cited(text)
    assert found["3x"].startswith("[2] Vendor")
    assert found["1.4x"] is None   # our own figure, the next sentence


@pytest.mark.parametrize("ref", ["(Okafor et al., 2024)", "(Okafor and Lind, 2023)", "[3, 7]",
                                 "[Okafor et al., 2024](https://papers.example.org/sparse)"])
def test_an_author_year_or_numbered_reference_credits_its_sentence_only(ref):
    found = cited(f"# Notes\n\nSparse attention cuts decode latency by 35% on long prompts {ref}. "
                  "The fused kernel reaches 1.6x on the same prompts.\n")
    assert found["35%"] is not None and found["1.6x"] is None


@pytest.mark.parametrize("text", [
    "# Notes\n\nFollowing Okafor et al. (2024), we prune half the heads and get a 1.7x speedup (Okafor et al., 2024).\n",
    "# Notes\n\nPagedKV (Ito et al., 2022) lays the cache out in pages; on our nodes it frees 3x more memory for batches.\n",
    "# Notes\n\nOur pruned model decodes 1.8x faster than the dense one [1].\n",
    "# Notes\n\nServing through runtime[1] behind a thin proxy gives a 2.2x speedup.\n",
])
def test_a_reference_for_a_method_or_in_a_sentence_about_our_work_cites_nothing(text):
    found = cited(text)
    assert found and all(v is None for v in found.values()), found


@pytest.mark.parametrize("opening", ["Notably, the vendor's", "For example, the vendor's", "Ridge's", "Recently, a",
                                     "The"])
def test_a_link_to_another_site_that_opens_the_sentence_and_reports_a_finding_credits_it(opening):
    found = cited(f"# Notes\n\n{opening} [public benchmark board](https://bench.example.org/board) reports that its suite "
                  "runs 1.5-1.9x quicker after the upgrade. Our compiler gets 1.3x on the same set.\n")
    assert found["1.5-1.9x"] == "https://bench.example.org/board" and found["1.3x"] is None


@pytest.mark.parametrize("sentence", [
    "Running our decoder on [a public code benchmark](https://example.org/bench) shows more than 2x lower latency.",
    "The [benchmark script](https://github.com/example/bench) shows a 2.4x speedup on one GPU.",
    "The [benchmark dashboard](https://bench.example.org/board) lets you compare runs; we see a 2.4x speedup.",
])
def test_a_link_inside_the_sentence_or_to_a_code_host_credits_nothing(sentence):
    found = cited(f"# Notes\n\n{sentence}\n")
    assert found and all(v is None for v in found.values()), found


def test_a_parenthesis_naming_another_works_study_credits_a_table_cell_and_a_sentence():
    table = ("# Routing\n\n| Aspect | Gain |\n|---|---|\n"
             "| Accuracy | 2.1x higher (41.5% against 19.8% for the baseline, per the Lumen study) |\n"
             "| Latency | 35 ms per request |\n")
    found = cited(table)
    assert found["2.1x"] == found["41.5%"] == "Lumen study" and found["35 ms per request"] is None
    assert cited("# Routing\n\nSelection lifts accuracy to 41.5% (from the Orbit paper).\n")["41.5%"] == "Orbit paper"


def test_a_parenthesis_naming_our_study_or_no_study_credits_nothing():
    found = cited("# Routing\n\nSelection lifts accuracy to 41.5% (in our study) and to 44.0% (in the long run).\n")
    assert found and all(v is None for v in found.values()), found


def test_the_authors_of_a_named_work_are_the_party_and_an_example_that_follows_is_theirs():
    text = ("# Background\n\nThe authors of Lumen trained three sizes of one encoder. For example, their largest "
            "reaches 81.2% accuracy on the quiz.\n\n## Ours\n\nOur distilled model "
            "reaches 79.5% accuracy on the same test.\n")
    found = cited(text)
    assert found["81.2%"] == "Lumen" and found["79.5%"] is None
    assert cited("# Notes\n\nThe authors of this post measured a 1.4x speedup.\n")["1.4x"] is None


def test_a_paragraph_crediting_its_chart_to_another_work_cites_the_figures_that_describe_it():
    text = ("# Models\n\nFigure 3 is reprinted from another group (chart source: [the Lumen paper](https://papers.example.org/lumen)). "
            "In it, Lumen-S runs 4.1x faster than Orbit-L.\n\n"
            "On our cluster, Lumen-S serves 2.3x more requests than Orbit-L.\n")
    found = cited(text)
    assert found["4.1x"] == "https://papers.example.org/lumen" and found["2.3x"] is None
    repo = text.replace("https://papers.example.org/lumen", "https://github.com/example/lumen")
    assert cited(repo)["4.1x"] is None


@pytest.mark.parametrize("note", ["Source: the vendor's launch post, https://vendor.example.org/launch.",
                                  "Numbers from Okafor et al., 2024.",
                                  "From the vendor's launch post.",
                                  "Figures taken from Okafor's technical report.",
                                  "Taken from [the Lumen preprint](https://arxiv.org/abs/2401.00001)."])
def test_a_footnote_that_names_a_source_credits_the_sentence_carrying_its_marker(note):
    text = (f"# Notes\n\nThe new part runs the encoder 3.2x faster than the old one[^v]. Our runtime adds 1.3x on "
            f"top of it.\n\n[^v]: {note}\n")
    found = cited(text)
    assert found["3.2x"] and found["1.3x"] is None


@pytest.mark.parametrize("note", ["Zero-shot means the model saw no example of the task.",
                                  "Measured on one node with the default settings.",
                                  "From our own runs on one node, averaged over five tries.",
                                  "Kernel fusion, [PR #812](https://github.com/example/engine/pull/812).",
                                  # "from" with no work after it: how the numbers were taken, not whose they are
                                  "From 5 runs on one node, median.",
                                  "From a cold start, with an empty cache.",
                                  "Numbers from five runs each."])
def test_a_footnote_that_explains_a_term_or_a_setup_cites_nothing(note):
    text = f"# Notes\n\nOur runtime decodes 2.4x faster than the reference build[^n].\n\n[^n]: {note}\n"
    found = cited(text)
    assert found and all(v is None for v in found.values()), found


def test_a_footnote_marker_defined_twice_keeps_its_first_definition():
    text = ("# Notes\n\nThe new part runs the encoder 3.2x faster than the old one[^v].\n\n"
            "[^v]: Numbers from Okafor et al., 2024.\n\n[^v]: Measured by us on one node.\n")
    assert cited(text)["3.2x"].startswith("Numbers from Okafor")
    swapped = text.replace("Numbers from Okafor et al., 2024.", "@").replace("Measured by us on one node.",
                                                                           "Numbers from Okafor et al., 2024.")
    assert cited(swapped.replace("@", "Measured by us on one node."))["3.2x"] is None


@pytest.mark.parametrize("credit", [
    "We plot our own runs below (data source: [our dashboard](https://dash.example.com/runs)).",
    "We plot the runs below (figure credit: [Mara Quell](https://mquell.example.net)).",
    "We plot the runs below (data source: [run logs](https://logs.example.com/runs)).",
    "We plot the runs below (image source: [ours](https://images.example.com/runs)).",
])
def test_a_paragraph_crediting_our_data_or_an_illustrator_cites_nothing(credit):
    found = cited(f"# Runs\n\n{credit} Our engine serves 2.3x more requests than the stock build.\n")
    assert found and all(v is None for v in found.values()), found


@pytest.mark.parametrize("credit", ["data source: [the Lumen report](https://reports.example.org/lumen)",
                                    "figure credit: [Okafor et al.](https://reports.example.org/lumen)"])
def test_a_data_source_or_a_credit_naming_another_work_cites_the_paragraph(credit):
    found = cited(f"# Models\n\nThe chart is reprinted ({credit}). In it, Lumen-S runs 4.1x faster than Orbit-L.\n")
    assert found["4.1x"] == "https://reports.example.org/lumen"
