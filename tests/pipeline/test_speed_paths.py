"""The extractor's shortcuts give what the full spaCy pipeline and the separate stages would give (issue 25)."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hostile_text import pieced_texts
from hypothesis import given, settings
from hypothesis import strategies as st

from extractor.api import get_extractor
from extractor.claims.cue_component import CUES_KEY
from extractor.ingest import ingest
from extractor.quantities.component import quantities_of

PIECES = [
    "Decode ran at 1,250 tokens/s per GPU with a TTFT of 85 ms.",
    "Throughput (tok/s)",
    "2.3x",
    "45%",
    "1,024",
    "p99 latency 120 ms at 64 concurrent requests",
    "The new kernel is twice as fast as the old one\nand uses half the memory.",
    "The AL rose to 3.1 (Smith et al. measured 2.9) with input and\noutput tokens at 900 tok/s.",
    "12 GB",
    "Speedup vs. baseline",
    "",
]


@pytest.fixture(scope="module")
def extractor():
    return get_extractor(None)


@pytest.fixture(scope="module")
def analyser(extractor):
    return extractor.claims.analyser


def _full(analyser, text: str):
    """What running every component of the spaCy pipeline over `text` gives."""
    doc = analyser.nlp(text)
    return tuple(quantities_of(doc)), [(s.label_, s.start_char, s.end_char) for s in doc.spans[CUES_KEY]]


@pytest.mark.parametrize("text", PIECES)
def test_a_piece_reads_as_the_whole_pipeline_reads_it(analyser, text):
    """`analyse` runs the cue marker alone and takes the quantity finder's records as they are."""
    (qs, cues), = analyser.analyse([text], [0])
    full_qs, full_cues = _full(analyser, text)
    assert qs == list(full_qs)
    assert [(c.label, c.start, c.end) for c in cues] == full_cues


def test_offsets_and_handed_records_read_as_the_whole_pipeline(analyser):
    text = PIECES[0]
    base = 500
    found = analyser.quantity_finder.find(text, base)
    (qs, cues), = analyser.analyse([text], [base], [found])
    full_qs, full_cues = _full(analyser, text)
    assert [q.span for q in qs] == [(q.span[0] + base, q.span[1] + base) for q in full_qs]
    assert [(q.value, q.unit, q.quote) for q in qs] == [(q.value, q.unit, q.quote) for q in full_qs]
    assert [(c.label, c.start - base, c.end - base) for c in cues] == full_cues
    assert full_cues and full_qs                      # the sample holds both


def test_claim_and_condition_stages_share_the_program_output_lines(extractor):
    """The lines a program printed are found once per document, for both stages."""
    blocks = extractor.claims.script_output.blocks
    assert blocks is extractor.conditions.output.blocks
    d = ingest("# Run\n\n```\n$ python bench.py\nThroughput: 1200 tokens/s\n```\n", "post.md", "markdown")
    lines = blocks.lines(d)
    assert [d.text[x.start:x.end] for x in lines] == ["Throughput: 1200 tokens/s"]
    assert extractor.conditions.output.blocks.lines(d) is lines


def test_spacy_is_imported_without_its_command_line():
    """Building the extractor imports spaCy without `spacy.cli` (weasel, httpx...); `spacy.info` and a later
    `import spacy.cli` still give spaCy's own (a fresh process: this one may have imported spaCy already)."""
    code = """
import sys
from extractor.api import get_extractor
get_extractor(None)
assert "spacy.cli" not in sys.modules and "weasel" not in sys.modules and "httpx" not in sys.modules
import spacy
assert spacy.info(silent=True)["spacy_version"] == spacy.__version__
import spacy.cli
assert spacy.cli.download.__module__ == "spacy.cli.download" and spacy.cli.info.__module__ == "spacy.cli.info"
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


@pytest.mark.parametrize("text", PIECES)
def test_cues_alone_are_the_cues_of_analyse(analyser, text):
    """A table header or lead-in reads only its cues: the same as `analyse` gives, without the quantity finder."""
    (_, cues), = analyser.analyse([text], [0])
    assert list(analyser.cues(text)) == list(cues)


# -- shortcuts of the condition stage (issue 25, session 3) -------------------------------------------------

SHELL_LINES = [
    "pip install --upgrade some-package",            # no known command word: shlex is skipped
    "export CUDA_VISIBLE_DEVICES=0,1",
    "cd bench && vllm bench serve --max-concurrency 32 --num-prompts 200",
    "VLLM_USE_V1=1 vllm serve org/model-7b --tensor-parallel-size 2",
    "/opt/env/bin/python3 benchmark_serving.py --request-rate 4",
    "echo start; docker run --gpus all -it some/image:latest",
    "'vllm' bench serve --max-concurrency 8",         # a quote: shlex reads the word through it
    "vl\\lm bench serve --num-prompts 10",             # a backslash: the word is 'vllm' to shlex
    "echo done  # vllm serve is in a comment",
    "",
]


@pytest.fixture(scope="module")
def shell(extractor):
    return extractor.conditions.code.shell


@pytest.mark.parametrize("line", SHELL_LINES)
def test_a_shell_line_skipped_by_the_word_filter_holds_no_command(shell, line):
    """`_split_known` gives the words shlex gives, or none when no command could be read from them."""
    from extractor.conditions.code.shell import _split
    where = list(range(len(line)))
    fast = [shell._read(w) for w in shell._split_known(line, where)]
    full = [shell._read(w) for w in _split(line, where)]
    assert [(c.harness.name, c.span, [(s.value, s.span) for s in c.settings]) for c in fast if c] == \
        [(c.harness.name, c.span, [(s.value, s.span) for s in c.settings]) for c in full if c]


def test_the_word_filter_skips_lines_without_a_known_word(shell):
    assert shell._split_known(SHELL_LINES[0], list(range(len(SHELL_LINES[0])))) == []
    known = SHELL_LINES[2]
    assert shell._split_known(known, list(range(len(known))))


VARIANT_TEXTS = [
    "We ran Orca-9 and Orca-9-Lite; orca-9-Max came later, see acme/orca-9-mini and ORCA 9_Turbo.",
    "The kernel of the Orca-9\u017ftep build (a long s) and the \u212aelvin-sign orca-9-\u212a1 variant.",
    "No name here at all.",
    "Orca-9-Lite.png is a file name; Orca-9-Pro-v2.1 is a variant, orca-9-Orca-9-X runs on.",
]


@pytest.mark.parametrize("text", VARIANT_TEXTS)
def test_variants_tried_at_the_first_token_match_finditer(extractor, text):
    """`Variants._finditer` finds what `finditer` over the whole text finds, case traps included."""
    import re

    from extractor.conditions.variants import _WORD
    variants = extractor.conditions.policy.variants
    for name in ("Orca-9", "orca 9", "Kelvin"):
        tokens = re.findall(r"[A-Za-z0-9.]+", name)
        rx = re.compile(r"(?P<repo>/)?(?<![A-Za-z0-9.])" + r"[\s_-]?".join(map(re.escape, tokens)) + _WORD, re.I)
        assert [m.span() for m in variants._finditer(rx, text, tokens[0])] == \
            [m.span() for m in rx.finditer(text)]


def test_the_condition_pool_key_is_the_key_of_every_field_frozen():
    """ConditionPool.key builds plain fields inline: the key is the one `frozen` gives every field."""
    from extractor.conditions._internals.sharing import ConditionPool, frozen
    from extractor.records import Condition
    conds = [Condition(status="stated", value=v, quote="x", span=(1, 2)) for v in
             (1, 1.0, True, "1", None, [1, 2], {"a": 1}, -0.0, 0.0)]
    conds.append(Condition(status="unrecoverable", where="in the setup section"))
    keys = [ConditionPool.key(c) for c in conds]
    assert keys == [(tuple(frozen(v) for v in c.__dict__.values()), frozenset(c.model_fields_set)) for c in conds]
    assert len(set(keys)) == len(keys)       # 1, 1.0, True, "1"; -0.0 and 0.0 stay apart


def test_the_lean_vocabulary_marks_the_cues_a_full_one_marks(analyser):
    """The analyser's vocabulary computes LOWER alone for a new word; a pipeline with spaCy's full set of
    lexical attributes marks the same cues on the same texts (new words included: figures, model names)."""
    import spacy
    from spacy.attrs import LOWER

    assert set(analyser.nlp.vocab.lex_attr_getters) == {LOWER}
    full = spacy.blank("en")
    assert len(full.vocab.lex_attr_getters) > 1
    full.add_pipe("benchclaims_cues")
    texts = PIECES + ["Zyxtra-17B served 4,321 tok/s at batch 48, 1.9x the Qwerty-8B baseline.",
                      "AVERAGE LATENCY dropped by 35% vs. the previous release"]
    for text in texts:
        hits = analyser._mark_cues.hits(analyser.nlp.make_doc(text))
        doc = full(text)
        assert hits == [(s.label_, s.start_char, s.end_char) for s in doc.spans[CUES_KEY]]


TABLE_POST = """# Serving results

