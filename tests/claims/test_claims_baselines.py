"""Baselines named in the text (issue 23, precision on unseen writers): a speed-up or change whose baseline the
text names gets it, from a table header that compares in parentheses, a reference column named inside a longer
header, the text before a table, a comparison leading a clause, a switch or replacement, a win over another
system; and the negatives, where the text names none or another clause's words are no baseline. Sentences
and tables written for these tests."""
from __future__ import annotations

import pytest

from extractor.records import BASELINE_NOT_NAMED
from claim_checks import claim_in as one, claims_in as claims


# -- tables --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("header,baseline", [
    ("Speedup (INT4 v.s. BF16)", "BF16"),
    ("Decode speedup (vs. eager mode)", "eager mode"),
    ("Throughput gain (compared to the dense checkpoint)", "the dense checkpoint"),
    ("Speedup over FP16", "FP16"),
])
def test_a_column_header_that_compares_names_the_baseline(header, baseline):
    text = f"# Kernels\n\n| Model | Batch | {header} |\n|---|---|---|\n| Mixtral | 4 | 1.37x |\n| Mixtral | 16 | 1.22x |\n"
    assert one(text, 1.37).baseline == baseline
    assert one(text, 1.22).baseline == baseline


@pytest.mark.parametrize("headers,baseline", [
    (("Tokens/s w/o paging (per GPU)", "Tokens/s w/ paging (per GPU)"), "Tokens/s w/o paging (per GPU)"),
    (("GSM8K Baseline (BF16)", "GSM8K after pruning"), "GSM8K Baseline (BF16)"),
])
def test_a_reference_column_named_inside_a_longer_header_is_the_baseline(headers, baseline):
    text = (f"# Ablation\n\n| Model | {headers[0]} | {headers[1]} | Gain |\n|---|---|---|---|\n"
            "| Qwen | 1,010 | 1,414 | 40.0% |\n")
    assert one(text, 40.0).baseline == baseline


def test_a_column_of_changes_is_never_the_reference():
    """'Speedup w/o graphs' holds ratios of its own: it is no reference of the other ratio column."""
    text = ("# Graphs\n\n| Model | Speedup w/o graphs | Speedup w/ graphs |\n|---|---|---|\n"
            "| Qwen | 1.10x | 1.45x |\n")
    assert one(text, 1.45).baseline == BASELINE_NOT_NAMED


@pytest.mark.parametrize("lead,baseline", [
    ("All speedups are relative to the stock PyTorch build.", "the stock PyTorch build"),
    ("The numbers below are normalized to eager mode.", "eager mode"),
    ("Gains were measured against the previous release, on one node.", "the previous release"),
    ("We ran each model with vanilla attention as the baseline.", "vanilla attention"),
])
def test_the_text_before_a_table_names_the_baseline_of_its_ratios(lead, baseline):
    text = f"# Results\n\n{lead}\n\n| Model | Speedup |\n|---|---|\n| Phi | 1.8x |\n| Gemma | 2.2x |\n"
    assert one(text, 1.8).baseline == baseline
    assert one(text, 2.2).baseline == baseline


def test_a_section_title_that_compares_names_the_baseline():
    text = ("# Study\n\n### vs. Sending every document\n\n| Metric | Change |\n|---|---|\n"
            "| Prompt tokens | 64.0% reduction |\n")
    assert one(text, 64.0).baseline == "Sending every document"


def test_a_lead_in_that_compares_nothing_leaves_the_baseline_open():
    text = ("# Results\n\nThe table lists the speedups we measured on one node.\n\n| Model | Speedup |\n|---|---|\n"
            "| Phi | 1.8x |\n")
    assert one(text, 1.8).baseline == BASELINE_NOT_NAMED


def test_a_dash_in_the_reference_row_is_no_part_of_the_baseline():
    text = ("# Scaling\n\n| Setup | Degree | Time | Speedup |\n|---|---|---|---|\n"
            "| Single device (reference) | - | 90.0s | 1.0x |\n| Ring attention | 4 | 30.0s | 3.0x |\n")
    assert one(text, 3.0).baseline == "Single device (reference)"


