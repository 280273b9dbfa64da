"""Caveat rules fire on their phrasing and stay quiet without it; notes carry quote and span."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from extractor.notes.caveats import CaveatReader, approx_text
from extractor.ingest import ingest
from extractor.records import Claim, Condition, DocumentRecord
from extractor.rules_io import RuleError, default_rules_dir


def doc(text: str):
    return ingest(text, "sample.md", "markdown")


def record(claims=()) -> DocumentRecord:
    return DocumentRecord(doc="sample.md", sha256="0", extractor_version="0", rules_version="0", claims=list(claims))


def claim_at(text: str, quote: str, value: float, *, headline=True, tokens=None, qualifier="exact",
             unit="token / second / gpu", conditions=None) -> Claim:
    i = text.index(quote)
    return Claim(metric="throughput", value=value, unit=unit, qualifier=qualifier, tokens=tokens, per="gpu",
                 headline=headline, quote=quote, span=(i, i + len(quote)), conditions=conditions or {})


def annotate(text: str, claims=()):
    d = doc(text)
    rec = CaveatReader.from_rules().read(d, record(claims).claims)
    for n in rec.caveats + rec.provenance:
        if n.span is not None:
            assert text[n.span[0]:n.span[1]] == n.quote
    return rec


def kinds(notes) -> list[str]:
    return [n.kind for n in notes]


STREAM_ON = [
    "The frontend ran with `--stream-interval 50` to cut overhead.\n",
    "We enabled chunked streaming on the API server.\n",
    "The server buffers output in 32-token chunks before sending.\n",
    "A stream interval of 20 was set on every replica.\n",
]
STREAM_OFF = [
    "Each request streams tokens back as soon as they are decoded.\n",
    "The stream of requests followed a Poisson arrival process.\n",
]


@pytest.mark.parametrize("text", STREAM_ON)
def test_stream_interval_fires(text):
    rec = annotate(text)
    notes = [n for n in rec.caveats if n.kind == "stream-interval"]
    assert len(notes) == 1 and "ITL/TPOT" in notes[0].message and notes[0].span


@pytest.mark.parametrize("text", STREAM_OFF)
def test_stream_interval_quiet(text):
    assert "stream-interval" not in kinds(annotate(text).caveats)


def test_rounded_headline_fires_on_k_suffix_and_about():
    text = "# Serving at 40K tokens/s per GPU\n\nThe engine sustains about 3,100 tok/s per GPU on our cluster.\n"
    rec = annotate(text, [claim_at(text, "40K tokens/s per GPU", 40000),
                          claim_at(text, "about 3,100 tok/s per GPU", 3100)])
    rounded = [n for n in rec.caveats if n.kind == "rounded-headline"]
    assert [n.quote for n in rounded] == ["40K tokens/s per GPU", "about 3,100 tok/s per GPU"]
    assert "~40K" in rounded[0].message


def test_rounded_headline_uses_rounded_twin_of_precise_headline():
    text = "# Hitting 12K tok/s per GPU\n\nMeasured throughput is 12,000 tok/s per GPU.\n"
    precise = claim_at(text, "12,000 tok/s per GPU", 12000)
    twin = claim_at(text, "12K tok/s per GPU", 12000, headline=False)
    rec = annotate(text, [twin, precise])
    assert [n.quote for n in rec.caveats if n.kind == "rounded-headline"] == ["12K tok/s per GPU"]


def test_rounded_headline_quiet_on_precise_figure():
    text = "Measured throughput is 12,345 tok/s per GPU at batch 64.\n"
    rec = annotate(text, [claim_at(text, "12,345 tok/s per GPU", 12345)])
    assert "rounded-headline" not in kinds(rec.caveats)


def test_sweep_best_point_fires_near_headline():
    text = ("## Results\n\nWe varied the request load across many points. The peak throughput reached "
            "9,800 tok/s per GPU on the Pareto frontier.\n")
    rec = annotate(text, [claim_at(text, "9,800 tok/s per GPU", 9800)])
    notes = [n for n in rec.caveats if n.kind == "sweep-best-point"]
    assert len(notes) == 1 and notes[0].quote in ("peak throughput", "Pareto frontier")


def test_sweep_best_point_from_swept_condition():
    text = "Throughput was 5,000 tok/s per GPU. Concurrency ranged from 16 to 512 in our runs.\n"
    q = "from 16 to 512"
    i = text.index(q)
    cond = Condition(status="stated", value={"min": 16, "max": 512}, sweep=True, quote=q, span=(i, i + len(q)))
    rec = annotate(text, [claim_at(text, "5,000 tok/s per GPU", 5000, conditions={"batch_or_concurrency": cond})])
    assert [n.quote for n in rec.caveats if n.kind == "sweep-best-point"] == [q]


def test_sweep_best_point_quiet_for_fixed_measurement():
    text = "## Results\n\nAt a fixed batch of 32 the engine delivers 4,200 tok/s per GPU.\n\n## Recipes & best practices\n\nUse the defaults.\n"
    rec = annotate(text, [claim_at(text, "4,200 tok/s per GPU", 4200)])
    assert "sweep-best-point" not in kinds(rec.caveats)


def test_no_scenario_from_conditions():
    text = "It reaches 2,000 tok/s per GPU.\n"
    unrec = {"scenario": Condition(status="unrecoverable", where="the harness configuration")}
    stated = {"scenario": Condition(status="stated", value="Offline", quote="It", span=(0, 2))}
    assert "no-scenario" in kinds(annotate(text, [claim_at(text, "2,000 tok/s per GPU", 2000, conditions=unrec)]).caveats)
    assert "no-scenario" not in kinds(annotate(text, [claim_at(text, "2,000 tok/s per GPU", 2000, conditions=stated)]).caveats)


def test_no_scenario_from_text_cues_when_conditions_absent():
    named = "We report the Offline scenario: 2,000 tok/s per GPU.\n"
    bare = "Our engine reaches 2,000 tok/s per GPU.\n"
    assert "no-scenario" not in kinds(annotate(named, [claim_at(named, "2,000 tok/s per GPU", 2000)]).caveats)
    rec = annotate(bare, [claim_at(bare, "2,000 tok/s per GPU", 2000)])
    msg = [n.message for n in rec.caveats if n.kind == "no-scenario"]
    assert msg and "MLPerf Offline or Server" in msg[0]
    assert "no-scenario" not in kinds(annotate(bare).caveats)  # no claims, nothing to compare


@pytest.mark.parametrize("tokens,where,word", [("total", "provenance", "total"), ("output", "provenance", "output"),
                                                (None, "caveats", "total or output")])
def test_tokens_counted(tokens, where, word):
    text = "The cluster serves 7,000 tok/s per GPU.\n"
    rec = annotate(text, [claim_at(text, "7,000 tok/s per GPU", 7000, tokens=tokens)])
    notes = [n for n in getattr(rec, where) if n.kind == "tokens-counted"]
    assert len(notes) == 1 and word in notes[0].message and notes[0].quote == "7,000 tok/s per GPU"


REPRO = """# Reproducing the run

