"""Notebook-style posts: the run's code spread over cells under several headings (the model loaded under one,
the timed function defined under another, called under a third). The cells the timed cells read names from are
the run's code (extractor/conditions/code/flow.py); posts written for these tests, with their negatives: a
model loaded but not read by the timed code, a name bound again before the timing, a cell after the result."""
from __future__ import annotations

import ast

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text
from extractor.conditions.code.flow import cell_names, feeding

FENCE = "```"


def _notebook(load: str, extra: str = "", after: str = "") -> str:
    return f"""# Generating code with a small model

## Loading the model

{FENCE}python
import time
from transformers import AutoModelForCausalLM, AutoTokenizer
{load}
{FENCE}
{extra}
## Timing generation

A helper that times one generation and prints the speed.

{FENCE}python
def generate_timed(text):
    start = time.perf_counter()
    ids = tokenizer(text, return_tensors="pt").to("cuda")
    out = model.generate(**ids, max_new_tokens=300)
    print(len(out[0]) / (time.perf_counter() - start), "tokens/s")
{FENCE}

### A sorting task

{FENCE}python
query = "Write a function that sorts a list of words by length."
generate_timed(query)
{FENCE}

The model writes the function at 61.3 tokens per second.
{after}"""


LOAD = """checkpoint = "acme-labs/coder-mini-2b"
tokenizer = AutoTokenizer.from_pretrained(checkpoint)
model = AutoModelForCausalLM.from_pretrained(checkpoint).to("cuda")"""


def test_the_model_loaded_under_another_heading_is_the_timed_run_s():
    c = claim(extract_text(_notebook(LOAD), "n.md"), 61.3)
    assert stated(c, "model").value == "acme-labs/coder-mini-2b"
    assert stated(c, "parallelism").value == "single GPU"
    assert stated(c, "output_length").value == 300
    assert "sorts a list of words" in stated(c, "dataset").value


def test_a_model_the_timed_code_does_not_read_is_not_the_run_s():
    other = f"""
## A larger model for later

{FENCE}python
big_model = AutoModelForCausalLM.from_pretrained("acme-labs/coder-large-34b")
{FENCE}
"""
    c = claim(extract_text(_notebook(LOAD, extra=other), "n.md"), 61.3)
    assert stated(c, "model").value == "acme-labs/coder-mini-2b"


def test_the_latest_binding_before_the_run_is_the_one_read():
    reload = f"""
## Switching to the instruct variant

{FENCE}python
model = AutoModelForCausalLM.from_pretrained("acme-labs/coder-mini-2b-instruct")
{FENCE}
"""
    c = claim(extract_text(_notebook(LOAD, extra=reload), "n.md"), 61.3)
    assert stated(c, "model").value == "acme-labs/coder-mini-2b-instruct"


def test_a_cell_after_the_result_feeds_nothing():
    later = f"""
## Trying another checkpoint

{FENCE}python
model = AutoModelForCausalLM.from_pretrained("acme-labs/coder-large-34b")
generate_timed("Reverse a string.")
{FENCE}
"""
    no_load = """tokenizer = AutoTokenizer.from_pretrained(path_on_disk)
model = AutoModelForCausalLM.from_pretrained(path_on_disk)"""
    c = claim(extract_text(_notebook(no_load, after=later), "n.md"), 61.3)
    unrecoverable(c, "model")


def test_cell_names_binds_and_free_names():
    tree = ast.parse("import torch\nmodel = torch.compile(model)\ndef f(x):\n    return tok(x) + y\ny = 2\n")
    names = cell_names(tree)
    assert names.binds == {"torch", "model", "f", "y"}
    assert "model" in names.free and "tok" in names.free       # read before (or without) a binding here
    assert "x" not in names.free and "y" not in names.free     # a parameter; a name the cell binds
    cells = {0: cell_names(ast.parse("model = load()")), 1: cell_names(ast.parse("model = load2()")),
             2: cell_names(ast.parse("def run():\n    model.go()")), 3: cell_names(ast.parse("run()")),
             4: cell_names(ast.parse("model = load3()"))}
    assert feeding(cells, {3}) == {3: {1, 2}}


def test_one_prompt_passed_whole_is_a_batch_of_one():
    c = claim(extract_text(_notebook(LOAD), "n.md"), 61.3)
    assert stated(c, "batch_or_concurrency").value == 1


def test_a_prompt_repeated_into_a_batch_or_several_prompts_are_no_batch_of_one():
    repeated = _notebook(LOAD).replace("generate_timed(query)", "generate_timed([query] * 8)")
    unrecoverable(claim(extract_text(repeated, "n.md"), 61.3), "batch_or_concurrency")
    several = _notebook(LOAD).replace('query = "Write a function that sorts a list of words by length."',
                                      'query = ["Sort words by length.", "Reverse a string."]')
    unrecoverable(claim(extract_text(several, "n.md"), 61.3), "batch_or_concurrency")


def _modes(second_load: str = "") -> str:
    return f"""# Compiling an image classifier

## Speeding up the classifier

### Loading

{FENCE}python
import time
import torch
model = torch.hub.load("acme-vision/zoo:v1.2", "convnet50", pretrained=True).to("cuda")
image = torch.rand(1, 3, 224, 224).to("cuda")

def timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start
{FENCE}

### Eager mode

{FENCE}python
print(timed(lambda: model(image)))
{FENCE}

Eager inference takes 12.0 ms.

### Compiled mode

{FENCE}python
{second_load}fast = torch.compile(model)
print(timed(lambda: fast(image)))
{FENCE}

Compiled inference takes 5.0 ms.

### Comparing the modes

Compilation makes the classifier 2.4x faster than eager mode.
"""


def test_a_model_loaded_from_a_hub_repository():
    c = claim(extract_text(_modes(), "m.md"), 12.0)
    assert stated(c, "model").value == "convnet50 (acme-vision/zoo:v1.2)"


def test_a_comparison_after_several_runs_reads_what_they_share():
    c = claim(extract_text(_modes(), "m.md"), 2.4)
    assert stated(c, "model").value == "convnet50 (acme-vision/zoo:v1.2)"
    assert stated(c, "parallelism").value == "single GPU"


def test_runs_of_different_models_leave_the_comparison_s_model_unrecoverable():
    other = 'model = torch.hub.load("acme-vision/zoo:v1.2", "convnet101", pretrained=True).to("cuda")\n'
    text = _modes(other)
    assert stated(claim(extract_text(text, "m.md"), 5.0), "model").value == "convnet101 (acme-vision/zoo:v1.2)"
    unrecoverable(claim(extract_text(text, "m.md"), 2.4), "model")


def test_a_cell_the_run_reads_from_counts_though_its_lead_in_calls_it_an_example():
    text = _notebook(LOAD).replace("## Loading the model\n\n",
                                   "## Loading the model\n\nHere is an example of how to load the checkpoint.\n\n")
    assert stated(claim(extract_text(text, "n.md"), 61.3), "model").value == "acme-labs/coder-mini-2b"


def test_a_default_device_set_to_one_gpu_is_a_single_device_run():
    load = 'torch.set_default_device("cuda")\n' + LOAD.replace('.to("cuda")', "")
    text = _notebook("import torch\n" + load).replace('.to("cuda")', "")
    assert stated(claim(extract_text(text, "n.md"), 61.3), "parallelism").value == "single GPU"
    spread = text.replace('torch.set_default_device("cuda")', 'torch.set_default_device("cuda")\n'
                          'model = torch.nn.DataParallel(model)')
    unrecoverable(claim(extract_text(spread, "n.md"), 61.3), "parallelism")
