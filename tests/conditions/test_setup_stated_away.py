"""Issue 11 class 1, set-up stated away from the claim that the text still ties to it, on posts written for
these tests: a release and the commit it was built at stated together (one build, not two versions), a
first-person statement of how every model was served, the baseline's names kept out of the claim's
conditions (a short form in parentheses, names joined to it, the object of "outperforms"). Each with its
negative case: the condition stays unrecoverable, or keeps the value the claim's own place gives."""
from __future__ import annotations

import pytest

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text
from extractor.conditions.resolver import ConditionResolver
from extractor.ingest import ingest
from extractor.rules_io import default_rules_dir


# -- a release and the commit it was built at are one build -------------------------------------------
def _results(setup: str) -> str:
    return ("# Results\n\n" + setup + "\n\n## Decode\n\nThe new scheduler reaches 5,432 tokens/s on one L4.\n")


@pytest.mark.parametrize("setup,value", [
    ("Every run used SGLang version 0.5.2 (commit 4f5e6d7c8b) on the same node.",
     "SGLang 0.5.2 (commit 4f5e6d7c8b)"),
    ("- Engine: vLLM (v0.11.3), built from source at commit 0abc1234def5\n- GPU: one L4",
     "vLLM v0.11.3 (commit 0abc1234def5)"),
])
def test_a_release_and_its_commit_in_one_sentence_are_one_build(setup: str, value: str) -> None:
    text = _results(setup)
    ev = stated(claim(extract_text(text, "t.md"), 5432), "engine_version")
    assert ev.value == value
    assert text[ev.span[0]:ev.span[1]] == ev.quote   # quoted from the release to the commit
    assert ev.quote.split()[0] in value and ev.quote.endswith(value.rsplit(" ", 1)[-1].rstrip(")"))


def test_a_release_written_with_and_without_its_v_is_one_release() -> None:
    text = _results("We ran SGLang v0.5.2 throughout. The SGLang 0.5.2 wheel came from the project's index.")
    assert stated(claim(extract_text(text, "t.md"), 5432), "engine_version").value == "SGLang v0.5.2"


def test_a_short_hash_is_the_commit_it_begins() -> None:
    text = _results("- Engine: SGLang (v0.5.2), commit 4f5e6d7c8b9a0f1e\n- Image: the tag SGLang 4f5e6d7 on our registry")
    assert stated(claim(extract_text(text, "t.md"), 5432), "engine_version").value == \
        "SGLang v0.5.2 (commit 4f5e6d7c8b9a0f1e)"


@pytest.mark.parametrize("setup", [
    # a release and a commit in two sentences: nothing says the commit is that release's build
    "We ran SGLang v0.5.2 for the baseline. The patched SGLang build is at commit 4f5e6d7c8b.",
    # two different commits
    "The first half ran SGLang (commit 4f5e6d7c8b), the second SGLang at commit 9a8b7c6d5e.",
    # two releases, each with its commit
    "We ran SGLang 0.5.2 (commit 4f5e6d7c8b) and SGLang 0.5.3 (commit 9a8b7c6d5e).",
])
def test_builds_stated_apart_stay_ambiguous(setup: str) -> None:
    ev = unrecoverable(claim(extract_text(_results(setup), "t.md"), 5432), "engine_version")
    assert "several values" in ev.why


def test_a_bare_commit_in_a_post_about_two_engines_is_the_engine_its_sentence_names() -> None:
    text = ("# Results\n\nOur engine reaches 5,432 tokens/s on one L4.\n\n"
            "# Appendix\n\n## Software\n\n- SGLang (v0.5.2): the engine under test, commit 4f5e6d7c8b\n"
            "- Baseline: vLLM, as the default image ships it\n")
    ev = stated(claim(extract_text(text, "t.md"), 5432), "engine_version")
    assert ev.value == "SGLang v0.5.2 (commit 4f5e6d7c8b)" and ev.scope == "setup_section"


# -- a first-person statement of how every model was served covers the post's results ----------------
def _post(statement: str) -> str:
    return ('---\ntitle: "Scheduler notes"\nsummary: "The scheduler brings 2.7x higher decode throughput."\n---\n\n'
            "# Introduction\n\nThe new scheduler is the subject of this post.\n\n"
            f"# Performance results\n\nWe look at two models on one L40S. {statement}\n\n"
            "## Decode\n\nThe scheduler reaches 3,210 tokens/s.\n")


@pytest.mark.parametrize("statement", [
    "We serve the models with SGLang version 0.5.2 (commit 4f5e6d7c8b).",
    "We run all experiments using SGLang version 0.5.2 (commit 4f5e6d7c8b).",
])
def test_how_every_model_was_served_covers_the_headline_and_the_results(statement: str) -> None:
    r = extract_text(_post(statement), "t.md")
    head = stated(claim(r, 2.7), "engine_version")
    assert head.value == "SGLang 0.5.2 (commit 4f5e6d7c8b)" and head.scope == "document"
    assert stated(claim(r, 3210), "engine_version").value == head.value


