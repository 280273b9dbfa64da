"""Code as a source of conditions (extractor/conditions/code/): the run's Python read with `ast`, its shell
commands with `shlex` and the harness table (rules/harnesses.yaml). Posts written for these tests; each class
has its negatives: code that runs nothing, code after the result, a command the post calls an example, a
command of another experiment, a draft model beside the measured one."""
from __future__ import annotations

import pytest

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text
from extractor.conditions.code.harnesses import HarnessFile, load_harnesses
from extractor.conditions.code.python import PythonReader, parse
from extractor.conditions.code.shell import ShellReader
from extractor.conditions.code.source import block_source
from extractor.rules_io import RuleError

FENCE = "```"

TIMED_SCRIPT = f"""# Speeding up a small model

## Measuring generation

The script below loads the model and times generation.

{FENCE}python
import time
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

model_id = "acme-labs/tiny-chat-3b"
tokenizer = AutoTokenizer.from_pretrained(model_id)
model = AutoModelForCausalLM.from_pretrained(model_id, torch_dtype=torch.bfloat16).to("cuda")
prompt = "Name three rivers of Europe."
inputs = tokenizer(prompt, return_tensors="pt").to("cuda")

for _ in range(3):
    model.generate(**inputs, max_new_tokens=16)

start = time.perf_counter()
out = model.generate(**inputs, max_new_tokens=128)
elapsed = time.perf_counter() - start
print(f"{{128 / elapsed:.1f}} tokens/s")
{FENCE}

Running it prints the speed: generation reaches 41.7 tokens/s.
"""


def test_the_timed_script_before_a_result_states_its_settings():
    c = claim(extract_text(TIMED_SCRIPT, "t.md"), 41.7)
    model = stated(c, "model")
    assert model.value == "acme-labs/tiny-chat-3b" and model.scope == "code"
    assert stated(c, "precision").value == "BF16"
    assert stated(c, "parallelism").value == "single GPU"
    assert "Name three rivers" in stated(c, "dataset").value
    assert stated(c, "warmup").value.startswith("3 warm-up runs")
    # two calls set max_new_tokens (16 in the warm-up, 128 timed): the code does not say one length
    unrecoverable(c, "output_length")


def test_code_that_times_nothing_states_nothing():
    text = TIMED_SCRIPT.replace("import time\n", "").replace("start = time.perf_counter()\n", "") \
        .replace("elapsed = time.perf_counter() - start\n", "elapsed = 1.0\n")
    c = claim(extract_text(text, "t.md"), 41.7)
    for name in ("model", "precision", "parallelism", "dataset", "warmup"):
        unrecoverable(c, name)


def test_code_after_the_result_did_not_produce_it():
    head, _, tail = TIMED_SCRIPT.partition("The script below")
    result = "Running it prints the speed: generation reaches 41.7 tokens/s.\n"
    text = head + result + "\nThe script below" + tail.replace(result, "")
    c = claim(extract_text(text, "t.md"), 41.7)
    unrecoverable(c, "precision")
    unrecoverable(c, "warmup")


def test_the_timed_script_of_another_section_is_another_experiment():
    text = TIMED_SCRIPT + "\n## A larger model\n\nOn the larger checkpoint generation reaches 12.9 tokens/s.\n"
    c = claim(extract_text(text, "t.md"), 12.9)
    unrecoverable(c, "precision")
    unrecoverable(c, "dataset")


def test_the_run_code_settles_which_of_two_named_models_was_measured():
    text = TIMED_SCRIPT.replace(
        "The script below loads the model and times generation.",
        "We use acme-labs/tiny-chat-3b as the target and acme-labs/tiny-chat-1b as the draft.") \
        .replace('model_id = "acme-labs/tiny-chat-3b"\n',
                 'model_id = "acme-labs/tiny-chat-3b"\n'
                 'draft_model = AutoModelForCausalLM.from_pretrained("acme-labs/tiny-chat-1b")\n')
    c = claim(extract_text(text, "t.md"), 41.7)
    assert stated(c, "model").value == "acme-labs/tiny-chat-3b"


def test_a_warmup_count_and_the_cells_before_the_timed_cell():
    text = f"""# Notebook

## Timing

{FENCE}python
n_warmup = 5
batch_size = 8
dtype = torch.float16
{FENCE}

{FENCE}python
for _ in range(n_warmup):
    run(batch_size)
t0 = time.time()
run(batch_size)
print(time.time() - t0)
{FENCE}

The kernel takes 3.4 ms per call.
"""
    c = claim(extract_text(text, "t.md"), 3.4)
    assert stated(c, "warmup").value == "n_warmup = 5"
    assert stated(c, "batch_or_concurrency").value == 8
    assert stated(c, "precision").value == "FP16"


