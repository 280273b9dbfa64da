"""Settings of another part of the same post (docs/conditions-sample-check.md, session 8): the description of
another panel of a figure, a device's datasheet rating, the set-up of an example run for another model, the size
of the machine against a run's own device count, and an on/off setting of another column. Each is no setting of
the claim; the claim's own settings beside them stay. Posts written for these tests."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


def _record(body: str) -> object:
    return extract_text(f"# Faster long-context decoding\n\nAn introduction.\n\n## Results\n\n{body}\n", "t.md")


# ---- one panel of a figure's description --------------------------------------------------------------------

def test_a_setting_of_another_panel_is_not_the_claims():
    for body in ("<figcaption>(a) On MT-Bench, the drafted replies read the same as greedy ones. (b) With the draft "
                 "head, our model writes replies 2.7x faster than greedy decoding.</figcaption>",
                 "*(left) On MT-Bench, replies of both decoders side by side. (right) With the draft head, our model "
                 "writes replies 2.7x faster than greedy decoding.*"):
        c = claim(_record(body), 2.7)
        unrecoverable(c, "dataset")
        # the same description without its panel labels is one run: its benchmark is the claim's
        unlabelled = body.replace("(a) ", "").replace("(b) ", "").replace("(left) ", "").replace("(right) ", "")
        assert stated(claim(_record(unlabelled), 2.7), "dataset").value == "MT-Bench"
    # the panel's own setting stays
    c = claim(_record("<figcaption>(a) Replies read the same as greedy ones. (b) On MT-Bench, with the draft head, "
                      "our model writes replies 2.7x faster than greedy decoding.</figcaption>"), 2.7)
    assert stated(c, "dataset").value == "MT-Bench"


def test_a_figure_outside_a_paragraph_of_panels_takes_nothing_from_it():
    text = ("# Drafting long replies\n\n<p><i>(a) On MT-Bench, drafted replies read like greedy ones. "
            "(b) Time per reply at 8k output tokens.</i></p>\n\n## Overview\n\n"
            "The draft head cuts the wall time of long replies by up to 46%.\n")
    unrecoverable(claim(extract_text(text, "t.md"), -46), "dataset")
    # an introduction without panels still covers the post's results
    text = text.replace("(a) ", "").replace("(b) ", "")
    assert stated(claim(extract_text(text, "t.md"), -46), "dataset").value == "MT-Bench"


def test_what_a_caption_says_before_its_first_panel_covers_every_panel():
    c = claim(_record("*Figure 3: measured on one H100 SXM. (a) Prefill is 1.8x faster than before. (b) Decode is "
                      "4.2x faster per token than dense attention.*"), 4.2)
    assert "H100" in stated(c, "hardware").value


def test_a_label_after_what_it_names_opens_no_panel():
    # "(left)" and "(right)" point at the charts named before them: one description, one run
    c = claim(_record("On LongBench, the latency chart (left) and the memory chart (right) show our model decodes "
                      "4.2x faster per token than dense attention."), 4.2)
    assert stated(c, "dataset").value == "LongBench"


# ---- a device's datasheet rating ------------------------------------------------------------------------------

def test_the_precision_of_a_compute_rating_is_no_run_precision():
    for body in ("On the edge board RK9000 (32T@INT8, 8G LPDDR), the demo decodes about 11.4 tokens/s.",
                 "The card, rated at 120 TOPS @ INT4, decodes about 11.4 tokens/s with our runtime.",
                 "The chip has a peak of 400 TFLOPS in FP16; our runtime decodes about 11.4 tokens/s on it."):
        unrecoverable(claim(_record(body), 11.4), "precision")
    # a precision the run used stays
    c = claim(_record("With FP16 weights on a card rated at 120 TOPS, the demo decodes about 11.4 tokens/s."), 11.4)
    assert stated(c, "precision").value.startswith("FP16")
    c = claim(_record("Our fused kernel sustains 11.4 TFLOPS in FP16 on a laptop GPU."), 11.4)
    assert stated(c, "precision").value == "FP16"


# ---- the set-up of an example run for another model ----------------------------------------------------------

_GUIDE = """# FastMoE server

A serving kernel for mixture-of-experts models.

## Running with the server

### Full example: Mixtral-8x7B