@pytest.mark.parametrize("statement", [
    "We evaluate the models with SGLang version 0.5.2 (commit 4f5e6d7c8b).",   # an evaluation, not the serving
    "We serve the draft model with SGLang version 0.5.2 (commit 4f5e6d7c8b).",  # one model, qualified
    "Our colleagues serve the models with SGLang version 0.5.2 (commit 4f5e6d7c8b).",   # not the post's runs
])
def test_a_statement_about_some_runs_does_not_cover_the_headline(statement: str) -> None:
    r = extract_text(_post(statement), "t.md")
    unrecoverable(claim(r, 2.7), "engine_version")
    # the results section's own lead text still sets up its subsections
    assert stated(claim(r, 3210), "engine_version").scope == "section"


# -- the baseline's names are no conditions of the claim ----------------------------------------------
@pytest.fixture(scope="module")
def resolver() -> ConditionResolver:
    return ConditionResolver(default_rules_dir())


def _kept(resolver: ConditionResolver, text: str) -> list[str]:
    """The names the claims' conditions may be read from (the baseline's are dropped)."""
    d = ingest(text, "t.md", "markdown")
    return [x.m.quote for x in resolver.context(d, resolver.mentions(d)).mentions
            if x.m.kind in ("engine", "hardware", "model")]


@pytest.mark.parametrize("text,kept", [
    ("The engine outperforms LMDeploy on every prompt set we tried.", []),
    ("Our build surpasses the A100 on long prompts.", []),
    ("On one L4 it matches or exceeds vLLM for short prompts.", ["one L4"]),
    ("It is quicker than Text Generation Inference (TGI) at every load.", []),     # the short form too
    ("Compared with vLLM and TensorRT-LLM, SGLang is quick.", ["SGLang"]),       # the names joined to it
    ("It beats the H100 and the A100 at this batch size.", []),
])
def test_names_of_the_baseline_are_dropped(resolver: ConditionResolver, text: str, kept: list[str]) -> None:
    assert _kept(resolver, text) == kept


@pytest.mark.parametrize("text,kept", [
    ("Decode exceeds 9,100 tokens/s on 4x L40S with Qwen2.5-14B.", ["4x L40S", "Qwen2.5-14B"]),   # a figure exceeds
    ("We ran SGLang (SRT) on an H100 and an A100.", ["SGLang", "an H100", "A100"]),        # no cue before
    ("It is quicker than vLLM, while SGLang (our build) ran on an H100.", ["SGLang", "an H100"]),
    ("Compared with the H100, the A100 ran at half the rate.", ["A100"]),          # a comma ends the baseline
    ("It is quicker than the H100, and the A100 ran at half its rate.", ["A100"]),
])
def test_names_that_follow_no_baseline_are_kept(resolver: ConditionResolver, text: str, kept: list[str]) -> None:
    assert _kept(resolver, text) == kept


def test_the_short_form_of_a_baseline_name_is_the_baseline() -> None:
    text = ("# Results\n\nThe new engine reaches 1.9x lower TTFT than Text Generation Inference (TGI) on one L4.\n\n"
            "# Appendix\n\n## Software\n\n- SGLang: v0.5.2\n")
    assert stated(claim(extract_text(text, "t.md"), 1.9), "engine_version").value == "SGLang v0.5.2"


def test_names_joined_to_a_baseline_are_the_baseline() -> None:
    text = ("# Results\n\nCompared with vLLM and TensorRT-LLM, the new engine is fast. "
            "It reaches 2.3x higher throughput on one L4.\n\n"
            "# Appendix\n\n## Software\n\n- SGLang: v0.5.2\n")
    assert stated(claim(extract_text(text, "t.md"), 2.3), "engine_version").value == "SGLang v0.5.2"


def test_the_version_of_the_engine_the_claims_place_names_among_several() -> None:
    text = ("# Results\n\nSGLang is the engine under test here. It reaches 2.3x higher throughput on one L4.\n\n"
            "# Appendix\n\n## Software\n\n- SGLang: v0.5.2\n- vLLM: v0.9.0\n")
    assert stated(claim(extract_text(text, "t.md"), 2.3), "engine_version").value == "SGLang v0.5.2"


def test_the_versions_of_several_engines_for_a_claim_naming_none_stay_ambiguous() -> None:
    text = ("# Results\n\nThe new engine reaches 2.3x higher throughput on one L4.\n\n"
            "# Appendix\n\n## Software\n\n- SGLang: v0.5.2\n- vLLM: v0.9.0\n")
    assert "several values" in unrecoverable(claim(extract_text(text, "t.md"), 2.3), "engine_version").why


def test_a_name_after_a_figure_that_exceeds_is_still_the_claims() -> None:
    text = "# Results\n\nDecode exceeds 9,100 tokens/s on 4x L40S with Qwen2.5-14B.\n"
    c = claim(extract_text(text, "t.md"), 9100)
    assert stated(c, "hardware").value == "4x L40S" and stated(c, "model").value == "Qwen2.5-14B"


def test_a_release_a_feature_started_from_is_no_runs_version() -> None:
    text = ("# Results\n\nThe feature ships in vLLM starting from v0.12.0. "
            "It reaches 2.2x higher throughput on one L4.\n")
    ev = unrecoverable(claim(extract_text(text, "t.md"), 2.2), "engine_version")
    assert ev.value_partial == "vLLM"