We served Zyxtra-17B on 4x H100 with our engine.

| Batch | Throughput (tok/s) | TTFT (ms) |
|---|---|---|
| 1 | 410 | 35 |
| 8 | 2,950 | 48 |
| 32 | 8,100 | 96 |

Decode reached 1,250 tokens/s per GPU.
"""


def test_the_pool_finds_a_condition_met_before_by_identity():
    """ConditionPool.one: an object handed in again is found by identity; every answer is the one a pool keyed by
    every field alone gives (the first identical condition seen)."""
    from extractor.conditions._internals.sharing import ConditionPool
    from extractor.records import Condition

    a = Condition(status="unrecoverable", where="in the setup section", why="not stated")
    b = Condition(status="unrecoverable", where="in the setup section", why="not stated")
    c = Condition(status="unrecoverable", where="in the setup section", why="not stated", note=None)  # fields set differ
    d = Condition(status="stated", value=8, quote="8", span=(3, 4))
    pool, keyed = ConditionPool(), {}
    for cond in (a, b, a, c, b, d, c, a, d):
        assert pool.one(cond) is keyed.setdefault(ConditionPool.key(cond), cond)
    assert pool.share({"x": b, "y": c}) == {"x": a, "y": c}


def test_a_shared_where_note_condition_is_the_one_built_afresh():
    """The where-notes hand out one `Condition` per note: each dumps as the condition built from its fields."""
    from extractor.api import extract_text
    from extractor.records import Condition

    record = extract_text(TABLE_POST, "speed-table.md")
    seen = [c for claim in record.claims for c in claim.conditions.values() if c.status == "unrecoverable"]
    assert len(record.claims) >= 6 and len(seen) > len({id(c) for c in seen})   # shared objects
    plain = [c for c in seen if c.model_fields_set == {"status", "where", "why"}]
    assert len(plain) > len(seen) // 2
    for cond in plain:
        fresh = Condition(status="unrecoverable", where=cond.where, why=cond.why)
        assert cond == fresh and cond.model_dump_json(exclude_unset=True) == fresh.model_dump_json(exclude_unset=True)


def test_relinking_reads_back_only_the_records_that_can_restate(tmp_path):
    """`relink` reads back only the documents with a claim stating every `must_state` condition: the links are
    those found from every stored claim, and a post of our own without a named model and device is not read."""
    import sqlite3
    from pathlib import Path

    from extractor.compare.groups import find_restatements
    from extractor.compare.rules import load_compare_rules
    from extractor.corpus.batch import run_batch
    from extractor.corpus.restatements import relink, stored_refs

    corpus = Path(__file__).resolve().parents[2] / "corpus"
    for name in ("compare-vllm-h100.md", "compare-sglang-h100.md", "compare-one-condition.md",
                 "compare-vendor-roundup.md"):
        (tmp_path / name).write_text((corpus / name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "unnamed.md").write_text("# Notes\n\nOur server now reaches 9,200 tokens/s, 2x the old one.\n",
                                         encoding="utf-8")
    db = tmp_path / "claims.db"
    run_batch([tmp_path], db=db, progress=False)
    conn = sqlite3.connect(db)
    rules = load_compare_rules()
    every, kept = stored_refs(conn), stored_refs(conn, rules.restatement.must_state)
    assert {r.key[0] for r in kept} < {r.key[0] for r in every}
    assert not any(r.key[0].endswith("unnamed.md") for r in kept)
    full = [(l.claim.key, l.restates.key) for l in find_restatements(every, rules=rules)]
    assert full and [(l.claim.key, l.restates.key) for l in find_restatements(kept, rules=rules)] == full
    assert relink(conn) == len(full)


def test_the_stored_condition_rows_are_each_conditions_own_fields(tmp_path):
    """The store builds each shared condition's columns once per record (`rows.condition_rows`, by identity): every
    stored row holds the fields of its own claim's condition, as the record's JSON gives them."""
    import json

    from extractor.api import extract_text
    from extractor.corpus.rows import condition_rows
    from extractor.corpus.store import Store

    record = extract_text(TABLE_POST, "speed-table.md")
    with Store(tmp_path / "rows.db") as store:
        store.put_record(record, path="p")
        stored = store.conn.execute("SELECT * FROM conditions ORDER BY ord, name").fetchall()
    expected = []
    for i, claim in enumerate(json.loads(record.model_dump_json())["claims"]):
        for name, c in sorted(claim["conditions"].items()):
            value = None if c.get("value") is None else json.dumps(c["value"], sort_keys=True, ensure_ascii=False)
            span = c.get("span") or (None, None)
            sweep = None if c.get("sweep") is None else int(c["sweep"])
            expected.append(("p", i, claim["id"], name, c["status"], value, c.get("canonical"), c.get("quote"),
                             span[0], span[1], c.get("scope"), sweep, c.get("count"), c.get("value_partial"),
                             c.get("note"), c.get("where"), c.get("why")))
    assert stored == expected and len(stored) == 14 * len(record.claims)
    fields: dict[int, tuple] = {}
    built = [row for i, claim in enumerate(record.claims) for row in condition_rows("p", i, claim, fields)]
    assert built == stored and len(fields) < len(stored)   # shared conditions: fewer columns built than rows


def test_a_stated_condition_kept_per_mention_is_the_one_built_afresh(extractor):
    """DocumentStatements.stated keeps one condition per (name, mention, scope), but a swept value's (its note names
    the chart near the claim): each is what a reading without the memo builds for any claim."""
    from extractor.conditions.statement import DocumentStatements
    from extractor.ingest import ingest

    post = TABLE_POST + "\nAt batch sizes 1-64 the cluster of 8x H100 ran Zyxtra-17B with TP8 and FP8.\n"
    resolver = extractor.conditions
    d = ingest(post, "speed-stated.md", "markdown")
    found = resolver.mentions(d)
    read = extractor.claims.read(d, 10_000, [(m.span, m.kind) for m in found])
    claims = [c for c, _ in read.placed]
    doc = resolver.context(d, found, claims)
    names = ("model", "hardware", "gpu_count", "parallelism", "precision", "batch_or_concurrency")
    checked = 0
    for m in doc.mentions:
        for name in names:
            for claim in claims:
                for _ in range(2):
                    kept = doc.statements.stated(claim, name, m.m, "section")
                    fresh = DocumentStatements(resolver.statements, doc.ctx, doc.where).stated(claim, name, m.m,
                                                                                                "section")
                    assert kept == fresh and kept.model_fields_set == fresh.model_fields_set
                    checked += 1
    assert checked > 100 and any(m.m.sweep for m in doc.mentions)


COLUMNS_POST = """# Results on our cluster

| Configuration | batch_size | input_len |
|---|---|---|
| Zyxtra throughput | 64 | 2048 |
| Zyxtra latency | 1 | 512 |

| Model | Zyxtra throughput | Zyxtra latency |
|---|---|---|
| Zyxtra-17B | 4,200 tok/s | 95 tok/s |