Pull `ghcr.io/acme/infer-server:v2.3.1@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef`
and install `fastserve==0.9.2`. The full configs live in the [bench-configs recipes](https://github.com/acme/bench-configs/tree/main/recipes/llama).

```bash
# start the benchmark
$ vllm bench serve --model my-model --max-concurrency 64
```

```bash
pip install foo
vllm serve my-model
```
"""


def test_reproducibility_signals():
    rec = annotate(REPRO)
    by = {}
    for n in rec.provenance:
        by.setdefault(n.kind, []).append(n.quote)
    assert by["repro-image-digest"] == ["sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"]
    assert "v2.3.1" in by["repro-pinned-version"] and "==0.9.2" in by["repro-pinned-version"]
    assert by["repro-recipe"] == ["bench-configs recipes"]
    assert by["repro-command"] == ["vllm bench serve --model my-model --max-concurrency 64"]


def test_reproducibility_quiet_without_signals():
    text = "We ran the benchmark on our cluster and saw 3.1x higher throughput than version 1.\n"
    assert not [n for n in annotate(text).provenance if n.kind.startswith("repro-")]


def test_approx_text():
    assert approx_text(25000) == "~25K" and approx_text(1_200_000) == "~1.2M" and approx_text(800) == "~800"


def test_bad_regex_names_file_and_entry(tmp_path: Path):
    rules = tmp_path / "rules"
    shutil.copytree(default_rules_dir(), rules, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    f = rules / "caveats.yaml"
    f.write_text(f.read_text().replace("'\\bchunked", "'(\\bchunked", 1))
    with pytest.raises(RuleError) as err:
        CaveatReader.from_rules(rules)
    assert "caveats.yaml" in str(err.value) and "stream_interval" in str(err.value) and "bad regex" in str(err.value)


def test_reader_is_cached():
    assert CaveatReader.from_rules() is CaveatReader.from_rules()


def test_annotate_fast_on_40kb_post():
    para = ("The serving stack was tuned for latency and throughput across several batch sizes, "
            "and we describe each optimisation below with its measured effect on the decode step. ")
    text = "---\ntitle: A long post\nauthor: Example Labs Team\n---\n\n" + "\n\n".join(
        f"## Part {i}\n\n{para * 3}" for i in range(80))
    assert len(text) > 40_000
    d = doc(text)
    rec = record([claim_at(text, "batch sizes", 1.0)])
    reader = CaveatReader.from_rules()
    reader.read(d, rec.claims)
    best = min(_timed(reader, d, rec) for _ in range(5))
    assert best < 0.004  # target 2 ms; slack for loaded CI machines


def _timed(reader, d, rec) -> float:
    t0 = time.perf_counter()
    reader.read(d, rec.claims)
    return time.perf_counter() - t0
