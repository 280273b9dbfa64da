"""The audit renders the record: title line, conditions, notes, SCENARIO, ABSENT CONDITIONS."""
from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from extractor.audit import render_audit
from extractor.cli import app
from extractor.records import Claim, Condition, DocumentRecord, Note

TEXT = "Acme serve 2.4.1 reaches 31,500 tok/s per GPU on 4xH100 with Llama-3-70B, ISL 2048 and OSL 256."


def span(q: str) -> tuple[int, int]:
    i = TEXT.index(q)
    return (i, i + len(q))


def stated(value, q, **kw) -> Condition:
    return Condition(status="stated", value=value, quote=q, span=span(q), scope="sentence", **kw)


def build() -> DocumentRecord:
    conds = {
        "model": stated("Llama-3-70B", "Llama-3-70B"),
        "hardware": stated("H100", "4xH100", canonical="NVIDIA H100", count=4),
        "batch_or_concurrency": Condition(status="stated", value={"min": 16, "max": 768}, sweep=True,
                                          note="the point behind the headline is only in Figure 3"),
        "input_length": stated(2048, "ISL 2048"),
        "output_length": stated(256, "OSL 256"),
        "engine_version": stated("Acme serve 2.4.1", "Acme serve 2.4.1", canonical="Acme serve"),
        "warmup": Condition(status="unrecoverable", where="the harness log's warm-up phase",
                            why="the post does not state it for this claim"),
        "scenario": Condition(status="unrecoverable", where="the harness configuration (offline vs fixed rate)",
                              why="the post does not state it for this claim"),
        "precision": Condition(status="unrecoverable", where="the --dtype argument of the launch command",
                               why="the post does not state it for this claim"),
    }
    q = "31,500 tok/s per GPU"
    claim = Claim(id="c1", metric="throughput", value=31500, unit="token / second / gpu", tokens="output", per="gpu",
                  headline=True, quote=q, span=span(q), conditions=conds)
    return DocumentRecord(doc="acme.md", sha256="0" * 64, extractor_version="0.1.0", rules_version="r1",
                          title="Acme post", authorship="engine-project", claims=[claim],
                          caveats=[Note(kind="no-scenario", message="no load scenario is named: not comparable with MLPerf Offline or Server figures")],
                          provenance=[Note(kind="tokens-counted", message="the headline counts output tokens only (31,500 tok/s per GPU)",
                                           quote=q, span=span(q))])


def test_text_audit_sections():
    out = render_audit(build(), "text")
    first = out.splitlines()[0]
    assert first == "Acme serve 2.4.1: Llama-3-70B on 4 x H100, 31,500 token / second / gpu (output tokens, per gpu)"
    assert "SWEPT from 16 to 768 - the point behind the headline is only in Figure 3" in out
    assert "SCENARIO: NOT STATED by the source - absent, not inferred." in out
    assert "MLPerf Offline or Server" in out
    header = next(line for line in out.splitlines() if line.startswith("ABSENT CONDITIONS"))
    assert header.startswith("ABSENT CONDITIONS (2 of 8 checked: model, hardware, batch-or-concurrency")
    assert "- warmup: unrecoverable - where: the harness log's warm-up phase" in out
    assert "- scenario: unrecoverable - where: the harness configuration (offline vs fixed rate)" in out
    assert "- precision: unrecoverable - where: the --dtype argument of the launch command" in out
    assert "Authorship: engine-project." in out


def test_every_number_comes_from_the_record():
    rec = build()
    dump = json.dumps(rec.model_dump(mode="json"))
    record_numbers = {n.replace(",", "") for n in re.findall(r"\d[\d,]*(?:\.\d+)?", dump)}
    record_numbers |= {str(int(float(n))) for n in record_numbers if float(n).is_integer()}
    for fmt in ("text", "markdown"):
        out = render_audit(rec, fmt)
        body = "\n".join(line for line in out.splitlines() if "CONDITIONS (" not in line and "conditions (" not in line)
        for n in re.findall(r"(?<![\w.-])\d[\d,]*(?:\.\d+)?", body):
            assert n.replace(",", "") in record_numbers, (fmt, n)


def test_missing_condition_is_reported_not_filled():
    rec = build()
    del rec.claims[0].conditions["warmup"]
    out = render_audit(rec, "text")
    assert "- warmup: not in the record" in out
    assert "ABSENT CONDITIONS (2 of 8" in out


def test_markdown_and_json():
    rec = build()
    md = render_audit(rec, "markdown")
    assert md.startswith("# Acme serve 2.4.1: Llama-3-70B")
    assert "## Absent conditions (2 of 8 checked:" in md and "- **model**: Llama-3-70B" in md
    data = json.loads(render_audit(rec, "json"))
    assert data["figure"]["value"] == 31500 and data["scenario"].startswith("NOT STATED")
    assert [a["name"] for a in data["absent"]] == ["warmup", "scenario"]
    assert data["absent"][0]["where"] == "the harness log's warm-up phase"
    assert render_audit(rec, "json") == render_audit(rec, "json")


def test_no_claims_said_plainly():
    rec = DocumentRecord(doc="news.md", sha256="0", extractor_version="0", rules_version="0")
    assert "No performance claims were found" in render_audit(rec, "text")
    assert json.loads(render_audit(rec, "json"))["has_claims"] is False


def test_audit_command_on_own_sample(tmp_path):
    post = tmp_path / "caveat-sample.md"
    post.write_text("---\ntitle: Sample\nauthor: \"The SGLang Team\"\n---\n\n"
                    "SGLang v0.5.1 reaches 9,000 output tokens per second per GPU on 8x H200 with Llama-3-8B.\n")
    res = CliRunner().invoke(app, ["audit", str(post), "--format", "markdown"])
    assert res.exit_code == 0, res.output
    assert "Absent conditions (" in res.output or "No performance claims" in res.output
    bad = CliRunner().invoke(app, ["audit", str(post), "--format", "yaml"])
    assert bad.exit_code != 0
