"""Precision classes from the session-4 random draws of the wide corpus (issue 23): the direction of a ratio in
a list of comparisons; a count of one device written "1×" is no baseline. Every sentence here is written for the
test; each class has its negative cases."""
from __future__ import annotations

import pytest

from extractor.api import extract_text
from tests.claim_checks import credited_record


def record(text: str):
    return extract_text(text, doc="t.md")


def claim(text: str, quote: str):
    """The claim of `quote` as the credit readers leave it (before a figure credited to another party is set aside)."""
    claims = credited_record(text).claims
    found = [c for c in claims if c.quote == quote]
    assert found, [(c.quote, c.metric) for c in claims]
    return found[0]


def aside(text: str, quote: str):
    found = [a for a in record(text).set_aside if a.quote == quote]
    assert found, f"{quote!r} not set aside: {[(a.quote, a.reason, a.rule) for a in record(text).set_aside]}"
    return found[0]


@pytest.mark.parametrize("text,quote,direction", [
    # the quantity a change word right after the number names decides, not the previous figure's quantity
    ("The refreshed board posts 1.9x higher throughput, 4.3x lower latency than its predecessor.", "4.3x", "better"),
    ("The refreshed board posts 3x higher throughput, 2x higher TTFT than its predecessor.", "2x", "worse"),
    ("Our build has 20% higher throughput, 35% lower end-to-end latency than the stock one.", "35%", "better"),
    ("Our build has 20% lower throughput, 2x higher cost than the stock one.", "2x", "worse"),
    # negatives: a change word closing its clause modifies the quantity before it, not the next clause's
    ("Latency is 3x lower, throughput 2x higher than before.", "3x", "better"),
    ("TTFT is 3x higher, throughput 2x higher than before.", "3x", "worse"),
])
def test_a_change_word_after_the_number_names_its_quantity(text, quote, direction):
    assert claim(text, quote).direction == direction


@pytest.mark.parametrize("cell", ["1× Atlas 800 A3 (64GB × 16)", "1x RTX 6000 node", "1× Xeon server",
                                  "1x node with 8 cards"])
def test_one_device_in_a_table_is_a_setting_not_a_baseline(cell):
    text = f"# Hardware\n\n| Model | Hardware |\n|---|---|\n| tiny-7b | {cell} |\n"
    a = aside(text, cell[:2])
    assert (a.reason, a.rule) == ("setting", "set_aside.device_count")


def test_a_reference_ratio_in_a_table_stays_a_baseline():
    text = "# Results\n\n| Mode | Speed-up |\n|---|---|\n| Eager (reference) | 1.00x |\n| Compiled | 1.7x |\n"
    assert aside(text, "1.00x").reason == "baseline"


LOSS_TABLE = ("# Accuracy\n\n| Model | Method | GSM8K (FP16) | GSM8K (quantized) | {header} |\n|---|---|---|---|---|\n"
              "| tiny-7b | FP8 | 70.4 | 70.3 | {cell} |\n")


@pytest.mark.parametrize("header,cell,value", [
    ("GSM8K Loss", "0.14%", -0.14), ("Accuracy drop", "0.1", -0.1), ("Accuracy loss (%)", "1.8", -1.8),
    ("MMLU losses", "2.56%", -2.56),
])
def test_a_score_loss_column_holds_changes_not_scores(header, cell, value):
    text = LOSS_TABLE.format(header=header, cell=cell)
    c = claim(text, cell)
    assert (c.metric, c.value, c.unit, c.direction) == ("relative_change", value, "percent", "worse")
    # the scores themselves stay scores
    assert claim(text, "70.3").metric == "accuracy"