# -- prose ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("sentence,value,baseline", [
    ("Comparing with the 0.4 release, the scheduler reaches up to 1.6x higher throughput.", 1.6, "the 0.4 release"),
    ("Our tests show that, compared to the first model family, the new model improved accuracy by 18%.", 18,
     "the first model family"),
    ("The pinned path performs better compared to the copy-through loader, with up to 27% higher throughput.", 27,
     "the copy-through loader"),
    ("Compared with\nthe older router, tail latency improved by 35%.", 35, "the older router"),
    ("Compared to 12.4 tokens/s in the reference runtime, we reach a 3.1x speedup.", 3.1, "the reference runtime"),
])
def test_a_comparison_leading_a_clause_names_the_baseline(sentence, value, baseline):
    assert one(f"# Results\n\n{sentence}\n", value).baseline == baseline


@pytest.mark.parametrize("sentence,value,baseline", [
    ("Switching from BF16 to FP8 weights brings a 1.7x decode speedup.", 1.7, "BF16"),
    ("Moving from TP2 to TP4 raised throughput by 45%.", 45, "TP2"),
    ("By replacing the Python sampler with a CUDA kernel, we got a 2.3x speedup.", 2.3, "the Python sampler"),
    ("The compact model outperforms the dense baseline by 4x on time to first token.", 4, "the dense baseline"),
    ("Our smallest variant beats the larger encoder with 9x faster startup.", 9, "the larger encoder"),
])
def test_a_switch_a_replacement_or_a_win_names_what_was_changed_from(sentence, value, baseline):
    assert one(f"# Results\n\n{sentence}\n", value).baseline == baseline


@pytest.mark.parametrize("sentence,value", [
    # the comparison runs into the clause of the figure: no phrase ends before it
    ("Using a lower precision compared to full float can result in 2x lower memory use.", 2),
    # a count, not a system: the baseline is a bare number
    ("Going from 8 to 16 GPUs gives a 1.9x speedup.", 1.9),
    # a pronoun names nothing
    ("The pass finds both kernels and replaces them with one fused kernel, improving throughput by 6%.", 6),
    # the win is over a range of positions, not a system ("and" ends the name)
    ("The new kernel surpasses the old one between 2k and 8k tokens and leads with a 3x higher throughput.", 3),
    # the comparison is in another sentence
    ("The new cache is fast. Moving the cache to the host cuts memory by 30%.", 30),
])
def test_no_baseline_is_taken_from_words_that_name_none(sentence, value):
    assert one(f"# Results\n\n{sentence}\n", value).baseline == BASELINE_NOT_NAMED


# -- the sentence before -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,value,baseline", [
    ("On one server, we compared our sparse runtime with the stock llama.cpp build. While keeping full accuracy, "
     "we achieved a 1.2 to 7.1 times decode speed increase.", 1.2, "the stock llama.cpp build"),
    ("Our pruned checkpoint answers 640 queries/second vs 160 queries/second with the unpruned one. This "
     "is a 4x speedup over it.", 4, "the unpruned one"),
    ("The engine improves decode throughput by 1.4x compared to PyTorch. Furthermore, with fused kernels, we can "
     "improve the speedup to 1.9x.", 1.9, "PyTorch"),
    ("Our models serve with lower latency compared to their reference implementation. For example, the router "
     "cuts the latency of the largest model by 4.1x.", 4.1, "their reference implementation"),
])
def test_the_sentence_before_names_the_baseline_it_sets_up_or_that_the_figure_continues(text, value, baseline):
    assert one(f"# Results\n\n{text}\n", value).baseline == baseline


@pytest.mark.parametrize("text,value", [
    # a comparison of another quantity, and the figure's sentence does not continue it
    ("Compared to H100, B200 offers more memory bandwidth. Our kernel reaches a 1.5x speedup.", 1.5),
    # a continuation, but the sentence before compares nothing
    ("We ran the suite on eight GPUs. This is a 2x speedup.", 2),
    # the comparison is in another paragraph
    ("We compared the new kernel with the old kernel.\n\nThe cache layer gives a 1.3x speedup.", 1.3),
])
def test_a_comparison_the_figure_does_not_continue_is_no_baseline(text, value):
    assert one(f"# Results\n\n{text}\n", value).baseline == BASELINE_NOT_NAMED


