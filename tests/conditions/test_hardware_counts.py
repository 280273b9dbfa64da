"""Device counts as writers give them (issue 11, class 10): a count tied to the measured system is kept in
the hardware value as count x name; a multiplier, a range or a capacity next to a chip name is no count.
Every sentence is written for this test."""
from __future__ import annotations

import pytest

from extractor.conditions.mentions import Mention, find_mentions
from extractor.pipeline import Extractor


def _hardware(text: str) -> list[Mention]:
    return [m for m in find_mentions(text) if m.kind == "hardware"]


def _claim(extractor: Extractor, text: str, quote: str):
    record = extractor.extract(text, doc="t.md", fmt="markdown", path=None, sha256="0")
    return next(c for c in record.claims if c.quote == quote or any(m.quote == quote for m in c.mentions))


@pytest.mark.parametrize("text,count,nodes", [
    ("Our numbers come from 4x MI325X accelerators.", 4, None),
    ("The box carries 8 x H200 GPUs.", 8, None),
    ("served from 2xB200 in one chassis", 2, None),
    ("The service ran on six MI300X GPUs.", 6, None),
    ("We rented a node of 4 L40S GPUs for a week.", 4, None),
    ("The cluster gave us 32 GB300 GPUs.", 32, None),
    ("We used 4x H100 with tensor parallelism across them.", 4, None),
    ("GPU: 1x MI250", 1, None),
    ("All figures come from an 8-GPU B200 server.", 8, None),
    ("The job was pinned to A100 x 2 for the whole sweep.", 2, None),
    ("We spread the model over 3 servers, each with 8 H100 GPUs.", 24, 3),
    ("Prefill ran on 2 nodes of 4x MI300X.", 8, 2),
    ("Decode used 4×8×H200 with expert parallelism.", 32, 4),
])
def test_counts_tied_to_the_named_device(text: str, count: int, nodes: int | None) -> None:
    [hw] = _hardware(text)
    assert (hw.count, hw.nodes) == (count, nodes)
    assert text[hw.span[0]:hw.span[1]] == hw.quote


@pytest.mark.parametrize("text", [
    "The new part delivers 2.5x H100 throughput on long prompts.",       # a decimal multiplier
    "It offers 3x H100 memory bandwidth on paper.",                       # a multiplier after a verb
    "A rack holds up to 72 B300 GPUs.",                                   # a capacity
    "Each chassis supports as many as 8 MI355X accelerators.",            # a capacity
    "Our servers have 8 H200 GPUs per node.",                              # the count of a unit of capacity
    "The fleet mixes 4-8 A100 GPUs per model depending on size.",          # a range of counts
    "We booked two H100 nodes for the test.",                              # machines, not devices
    "Our tuned build is 1.8x faster than 8x H100 with the stock image.",   # the baseline's count
    "Intel Gaudi 3 accelerators cut the cost per token.",                  # the chip's generation
    "## Tuning on Gaudi 3\n\nIntel Gaudi 3 accelerators run the decode.",   # a heading's last number
    "Results on Gaudi 3 | Intel Gaudi 3 accelerators, tuned",              # the name before, same line
    "See Table 2\n\nH100 GPUs ran the long prompts.",                        # a number on the line above
])
def test_numbers_next_to_a_device_that_are_no_count(text: str) -> None:
    assert all(m.count is None for m in _hardware(text)), text


@pytest.mark.parametrize("text", [
    "Intel Gaudi 3 accelerators cut the cost per token.",
    "We tuned it on AWS Trainium 2 chips this spring.",
    "- CPU: 2 x Xeon Platinum 8592\n- GPU: 8 x L40S",
    "The Llama-3.1-8B model served 64 users.",
])
def test_a_number_inside_a_hardware_or_model_name_is_no_count_or_length(text: str) -> None:
    found = find_mentions(text)
    names = [m.span for m in found if m.kind in ("hardware", "model")]
    numbers = [m for m in found if m.kind in ("gpu_count", "input_length", "output_length", "batch_or_concurrency")]
    assert not [m for m in numbers if any(a < m.span[0] < b for a, b in names)], numbers


def test_a_generation_number_stays_in_the_name_and_a_count_before_it_is_kept() -> None:
    [hw] = _hardware("We used 8 Gaudi 3 accelerators for every run.")
    assert (hw.count, hw.canonical) == (8, "Intel Gaudi 3")
    [trn] = _hardware("on AWS Trainium 2 chips")
    assert (trn.count, trn.canonical) == (None, "AWS Trainium2")
    assert not [m for m in find_mentions("on AWS Trainium 2 chips") if m.kind == "gpu_count"]


