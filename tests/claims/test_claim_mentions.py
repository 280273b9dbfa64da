"""One claim, many mentions: a figure restated for the same setup is one claim; the same value for
different setups stays several claims. Sentences written for these tests."""
from __future__ import annotations

from extractor.api import extract_text
from extractor.records import Claim, DocumentRecord

RESTATED = """---
title: "Brisk 2.1 reaches 18,450 tok/s on MI325X"
summary: "Our new scheduler lifts a single node to 18,450 tok/s."
---

## TL;DR

- 18,450 tok/s with Mistral-Large-2411 on 8x MI325X.

## Results

We ran Brisk 2.1 at 256 concurrent requests, each with 512 output tokens.

| Engine | Throughput (tok/s) |
|---|---|
| Brisk 2.0 | 11,200 |
| Brisk 2.1 | 18,450 |

Across the hour-long run the node held 18,450 tok/s after 20 warm-up requests.

## Wrap-up

At 18,450 tok/s the node now carries the whole evening peak.
"""

SAME_VALUE_TWO_SETUPS = """# Kernel fusion in Brisk: 2x faster decode

## Llama-3.1-8B

With the fused kernel, Llama-3.1-8B decodes 2x faster on one H100.

## Qwen2.5-7B

The same change makes Qwen2.5-7B decode 2x faster on one H100 as well.

## Per-user speed on two accelerators

On an H100, Brisk serves 1,200 tok/s per user with Llama-3.1-8B.

On an MI300X, Brisk also serves 1,200 tok/s per user with Llama-3.1-8B.
"""


def _claims(record: DocumentRecord, value: float) -> list[Claim]:
    return [c for c in record.claims if c.value == value]


def test_restated_figure_is_one_claim_with_every_mention():
    record = extract_text(RESTATED, "restated.md")
    [claim] = _claims(record, 18450)
    blocks = [m.context.block for m in claim.mentions]
    assert blocks == ["front_matter", "front_matter", "list_item", "table", "paragraph", "paragraph"]
    for m in claim.mentions:     # each mention keeps its own provenance and place
        assert RESTATED[m.span[0]:m.span[1]] == m.quote
    assert [m.context.section[-1:] for m in claim.mentions][2:] == [["TL;DR"], ["Results"], ["Results"], ["Wrap-up"]]
    assert [m.headline for m in claim.mentions] == [True, True, True, False, False, False]
    # the claim keeps the most specific mention (the results table cell), not the title
    assert claim.context.block == "table" and claim.context.column_header == "Throughput (tok/s)"
    assert RESTATED[claim.span[0]:claim.span[1]] == claim.quote == "18,450"
    assert claim.headline


def test_restated_figure_conditions_are_resolved_over_all_mentions():
    claim = _claims(extract_text(RESTATED, "restated.md"), 18450)[0]
    conds = claim.conditions
    # model and hardware are stated only in the TL;DR, the load and warm-up only in the results
    assert conds["model"].status == "stated" and conds["model"].value == "Mistral-Large-2411"
    assert conds["hardware"].status == "stated" and conds["hardware"].count == 8
    assert conds["batch_or_concurrency"].value == 256
    assert conds["warmup"].status == "stated" and "20 warm-up" in conds["warmup"].quote
    assert conds["model"].scope == "restatement" and "TL;DR" in conds["model"].note
    for c in conds.values():
        if c.status == "stated":
            assert RESTATED[c.span[0]:c.span[1]] == c.quote


def test_mentions_that_disagree_make_the_condition_ambiguous_never_one_picked():
    text = RESTATED.replace("the whole evening peak.", "the whole evening peak, measured after 50 warm-up requests.")
    claim = _claims(extract_text(text, "restated.md"), 18450)[0]
    warmup = claim.conditions["warmup"]
    assert warmup.status == "unrecoverable" and warmup.value is None
    assert "20" in warmup.why and "50" in warmup.why and warmup.where