| Batch Size | ISL/OSL | TP | EP | Throughput (tok/s) | TTFT (ms) |
|---|---|---|---|---|---|
| 8 | 1024/128 | 4 | 2 | 2,950 | 48 |
| | 2048/256 | 8 | 1 | 3,400 | 61 |
| 32 | 8K/1K | 8 | 8 | 8,100 | 96 |
"""


def test_a_row_cells_column_value_read_once_is_the_value_read_per_claim(extractor):
    """DocumentStatements.column_value reads a condition once per table row (a configuration table's, once per
    column): for every claim and condition it is what the full reading (`_column_value`, with nothing kept from
    another claim) gives that claim."""
    from extractor.conditions.statement import DocumentStatements
    from extractor.ingest import ingest
    from extractor.records import CONDITIONS

    resolver = extractor.conditions
    d = ingest(COLUMNS_POST, "speed-columns.md", "markdown")
    found = resolver.mentions(d)
    read = extractor.claims.read(d, 10_000, [(m.span, m.kind) for m in found])
    claims = [c for c, _ in read.placed]
    doc = resolver.context(d, found, claims)
    stated = 0
    for claim in claims:
        for name in CONDITIONS:
            alone = DocumentStatements(resolver.statements, doc.ctx, doc.where)
            kept, full = doc.statements.column_value(claim, name), alone._column_value(claim, name)
            assert kept == full and (kept is None or kept.model_fields_set == full.model_fields_set)
            stated += kept is not None
    assert len(claims) >= 8 and stated >= 20


# -- shortcuts of the text side (issue 25, session 4) ---------------------------------------------------------

SET_ASIDE_PIECES = [
    "our estimate shows", "Estimated at", "e.g.,", "for example", "TTFT", "p99", "SLO of", "target:",
    "`", "``", "--max-tokens=", "-n ", "size:", "Model size =", "width: ", "style=\"", "#", "peak bandwidth of",
    "GPU memory is", "H100 (", "Llama-3-8B (", "with an", "NICs with", "default is", "set to", "every", "would be",
    "in theory", "assuming", "İ", "ı", "ſ", "\u212a", "≈", "~", "→", "->", "(", ")", ",", ".", ":", "=", "\n",
    " ", "1", "64", "3.5", "GB", "ms", "tok/s", "x", "%", "the", "a",
]


def _set_aside_rules(extractor):
    return [(c.rule.name, rx, starts) for c in extractor.claims.figures.rules
            for rx, starts in ((c.before, c.before_starts), (c.not_before, c.not_before_starts))
            if rx is not None]


def test_most_set_aside_windows_have_a_start_finder(extractor):
    """The start strings of most `before` / `not_before` rules can be named (the rest is always run)."""
    rules = _set_aside_rules(extractor)
    assert sum(starts is not None for _, _, starts in rules) >= 0.8 * len(rules)


@settings(max_examples=60, deadline=None)
@given(pieced_texts(SET_ASIDE_PIECES))
def test_a_set_aside_window_read_from_its_start_strings_matches_as_search(extractor, text):
    """`search_from_starts` says what `rx.search` over the stretch says, for every shipped set-aside rule and
    every stretch ending at a digit (the figure's start), case traps included (then the text is not folded)."""
    from extractor.regex_starts import search_from_starts, searchable

    for variant in (text, text.upper(), text.swapcase()):
        lowered = variant.lower() if searchable(variant) else None
        ends = [i for i, ch in enumerate(variant) if ch.isdigit()] + [len(variant)]
        for name, rx, starts in _set_aside_rules(extractor):
            for end in ends:
                for lo in (0, max(0, end - 12)):
                    assert search_from_starts(rx, starts, variant, lowered, lo, end) == \
                        (rx.search(variant, lo, end) is not None), (name, variant, lo, end)


def test_set_aside_start_finders_on_sentences_of_our_own(extractor):
    """Positive and negative windows: a rule's words before the figure, and none of them."""
    from extractor.regex_starts import search_from_starts, start_finder

    rx = re.compile(r"(?i)\b(?:TTFT|TPOT|latency)\s*$", re.M)
    starts = start_finder(rx.pattern, re.M)
    for text, expected in [("The TTFT 40 ms", True), ("Our Latency 40 ms", True), ("Decode ran 40 ms", False),
                           ("ttft-ish 40 ms", False)]:
        end = text.index("40") - 1
        assert search_from_starts(rx, starts, text, text.lower(), 0, end) is expected
        assert search_from_starts(rx, starts, text, None, 0, end) is expected    # unfolded: always run
    assert start_finder(r"^\s*size\s*$", re.M) is None                         # a class first: no strings
    assert start_finder(r"(?:ab)?", 0) is None                                 # may be empty


ARTICLE_TEXTS = [
    "Warm-up takes under half a second and loading less than a minute.",
    "It ran for about an hour; a second run took HALF AN HOUR.",
    "A second opinion, an hourly job, a minuteman: no quantity here.",
    "no unit word at all: a b an half",
    "Under a\tmillisecond per step, up to a microsecond of jitter.",
    "",
]


@pytest.mark.parametrize("text", ARTICLE_TEXTS)
def test_article_numbers_read_only_where_a_unit_word_is(analyser, text):
    """The finder scans for "a second", "half an hour" only in a text holding one of their unit words: it finds
    what scanning every text finds."""
    finder = analyser.quantity_finder
    fast = finder.find(text)
    saved = finder._article_units
    try:
        finder._article_units = re.compile("")          # every text scanned
        assert finder.find(text) == fast
    finally:
        finder._article_units = saved
    if "under half a second" in text:
        assert [(q.value, q.unit, q.qualifier) for q in fast][:1] == [(0.5, "second", "up_to")]


@pytest.mark.parametrize("text", PIECES + ["Throughput\nrose 2x", "p99 TTFT and p50 TTFT", "x" * 450 + " 12 ms"])
def test_cue_hits_read_from_the_text_given_equal_those_of_the_doc(analyser, text):
    """`CueMarker.hits(doc, text)` takes the text the doc was made from instead of joining its tokens again:
    the same cues (spaCy's tokenizer keeps the text whole)."""
    from extractor.claims.analysis import broken_runs

    broken = broken_runs(text)
    doc = analyser.nlp.make_doc(broken)
    assert doc.text == broken
    assert analyser._mark_cues.hits(doc, broken) == analyser._mark_cues.hits(doc)


def test_one_cue_or_none_needs_no_sweep():
    """`hits` skips `keep_longest` and the sort for one match or none: they give that list back as it is."""
    from extractor.claims.cue_component import keep_longest

    assert keep_longest([]) == []
    for hit in [("metric:throughput", 3, 13), ("break", 0, 1), ("tokens:output", 5, 5)]:
        assert keep_longest([hit]) == [hit] == sorted([hit], key=lambda f: (f[1], f[2], f[0]))


# -- the per-claim side (issue 25, session 5) -------------------------------------------------------------------

# a unit -> its factor to base units and its base-unit signature (None: pint cannot read it)
BASE_UNITS = {
    "token / second": (1.0, "second^-1 token^1"), "tokens/s": (1.0, "second^-1 token^1"),
    "token / second / gpu": (1.0, "gpu^-1 second^-1 token^1"), "token / gpu / second": (1.0, "gpu^-1 second^-1 token^1"),
    "token / second / user": (1.0, "second^-1 token^1 user^-1"), "request / second": (1.0, "request^1 second^-1"),
    "millisecond": (0.001, "second^1"), "minute": (60.0, "second^1"), "1 / second": (1.0, "second^-1"),
    "token ** 2 / second": (1.0, "second^-1 token^2"), "gigabyte": (8e9, "bit^1"), "percent": (0.01, ""),
    "dimensionless": (1.0, ""), "": (1.0, ""), "no_such_unit_zz": None,
}


@pytest.mark.parametrize("unit", BASE_UNITS)
def test_a_units_base_form_kept_across_processes(unit, tmp_path, monkeypatch):
    """The store's base units (rows.base_factor, kept across processes by units.base_units): each unit's factor and
    signature, computed with the cache off, written to it, and read back from it."""
    from extractor import derived_cache
    from extractor.corpus import rows
    from extractor.quantities import units

    expected = BASE_UNITS[unit]
    monkeypatch.setattr(derived_cache, "_cache", None)
    for i, setting in enumerate(("off", str(tmp_path), str(tmp_path))):
        monkeypatch.setenv("BENCHCLAIMS_CACHE_DIR", setting)
        rows.base_factor.cache_clear()
        with derived_cache.active():
            pass
        if i < 2:   # computed by pint (and, the second time, kept)
            found = rows.base_factor(unit)
        else:   # read back: pint is not asked
            with monkeypatch.context() as no_pint:
                no_pint.setattr(units, "registry", lambda *_: pytest.fail("pint asked again"))
                found = rows.base_factor(unit)
        assert found == (pytest.approx(expected[0]), expected[1]) if expected else found is None
        if derived_cache._cache is not None:
            derived_cache._cache.save()
        monkeypatch.setattr(derived_cache, "_cache", None)
    rows.base_factor.cache_clear()


# compared.py's PARALLEL_GAP before its runs of blanks were made possessive (the full backtracking form)
BACKTRACKING_GAP = re.compile(r"(?i)[*_)]*[ \t]*(?:,[ \t]*(?:and|while|but)?|;|[ \t]+(?:and|while|whereas|but))[ \t]+"
                              r"(?:the[ \t]+)?(?:[A-Za-z][\w/-]*[ \t]+){1,3}?(?P<prep>from|to)[ \t]+"
                              r"(?:about[ \t]+|around[ \t]+|roughly[ \t]+|[~≈][ \t]?)?[*_]*")
GAP_PIECES = [" ", "  ", "\t", ",", ";", " and", " while", " but", " whereas", " the", " from", " to", " about",
              " around", " ~", "≈", "*", "_", ")", " reads", " writes", " x", " a-b", " io/s", " andrew", " top",
              " From", " TO", "\n", "1", "and", "from"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(GAP_PIECES), max_size=14))
def test_the_possessive_parallel_gap_matches_as_the_backtracking_one(pieces):
    """PARALLEL_GAP (possessive runs of blanks: linear) matches the gaps the backtracking form matches, with the
    same preposition."""
    from extractor.claims.compared import PARALLEL_GAP

    text = "".join(pieces)
    for pos in range(min(len(text), 3) + 1):
        full, fast = BACKTRACKING_GAP.fullmatch(text, pos), PARALLEL_GAP.fullmatch(text, pos)
        assert (full is None) == (fast is None)
        if full is not None:
            assert full.span("prep") == fast.span("prep")


@pytest.mark.parametrize("gap", [", and writes from ", "; writes to about ", " and reads from ~ ", "** and the writes from **",
                                 ",\tand   writes  from  ", ") while random io/s to ≈", ", but the small writes to ",
                                 ", writes from", " and " + " " * 5000 + "writes from ", ", " + "\t" * 5000 + "x"])