@pytest.mark.parametrize("text,quote,metric,direction", [
    ("The FP8 checkpoint shows only a 0.5% accuracy loss on our suite.", "0.5%", "relative_change", "worse"),
    ("The FP8 checkpoint loses 0.7% accuracy on the math set.", "0.7%", "relative_change", "worse"),
    ("Distillation gains 2% accuracy on the math set.", "2%", "relative_change", "better"),
    # negatives: a level of accuracy, and a lower loss of training, are no loss of a score
    ("The FP8 checkpoint reaches 95% accuracy on the math set.", "95%", "accuracy", None),
    ("The FP8 checkpoint improved to 95% accuracy on the math set.", "95%", "accuracy", None),
    ("After tuning, the training loss is 1.9% lower.", "1.9%", "relative_change", "better"),
])
def test_a_loss_of_a_score_in_prose_is_a_change(text, quote, metric, direction):
    c = claim(text, quote)
    assert c.metric == metric
    if direction:
        assert c.direction == direction


CITED_LIST = ("# Background\n\n{lead}\n\n- At 40 options, most models stay at 81-93% accuracy\n"
              "- At 600 options, accuracy drops to 17%\n")


@pytest.mark.parametrize("lead,party", [
    ("Prior work on long tool lists found that:", "Prior work"),
    ("A recent study of large catalogs reported:", "A recent study"),
    ("According to the vendor's whitepaper:", "the vendor's whitepaper"),
])
def test_the_items_of_a_list_a_cited_lead_introduces_are_cited(lead, party):
    text = CITED_LIST.format(lead=lead)
    assert claim(text, "81-93%").cited_from == party
    assert claim(text, "17%").cited_from == party


@pytest.mark.parametrize("lead", [
    "Our router measured the following:",
    "Prior work found that long tool lists hurt accuracy.",                 # no colon: the list is not its findings
])
def test_a_list_after_an_own_or_closed_lead_is_not_cited(lead):
    text = CITED_LIST.format(lead=lead)
    assert claim(text, "81-93%").cited_from is None


def test_a_cited_lead_of_another_list_does_not_reach_a_later_list():
    text = ("# Background\n\nPrior work on long tool lists found that:\n\n- most models stay at 81-93% accuracy\n\n"
            "Our router measured the following:\n\n- the router keeps 94% accuracy\n")
    assert claim(text, "81-93%").cited_from == "Prior work"
    assert claim(text, "94%").cited_from is None


@pytest.mark.parametrize("target", ["examples/benchmarks/txt2img", "/blog/2024-05-serving"])
def test_a_news_link_to_the_projects_own_page_is_not_cited(target):
    text = f"## News\n\n* [2024/05] [Our engine serves a model in under 3 seconds]({target})\n"
    assert not [a for a in record(text).set_aside if a.reason == "cited"]


def test_a_news_link_to_another_site_stays_cited():
    text = "## News\n\n* [2024/05] [Serving a 70B model under 2 seconds on one box](https://example.org/p)\n"
    assert aside(text, "under 2 seconds").reason == "cited"


@pytest.mark.parametrize("text,quote", [
    ("The 7 GB model fits on one card with 19% headroom to spare.", "19%"),
    ("After loading, the card runs with about 4 GB to spare.", "about 4 GB"),
])
def test_the_headroom_a_fit_leaves_is_design_arithmetic(text, quote):
    a = aside(text, quote)
    assert (a.reason, a.rule) == ("design_arithmetic", "set_aside.headroom_left")


def test_a_change_of_headroom_stays_a_claim():
    assert claim("The new allocator leaves 30% more headroom than the old one.", "30%").metric == "relative_change"


@pytest.mark.parametrize("text,quote", [
    ("# Case study\n\nThe team rebuilt its inference pipeline in 12 Months and now answers in 80 ms.\n", "12 Months"),
    ("Fine-tuning the draft model took 3 weeks on our cluster.", "3 weeks"),
    ("After two years of work, 1.5 years of it on kernels, the engine shipped.", "1.5 years"),
])
def test_a_span_of_weeks_months_or_years_is_a_calendar_period(text, quote):
    a = aside(text, quote)
    assert (a.reason, a.rule) == ("date_or_version", "set_aside.calendar_span")
    assert not [c for c in record(text).claims if c.quote == quote]


