"""Conditions written the way GOLD.md writes them (issue 24, helper condmix), on sentences and code written for these
tests: a precision is its format ("INT8", not "INT8 quantization"), a dataset named by an option is the option's
value, a prompt too long to show is "single prompt". Each class with its negative case."""
from __future__ import annotations

from claim_checks import claim, stated
from extractor.api import extract_text


# -- a precision is its format; what the format applies to stays ----------------------------------------------------
def test_the_word_quantization_after_a_format_is_not_part_of_the_precision():
    text = "# Results\n\nWith INT8 quantization, the 13B model answers in 41 ms per token on one MI250.\n"
    c = claim(extract_text(text, "t.md"), 41)
    assert stated(c, "precision").value == "INT8"


def test_what_a_format_applies_to_stays_in_the_precision():
    text = "# Results\n\nWith an FP8 KV cache, the 13B model answers in 42 ms per token on one MI250.\n"
    assert stated(claim(extract_text(text, "t.md"), 42), "precision").value == "FP8 KV cache"


# -- a dataset named by a benchmark option is the option's value -----------------------------------------------------
def test_a_dataset_option_states_the_datasets_name():
    text = ("# Serving\n\n## Benchmark\n\nWe run:\n\n```bash\nvllm bench serve --model org/model-8b "
            "--dataset-name sharegpt --max-concurrency 8\n```\n\nThe server reaches 1,510 tokens/s.\n")
    ds = stated(claim(extract_text(text, "t.md"), 1510), "dataset")
    assert ds.value == "sharegpt" and ds.quote == "--dataset-name sharegpt"


def test_a_dataset_option_of_an_example_command_states_nothing():
    text = ("# Serving\n\nThe server reaches 1,520 tokens/s.\n\n## Try it\n\nFor example, run:\n\n```bash\n"
            "vllm bench serve --model org/model-8b --dataset-name sharegpt\n```\n")
    assert claim(extract_text(text, "t.md"), 1520).conditions["dataset"].status == "unrecoverable"


# -- a prompt too long to show whole ---------------------------------------------------------------------------------
_RUN = ('```python\nimport time\nfrom transformers import AutoModelForCausalLM\n\nmodel = AutoModelForCausalLM'
        '.from_pretrained("org/coder-2b").to("cuda")\nprompt = """{prompt}"""\nstart = time.time()\n'
        'out = model.generate(prompt, max_new_tokens=128)\nprint(time.time() - start)\n```\n\nOutput:\n\n'
        '```text\n{secs} seconds\n```\n')


def test_a_long_prompt_is_a_single_prompt_its_quote_holds():
    prompt = ("\nWrite a function that takes a list of integers and returns every pair whose sum is zero,\n"
              "without repeating a pair, and explain its running time.\n")
    text = "# Timing a code model\n\n## Run\n\n" + _RUN.format(prompt=prompt, secs="3.2178")
    ds = stated(claim(extract_text(text, "t.md"), 3.2178), "dataset")
    assert ds.value == "single prompt" and "running time" in ds.quote


def test_a_short_prompt_is_shown_in_the_value_without_its_line_breaks():
    text = "# Timing a code model\n\n## Run\n\n" + _RUN.format(prompt="\nSort a list\nin Python.\n", secs="2.1175")
    assert stated(claim(extract_text(text, "t.md"), 2.1175), "dataset").value == 'single prompt "Sort a list in Python."'


# -- a load written as a word ---------------------------------------------------------------------------------------
def test_a_concurrency_written_as_a_word_is_read():
    text = ("# Results\n\nWe measured the throughput during twenty concurrent requests. Llama 2 13B reached 296 "
            "tokens/sec on one L40S. Thirty-two simultaneous users saw 61 ms per token.\n")
    rec = extract_text(text, "t.md")
    assert stated(claim(rec, 296), "batch_or_concurrency").value == 20
    assert stated(claim(rec, 61), "batch_or_concurrency").value == 32


def test_words_that_count_no_requests_state_no_load():
    text = ("# Results\n\nOne of the concurrent requests waited, and hundreds of concurrent requests queued. Llama 2 "
            "13B reached 297 tokens/sec on one L40S.\n")
    assert claim(extract_text(text, "t.md"), 297).conditions["batch_or_concurrency"].status == "unrecoverable"


# -- sizes listed after a model's name name models of their own ------------------------------------------------------
def test_sizes_listed_after_a_model_name_each_name_a_model():
    text = ("# Results\n\n## Accuracy\n\nWe tested Orca-1.3B, 2.7B and 13B on one MI300X.\n\n| Model | Accuracy |\n"
            "|---|---|\n| Orca-13B | 0.79 |\n\nAcross the three models, the INT8 kernel runs 1.4x faster.\n")
    rec = extract_text(text, "t.md")
    assert stated(claim(rec, 0.79), "model").value == "Orca-13B"
    assert claim(rec, 1.4).conditions["model"].status == "unrecoverable"   # three models, none picked


def test_a_count_of_tokens_after_a_model_name_is_no_model():
    text = "# Results\n\nLlama 3 8B, 15T tokens of training data, reaches 2,100 tokens/s on one H100.\n"
    assert stated(claim(extract_text(text, "t.md"), 2100), "model").value == "Llama 3 8B"


def test_a_lower_case_hub_id_of_a_family_names_the_model():
    text = ("# Results\n\n| Model | Accuracy |\n|---|---|\n| opt-6.7b | 0.80 |\n\nWe opt-in to caching "
            "for every run.\n")
    assert stated(claim(extract_text(text, "t.md"), 0.80), "model").value == "opt-6.7b"


def test_a_file_named_like_a_hub_id_is_no_model():
    text = "# Results\n\nSee images/opt-7b.png: the 13B model answers in 43 ms per token on one MI250.\n"
    assert claim(extract_text(text, "t.md"), 43).conditions["model"].status == "unrecoverable"


# -- a scenario named with a plural noun ----------------------------------------------------------------------------
def test_a_scenario_named_with_a_plural_noun_is_read():
    text = ("# Results\n\n## Qwen 8B on one L40S\n\nThe chart shows the output throughput each engine reaches under "
            "offline settings. Our engine reaches about 3,900 tokens per second.\n")
    assert stated(claim(extract_text(text, "t.md"), 3900), "scenario").value == "offline settings"


def test_an_offline_product_named_with_a_plural_noun_is_no_scenario():
    text = ("# Results\n\nIts online serving features include streaming. Our engine reaches about 3,910 tokens per "
            "second on one L40S.\n")
    assert claim(extract_text(text, "t.md"), 3910).conditions["scenario"].status == "unrecoverable"


def test_two_modes_sharing_a_noun_do_not_name_the_second_alone():
    text = ("# Results\n\nOur engine is faster in both online and offline scenarios, with about 3,920 tokens per "
            "second on one L40S.\n")
    assert claim(extract_text(text, "t.md"), 3920).conditions["scenario"].status == "unrecoverable"