def test_the_parallel_gap_on_gaps_of_our_own(gap):
    """Gaps of our own, with and without a repeated clause: the two forms agree (the last two: a long run of
    blanks, where the backtracking form is slowest and still finishes)."""
    from extractor.claims.compared import PARALLEL_GAP

    full, fast = BACKTRACKING_GAP.fullmatch(gap), PARALLEL_GAP.fullmatch(gap)
    assert (full is None) == (fast is None) == (gap in (", writes from", ", " + "\t" * 5000 + "x"))
    assert full is None or full.span("prep") == fast.span("prep")


VARIANT_POSTS = [
    "We ran Zyxtra-M1 in two forms, Zyxtra-M1-40k and zyxtra-m1_80K, beside Qorvo-7B and Qorvo 7B.",
    "Serving org/Zyxtra-V4-flash and Zyxtra-V4-Pro; the Zyxtra V4 chart is zyxtra-v4-throughput.png.",
    "Only Qorvo-7B here, at 8K context, with Qorvo-7B (FP8) and qorvo-7b.",
    "Qorvo-9B served beside org/qorvo-9b_Turbo.",   # joined by "_" alone
    "A case trap: the \u212aelvin-\u212a9 build of Zyxtra-M1 and Zyxtra-M1-\u017fmall.",   # not searchable folded
]
VARIANT_NAMES = ["Qorvo-9B", "Zyxtra-M1", "Qorvo-7B", "Qorvo 7B", "org/Zyxtra-V4", "Zyxtra-V4", "Zyxtra V4", "qorvo-7b",
                 "\u212aelvin"]


def test_a_names_variants_need_no_pattern_where_none_can_be_written(extractor, monkeypatch):
    """Variants.of compiles a name's pattern only where the text writes its last token followed by "-" or "_":
    every name's variants are those read with the pattern compiled for every name (a text with a case trap is
    read with every pattern)."""
    from extractor.conditions.variants import Variants, _TOKENS

    variants = extractor.conditions.policy.variants
    docs = [ingest(post, "variants.md", "markdown") for post in VARIANT_POSTS]
    names = [{(name, m.span()) for name in VARIANT_NAMES for m in re.finditer(re.escape(name), d.text)} for d in docs]
    fast = [{n: variants.of(d, n[0], n[1], {}) for n in found} for d, found in zip(docs, names)]
    skipped = [n for d, found in zip(docs, names) for n, _ in found
               if not variants._joined_after(d.text, _TOKENS.findall(n.rsplit("/", 1)[-1])[-1])]
    assert variants._fold(docs[-1].text) is None   # the case trap
    monkeypatch.setattr(Variants, "_joined_after", lambda self, text, last: True)
    full = [{n: variants.of(d, n[0], n[1], {}) for n in found} for d, found in zip(docs, names)]
    assert fast == full
    assert skipped and sum(bool(v) for by_name in full for v in by_name.values()) >= 3
RUN_PIECES = ["word ", "means", "İ", "ı", "ſ", "K", "k", "\u00a0", "\n", " ", ".", "-", "_", "x1", "٣", "(", ", ;"]


@settings(max_examples=150, deadline=None)
@given(pieced_texts(RUN_PIECES))
def test_a_run_is_found_backwards_as_a_scan_finds_it(text: str):
    """`anchored_matches` finds where the run of an anchor's allowed characters ending at a string begins by
    matching the run over the reversed text: the first position a character-by-character scan back from
    there stops at, for every kind of one-character class the anchors build (case traps included)."""
    from extractor.regex_starts import Anchor

    backwards = text[::-1]
    for before in (r"[\w.]", r"\s", r"[^\n]", r"[a-z]|-", r"\d|[ \t]"):
        run = Anchor(frozenset({"x"}), re.compile(before, re.I)).run
        one = re.compile(before, re.I)
        for at in range(len(text) + 1):
            p = at
            while p > 0 and one.fullmatch(text[p - 1]):
                p -= 1
            assert len(text) - run.match(backwards, len(text) - at).end() == p, (before, text, at)


def test_the_bare_version_start_strings_are_found_with_the_extractor(extractor):
    """The start strings of the bare version and commit rules are read while the extractor is built (inside the
    regex cache), not on the first post; `finditer_from_starts` then finds what `finditer` finds."""
    from extractor.conditions import scan

    resolver = extractor.conditions
    for rx in (resolver.bare_version, resolver.bare_commit):
        assert (rx.pattern, rx.flags) in scan._START_FINDERS
    text = "We ran the v0.9.1 image (commit 1a2b3c4d); V2.0 and Commit DEADBEEF1 later."
    for rx in (resolver.bare_version, resolver.bare_commit):
        assert [m.span() for m in scan.finditer_from_starts(rx, text)] == [m.span() for m in rx.finditer(text)]


FENCE = "`" * 3
CODE_POST = f"""# Serving notes

Our decode step takes 12 ms per token on one GPU.

{FENCE}zig
const budget_ms = 12; // 12 ms per step, 8 GB of cache
{FENCE}

{FENCE}
max_memory: 8 GB
target latency 12 ms
{FENCE}

{FENCE}python
rate = 5  # 5 tokens/s per user, 40 ms
{FENCE}

{FENCE}yaml
kv_cache: 16 GB
{FENCE}

| Setting | Value |
|---|---|
| KV cache | 16 GB |
| Target TTFT | under 200 ms |
"""


class _Unkept(dict):
    """A memo that keeps nothing: every lookup misses, so every figure runs the rules' filters afresh."""

    def __setitem__(self, key, value):
        pass


def test_set_aside_rules_picked_by_place_language_and_class_once(extractor, monkeypatch):
    """The set-aside decider keeps, per (place, code language, figure class, demoting), the rules whose filters
    let a figure there through; a language no rule names shares one key. The decisions equal those of the full
    rule loop (no memo) on a post with code blocks of a named, an unnamed and a listed language."""
    from extractor.api import extract_text

    decider = extractor.claims.figures
    kept = extract_text(CODE_POST, "code.md")
    monkeypatch.setattr(decider, "_applicable", _Unkept())
    full = extract_text(CODE_POST, "code.md")
    assert kept.model_dump_json() == full.model_dump_json()
    assert kept.set_aside, "the post's code figures are set aside"


def _dump(db) -> list[str]:
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def _store_posts(folder):
    """Posts of our own for the store's bulk path: a table post, a compare post and one without claims."""
    from pathlib import Path

    corpus = Path(__file__).resolve().parents[2] / "corpus"
    folder.mkdir()
    for name in ("compare-vllm-h100.md", "compare-sglang-h100.md"):
        (folder / name).write_text((corpus / name).read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "table.md").write_text(TABLE_POST, encoding="utf-8")
    (folder / "plain.md").write_text("# Notes\n\nNothing measured here.\n", encoding="utf-8")
    return folder


def test_a_fresh_store_loaded_without_its_indexes_dumps_as_one_stored_record_by_record(tmp_path):
    """`Store.loading` (a batch into a fresh store) makes the secondary indexes after the records are in: the
    database dumps (schema, indexes in order, every row) as the same records stored one by one with the indexes
    kept up; a store that already holds a document keeps its indexes throughout."""
    from extractor.api import extract_path
    from extractor.corpus.batch import run_batch
    from extractor.corpus.restatements import relink
    from extractor.corpus.schema import SECONDARY_INDEXES
    from extractor.corpus.store import Store

    folder = _store_posts(tmp_path / "posts")
    bulk = tmp_path / "bulk.db"
    run_batch([folder], db=bulk, progress=False, source="posts")
    one_by_one = tmp_path / "one.db"
    with Store(one_by_one) as store:
        for path in sorted(folder.iterdir()):
            store.put_record(extract_path(path), path=str(path), source="posts")
        relink(store.conn)
    assert _dump(bulk) == _dump(one_by_one)
    assert sum(line.startswith("CREATE INDEX") for line in _dump(bulk)) == len(SECONDARY_INDEXES)

    with Store(one_by_one) as store:   # not fresh: nothing dropped while loading
        with store.loading():
            names = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
            assert set(SECONDARY_INDEXES) <= names