def test_a_serving_time_next_to_a_calendar_span_stays_a_claim():
    text = "# Case study\n\nThe team rebuilt its inference pipeline in 12 Months and now answers in 80 ms.\n"
    assert claim(text, "80 ms").metric == "latency"


def test_a_ratio_of_list_prices_is_a_datasheet_figure():
    text = "Per hour, the larger VM's list price is about 1.3x the smaller one's, and it does 3x the work."
    a = aside(text, "about 1.3x")
    assert (a.reason, a.rule) == ("datasheet", "set_aside.list_price_ratio")
    assert claim(text, "3x").metric == "speedup"


def test_a_measured_cost_ratio_stays_a_claim():
    assert claim("Its cost per million tokens is 2x lower than the old instance's.", "2x").metric == "speedup"


@pytest.mark.parametrize("text,quote,reason,rule", [
    ("If we set TTFT to 300ms and ITL 40ms, the deployment keeps the SLO up to 2.4 requests per second.",
     "300ms", "target", "latency_set_to"),
    ("If we set TTFT to 300ms and ITL 40ms, the deployment keeps the SLO up to 2.4 requests per second.",
     "40ms", "target", "latency_set_to"),
    ("If you set the P99 latency to 1.5 s, fewer requests fit.", "1.5 s", "target", "latency_set_to"),
    ("Extra replicas start once in-flight requests hit 2x target concurrency.", "2x", "target",
     "multiple_of_a_target"),
    ("Scaling starts at 1.5x the desired load per pod.", "1.5x", "target", "multiple_of_a_target"),
    ("Few papers report it, but as a rough guide, a draft head's acceptance sits around 35%.",
     "around 35%", "cited", "rule_of_thumb"),
    ("As a rule of thumb, FP8 decoding is about 1.5x faster than BF16.", "about 1.5x", "cited", "rule_of_thumb"),
])
def test_objectives_thresholds_and_rules_of_thumb_are_no_results(text, quote, reason, rule):
    a = aside(text, quote)
    assert (a.reason, a.rule) == (reason, f"set_aside.{rule}")
    assert not [c for c in record(text).claims if c.quote == quote]


@pytest.mark.parametrize("text,quote,metric", [
    # negatives: a measured latency, a speed-up over a default, an own result after a rule of thumb
    ("Our engine reaches a TTFT of 180 ms after the settings are applied.", "180 ms", "ttft"),
    ("The new policy scales 2x faster than the default one.", "2x", "speedup"),
    ("As a rough guide, a draft head's acceptance is 35%. Ours runs 2.1x faster than theirs.", "2.1x",
     "speedup"),
])
def test_results_beside_those_forms_stay_claims(text, quote, metric):
    assert claim(text, quote).metric == metric


def test_a_factor_of_fewer_devices_after_with_is_a_result():
    text = "Offloading lets us fine-tune the 7B model with 16x fewer GPUs."
    assert claim(text, "16x").metric == "other"
    # negative: a count of devices stays a setting
    assert aside("Serving it needs 8x high-end GPUs.", "8x").reason == "setting"


def test_a_share_of_the_training_data_is_a_setting():
    text = "The 900 synthetic rows are under 2% of the whole training set."
    a = aside(text, "under 2%")
    assert (a.reason, a.rule) == ("setting", "set_aside.share_of_training_data")
    # negative: a share of a run's time stays a result
    assert claim("Attention takes 41% of the total runtime at 32K tokens.", "41%")


VAL_LOSS = ("# Training\n\nTraining with fake quantization keeps quality closer to BF16 than post-training rounding does.\n\n"
            "| Recipe | Corpus | BF16 val loss | PTQ val loss | QAT val loss (lower is better) |\n"
            "|---|---|---|---|---|\n| W4A16 | chat-set | 1.036 | 1.059 | **1.044** |\n")


