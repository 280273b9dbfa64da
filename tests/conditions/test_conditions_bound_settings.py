"""Load settings bound to one metric, one mode or one run (issue 11, class 2), on sentences written for these
tests: a caption, legend, list or table that gives each metric or mode its own batch size or concurrency. The
setting goes to the claim whose metric family or mode matches, and to nothing else; a table row's own cell under
a labelled column is more specific than any of them."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


# -- a table row's labelled cell wins over broader places ---------------------------------------------------
_TABLE = ("# Results\n\n"
          "| Engine | Batch Size | Output tok/s | TTFT (ms) |\n"
          "|---|---|---|---|\n"
          "| ours | 128 | 9,450 | 210 |\n"
          "| ours | 2 | 415 | 18.5 |\n\n")


def test_the_rows_batch_column_wins_over_a_caption_that_states_two_batches():
    text = ("# Results\n\n![chart](chart.png)\n\n<sub>One H100, FP8, BS=2 or BS=128.</sub>\n\n"
            + _TABLE[len("# Results\n\n"):])
    record = extract_text(text, "t.md")
    assert stated(claim(record, 9450), "batch_or_concurrency").value == 128
    assert stated(claim(record, 18.5), "batch_or_concurrency").value == 2


def test_the_rows_batch_column_wins_over_a_batch_the_section_states():
    text = ("# Results\n\nWe served the model at a batch size of 64 for the chat demo.\n\n" + _TABLE[len("# Results\n\n"):])
    record = extract_text(text, "t.md")
    cond = stated(claim(record, 415), "batch_or_concurrency")
    assert cond.value == 2 and cond.scope == "table_row"


def test_without_a_labelled_column_the_broader_place_still_states_it():
    text = ("# Results\n\nAll runs use a batch size of 64.\n\n"
            "| Engine | Output tok/s |\n|---|---|\n| ours | 9,450 |\n| theirs | 7,020 |\n")
    assert stated(claim(extract_text(text, "t.md"), 7020), "batch_or_concurrency").value == 64


def test_an_empty_cell_in_the_labelled_column_leaves_the_broader_value():
    text = ("# Results\n\nAll runs use a batch size of 64.\n\n"
            "| Engine | Batch Size | Output tok/s |\n|---|---|---|\n| ours | n/a | 9,450 |\n")
    cond = claim(extract_text(text, "t.md"), 9450).conditions["batch_or_concurrency"]
    assert cond.status == "unrecoverable" or cond.value == 64


# -- a setting bound to one metric family, in a contrast of families ----------------------------------------
_CHART = "# Results\n\n![chart](chart.png)\n\n"


def test_a_caption_giving_each_metric_its_batch_binds_each_to_its_metric():
    text = ("# Results\n\nOur engine is 3.2x higher throughput and 2.1x lower time to first token than the "
            "stock server.\n\n![chart](c.png)\n\n<sub>One L40S, FP16, BS=48 peak throughput, BS=1 time to first "
            "token.</sub>\n")
    record = extract_text(text, "t.md")
    assert stated(claim(record, 3.2), "batch_or_concurrency").value == 48
    assert stated(claim(record, 2.1), "batch_or_concurrency").value == 1


def test_batch_for_throughput_and_batch_for_latency_in_a_sentence():
    text = ("# Setup\n\nWe use a batch size of 96 for throughput and a batch size of 4 for TTFT.\n\n"
            "## Results\n\nOutput throughput reaches 7,310 tok/s. TTFT stays at 41 ms.\n")
    record = extract_text(text, "t.md")
    assert stated(claim(record, 7310), "batch_or_concurrency").value == 96
    assert stated(claim(record, 41), "batch_or_concurrency").value == 4


def test_a_list_of_settings_per_metric_binds_across_its_items():
    text = ("# Results\n\n- throughput runs: concurrency 256\n- TPOT runs: concurrency 16\n\n"
            "The new scheduler delivers 5,420 tok/s and a TPOT of 12 ms.\n")
    record = extract_text(text, "t.md")
    assert stated(claim(record, 5420), "batch_or_concurrency").value == 256
    assert stated(claim(record, 12), "batch_or_concurrency").value == 16


def test_a_claim_of_no_such_metric_stays_unrecoverable():
    text = ("# Results\n\nWe use a batch size of 96 for throughput and a batch size of 4 for TTFT.\n\n"
            "The quantised weights cut memory use by 40%, and serving reaches 2,950 tok/s.\n")
    record = extract_text(text, "t.md")
    assert stated(claim(record, 2950), "batch_or_concurrency").value == 96
    cond = claim(record, -40).conditions["batch_or_concurrency"]
    assert cond.status == "unrecoverable" or cond.value != 96


def test_one_family_alone_binds_nothing_and_the_setting_stays_general():
    # no contrast: "for throughput" alone does not keep the batch from a latency figure of the same section
    text = ("# Results\n\nWe use a batch size of 96 for the throughput runs.\n\n"
            "Output throughput reaches 7,310 tok/s and TTFT stays at 41 ms.\n")
    record = extract_text(text, "t.md")
    assert stated(claim(record, 41), "batch_or_concurrency").value == 96


def test_a_claim_whose_sentence_states_a_load_in_another_clause_is_not_given_the_bound_one():
    text = ("# Results\n\nThe server holds 9,800 tok/s at 64 concurrent requests, while keeping TTFT at "
            "95 ms.\n\n![chart](c.png)\n\n<sub>BS=64 peak throughput, BS=1 time to first token.</sub>\n")
    cond = claim(extract_text(text, "t.md"), 95).conditions["batch_or_concurrency"]
    assert not (cond.status == "stated" and cond.value == 1)


# -- a setting bound to one named mode ----------------------------------------------------------------------
def test_a_mode_defined_elsewhere_gives_its_load_to_a_claim_naming_the_mode():
    text = ("# Results\n\nAfter the kernel work, output throughput improves by 21% in the min-latency scenario.\n\n"
            "## Next\n\nWe keep tuning the min-latency scenario (a single request at a time).\n")
    cond = stated(claim(extract_text(text, "t.md"), -21), "batch_or_concurrency")
    assert cond.value == 1 and cond.scope == "document" and "min-latency" in cond.note


def test_modes_in_one_parenthesis_each_take_their_own_batch():
    text = ("# Results\n\nWe compare two modes (BS=256, max-throughput mode; BS=1, min-latency mode).\n\n"
            "In max-throughput mode the server reaches 14,200 tok/s.\n\n"
            "In min-latency mode it reaches 310 tok/s per user.\n")
    record = extract_text(text, "t.md")
    assert stated(claim(record, 14200), "batch_or_concurrency").value == 256
    assert stated(claim(record, 310), "batch_or_concurrency").value == 1


def test_a_claim_naming_no_mode_takes_no_modes_load_from_elsewhere():
    text = ("# Results\n\nAfter the kernel work, output throughput improves by 21%.\n\n"
            "## Next\n\nWe keep tuning the min-latency scenario (a single request at a time).\n")
    unrecoverable(claim(extract_text(text, "t.md"), 21), "batch_or_concurrency")


def test_a_mode_given_two_loads_gives_none():
    text = ("# Results\n\nTPOT improves by 21% in the min-latency scenario.\n\n"
            "## Next\n\nThe min-latency scenario (a single request at a time) is tuned first.\n\n"
            "Later, the min-latency scenario at concurrency 4 is tuned as well.\n")
    unrecoverable(claim(extract_text(text, "t.md"), -21), "batch_or_concurrency")


# -- lists of settings --------------------------------------------------------------------------------------
def test_two_batch_sizes_after_a_plural_label_are_a_sweep():
    text = _CHART + "<sub>A10G, FP16, batch sizes of 16 and 48.</sub>\n\nThe model reaches up to 1,240 tok/s.\n"
    cond = stated(claim(extract_text(text, "t.md"), 1240), "batch_or_concurrency")
    assert cond.sweep and cond.value["values"] == [16, 48]


def test_a_batch_label_with_an_aside_lists_the_bars_settings():
    text = _CHART + "<sub>A10G | FP16 | BS: (left to right) 48, 16</sub>\n\nThe model reaches up to 1,240 tok/s.\n"
    cond = stated(claim(extract_text(text, "t.md"), 1240), "batch_or_concurrency")
    assert cond.sweep and sorted(cond.value["values"]) == [16, 48]


def test_an_elided_batch_sweep_is_a_range_not_its_first_value():
    text = _CHART + "<sub>Peak found by sweeping BS 1, 2, ..., 128.</sub>\n\nThe model reaches up to 1,240 tok/s.\n"
    cond = stated(claim(extract_text(text, "t.md"), 1240), "batch_or_concurrency")
    assert (cond.value["min"], cond.value["max"]) == (1, 128)


def test_a_count_of_devices_after_a_batch_is_no_second_batch():
    text = "# Results\n\nWith batch size 64, 128 GPUs serve 90,000 tok/s in total.\n"
    assert stated(claim(extract_text(text, "t.md"), 90000), "batch_or_concurrency").value == 64


def test_a_chart_list_of_batches_is_not_the_load_of_a_memory_figure():
    text = (_CHART + "<sub>L4, INT4, BS: (left to right) 48, 16</sub>\n\n"
            "Quantisation also cuts the weights' memory by 3x.\n")
    cond = claim(extract_text(text, "t.md"), 3).conditions["batch_or_concurrency"]
    assert cond.status == "unrecoverable"


def test_a_caption_of_one_device_is_not_the_load_of_its_comparison_with_another():
    text = ("# Results\n\nServing on the H200 is up to 2.8x faster than the A100.\n\n"
            "![chart](c.png)\n\n<sub>1x H200, FP8, BS: (left to right) 512, 64</sub>\n")
    unrecoverable(claim(extract_text(text, "t.md"), 2.8), "batch_or_concurrency")


def test_a_caption_that_names_both_devices_is_the_comparisons_load():
    text = ("# Results\n\nServing on the H200 is up to 2.8x faster than the A100.\n\n"
            "![chart](c.png)\n\n<sub>H200 and A100, FP8, batch size 64</sub>\n")
    assert stated(claim(extract_text(text, "t.md"), 2.8), "batch_or_concurrency").value == 64


# -- a setting bound to one device or one model of a legend -------------------------------------------------
_LEGEND = ("![chart](c.png)\n\n<sub>Mixtral-8x7B: A100 BS 16, H100 BS 48 | Llama-3-8B: A100 BS 64, "
           "H100 BS 256</sub>\n")


def test_a_legend_gives_the_claims_device_and_model_their_own_batch():
    text = ("# Results\n\nWith Mixtral-8x7B on one H100 the server is 2.2x faster than the A100.\n\n"
            "With Llama-3-8B on one H100 it is 1.7x faster than the A100.\n\n" + _LEGEND)
    record = extract_text(text, "t.md")
    assert stated(claim(record, 2.2), "batch_or_concurrency").value == 48
    assert stated(claim(record, 1.7), "batch_or_concurrency").value == 256


def test_a_claim_naming_no_model_stays_ambiguous_between_the_legends_models():
    text = "# Results\n\nOn one H100 the server is 2.2x faster than the A100.\n\n" + _LEGEND
    unrecoverable(claim(extract_text(text, "t.md"), 2.2), "batch_or_concurrency")


def test_one_device_alone_in_a_caption_binds_nothing():
    # no contrast of devices: the caption's batch is the chart's, whatever device the sentence names
    text = ("# Results\n\nWith Mixtral-8x7B on one H100 the server reaches 3,900 tok/s.\n\n"
            "![chart](c.png)\n\n<sub>Mixtral-8x7B, H100, BS 48</sub>\n")
    assert stated(claim(extract_text(text, "t.md"), 3900), "batch_or_concurrency").value == 48


# -- a label line heading the paragraph ---------------------------------------------------------------------
def test_the_sentences_own_scenario_wins_over_the_label_that_heads_its_paragraph():
    text = ("# Results\n\n**Max Throughput TP4:**\nan offline batch scenario with Qwen2-72B on four L40S is "
            "1.4x faster than before.\n")
    cond = stated(claim(extract_text(text, "t.md"), 1.4), "scenario")
    assert cond.value == "offline batch scenario" and cond.scope == "sentence"


def test_the_label_still_states_what_the_sentence_does_not():
    text = ("# Results\n\n**Max Throughput TP4:**\nQwen2-72B on four L40S is 1.4x faster than before.\n")
    assert stated(claim(extract_text(text, "t.md"), 1.4), "scenario").canonical == "max-throughput"


def test_two_scenarios_in_the_sentence_itself_stay_ambiguous():
    text = ("# Results\n\nIn the offline scenario and in the server scenario, Qwen2-72B on four L40S is 1.4x "
            "faster than before.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 1.4), "scenario")


# -- a layout bound to one named mode (scopes.yaml setting_binding kinds: parallelism) ----------------------------
def test_a_mode_defined_elsewhere_gives_its_layout_to_a_claim_naming_the_mode():
    text = ("# Results\n\nAfter the kernel work, output throughput improves by 21% in the min-latency scenario.\n\n"
            "## Next\n\nWe keep tuning the min-latency scenario (TP4 with a single request at a time).\n")
    cond = stated(claim(extract_text(text, "t.md"), -21), "parallelism")
    assert cond.value == "TP4" and "min-latency" in cond.note


def test_modes_in_one_parenthesis_each_take_their_own_layout():
    text = ("# Results\n\nWe compare two modes (TP2, max-throughput mode; TP8, min-latency mode).\n\n"
            "In max-throughput mode the server reaches 14,200 tok/s.\n\n"
            "In min-latency mode it reaches 310 tok/s per user.\n")
    record = extract_text(text, "t.md")
    assert stated(claim(record, 14200), "parallelism").value == "TP2"
    assert stated(claim(record, 310), "parallelism").value == "TP8"


def test_a_claim_naming_no_mode_takes_no_modes_layout_from_elsewhere():
    text = ("# Results\n\nAfter the kernel work, output throughput improves by 21%.\n\n"
            "## Next\n\nWe keep tuning the min-latency scenario (TP4 with a single request at a time).\n")
    unrecoverable(claim(extract_text(text, "t.md"), 21), "parallelism")


def _load_post(lead: str) -> str:
    return (f"# Cache formats\n\n## Results\n\n### Under load\n\n{lead}\n\n*Table 2: Model-X under load. The new "
            f"format shows 13.7% higher output throughput and 12.2% lower median ITL.*\n")


def test_end_to_end_as_a_modifier_names_no_latency_to_bind_a_load_to():
    # (written for this test) "end-to-end serving" is what is measured, not end-to-end latency: the run's
    # concurrency and length are not kept away from the throughput figure
    from extractor.api import extract_text
    r = extract_text(_load_post("For end-to-end serving we drive 150 requests at concurrency 8, "
                                "every one carrying ~20k input tokens."), "t.md")
    throughput = next(c for c in r.claims if c.value == 13.7)
    assert throughput.conditions["batch_or_concurrency"].value == 8
    assert throughput.conditions["input_length"].value == 20000


def test_end_to_end_latency_still_binds_its_own_load():
    from extractor.api import extract_text
    r = extract_text(_load_post("End-to-end latency was measured at concurrency 1, and throughput at concurrency 8."),
                     "t.md")
    throughput = next(c for c in r.claims if c.value == 13.7)
    assert throughput.conditions["batch_or_concurrency"].value == 8