def test_a_fresh_store_loads_without_key_lookups_and_checks_keys_again_after(tmp_path):
    """`Store.loading` into a fresh store skips the foreign-key look-ups of every row (each document is written
    before its rows): the rows are those of a store loaded with them on (the dump test above), every key holds
    (`foreign_key_check` finds nothing), and the connection checks keys again once the block is left, even by an
    error; a store that already holds a document keeps them on throughout."""
    import sqlite3

    from extractor.api import extract_path
    from extractor.corpus.store import Store

    folder = _store_posts(tmp_path / "posts")
    records = [(str(path), extract_path(path)) for path in sorted(folder.iterdir())]
    keys_on = lambda store: store.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1   # noqa: E731
    db = tmp_path / "fresh.db"
    with Store(db) as store:
        with store.loading():
            assert not keys_on(store)
            for path, record in records:
                store.put_record(record, path=path)
        assert keys_on(store)
        assert store.conn.execute("PRAGMA foreign_key_check").fetchall() == []
        with pytest.raises(sqlite3.IntegrityError):   # checked again: a claim of no document is refused
            store.conn.execute("INSERT INTO claims (path, ord, claim_id, metric, value, unit, qualifier, headline, "
                               "quote, span_start, span_end) VALUES ('none', 0, 'x', 'm', 1, 'u', 'exact', 0, 'q', 0, 1)")
        with store.loading():   # not fresh
            assert keys_on(store)
    other = tmp_path / "stopped.db"
    with Store(other) as store:
        with pytest.raises(KeyboardInterrupt):
            with store.loading():
                raise KeyboardInterrupt
        assert keys_on(store)


def test_a_store_killed_while_loading_gets_its_indexes_back_when_next_opened(tmp_path):
    """A process that dies inside `loading` (no index made yet) leaves every stored document whole; the next store
    opened for writing makes the indexes again, and the database dumps as one that was never interrupted."""
    from extractor.api import extract_path
    from extractor.corpus.store import Store

    folder = _store_posts(tmp_path / "posts")
    records = [(str(path), extract_path(path)) for path in sorted(folder.iterdir())]
    killed, whole = tmp_path / "killed.db", tmp_path / "whole.db"
    store = Store(killed)
    inside = store.loading()
    inside.__enter__()   # never left (kept referenced, so not closed either): as if the process were killed here
    for path, record in records:
        store.put_record(record, path=path)
    store.close()
    assert not any(line.startswith("CREATE INDEX") for line in _dump(killed))
    Store(killed).close()
    with Store(whole) as store:
        for path, record in records:
            store.put_record(record, path=path)
    assert _dump(killed) == _dump(whole)
    del inside


def test_a_block_that_fails_while_loading_makes_no_index_and_keeps_its_error(tmp_path):
    """A batch stopped inside `loading` (Ctrl-C, a full disk) makes no index, so no second error (another Ctrl-C,
    the same full disk) can replace its own; `query`'s read-only open, or the next batch's, makes them; loading
    is refused inside an open transaction (making the indexes would commit it)."""
    from extractor.corpus.schema import SECONDARY_INDEXES
    from extractor.corpus.store import Store, StoreError

    def indexes(db) -> set[str]:
        return {line.split()[2] for line in _dump(db) if line.startswith("CREATE INDEX")}

    db = tmp_path / "stopped.db"
    with Store(db) as store:
        with pytest.raises(KeyboardInterrupt):
            with store.loading():
                raise KeyboardInterrupt   # the batch's own stop: nothing after it runs
    assert indexes(db) == set()
    with Store(db, readonly=True) as reader:   # `query` on it: made where the file can be written
        assert reader.counts()["documents"] == 0
    assert indexes(db) == set(SECONDARY_INDEXES)
    with Store(db) as store:
        store.conn.execute("BEGIN")
        with pytest.raises(StoreError, match="open transaction"):
            with store.loading():
                pass
        store.conn.execute("ROLLBACK")
    assert indexes(db) == set(SECONDARY_INDEXES)


def test_relinking_the_records_a_batch_holds_is_relinking_them_read_back(tmp_path):
    """A batch hands `relink` the records it has just stored and that can restate (`HeldRecords`): the claims
    relinking reads from them are those read back from the store's JSON, field for field, and give the same links
    (every post of corpus/, of which some restate one another's figures); a record without a claim stating
    `must_state` is not held."""
    import sqlite3
    from pathlib import Path

    from extractor.api import extract_path
    from extractor.compare.groups import find_restatements
    from extractor.compare.rules import load_compare_rules
    from extractor.corpus.batch import run_batch
    from extractor.corpus.restatements import HeldRecords, stored_refs

    corpus = Path(__file__).resolve().parents[2] / "corpus"
    posts = [p for p in sorted(corpus.iterdir()) if p.is_file() and p.suffix in (".md", ".html", ".txt")]
    assert len(posts) > 15
    folder = tmp_path / "posts"
    folder.mkdir()
    for post in posts:   # every post of corpus/ (the compare posts restate one another)
        (folder / post.name).write_text(post.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "unnamed.md").write_text("# Notes\n\nOur server now reaches 9,200 tokens/s, 2x the old one.\n",
                                       encoding="utf-8")
    db = tmp_path / "claims.db"
    run_batch([folder], db=db, progress=False)
    held = HeldRecords()
    for path in sorted(folder.iterdir()):
        held.offer(str(path), extract_path(path))
    assert held and not any(p.endswith("unnamed.md") for p in held)
    conn = sqlite3.connect(db)
    rules = load_compare_rules()
    read_back = stored_refs(conn, rules.restatement.must_state)
    from_held = stored_refs(conn, rules.restatement.must_state, held)
    assert [r.model_dump_json() for r in from_held] == [r.model_dump_json() for r in read_back]
    held_claims = {id(c) for record in held.values() for c in record.claims}
    assert {id(r.claim) in held_claims for r in from_held} == {True}   # not one of them read back
    links = [(l.claim.key, l.restates.key) for l in find_restatements(read_back, rules=rules)]
    assert links and [(l.claim.key, l.restates.key) for l in find_restatements(from_held, rules=rules)] == links
    assert conn.execute("SELECT count(*) FROM restatements").fetchone()[0] == len(links)
PRODUCT_PIECES = ["The engine", " system", "is a library", "(fast)", "runtime", "Toolkit", "package.", "\n", " ",
                  "(", ")", ". ", "word ", "ENGINE", "İ", "ſ", "H100", "FP8", "TP8", "x" * 40]


def _unbounded_anchored(rx, text: str, found, hits):
    """`anchored_matches` as it was: every run followed back whole, then the fall-back when the merged ranges
    cost more than a scan; else the matches tried at each position of the ranges."""
    from extractor.conditions.scan import TRY_COST

    n, backwards, ranges = len(text), text[::-1], []
    for anchor in found:
        for word in anchor.strings:
            for at in hits.get(word, ()):
                lo = at if anchor.run is None else n - anchor.run.match(backwards, n - at).end()
                ranges.append((lo, at))
    merged: list[list[int]] = []
    for lo, hi in sorted(ranges):
        if merged and lo <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    if sum(hi - lo + 1 for lo, hi in merged) * TRY_COST > n:
        return None
    return [m.span() for m in re.finditer(rx, text) if m.end() > m.start()]


@settings(max_examples=120, deadline=None)
@given(pieced_texts(PRODUCT_PIECES), st.integers(0, 30))
def test_a_run_is_followed_back_only_as_far_as_it_can_pay(text: str, repeat: int):
    """`anchored_matches` stops following a run back once that one range costs more than a scan: it falls back
    (None) exactly when following every run back whole would, and finds the same matches otherwise, for every
    shipped not-condition rule (the product words' rule's run allows almost any character)."""
    from extractor.conditions.mentions import default_finder
    from extractor.conditions.scan import anchored_matches, text_blocks

    text = text * (1 + repeat % 4) + "word " * repeat
    f = default_finder()
    scanner = f._scanner or f._build_scanner()
    _, hits = f._todo(text, text_blocks(text))
    if hits is None:
        return
    for nc, found in zip(f.rules.not_conditions, scanner.not_condition_anchors):
        if not found:
            continue
        got = anchored_matches(nc.rx, text, found, hits)
        want = _unbounded_anchored(nc.rx, text, found, hits)
        assert (None if got is None else [m.span() for m in got]) == want, (nc.entry.name, text)


def _quantity(start: int, end: int, unit: str):
    from extractor.records import QuantityRecord
    return QuantityRecord(value=float(start), unit=unit, quote="x" * (end - start), span=(start, end))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 6), st.sampled_from(["millisecond", "second", "token / second", "gigabyte"])),
                max_size=12), st.integers(0, 70), st.integers(0, 70))
def test_claims_by_class_bisection_finds_what_a_scan_finds(spans, start, end):
    """`ClaimsByClass` bisects where a class's offsets rise and scans where they do not (nested or unsorted
    spans): either way, the claims of a class ending by `start` / starting from `end` of the full scan."""
    from extractor.claims.classify import unit_class
    from extractor.claims.compared import ClaimsByClass

    claims = [(_quantity(a, a + n, unit), f"m{i}") for i, (a, n, unit) in enumerate(spans)]
    index = ClaimsByClass(claims)
    for cls in ("time", "token_rate", "memory", "absent"):
        same = [(p, m) for p, m in claims if unit_class(p.unit) == cls]
        assert index.before(cls, start) == [x for x in same if x[0].span[1] <= start][-1:]
        assert index.before(cls, start, 2) == [x for x in same if x[0].span[1] <= start][-2:]
        assert index.after(cls, end) == [x for x in same if x[0].span[0] >= end][:1]
    ordered = ClaimsByClass(sorted(claims, key=lambda x: x[0].span))
    assert all(ordered._starts_rise.values())    # text order: starts rise, the bisection path is taken