SERVE_AND_BENCH = f"""# Serving a model

## Benchmark

We launch the server and then run the benchmark client.

{FENCE}bash
vllm serve acme-labs/tiny-chat-70b \\
  --tensor-parallel-size 4 --dtype bfloat16
{FENCE}

{FENCE}bash
vllm bench serve --model acme-labs/tiny-chat-70b --dataset-name random \\
  --random-input-len 2048 --random-output-len 256 --max-concurrency 32
{FENCE}

The server sustains 5,120 output tokens/s.
"""


def test_a_serve_and_a_benchmark_command_state_the_run():
    c = claim(extract_text(SERVE_AND_BENCH, "t.md"), 5120)
    assert stated(c, "parallelism").value == "TP4"
    assert stated(c, "input_length").value == 2048
    assert stated(c, "output_length").value == 256
    assert stated(c, "batch_or_concurrency").value == 32
    assert stated(c, "precision").value == "BF16"
    assert stated(c, "parallelism").scope == "command_line"


def test_a_command_the_post_calls_an_example_states_nothing():
    text = SERVE_AND_BENCH.replace("We launch the server and then run the benchmark client.",
                                   "The commands below are only an example of how to start it.")
    c = claim(extract_text(text, "t.md"), 5120)
    for name in ("parallelism", "input_length", "batch_or_concurrency"):
        unrecoverable(c, name)


def test_a_server_without_a_benchmark_is_a_usage_example():
    text = SERVE_AND_BENCH.split(f"{FENCE}bash\nvllm bench")[0] + \
        "Then send it requests with any OpenAI client.\n\nThe server sustains 5,120 output tokens/s.\n"
    unrecoverable(claim(extract_text(text, "t.md"), 5120), "parallelism")


def test_a_server_launched_right_before_the_result_is_the_run_s():
    text = SERVE_AND_BENCH.split(f"{FENCE}bash\nvllm bench")[0] + "The server sustains 5,120 output tokens/s.\n"
    c = claim(extract_text(text, "t.md"), 5120)
    assert stated(c, "parallelism").value == "TP4"
    unrecoverable(c, "input_length")


def test_a_command_of_another_section_is_another_experiment():
    text = SERVE_AND_BENCH + "\n## Long context\n\nWith long prompts it keeps 1,480 output tokens/s.\n"
    c = claim(extract_text(text, "t.md"), 1480)
    unrecoverable(c, "input_length")
    unrecoverable(c, "batch_or_concurrency")


# -- the readers on their own -----------------------------------------------------------------------
def _src(code: str, lang: str, indent: str = ""):
    text = "".join(indent + line + "\n" for line in [f"{FENCE}{lang}", *code.splitlines(), FENCE])
    return text, block_source(text, 0, len(text), lang)


@pytest.mark.parametrize("command,expected", [
    ("python3 -m sglang.bench_one_batch --model-path org/m --batch-size 16 --input-len 512 --output-len 64 --tp 2",
     {"model": "org/m", "batch_or_concurrency": "16", "input_length": "512", "output_length": "64",
      "parallelism": "2"}),
    ("genai-perf profile -m org/m --concurrency 10 --synthetic-input-tokens-mean 200 --output-tokens-mean 100",
     {"model": "org/m", "batch_or_concurrency": "10", "input_length": "200", "output_length": "100"}),
    ("llama-bench -m model.gguf -p 512,1024 -n 128",
     {"model": "model.gguf", "input_length": "512,1024", "output_length": "128"}),
    ("torchrun --nproc_per_node 8 benchmark_latency.py --batch-size 4", {"gpu_count": "8", "batch_or_concurrency": "4"}),
    ("CUDA_VISIBLE_DEVICES=0 python benchmarks/benchmark_serving.py --request-rate=4 && echo done",
     {"batch_or_concurrency": "4"}),
    ("docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.9.0 --model org/m --tensor-parallel-size 8",
     {"model": "org/m", "parallelism": "8"}),
    ("optimum-benchmark backend.model=org/m scenario.input_shapes.batch_size=2", {"model": "org/m",
                                                                                   "batch_or_concurrency": "2"}),
])
def test_harness_options_are_read_by_the_table(command, expected):
    text, src = _src(command, "bash")
    found = {s.reading.condition: s.value for cmd in ShellReader(load_harnesses()).commands(src) for s in cmd.settings}
    assert found == expected
    for cmd in ShellReader(load_harnesses()).commands(src):
        for s in cmd.settings:   # every setting keeps the span of what the command writes
            assert s.value.split(",")[0] in text[s.span[0]:s.span[1]]


def test_commands_that_are_no_harness_state_nothing():
    _, src = _src("pip install vllm==0.9.0\n# vllm bench serve --max-concurrency 8\necho 'vllm serve x --tp 4'", "bash")
    assert ShellReader(load_harnesses()).commands(src) == []