POST_COUNTED = """# Serving a 70B model

## Setup

All runs use 8x MI325X accelerators, vLLM 0.9.0 and the ShareGPT prompts.

## Results

On the MI325X the engine reached 11,200 output tokens per second at a concurrency of 64.
"""

POST_TWO_COUNTS = """# Scaling a 70B model

## Setup

The small runs use 2x MI325X and the large runs use 8x MI325X, with vLLM 0.9.0.

## Results

On the MI325X the engine reached 11,200 output tokens per second at a concurrency of 64.
"""


def test_the_hardware_value_is_count_x_name(extractor: Extractor) -> None:
    post = "# Results\n\nOn eight H200 GPUs the engine reached 9,100 output tokens per second.\n"
    hw = _claim(extractor, post, "9,100 output tokens per second").conditions["hardware"]
    assert (hw.value, hw.count, hw.canonical, hw.quote) == ("8x H200", 8, "NVIDIA H200", "eight H200")


def test_a_name_without_count_takes_the_count_of_the_same_device_from_the_setup(extractor: Extractor) -> None:
    hw = _claim(extractor, POST_COUNTED, "11,200 output tokens per second").conditions["hardware"]
    assert (hw.value, hw.count, hw.scope) == ("8x MI325X", 8, "setup_section")
    assert POST_COUNTED[hw.span[0]:hw.span[1]] == hw.quote == "8x MI325X"


def test_two_counts_of_the_device_leave_the_name_without_count(extractor: Extractor) -> None:
    hw = _claim(extractor, POST_TWO_COUNTS, "11,200 output tokens per second").conditions["hardware"]
    assert hw.status == "stated" and hw.count is None
    assert hw.value == "MI325X" and hw.scope == "sentence"


def test_another_device_count_does_not_count_the_named_one(extractor: Extractor) -> None:
    post = POST_COUNTED.replace("8x MI325X", "8x H100")
    hw = _claim(extractor, post, "11,200 output tokens per second").conditions["hardware"]
    assert (hw.value, hw.count) == ("MI325X", None)


@pytest.mark.parametrize("text", [
    "- CPU: 2 x Xeon Platinum 8592\n- GPU: 8 x MI325X",                       # under a CPU label
    "| Host CPU | 2x EPYC 9755 |",                                             # a label cell
    "The GPUs are hosted by dual EPYC 9654 processors.",                        # a host word
    "Each node has 8x H200 GPUs and two Xeon 6960P CPUs.",                     # beside accelerators
])
def test_a_processor_named_as_the_host_of_accelerators_is_not_the_hardware(text: str) -> None:
    assert not [m for m in _hardware(text) if "Xeon" in m.quote or "EPYC" in m.quote]


@pytest.mark.parametrize("text,name", [
    ("We served the 8B model on a dual-socket Xeon 6980P server.", "Xeon"),                 # a CPU-inference run
    ("On an AMD EPYC 9654 the build decodes 18% faster.", "EPYC"),
    ("An EPYC 9654 decodes at 30 tok/s, ten times slower than an H100.", "EPYC"),         # a comparison
])
def test_a_processor_that_ran_the_model_stays_the_hardware(text: str, name: str) -> None:
    assert [m for m in _hardware(text) if name in m.quote]


POST_HOST = """# Serving on a new node

## Setup

The node has 8x MI325X accelerators and two Xeon 6960P CPUs, with vLLM 0.9.0.

## Results

The node reached 11,200 output tokens per second at a concurrency of 64.
"""


def test_the_host_processor_does_not_make_the_hardware_ambiguous(extractor: Extractor) -> None:
    hw = _claim(extractor, POST_HOST, "11,200 output tokens per second").conditions["hardware"]
    assert (hw.status, hw.value) == ("stated", "8x MI325X")


@pytest.mark.parametrize("text", [
    "- CPU:" + " " * 250 + "2 x Xeon Platinum 8592\n- GPU: 8 x MI325X",      # the label far before the name
    "CPU:" + " " * 250 + "2 x Xeon Platinum 8592",                           # ... on the text's first line
])
def test_a_host_label_is_read_on_the_names_whole_line(text: str) -> None:
    assert not [m for m in _hardware(text) if "Xeon" in m.quote]