# -- Markdown block structure: markdown-it.rs gives the events markdown-it-py gives (extractor/ingest/block_events.py)
MARKDOWN_PIECES = [
    "# Serving notes\n", "Serving notes\n=============\n", "Results\n-------\n", "### Setup ###\n",
    "The run used 4 GPUs\nand a warm cache.\n", "\n", "\n\n",
    "- first point\n- second point\n  still the second\n", "- loose one\n\n- loose two\n",
    "1. launch the server\n2. run the client\n", "3) a list from three\n", "- outer\n  - inner item\n",
    "> a quoted line\n> and its second line\n", "> > nested quote\n", "> - a list in a quote\n",
    "```bash\nserve --tp 8\n```\n", "~~~\nplain fence\n~~~\n", "```python title=\"x\"\nrun()\n```\n",
    "    indented code line\n", "| GPU | tok/s |\n|---|---:|\n| B200 | 1,234 |\n", "|a|b|\n|-|-|\n",
    "<div>\nraw block</div>\n", "<!-- a comment -->\n", "<table><tr><td>9</td></tr></table>\n",
    "[ref]: https://example.org/page\n", "* * *\n", "Ünïcödé text — 4× faster\n", "tab\tseparated\n",
    "line with a CR\r\n", "\t- tabbed item\n", "Text\n# heading right after\n", "2. a list from two\n",
    "  indented two\n", "   - three spaces in\n", "+ plus item\n", "***bold line***\n", "---\n", "===\n",
    "<p>inline html para</p>\n", "<custom-tag>\n", "</div>\n", "```\n", "| lone | row |\n", "a | b\n",
    "    \n", "1.\n", "-\n", ">\n", "#\n", "#hashtag not a heading\n", "Term\n: definition\n",
    "> 2. quoted two\n", "10) ten\n", "- a\n2. b\n",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(MARKDOWN_PIECES), min_size=1, max_size=12).map("".join))
def test_markdown_it_rs_gives_the_block_events_of_markdown_it_py(text):
    from extractor.ingest.block_events import _rs_events, py_events

    rs = _rs_events(text)
    if rs is not None:    # None: a text the two are known to read differently (then markdown-it-py reads it)
        assert rs == py_events(text)


@pytest.mark.parametrize("text", ["> the quote opens here\n3. and a line numbered three goes on lazily\n",
                                  "> quoted\nlazy continuation\n", "text with a lone \ud800 surrogate\n",
                                  "> quoted\n| a | b |\n|---|---|\n", "| a | b |\n|---|---|\n| 1 | 2 |\n2. next\n"])
def test_texts_the_two_parsers_read_differently_go_to_markdown_it_py(text):
    from extractor.ingest.block_events import _rs_events, block_events, py_events

    assert _rs_events(text) is None
    assert block_events(text) == py_events(text)


def test_markdown_it_rs_byte_offsets_are_lines_of_the_text():
    from extractor.ingest.block_events import _rs_events, py_events

    text = "# Ünïcödé — héadér\n\nçafé 4× faster,\nsecond line\n\n| naïve | 1 |\n|---|---|\n| é | 2 |\n\n\0nul\n"
    events = _rs_events(text)
    assert events == py_events(text)
    assert [(e.type, e.map) for e in events if e.map] == [
        ("heading_open", (0, 1)), ("paragraph_open", (2, 4)), ("table_open", (5, 8)), ("paragraph_open", (9, 10))]


def test_most_texts_take_the_markdown_it_rs_path_and_give_markdown_it_py_events():
    """Every text of one or two pieces: the Rust path is taken for most (the property test above would pass
    trivially if it fell back), and where it is, its events are markdown-it-py's."""
    from extractor.ingest.block_events import _rs_events, py_events

    texts = [a + b for a in MARKDOWN_PIECES for b in ["", *MARKDOWN_PIECES]]
    taken = 0
    for text in texts:
        rs = _rs_events(text)
        if rs is not None:
            taken += 1
            assert rs == py_events(text), text
    assert taken >= 0.8 * len(texts)


class PanicException(BaseException):
    """What pyo3 raises on a Rust panic (a BaseException, named so)."""