**Test machine:**
- **GPU**: NVIDIA L40S 48GB
- **CPU**: 2x AMD EPYC 9654
- **Model**: Mixtral-8x7B

Launch the server with the BF16 backend and the default expert count.

### Option guide

- `--prefill-threshold`: prompts longer than this are prefilled on the GPU one layer at a time; {claim}.
"""


def test_an_example_runs_setup_is_not_a_claim_about_another_model():
    c = claim(extract_text(_GUIDE.format(claim="that costs about 7.5GB of extra VRAM for DeepSeek-V3"), "t.md"), 7.5)
    unrecoverable(c, "hardware")
    # a figure about the example's own model keeps the example's machine
    c = claim(extract_text(_GUIDE.format(claim="that costs about 7.5GB of extra VRAM for Mixtral-8x7B"), "t.md"), 7.5)
    assert "L40S" in stated(c, "hardware").value


# ---- the machine's size against a run's own device count -----------------------------------------------------

_MACHINE = """# Decoding speed

## Speed

All numbers below come from a 4xH100-80GB box, one prompt at a time.

| Model | Variant | Tokens/s |
| ----- | ------- | -------- |
| Llama-3-8B | fp16 | 87.35 |
| | int8 | 131.62 |

### Splitting the model

| Model | GPUs | Tokens/s |
| ----- | ---- | -------- |
| Llama-3-8B | 1 | {one} |
| | 2 | 142.18 |
| | 4 | 201.77 |
"""


def test_a_table_given_again_at_fewer_devices_was_run_on_part_of_the_machine():
    record = extract_text(_MACHINE.format(one="87.35"), "t.md")
    for value in (87.35, 131.62):   # the first table's fp16 row is the split table's 1-GPU row: not 4 GPUs
        c = claim(record, value)
        unrecoverable(c, "gpu_count")
        assert stated(c, "hardware").value == "H100-80GB"
    # the split table's rows keep their own counts
    assert stated(claim(record, 201.77), "gpu_count").value == 4
    assert stated(claim(record, 142.18), "gpu_count").value == 2


def test_the_machine_counts_a_table_none_of_whose_figures_is_given_at_fewer_devices():
    record = extract_text(_MACHINE.format(one="88.02"), "t.md")
    c = claim(record, 131.62)
    assert stated(c, "gpu_count").value == 4
    assert stated(c, "hardware").value == "4x H100-80GB"


# ---- a cell of several clauses --------------------------------------------------------------------------------

_OPTIONS = """# Server options

## Flags

| Flag | Meaning |
| ---- | ------- |
| `--weights INT8 / FP16` | Weight format. {cell} |
| `--workers` | Worker processes. |
"""


def test_a_table_cell_gives_the_claim_its_own_clause():
    cell = "Choosing INT8 frees 47% of weight memory, while FP16 leaves the weights untouched."
    c = claim(extract_text(_OPTIONS.format(cell=cell), "t.md"), -47)
    assert stated(c, "precision").value == "INT8"
    # one clause: all its settings stay
    c = claim(extract_text(_OPTIONS.format(cell="With INT8 weights on an L4, decode is 47% faster."), "t.md"), 47)
    assert stated(c, "precision").value.startswith("INT8")
    assert "L4" in stated(c, "hardware").value


# ---- what the intro says of its own command's run --------------------------------------------------------------

_TOOL = """# Generating text

```bash
gen-tool run acme/tiny-1b --prompt "Hello"
```

The command above loads the 1B checkpoint in float16, which needs about 3 GB of GPU memory.

## Sharded generation

{command}The 13B checkpoint needs two or more L40S cards.

| Devices | Tokens/sec |
|---------|------------|
| 2       | 17.43      |
| 4       | 21.86      |
"""


def test_what_the_intro_says_of_its_commands_run_is_not_another_commands_run():
    command = "```bash\ngen-tool shard acme/big-13b --quantize nf4\n```\n\n"
    c = claim(extract_text(_TOOL.format(command=command), "t.md"), 21.86)
    unrecoverable(c, "precision")
    assert "L40S" in stated(c, "hardware").value
    # with no code of its own, the section's results still take what the post says above it
    c = claim(extract_text(_TOOL.format(command=""), "t.md"), 21.86)
    assert stated(c, "precision").value == "float16"
