"""The mention finder's shortcut (try a regex only where the strings its matches begin with start)
finds exactly what a plain `finditer` finds, for every rule regex, on hostile text too."""
from __future__ import annotations

import re

from hostile_text import pieced_texts
from hypothesis import given, settings

from extractor.conditions.mentions import MentionFinder, default_finder as finder
from extractor.conditions.scan import matches_at, text_blocks
from extractor.regex_starts import CASE_TRAPS, searchable, start_strings

PIECES = [
    "TP=8", "tp 4", "EP8", "DEP16", "dp2 pp2", "DP attention", "expert parallel", "Llama-3.1-70B",
    "meta-llama/Llama-3.3-70B-Instruct", "Qwen3-235B-A22B", "DeepSeek-R1", "gpt-oss-120b", "Mixtral 8x7B",
    "H100", "8x H200", "MI300X", "AMD Instinct MI355X", "B200", "GB200 NVL72", "Apple M3 Max", "TPU v5e",
    "vLLM v0.10.1", "SGLang", "TensorRT-LLM", "trtllm", "FP8", "NVFP4", "W4A16", "int8", "bf16", "AWQ",
    "input length 1024", "ISL/OSL 1k/1k", "output length of 128 tokens", "2048 input tokens",
    "batch size 64", "bs=32", "concurrency 1, 4, 16", "max concurrency of 256", "cc=8", "request rate 10",
    "10 req/s", "QPS", "warm-up", "warmup runs", "MLPerf Offline", "Server scenario", "max throughput",
    "min latency", "prefix caching", "--enable-prefix-caching", "speculative decoding", "EAGLE-3",
    "--tp 8", "--max-concurrency 64", "--input-len 1000", "2 nodes", "8 GPUs per node", "ShareGPT",
    "random dataset", "GSM8K", "MMLU-Pro", "https://example.org/x.png", "İ", "ı", "ſ", "K", "×", "\u00a0",
    "step", "deep", "app", "into", "point", "minimum", "optimal", "\n\n", "\n", " ", ", ", ". ", "(", ")",
    ":", "=", "-", "/", "_", "1", "8", "64", "1,024", "3.5", "k", "x", "A10G", "h2", "b3", "٣",
]


def texts():
    return pieced_texts(PIECES)


def _casings(text: str) -> list[str]:
    return [text, text.upper(), text.lower(), text.swapcase()]


@settings(max_examples=60, deadline=None)
@given(texts())
def test_every_match_begins_with_a_start_string(text: str):
    if not searchable(text):
        return
    for t in finder()._tasks:
        starts = start_strings(t.rx.pattern, t.rx.flags, digits=True)
        if not starts:
            continue
        for variant in _casings(text):
            low = variant.lower()
            if len(low) != len(variant):
                continue
            for m in t.rx.finditer(variant):
                assert low.startswith(tuple(starts), m.start()), (t.rx.pattern[:80], variant, m)


@settings(max_examples=40, deadline=None)
@given(texts())
def test_matches_at_start_positions_equal_finditer(text: str):
    f = finder()
    for variant in _casings(text):
        blocks = text_blocks(variant)
        _, hits = f._todo(variant, blocks)
        for t, task in enumerate(f._tasks):
            starts = f._starts(t, hits)
            if starts is None:
                continue
            got = [m.span() for m in matches_at(task.rx, variant, blocks, starts)]
            want = [m.span() for a, e in blocks for m in task.rx.finditer(variant, a, e) if m.end() > m.start()]
            assert got == want, (task.rx.pattern[:80], variant)


def test_start_strings_of_simple_patterns():
    assert start_strings(r"(?<![\w-])(?:max|min)imum\s+\d+", re.I) == {"maximum", "minimum"}
    assert start_strings(r"(?:Apple\s+)?M[1-3]\s+Pro", re.I) == {"apple", "m1", "m2", "m3"}
    assert start_strings(r"\d+\s*GPUs") is None          # begins with a digit class
    assert start_strings(r"(?:x)?") is None               # may be empty
    assert start_strings(r"a|bc") is None                 # "a" is too short to look for
    assert start_strings(r"TP(?=\d)|EP\d") == {"tp", "ep"}


def test_too_many_start_strings_are_cut_short():
    """40 optional prefixes times 7 words: more than MAX_SET strings, so they are cut to a length that
    leaves fewer (a match beginning with "org12/gamma" begins with "org12/")."""
    orgs = "|".join(f"org{i}/" for i in range(40))
    found = start_strings(rf"(?:{orgs})?(?:alpha|beta|gamma|delta|epsilon|zeta|eta)x")
    assert found is not None and {"org12/", "org3/", "alphax", "etax"} <= found
    assert len(found) == 47


def test_digit_classes_are_read_only_where_nothing_else_is_known():
    assert start_strings(r"[HB]\d{2,3}|L4") is None
    assert start_strings(r"[HB]\d{2,3}|L4", digits=True) == {f"{c}{d}" for c in "hb" for d in "0123456789"} | {"l4"}
    assert start_strings(r"\d+\s*GPUs", digits=True) is None     # would open with a digit
    assert start_strings(r"01-ai/|x\d", digits=True) == {"01-ai/", *(f"x{d}" for d in "0123456789")}
    assert start_strings(r"TP\d|TP=", digits=True) == {"tp"} == start_strings(r"TP\d|TP=")


def test_texts_with_other_digits_are_not_searched_for_start_strings():
    """`\\d` also matches "١" (Arabic-Indic one): a start string "h1" would miss "H١٠٠"."""
    assert searchable("8×H100, ~3 µs") and not searchable("H١٠٠") and not searchable("ſpeculative")
    found = [m.quote for m in finder().find("two H١٠٠ GPUs, one H100") if m.kind == "hardware"]
    assert found == ["two H١٠٠", "one H100"]


def test_start_positions_are_skipped_on_case_traps():
    f = finder()
    for text in ("ſpeculative decoding with TP=8", "İnput length 128"):
        blocks = text_blocks(text)
        _, hits = f._todo(text, blocks)
        assert all(f._starts(t, hits) is None for t in range(len(f._tasks)))


def _cue_blocks_by_lookup(f: MentionFinder, text: str, blocks: list[tuple[int, int]]) -> dict[int, list[int]]:
    """The prefilter spelled out: for each task, the blocks in which one of its cues begins."""
    low = text.lower()
    out: dict[int, list[int]] = {}
    for t, task in enumerate(f._tasks):
        if not task.cues:
            out[t] = list(range(len(blocks)))
            continue
        found = [b for b, (a, e) in enumerate(blocks) if any(low.startswith(c, i) for c in task.cues
                                                               for i in range(a, e))]
        if found:
            out[t] = found
    return out


@settings(max_examples=25, deadline=None)
@given(texts())
def test_one_scan_finds_the_blocks_of_every_cue(text: str):
    if any(c in text for c in CASE_TRAPS):
        return
    f = finder()
    text = text + "\n\n" + text.upper()
    blocks = text_blocks(text)
    todo, _ = f._todo(text, blocks)
    assert todo == _cue_blocks_by_lookup(f, text, blocks)


def test_cues_written_with_case_traps_are_found():
    """"ſ" and "ı" match "s" and "i" under IGNORECASE, "İ" lowercases to two characters: the scan
    folds them to one ASCII letter, so offsets hold and the rule still runs."""
    for text, kind in (("ſpeculative decoding with TP=8", "speculative_decoding"),
                       ("İnput length of 128 tokens", "input_length"), ("prefıx caching on", "prefix_caching")):
        assert kind in {m.kind for m in finder().find(text)}, text