def test_a_rust_panic_sends_the_text_to_markdown_it_py_and_other_stops_pass(monkeypatch):
    from extractor.ingest import block_events

    class Panicking:
        def __init__(self, error):
            self.error = error

        def tree(self, src):
            raise self.error

    text = "# Post\n\nServed 1,200 tok/s.\n"
    monkeypatch.setattr(block_events, "_rs_parser", lambda: Panicking(PanicException("index out of bounds")))
    assert block_events._rs_events(text) is None
    assert block_events.block_events(text) == block_events.py_events(text)
    monkeypatch.setattr(block_events, "_rs_parser", lambda: Panicking(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        block_events.block_events(text)


def test_a_post_with_a_lazy_quote_ingests_as_markdown_it_py_reads_it(monkeypatch):
    from extractor.ingest import block_events, markdown

    text = "# Post\n\n> A note in a quote\n2. that goes on without a marker\n\nThen 1,200 tok/s on 8 GPUs.\n"
    assert block_events._rs_events(text) is None
    fast = markdown.parse(text, "post.md")
    monkeypatch.setattr(markdown, "block_events", block_events.py_events)
    assert fast == markdown.parse(text, "post.md")


def test_a_markdown_post_is_read_without_importing_markdown_it_py():
    """markdown-it-py (pure Python, ~0.05 s of import and build) is imported only for a text the two parsers
    read differently, not at start-up nor for an ordinary post (a fresh process)."""
    code = """
import sys
from extractor.api import extract_text, get_extractor
get_extractor(None)
extract_text("# Post\\n\\n- Served 1,200 tok/s on 8 GPUs.\\n\\n> a note\\n", "post.md")
assert "markdown_it" not in sys.modules, "markdown-it-py imported"
extract_text("# Post\\n\\n> a note\\n2. goes on lazily at 1,200 tok/s\\n", "lazy.md")
assert "markdown_it" in sys.modules
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


# -- cue look-ups through the offset index (extractor/claims/cues.py CueSet): a window of the cues a look-up may
# accept gives what the scan of every cue of the sentence gives
CUE_LABELS = ["break", "join", "stop", "by", "baseline", "setting", "limit", "measure", "change:up", "change:down",
              "change:neutral", "change:neutral_before", "change_adj:up", "change_adj:down", "metric:throughput",
              "metric:ttft", "metric:memory", "metric:other", "metric:accuracy", "tokens:output", "per:gpu", "stat:p99",
              "stat:max", "level_intro", "level_reached", "level_measured", "pair_from", "share_of", "rate_unit",
              "valence:better", "valence:worse", "baseline_value:before", "baseline_value:after", "polarity:lower",
              "model_size", "spec:before", "state_after", "training", "not_claim", "adoption", "length:accept"]


def _cue_lists():
    """25 to 70 cues in 160 characters, of a few labels each time (so that the labels a look-up reads meet)."""
    from extractor.claims.cues import Cue

    def cues(labels: list[str]):
        cue = st.builds(lambda label, start, length: Cue(label, start, start + length),
                        st.sampled_from(labels), st.integers(0, 150), st.integers(0, 12))
        return st.lists(cue, min_size=25, max_size=70)   # more than SMALL: the index is read
    return st.lists(st.sampled_from(CUE_LABELS), min_size=1, max_size=5).flatmap(cues)


@settings(max_examples=200, deadline=None)
@given(_cue_lists(), st.integers(20, 130), st.integers(0, 8), st.sampled_from(["time", "memory", "percent", "ratio"]))
def test_cue_look_ups_through_the_offset_index_give_what_a_scan_of_every_cue_gives(extractor, cues, start, length, cls):
    """Every look-up of the cues around a figure (`ClauseCues`, `nearest`, the metric, direction, statistic and
    training readers) on a `CueSet` and on its views gives what it gives on the plain list, which it reads
    whole; most sets here hold more cues than `SMALL`, so the index is read."""
    from extractor.claims.cues import SMALL, ClauseCues, CueSet, nearest, outside
    from extractor.claims.training_time import training_time

    end = start + length
    indexed = CueSet(cues)
    clauses = ClauseCues()
    builder = extractor.claims.analyser.builder
    metrics, directions = builder.metrics, builder.directions
    q = _quantity(start, end, "dimensionless")
    for lookup in (lambda cs: (metrics._stated_statistic(cs, start, end), metrics._device_spec(cs, start, end),
                               metrics._model_size(cs, start, end), metrics._run_state(cs, end),
                               metrics._named_throughput(cs, end), metrics._changed_levels(cs, start, end),
                               metrics._changes_memory(cs, start), metrics.named_rate(q, cs), metrics.bare_class(q, cs)),
                   lambda cs: [metrics.not_result(q, c, cs, start, end) for c in
                               ("time", "item_rate", "request_rate", "memory", "energy", "token_count")],
                   lambda cs: (directions.read(cls, 0.5, cs, start, end), directions.read(cls, 2.0, cs, start, end, (), 1),
                               directions.polarity(cs, start, end, (), clauses.any_change(cs, start, end))),
                   lambda cs: (builder.statistic("ttft", cs, start, end), builder.statistic("speedup", cs, start, end),
                               builder.per_for("token / second", cs, start, end), builder.tokens_for(cs, start, end),
                               training_time(clauses, cs, start, end))):
        assert lookup(indexed) == lookup(cues), cls
    prefixes = [("change:",), ("metric:", "tokens:"), ("stat:",), ("limit",), ("measure",), ("valence:",)]
    for lookup in (lambda cs: [clauses.after(cs, start, end, p, lim) for p in prefixes for lim in (4, 25, 60)],
                   lambda cs: [clauses.before(cs, start, end, p, lim) for p in prefixes for lim in (4, 60, 10**6)],
                   lambda cs: [nearest(cs, start, end, p[0], lim) for p in prefixes for lim in (0, 12, 25, 10**9)],
                   lambda cs: [clauses.between(cs, a, b, labels, skip) for a, b in ((start, end), (start - 40, start),
                                                                                  (end, end + 60), (0, 400))
                               for labels in (("break",), ("break", "join", "stop"), ("by", "baseline"))
                               for skip in (True, False)],
                   lambda cs: clauses.governing_change(cs, start, end),
                   lambda cs: clauses.only_metric_words(cs, start, end + 30),
                   lambda cs: clauses.any_change(cs, start, end),
                   lambda cs: clauses.limited(cs, start, end),
                   lambda cs: clauses.measured(cs, start, end),
                   lambda cs: clauses.setting(cs, start, end),
                   lambda cs: clauses.baseline_value(cs, start, end, "percent"),
                   lambda cs: clauses.amount_of_change(cs, start, end),
                   lambda cs: clauses.absolute_change(cs, start, end),
                   lambda cs: clauses.level_share(cs, start, end),
                   lambda cs: clauses.level_after_change(cs, start, end),
                   lambda cs: clauses.level_pair(cs, start, end),
                   lambda cs: clauses.from_to(cs, start, end),
                   lambda cs: [clauses.metric_cue(cs, start, end, ["throughput", "ttft", "memory"], lim)
                               for lim in (25, 60, 120)],
                   lambda cs: [clauses.clause_cue(cs, start, end, p[0], lim) for p in prefixes for lim in (30, 60)],
                   lambda cs: clauses.before(clauses.without_label_break(cs, start), start, end, ("stat:",), 30),
                   lambda cs: clauses.after(outside(cs, start, end), start, end, ("change:",), 60)):
        assert lookup(indexed) == lookup(cues), cls
    assert list(indexed) == cues and len(indexed) == len(cues)
    if len(cues) > SMALL:
        assert len(indexed.near(start, end)) <= len(cues)
    view = outside(indexed, start, end)
    assert list(view) == [c for c in cues if not (c.start >= start and c.end <= end)]
    window = view.near(start - 30, end + 30)
    touching = [c for c in view if c.start <= end + 30 and c.end >= start - 30]
    assert [c for c in window if c.start <= end + 30 and c.end >= start - 30] == touching
    assert window == touching if len(cues) > SMALL else list(window) == list(view)


LONG_SENTENCE_PIECES = [
    "throughput rose 2.1x over the old build", "TTFT fell by 35%", "at 4 req/s", "a p99 latency of 120 ms",
    "up to 1,900 tok/s per GPU", "versus 1,700", "memory grew from 12 GB to 17 GB", "a 20 GB checkpoint",
    "peak memory reached 40 GB", "with a limit of 2 s", "compared to the reference server", "QPS 12",
    "an AL of 3.2", "accuracy 91.5", "utilization drops to 46%", "which is 61% of the peak",
    "the mean TPOT was 21 ms", "the new path is 5 ms slower", "decode runs 3x faster than prefill",
    "a 1.4x speedup on one node", "while cutting cost by 20%", "hit rate of 70%", "4.2 tok/s on the stock runtime",
    ", ", "; ", " and ", ": ", " (", ") ", " while ", " ",
]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(LONG_SENTENCE_PIECES), min_size=20, max_size=60).map("".join))
def test_a_sentence_of_many_figures_reads_through_the_cue_index_as_through_cue_lists(text):
    """The claims and set-aside figures of one long sentence are the same whether each figure's look-ups read
    the sentence's indexed cues (`CueSet`) or the plain list of them (every cue scanned)."""
    from extractor.api import extract_text
    from extractor.claims import sentences

    text = "We report " + text + ".\n"
    indexed = extract_text(text, "long.md", timeout=0).model_dump()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sentences, "CueSet", list)
        scanned = extract_text(text, "long.md", timeout=0).model_dump()
    assert indexed == scanned


# -- a sentence's clauses and labelled figures found by bisection (extractor/conditions/clauses.py)
CLAUSE_PIECES = ["A ran 2.1x faster on H100", ", and ", "; ", " while ", "B reached 900 tok/s", " at batch 8",
                 "TTFT: 120 ms", " (", ")", " = ", "3x", " on 4 GPUs", ", 1.5x for C", " with FP8", " — "]


@settings(max_examples=150, deadline=None)
@given(pieced_texts(CLAUSE_PIECES), st.lists(st.integers(0, 400), max_size=12))
def test_the_clause_and_labelled_figure_of_a_mention_found_by_bisection_are_those_a_scan_finds(text, offsets):
    """`clause_at` and `labelled_figure` give what the scans they replace give: the first clause holding the
    offset (else the last), and the first figure with only label characters between."""
    from extractor.conditions.clauses import _LABEL_GAP, ClauseScope, clause_at, labelled_figure
    from extractor.conditions.rules import load_scope_rules
    from extractor.ingest.segment import Passage
    from pathlib import Path

    scope = ClauseScope(load_scope_rules(Path(__file__).parents[2] / "rules"))
    figures = sorted({(m.start(), m.end()) for m in re.finditer(r"\d[\d.,]*\s*(?:x|tok/s|ms)", text)})
    p = Passage(start=0, end=len(text), kind="paragraph", section=None, block=0)
    clauses = scope.clauses(text, p, figures)
    starts, figure_starts = [c[0] for c in clauses], [f[0] for f in figures]
    for pos in set(offsets) | {f[0] for f in figures} | {f[1] for f in figures}:
        scanned = next((i for i, (lo, hi, _) in enumerate(clauses) if lo <= pos < hi), len(clauses) - 1)
        assert clause_at(clauses, starts, pos) == scanned
        first = next((f for f in figures if _LABEL_GAP.fullmatch(text, pos, f[0])), None)
        assert labelled_figure(text, figures, figure_starts, pos) == first


def test_the_block_events_of_a_post_are_freed_without_the_garbage_collector():
    """The Rust walk's recursive closure is emptied when it returns: reading a post's block structure leaves no
    reference cycle, so its events are freed with the post, not kept until the collector's next pass."""
    import gc

    from extractor.ingest.block_events import _rs_events

    post = "# Title\n\n- one\n- two\n  > quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```\n"
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        events = _rs_events(post)
        assert events is not None and len(events) > 6, "the Rust parser reads this post"
        del events
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()


_UNITS = ("dimensionless", "", "token / second", "request / second", "millisecond", "gigabyte", "percent")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 400), st.integers(0, 12), st.sampled_from(_UNITS),
                          st.sampled_from((0.0, 40.0, 90.0, 100.0, 150.0, 2024.0))), max_size=30),
       st.lists(st.tuples(st.integers(0, 420), st.integers(1, 8), st.sampled_from(("baseline", "valence:neutral",
                                                                                   "break"))), max_size=12),
       st.booleans())
def test_compared_unit_by_bisection_equals_the_scan(shapes, cue_shapes, in_order):
    """`compared_unit` over a `QuantitySpans` (the measured figure before a bare number and the numbers between
    found by bisection) gives what the scan of the plain list gives, for every quantity of the list: in text
    order (bisected) and in any order or with nested spans (the index falls back to the scan)."""
    from extractor.claims.compared import QuantitySpans, compared_unit
    from extractor.claims.cues import Cue
    from extractor.records import QuantityRecord

    quantities = [QuantityRecord(value=v, unit=u, quote="2024" if v == 2024.0 else "n", span=(a, a + w))
                  for a, w, u, v in shapes]
    if in_order:
        quantities.sort(key=lambda q: q.span)
    cues = sorted((Cue(label, a, a + w) for a, w, label in cue_shapes), key=lambda c: (c.start, c.end, c.label))
    spans = QuantitySpans(quantities)
    for q in quantities:
        assert compared_unit(q, spans, cues) == compared_unit(q, quantities, cues)