def test_same_value_for_different_models_or_hardware_stays_separate():
    record = extract_text(SAME_VALUE_TWO_SETUPS, "apart.md")
    speedups = _claims(record, 2)
    models = sorted(str(c.conditions["model"].value) for c in speedups if c.conditions["model"].status == "stated")
    assert models == ["Llama-3.1-8B", "Qwen2.5-7B"]
    # the title's "2x" fits both results, and the post does not say which one it restates
    assert len(speedups) == 3 and all(len(c.mentions) == 1 for c in speedups)
    rates = _claims(record, 1200)
    # "on an H100" is one device: its count is written as the gold writes it ("1x H100")
    assert sorted(c.conditions["hardware"].value for c in rates) == ["1x H100", "1x MI300X"]


def test_same_value_in_two_cells_of_one_table_stays_separate():
    text = ("## Results\n\n| Batch size | Throughput (tok/s) |\n|---|---|\n| 8 | 9,020 |\n| 64 | 9,020 |\n\n"
            "With a batch size of 64 the node sustains 9,020 tok/s.\n")
    record = extract_text(text, "table.md")
    cells = _claims(record, 9020)
    assert sorted(c.conditions["batch_or_concurrency"].value for c in cells) == [8, 64]
    # the sentence restates the batch-64 cell only
    assert {c.conditions["batch_or_concurrency"].value: len(c.mentions) for c in cells} == {8: 1, 64: 2}


def test_parallel_items_of_one_list_stay_separate():
    text = ("# What changed in Brisk 3\n\n- Prefix caching: up to 1.8x higher throughput.\n"
            "- Chunked prefill: up to 1.8x lower tail latency.\n")
    record = extract_text(text, "list.md")
    assert len(_claims(record, 1.8)) == 2


def test_a_round_figure_in_two_body_sections_stays_two_claims():
    text = ("# Notes from the Brisk 3 upgrade\n\n## Scheduler\n\nThe new scheduler gives 1.5x more throughput.\n\n"
            "## Tokenizer\n\nThe rewritten tokenizer is 1.5x quicker at start-up.\n")
    record = extract_text(text, "round.md")
    assert len(_claims(record, 1.5)) == 2


def test_ids_are_content_hashes_stable_across_runs():
    a = extract_text(RESTATED, "restated.md")
    b = extract_text(RESTATED, "restated.md")
    assert [c.id for c in a.claims] == [c.id for c in b.claims]
    assert len({c.id for c in a.claims}) == len(a.claims)


def test_a_title_that_does_not_say_which_tokens_joins_the_body_that_does():
    text = ("# Brisk 3 reaches 42,700 tok/s\n\n## Results\n\nBrisk 3 sustained 42,700 total tokens per second "
            "on Llama-3.1-8B.\n\n## Prefill\n\nPrefill alone ran at 42,700 output tokens per second on Llama-3.1-8B.\n")
    record = extract_text(text, "tokens.md")
    claims = _claims(record, 42700)
    # total and output tokens are two measurements; the title could restate either: it stays alone
    assert sorted(str(c.tokens) for c in claims) == ["output", "total", "unspecified"]
    one = extract_text(text.split("## Prefill")[0], "tokens.md")
    [claim] = _claims(one, 42700)
    assert claim.tokens == "total" and len(claim.mentions) == 2


def test_a_summary_line_that_lists_several_results_does_not_make_a_stated_condition_ambiguous():
    text = ("---\nsummary: \"31,100 tok/s in the Offline scenario and 27,400 tok/s in the Server scenario.\"\n---\n\n"
            "## Offline scenario\n\nIn the Offline scenario the node processed 31,100 tok/s.\n")
    [claim] = _claims(extract_text(text, "summary.md"), 31100)
    assert len(claim.mentions) == 2
    assert claim.conditions["scenario"].status == "stated" and "Offline" in claim.conditions["scenario"].value