def _scripts_read(harnesses: list[dict], command: str) -> list[str]:
    table = HarnessFile.model_validate({"harnesses": harnesses})
    return [cmd.harness.name for cmd in ShellReader(table).commands(_src(command, "bash")[1])]


def test_a_script_harness_program_is_a_glob_of_the_file_name():
    any_py = {"name": "script", "program": ["*.py"], "role": "script", "options": {"--steps": "output_length"}}
    # the installed table's `*.py`: any Python script run by path, and nothing else
    for command, expected in [("python tools/gen.py --steps 64", ["script"]), ("python3 gen.py", ["script"]),
                              ("python notes.txt --steps 64", []), ("python gen.PY --steps 64", []),
                              ("python -m gen --steps 64", [])]:
        assert _scripts_read([any_py], command) == expected, command
    assert ShellReader(load_harnesses()).script_harness("generate.py").program == ["*.py"]
    # a narrower glob first: the first script harness whose glob matches reads the command
    bench = {"name": "bench_script", "program": ["bench_*.py"], "role": "script", "options": {}}
    assert _scripts_read([bench, any_py], "python bench_decode.py --steps 8") == ["bench_script"]
    assert _scripts_read([bench, any_py], "python decode_bench.py --steps 8") == ["script"]
    assert _scripts_read([bench], "python decode_bench.py --steps 8") == []
    with pytest.raises(ValueError, match="one glob"):
        HarnessFile.model_validate({"harnesses": [{**any_py, "program": ["*.py", "run"]}]})


def test_a_quoted_indented_block_keeps_exact_offsets():
    text, src = _src('model = AutoModel.from_pretrained("org/name-7b", torch_dtype=torch.float16)\nt = time.time()',
                     "python", indent="> ")
    block = PythonReader(load_harnesses().python, load_harnesses().precision).read(src, parse(src))
    assert block.times
    quotes = {f.key: text[f.span[0]:f.span[1]] for f in block.findings}
    assert quotes == {"model": '"org/name-7b"', "torch_dtype": "torch_dtype=torch.float16"}


def test_a_model_loaded_as_a_draft_or_a_tokenizer_is_not_the_measured_model():
    _, src = _src('draft = AutoModelForCausalLM.from_pretrained("org/small-1b")\n'
                  'tok = AutoTokenizer.from_pretrained("org/big-70b")\n'
                  'gen = pipeline(model="org/big-70b", assistant_model=AutoModel.from_pretrained("org/tiny-1b"))',
                  "python")
    block = PythonReader(load_harnesses().python, load_harnesses().precision).read(src, parse(src))
    assert [f.value for f in block.findings if f.reading.condition == "model"] == ["org/big-70b"]


def test_device_map_auto_is_no_single_device():
    _, src = _src('m = AutoModel.from_pretrained("org/m-7b", device_map="auto")\nx = x.to("cuda")', "python")
    block = PythonReader(load_harnesses().python, load_harnesses().precision).read(src, parse(src))
    assert block.single is not None and block.multi


def test_output_and_prose_are_no_python():
    for code in ("Tokens/second: 37.5 (1984 tokens)", "nvidia-smi", "The model is fast."):
        _, src = _src(code, "python")
        assert parse(src) is None


def test_a_harness_table_with_an_unknown_condition_is_refused(tmp_path):
    (tmp_path / "harnesses.yaml").write_text(
        "harnesses:\n  - name: x\n    program: [x-bench]\n    role: benchmark\n    options: {--n: lenght}\n")
    with pytest.raises(RuleError, match="unknown condition"):
        load_harnesses(tmp_path)
    with pytest.raises(ValueError):
        HarnessFile.model_validate({"harnesses": [{"name": "y", "program": ["y"], "role": "benchmark",
                                                   "options": {"n": "batch_or_concurrency"}}]})


STEPS = f"""# Quantizing a translator

## Comparison

### 1. The script

{FENCE}python
import time
translator = Translator("model_dir/", device="cuda", compute_type="int8")
sentence = "The weather is fine."
start = time.time()
translator.translate_batch([tokenize(sentence)])
print(time.time() - start)
{FENCE}

### 2. Output

{FENCE}
0.0421
{FENCE}

The quantized model translates the sentence with a latency of 42.1 ms.

### 3. Outlook

Other work reports that quantization can cut latency by about 75% in general.
"""


def test_the_output_section_reads_the_script_of_the_step_before():
    c = claim(extract_text(STEPS, "t.md"), 42.1)
    assert stated(c, "parallelism").value == "single GPU"
    assert "The weather is fine." in stated(c, "dataset").value


def test_a_section_without_output_does_not_read_the_script_of_another_step():
    c = claim(extract_text(STEPS, "t.md"), -75)
    unrecoverable(c, "dataset")
    unrecoverable(c, "parallelism")