@pytest.mark.parametrize("sentence,value,baseline", [
    ("Three nodes with disaggregation reach ~3x the throughput of single-node deployment.", 3,
     "single-node deployment"),
    ("The new build serves at 2.4x the decode speed of the stock build.", 2.4, "the stock build"),
    ("The diffusion model reaches 1,288 tokens per second (~6x a standard autoregressive baseline).", 6,
     "standard autoregressive baseline"),
])
def test_a_factor_of_another_runs_quantity_names_that_run(sentence, value, baseline):
    assert one(f"# Results\n\n{sentence}\n", value).baseline == baseline


def test_a_factor_of_a_quantity_makes_no_claim_by_itself():
    assert not [c for c in claims("# Sizing\n\nKeeping both models loaded takes 2x the memory of one model.\n")
                if c.metric == "speedup"]


def test_a_lead_in_that_replaces_names_the_baseline_of_the_tables_speedups():
    text = ("# Kernels\n\nBy replacing the eager attention ops with compiled kernels, we achieved 1.1-1.6x speedup "
            "across models, as shown in Table 1.\n\n| Hardware | Model A | Model B |\n|---|---|---|\n"
            "| A100 | 1.45x | 1.60x |\n")
    assert one(text, 1.45).baseline == "the eager attention ops"


def test_a_factor_after_over_is_another_figure_not_a_baseline():
    c = one("# Results\n\nThe public tier offers over 12x throughput improvement while the private tier offers over "
            "30x throughput improvement.\n", 12)
    assert c.baseline == BASELINE_NOT_NAMED


def test_a_change_from_one_runs_level_to_anothers_names_the_first_run():
    c = one("# Results\n\nDecode speed rose from 4.9 tokens/s with the reference runtime to 27.5 tokens/s with our "
            "engine, a 5.6x speedup.\n", 5.6)
    assert c.baseline == "the reference runtime"
    c = one("# Results\n\nDecode speed rose from 4.9 tokens/s to 27.5 tokens/s, a 5.6x speedup.\n", 5.6)
    assert c.baseline == BASELINE_NOT_NAMED


def test_notes_in_quotes_between_the_lead_in_and_the_table_do_not_hide_its_baseline():
    text = ("# Results\n\nSpeedups are compared to the BF16 baseline.\n\n> Input 2048 tokens, output 128 tokens.\n\n"
            "> Memory use is not reported.\n\n| Model | Speedup |\n|---|---|\n| Phi | 1.4x |\n")
    assert one(text, 1.4).baseline == "the BF16 baseline"


def test_a_comparison_word_past_a_colon_is_no_baseline():
    c = one("# Changes\n\n- Slightly faster decode (+12%): integrated the attention kernel from the upstream project.\n",
            12)
    assert c.baseline == BASELINE_NOT_NAMED


@pytest.mark.parametrize("text,value", [
    # a switch in a clause of its own, before the clause of the figure
    ("After moving from Slurm to Kubernetes last year, we re-ran the suite and the new scheduler gave a 2x speedup.",
     2),
    # a replacement joined by "and" to another clause that holds the figure
    ("We replaced the old dashboard with Grafana, and the fused kernel gives a 1.5x speedup.", 1.5),
    # a loose opener does not carry the comparison of the sentence before
    ("The engine is 1.4x faster compared to vLLM. Overall, the new cache gives a 1.3x speedup.", 1.3),
])
def test_a_switch_or_comparison_of_another_clause_is_no_baseline(text, value):
    assert one(f"# Results\n\n{text}\n", value).baseline == BASELINE_NOT_NAMED


def test_a_phrase_after_than_across_a_line_break_stops_at_the_runs_own_device():
    c = one("# R\n\nOur engine is 2.1x faster than\nthe H100 build of the reference server on an H200.\n", 2.1)
    assert c.baseline == "the H100 build of the reference server"


def test_a_long_run_of_text_before_a_figure_is_read_in_bounded_time():
    import time
    text = "# R\n\nSwitching from " + "a " * 6000 + "to b gives a 1.5x speedup.\n"
    t0 = time.process_time()
    claims(text)
    assert time.process_time() - t0 < 5


@pytest.mark.parametrize("marker", ["[^n]", "[^build-note]", " [^3]"])
def test_a_footnote_marker_after_the_baseline_is_no_part_of_it(marker):
    text = f"# Notes\n\nOur runtime decodes 2.4x faster than the reference build{marker}.\n\n[^n]: Built with defaults.\n"
    assert one(text, 2.4).baseline == "the reference build"
