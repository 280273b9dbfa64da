"""The conditions stage's data flow: the document's context is built whole and only read after that (each reader
memoises in an object of its own), the rung readers come from a registry, and a hardware value's count and name
travel as fields, not as text read back."""
from __future__ import annotations

import pytest

from extractor.conditions.located import Located
from extractor.conditions.rules import load_scope_rules
from extractor.conditions.rungs import rung_reader, rung_readers
from extractor.conditions.statement import DeviceName
from extractor.pipeline import Extractor
from extractor.rules_io import default_rules_dir

# A post of our own: a setup section, a contrast of two settings bound to two metric families, a table, a
# highlight bullet and a result in a list.
POST = """# Serving a small model

- Faster batching: up to 1.8x higher throughput.

## Setup

All runs use Llama-3-8B on 2 nodes with 4x H100 each, vLLM v0.6.0.

## Results

We used batch size 64 for peak throughput, batch size 1 for TTFT.

The server reached 9,100 tokens per second. TTFT stayed at 85 ms.

| Model | Batch size | Throughput (tok/s) |
|---|---|---|
| Llama-3-8B | 8 | 2,400 |
| Llama-3-8B | 32 | 6,900 |

## Faster batching

Batching the prefill gave 1.8x the throughput of the previous release.
"""


def _state(x: Located) -> tuple:
    return tuple(getattr(x, f) for f in Located.__slots__)


def _resolved(extractor: Extractor, text: str):
    """The document's conditions state, and a snapshot of its context before the claims are resolved."""
    captured = {}
    conditions = extractor.conditions
    attach = conditions.attach

    def spy(doc, placed, leads=frozenset()):
        ctx = doc.ctx
        captured["before"] = ([_state(x) for x in ctx.mentions],
                              {name: (id(value), len(value)) for name, value in _containers(ctx)})
        captured["doc"] = doc
        return attach(doc, placed, leads)

    conditions.attach = spy
    try:
        record = extractor.extract(text, doc="t.md", fmt="markdown", path=None, sha256="0")
    finally:
        del conditions.attach
    return record, captured


def _containers(ctx) -> list[tuple[str, object]]:
    return [(name, getattr(ctx, name)) for name in ctx.__slots__
            if isinstance(getattr(ctx, name), (list, dict, set))]


def test_resolving_the_claims_reads_the_context_and_changes_nothing_in_it():
    record, captured = _resolved(Extractor.from_rules(), POST)
    assert len(record.claims) >= 4
    ctx = captured["doc"].ctx
    mentions, containers = captured["before"]
    assert [_state(x) for x in ctx.mentions] == mentions   # no mention filled in by a reader afterwards
    assert {name: (id(value), len(value)) for name, value in _containers(ctx)} == containers
    # the ladder's memos (shared rungs) went with its reading once the claims were resolved
    assert captured["doc"].ladder is None


def test_the_context_holds_no_reader_cache():
    # what the context holds is the document and its indexes: a reader's memo is an attribute of its own object
    from extractor.conditions.context import DocContext
    for cache in ("rungs", "universal", "fuller_names", "specific", "columns", "row_starts", "notes", "figure_after",
                  "feature_links", "external_cue", "caption_families", "mode_settings", "settings_of", "offers"):
        assert cache not in DocContext.__slots__


def test_a_setting_is_bound_while_the_context_is_built():
    # "batch size 64 for peak throughput, batch size 1 for TTFT": each setting is bound to its family when the
    # document reader builds it, not later by the binder writing into it
    _, captured = _resolved(Extractor.from_rules(), POST)
    bound = {(x.m.quote, x.for_family) for x in captured["doc"].ctx.mentions if x.for_family}
    assert bound == {("batch size 64", "rate"), ("batch size 1", "latency")}


def test_every_rung_of_the_ladder_has_a_registered_reader():
    readers = rung_readers()
    ladder = load_scope_rules(default_rules_dir()).ladder
    assert {rung.reader for rung in ladder} <= set(readers)
    assert ladder[0].reader == "sentence"


def test_a_rung_reader_name_is_registered_once():
    name = next(iter(rung_readers()))
    with pytest.raises(ValueError, match="registered twice"):
        rung_reader(name)(lambda lad, site: [])
    # the same function again is no second registration
    rung_reader(name)(rung_readers()[name])


def test_a_device_is_written_count_times_name_with_its_nodes():
    assert str(DeviceName("H100", 8, 2)) == "8x H100 (2 nodes x 4)"
    assert str(DeviceName("H100", 8)) == "8x H100"
    assert str(DeviceName("H100")) == "H100"
    assert DeviceName("H100", 8, 2).name == "H100"


def test_a_count_the_claims_sentence_contradicts_leaves_the_device_name_without_it():
    # the section counts 8 GPUs with the device, the claim's own sentence says 2: the nearer count stands and the
    # hardware keeps the device's name alone (its count field carried, not cut from the text "8x H100 ...")
    text = """# Results

## Setup

The cluster has 2 nodes with 4x H100 each.

## Numbers

On 2 GPUs the engine served 3,300 tokens per second.
"""
    record = Extractor.from_rules().extract(text, doc="t.md", fmt="markdown", path=None, sha256="0")
    claim = next(c for c in record.claims if c.value == 3300)
    hw, n = claim.conditions["hardware"], claim.conditions["gpu_count"]
    assert (n.value, n.scope) == (2, "sentence")
    assert (hw.value, hw.count) == ("H100", None)