def test_a_host_label_on_an_earlier_line_does_not_reach_a_long_later_line() -> None:
    """The label must open the name's own line: one on a line before it says nothing about the name."""
    text = "- CPU:\n" + "We served the 8B model on a dual-socket " + "very " * 50 + "fast Xeon 6980P server."
    assert [m for m in _hardware(text) if "Xeon" in m.quote]


POST_TWO_RUNS = """# Two runs

## Results

For Mistral-7B at batch size 64, a single L40S card generated 3,900 output tokens per second. For Mixtral-8x22B at batch size 256 on 8 cards, throughput reached 9,700 output tokens per second.

## Setup

One node with 8x L40S cards and vLLM 0.9.0.
"""


def test_another_results_sentence_keeps_its_device_to_itself(extractor: Extractor) -> None:
    big = _claim(extractor, POST_TWO_RUNS, "9,700 output tokens per second").conditions
    assert big["hardware"].value == "8x L40S"          # from the setup, not the other run's single card
    assert big["parallelism"].value != "single GPU"
    small = _claim(extractor, POST_TWO_RUNS, "3,900 output tokens per second").conditions
    assert small["hardware"].value == "1x L40S"


def test_one_node_is_not_written_as_a_machine_split() -> None:
    [hw] = _hardware("We used 1 node with 8 H200 GPUs.")
    assert (hw.count, hw.nodes) == (8, 1)
    record = Extractor.from_rules().extract("We used 1 node with 8 H200 GPUs and reached 9,100 output tokens per second.",
                                            doc="t.md", fmt="markdown", path=None, sha256="0")
    assert record.claims[0].conditions["hardware"].value == "8x H200"


POST_COUNTS_DISAGREE = """# Scaling out

## Results

![Throughput](chart.png)
*Figure 1: output throughput on 1x L40S at batch 64.*

| Model | GPUs | Output tok/s/GPU |
|---|---|---|
| Mistral-7B | 1 | 2,900 |
| Mistral-7B | 4 | 2,650 |

## Notes

For Mistral-7B at batch size 64, a single L40S card generated 2,900 output tokens per second. For Mixtral-8x7B at batch size 256, throughput on 8 cards reached 9,700 output tokens per second.

Compared to the previous release, throughput improved by 25%.
"""


def test_a_row_count_unlike_the_captions_device_count_drops_the_count(extractor: Extractor) -> None:
    record = extractor.extract(POST_COUNTS_DISAGREE, doc="t.md", fmt="markdown", path=None, sha256="0")
    four = next(c for c in record.claims if c.value == 2650).conditions
    assert (four["gpu_count"].value, four["hardware"].value) == (4, "L40S")
    assert four["parallelism"].status == "unrecoverable"      # not the caption's single GPU


def test_two_device_counts_at_one_scope_leave_both_unclear(extractor: Extractor) -> None:
    record = extractor.extract(POST_COUNTS_DISAGREE, doc="t.md", fmt="markdown", path=None, sha256="0")
    change = next(c for c in record.claims if abs(c.value) == 25).conditions
    assert change["hardware"].status == change["gpu_count"].status == "unrecoverable"


@pytest.mark.parametrize("text", [
    "Throughput grows from 16 to 96 B300 GPUs under the same router.",
    "We tried between 8 and 40 MI355X GPUs.",
    "The pool scales nearly linearly to 48 H200 GPUs.",
    "near-linear scaling up to 320 B200 GPUs",
])
def test_a_range_of_sizes_or_a_scaling_target_is_no_count(text: str) -> None:
    assert all(m.count is None for m in _hardware(text))
    assert all(not isinstance(m.value, int) for m in find_mentions(text) if m.kind == "gpu_count")


@pytest.mark.parametrize("text,count", [
    ("The pool ran on 48 H200 GPUs.", 48),
    ("We scaled the pool to 24 B300 GPUs for this run.", 24),   # a run's size, not how far it scales
])
def test_a_run_size_beside_those_phrasings_is_a_count(text: str, count: int) -> None:
    assert [m.count for m in _hardware(text)] == [count]


def test_a_range_of_gpu_counts_is_a_sweep() -> None:
    found = [m for m in find_mentions("Throughput grows from 16 to 96 B300 GPUs.") if m.kind == "gpu_count"]
    assert [m.value for m in found] == [{"min": 16, "max": 96}]