def test_a_sentence_of_many_bare_numbers_after_a_measured_figure_reads_each_by_bisection():
    """"200 tok/s vs 190, 191, 192 ...": each bare number's look-back is read by bisection (the quantities are
    in text order), and the figure right after the comparison word takes the measured figure's unit."""
    from extractor.api import extract_text
    from extractor.claims.compared import QuantitySpans

    numbers = ", ".join(str(190 + i % 50) for i in range(300))
    record = extract_text(f"Our server reached 200 tok/s versus {numbers} for the others.\n", "bare.md")
    assert [(c.value, c.unit) for c in record.claims][:2] == [(200.0, "token / second"), (190.0, "token / second")]
    finder = get_extractor().claims.analyser.quantity_finder
    assert QuantitySpans(finder.find(f"200 tok/s versus {numbers}")).rising
# -- a shared rung's readers are objects, not self-referring closures (extractor/conditions/_internals/shared_rungs.py)
def _rung_mention(i: int, kind: str, value) -> "Located":
    from extractor.conditions.located import Located
    from extractor.conditions.readings import Mention

    quote = f"{kind}-{i}"
    m = Mention(kind=kind, value=value, canonical=str(value), quote=quote, span=(10 * i, 10 * i + len(quote)))
    return Located(m=m, block=i, section=None)


_KINDS = ["model", "hardware", "batch_or_concurrency", "engine"]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_KINDS), st.sampled_from(["A", "B", "header", 8, 16])), max_size=14),
       st.lists(st.integers(1, 5), min_size=1, max_size=5))
def test_the_readers_of_a_joined_rung_give_what_its_mentions_give_and_make_no_reference_cycle(items, cuts):
    """`grouped`, `filtered` and `summary` of a rung joined from parts give what the plain list of its mentions
    gives, and leave no garbage for the cycle collector (a nested reader that derived the other parts with itself
    was a reference cycle per call, holding the claim's site until a collection)."""
    import gc

    from extractor.conditions._internals.shared_rungs import SharedRung, filtered, summary

    located = [_rung_mention(i, kind, value) for i, (kind, value) in enumerate(items)]
    parts, at = [], 0
    for n in cuts:
        parts.append(located[at:at + n])
        at += n
    parts.append(located[at:])

    def joined() -> SharedRung:
        rung = SharedRung(parts[0])
        for part in parts[1:]:   # a rung that extends the one before, as the setup sections before a claim do
            rung = SharedRung.joined([rung, SharedRung(part)])
        return rung

    enabled, debug = gc.isenabled(), gc.get_debug()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for usable in (True, False):
            rung = joined()
            groups = rung.grouped(("by", usable), usable)
            plain: dict[str, list] = {}
            for x in located:
                if x.usable or not usable:
                    plain.setdefault(x.name, []).append(x)
            assert {name: list(g) for name, g in groups.items()} == plain
            assert rung.grouped(("by", usable), usable) is groups   # kept on the rung
        rung = joined()
        kept = filtered(rung, "kept", lambda r: [x for x in r if x.name != "model"])
        assert list(kept) == [x for x in located if x.name != "model"]
        total = summary(rung, "names", lambda xs: [x.name for x in xs], lambda a, b: a + b)
        assert total == [x.name for x in located]
        del rung, kept, groups
        gc.collect()
        assert not gc.garbage, [type(o).__name__ for o in gc.garbage[:10]]
    finally:
        gc.set_debug(debug)
        gc.garbage.clear()
        if enabled:
            gc.enable()


SETUP_POST = """# Serving a mid-size model

All benchmarks below were run with vLLM v0.6.0 on 8x H100 unless noted otherwise.

## Setup

Hardware: 8x H100 80GB. Model: Llama-3.1-70B. Precision: FP8.

## Results

At concurrency 64, output throughput reached 2,400 tokens/s and TTFT stayed at 180 ms.
At concurrency 128 it reached 3,100 tokens/s, 1.3x more than at 64.

| Concurrency | Throughput (tok/s) | TTFT (ms) |
|---|---|---|
| 16 | 900 | 95 |
| 32 | 1,600 | 120 |
| 64 | 2,400 | 180 |
"""


def test_extracting_a_post_leaves_no_condition_objects_to_the_cycle_collector(extractor):
    """The condition stage makes no reference cycles: what it keeps of a claim (its site, mentions, rungs) is freed
    by reference counting when the document is done, not held until the collector runs."""
    import gc

    from extractor.api import extract_text

    extract_text(SETUP_POST, "warm.md")
    enabled, debug = gc.isenabled(), gc.get_debug()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        record = extract_text(SETUP_POST, "setup.md", timeout=0)
        assert len(record.claims) >= 8 and any(c.conditions["hardware"].status == "stated" for c in record.claims)
        del record
        gc.collect()
        ours = [o for o in gc.garbage if type(o).__module__.startswith("extractor.conditions")
                or callable(o) and getattr(getattr(o, "__code__", None), "co_filename", "").find("/conditions/") >= 0]
        assert not ours, sorted({type(o).__qualname__ if not hasattr(o, "__code__") else o.__qualname__ for o in ours})
    finally:
        gc.set_debug(debug)
        gc.garbage.clear()
        if enabled:
            gc.enable()


# -- per-claim look-ups kept once per claim or per sentence (ties.py, statement.py, document_reader.py)
TABLE_POST = """# Two tables

We served Llama-3.1-8B on 2x H100 and compared it with a batch sweep; the sweep measured throughput.

| Batch | ISL | Throughput (tok/s) | TTFT (ms) |
|---|---|---|---|
| 8 | 1024 | 900 | 95 |
|  | 2048 | 1,600 | 120 |
| 32 | 4096 | 2,400 | 180 |

| Config | Batch | Precision |
|---|---|---|
| small | 8 | FP8 |
| large | 32 | BF16 |

At batch 64 the sweep reached 3,000 tok/s on the same 2x H100, 1.3x more than at batch 32, which is faster than the A100.
"""


def test_a_claim_site_copied_with_its_own_clause_keeps_every_other_field(monkeypatch):
    """`ClaimSite.with_own_clause` copies the site slot by slot: every slot but the four it sets anew is the very
    object the site held, as `copy.copy` gives; records are those of the `copy.copy` path."""
    from copy import copy

    from extractor.api import extract_text
    from extractor.conditions import ties

    sites = []
    fast = ties.ClaimSite.with_own_clause

    def spied(self, kept):
        new = fast(self, kept)
        sites.append((self, new))
        return new

    monkeypatch.setattr(ties.ClaimSite, "with_own_clause", spied)
    record = extract_text(TABLE_POST, "table.md", timeout=0).model_dump()
    assert len(sites) >= 6
    for old, new in sites:
        for name in ties.ClaimSite.__slots__:
            if name not in ("own", "modes", "devices", "models"):
                assert getattr(new, name) is getattr(old, name), name
    assert any(new.own for _, new in sites)

    def copied(self, kept):
        site = copy(self)   # the generic copy the slot-by-slot one replaced, then the same clause reading
        site.note_own_clause(kept)
        return site

    monkeypatch.setattr(ties.ClaimSite, "with_own_clause", copied)
    assert extract_text(TABLE_POST, "table.md", timeout=0).model_dump() == record


class _Forgetful(dict):
    """A memo that keeps nothing: every look-up takes the full path."""

    def __setitem__(self, key, value) -> None:
        pass

    def __contains__(self, key) -> bool:
        return False

    def get(self, key, default=None):
        return default


def test_the_per_claim_and_per_sentence_memos_give_what_the_full_path_gives(monkeypatch):
    """The table and row at a claim, its cell in a configuration table (statement.py) and what a sentence says about
    its mentions (document_reader.py: a comparison, the family measured, speed runs; a block's accuracy cue) are
    read once and kept: with memos that keep nothing, the records are the same."""
    from extractor.api import extract_text
    from extractor.conditions import document_reader, statement

    posts = [TABLE_POST, SETUP_POST, "On GSM8K we measured accuracy; on GSM8K the fast path also ran 2x faster "
             "than the eager one at batch 16, measuring throughput, on 4x MI300X and 2x MI300X in our speed runs.\n"]
    kept = [extract_text(text, f"p{i}.md", timeout=0).model_dump() for i, text in enumerate(posts)]
    real_init = statement.DocumentStatements.__init__

    def forgetful_init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        self._table_rows, self._cell_at = _Forgetful(), _Forgetful()

    monkeypatch.setattr(statement.DocumentStatements, "__init__", forgetful_init)
    real_ties = document_reader.DocumentReader._ties
    monkeypatch.setattr(document_reader.DocumentReader, "_ties",
                        lambda self, d, loc, examples, sentences, blocks, claimed: real_ties(self, d, loc, examples, {}, {},
                                                                                           claimed))
    assert [extract_text(text, f"p{i}.md", timeout=0).model_dump() for i, text in enumerate(posts)] == kept