@pytest.mark.parametrize("quote", ["1.036", "1.059", "1.044"])
def test_a_loss_value_column_is_no_score_and_no_speed_up(quote):
    assert not [c for c in record(VAL_LOSS).claims if c.quote == quote and c.metric in ("accuracy", "speedup")]


def test_a_lower_is_better_note_names_no_change_and_scores_under_an_accuracy_lead_stay_scores():
    text = ("# Results\n\nAccuracy on our suite:\n\n| Model | GSM8K | MMLU |\n|---|---|---|\n| tiny | 71.2 | 65.0 |\n\n"
            "| Model | Latency (ms, lower is better) | Speedup |\n|---|---|---|\n| tiny | 12.5 | 1.4x |\n")
    assert claim(text, "71.2").metric == "accuracy"
    assert claim(text, "12.5").metric == "latency"


def test_an_example_of_what_research_found_is_cited():
    text = ("# Background\n\nResearch has shown that long menus hurt recall. For example, at 600 options, entries "
            "in the middle scored 18-47% accuracy.\n\nWe built a selector. For example, at 600 options, our "
            "selector keeps 91% accuracy.\n")
    assert claim(text, "18-47%").cited_from == "Research"
    assert claim(text, "91%").cited_from is None


@pytest.mark.parametrize("text,quote,metric,direction", [
    ("The new allocator gives a 30% memory reduction on long prompts.", "30%", "relative_change", "better"),
    ("Fusing the kernels brings a 12% throughput improvement at batch 64.", "12%", "relative_change", "better"),
    # negatives: a level followed by a change of another clause; a level of a score
    ("The tuned model reaches 95% accuracy, up from 90% before tuning.", "95%", "accuracy", None),
    ("The tuned model reaches 95% accuracy on the math set.", "95%", "accuracy", None),
])
def test_a_percent_before_a_metric_and_its_change_word_is_a_change(text, quote, metric, direction):
    c = claim(text, quote)
    assert c.metric == metric
    if direction:
        assert c.direction == direction


def test_a_section_number_in_a_heading_is_no_score():
    text = "# Results\n\n### 1.2 Accuracy\n\nThe tuned model scores 71.2 on GSM8K.\n\n## 3.1. Throughput\n\nMore text.\n"
    quotes = [c.quote for c in record(text).claims]
    assert "1.2" not in quotes and "3.1" not in quotes
    assert claim(text, "71.2").metric == "accuracy"


@pytest.mark.parametrize("heading", ["## 7 Accuracy Evaluation", "### 4 Accuracy", "## 12. Accuracy on MMLU",
                                     "## 3 **Accuracy**"])
def test_a_whole_section_number_opening_a_heading_is_no_score(heading):
    text = f"# Guide\n\nDeploy the service first.\n\n{heading}\n\nThe tuned model scores 64.5 on GSM8K.\n"
    quotes = [c.quote for c in record(text).claims]
    assert quotes == ["64.5"]


@pytest.mark.parametrize("heading, quote", [("## 2x Faster Decoding with Speculation", "2x"),
                                            ("## Accuracy of 71.5 on GSM8K", "71.5"),
                                            ("## Reaching 1,200 Tokens/s on One GPU", "1,200 Tokens/s")])
def test_a_figure_later_in_a_heading_or_with_a_unit_is_still_read(heading, quote):
    text = f"# Report\n\n{heading}\n\nWe describe the setup below.\n"
    assert quote in [c.quote for c in record(text).claims]


def test_the_size_of_data_moved_between_devices_is_a_setting():
    text = "Our copy test moves 1GB data between SSD and host RAM per step. Reads reach 10 GB/s."
    a = aside(text, "1GB")
    assert (a.reason, a.rule) == ("setting", "set_aside.unit_of_work_size")
    assert claim(text, "10 GB/s").metric == "bandwidth"
