"""Scope rules (`rules/scopes.yaml`), validated at load; the where-note rules are in where_rules.py."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Literal, get_args

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from extractor.conditions.rungs import rung_readers
from extractor.records import CONDITIONS, Scope
from extractor.rules_io import compiled, load_yaml, rule_cache

SCOPES_FILE = "scopes.yaml"
# Why a condition is unrecoverable: the keys of `why` in where_notes.yaml (each must be there).
Reason = Literal["absent", "ambiguous", "no_version", "partial", "variants", "external"]


NEVER = r"(?!)"   # a pattern that matches nothing: a cue the rules leave unset
Regex = Annotated[str, AfterValidator(compiled)]   # a pattern, checked to compile at load
MeasuredKind = Literal["input_length", "output_length", "batch_or_concurrency"]
VariedKind = Literal["input_length", "output_length", "batch_or_concurrency", "model"]
Words = Annotated[list[str], Field(default_factory=list)]   # phrases or names, none unless the rules list some


def known_conditions(names: list[str]) -> list[str]:
    """`names`, each a condition of the record (a rule naming another is refused at load)."""
    for name in names:
        if name not in CONDITIONS:
            raise ValueError(f"unknown condition {name!r}")
    return names


# condition names of the record, checked at load; none unless the rules list some
ConditionNames = Annotated[list[str], AfterValidator(known_conditions), Field(default_factory=list)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class Rung(_Strict):
    """One rung of the scope ladder: the reader that gathers its mentions for a claim, and the scope
    they are reported under."""

    reader: str
    scope: str
    about: str = ""
    # its mentions are column headers: a header that names a condition is read through the claim row's cell
    via_cell: bool = False

    @field_validator("reader")
    @classmethod
    def _reader(cls, v: str) -> str:
        known = rung_readers()
        if v not in known:
            raise ValueError(f"unknown reader {v!r} (known: {', '.join(known)})")
        return v

    @field_validator("scope")
    @classmethod
    def _scope(cls, v: str) -> str:
        if v not in get_args(Scope):
            raise ValueError(f"unknown scope {v!r} (known: {', '.join(get_args(Scope))})")
        return v


class SettingBinding(_Strict):
    """How a sentence ties a load setting to one metric or one mode (bindings.py): the kinds of settings
    bound, and the words that part a sentence into items ("BS=64 max throughput, BS=1 TTFT") and into groups
    of items ("BS=8, max-throughput mode; BS=1, min-latency mode")."""

    kinds: ConditionNames
    item_break: Regex = NEVER
    group_break: Regex = NEVER
    # settings a sentence pairs with one of the several models it names ("A (2xH100) and B (4xH100)", "TP=1 for
    # A, TP=8 for B"): the kinds paired, and what stands between a model and its setting (`model_first`) or a
    # setting and its model (`setting_first`), each matched whole
    paired_kinds: ConditionNames
    model_first: Regex = NEVER
    setting_first: Regex = NEVER


class SeveralSystems(_Strict):
    """A claim that sums up results over several systems or models ("up to 24x on LLaMA-7B and LLaMA-13B"):
    at a rung of `scopes` that names several values of a condition of `conditions`, a claim whose qualifier
    is in `qualifiers` (a bound or range over the runs) states them all, listed; any other claim there is
    about one of them, and which one is not said (ambiguous)."""

    conditions: ConditionNames
    scopes: Words
    headline_scopes: Words   # ... and for a headline claim, these too
    headline_conditions: ConditionNames   # ... for these conditions only, named together in one sentence ...
    other_work: Regex = NEVER   # ... that does not say they are an earlier or another work's systems
    list_joint: Regex = NEVER   # ... written as one list: what lies between two of them, matched whole
    not_the_runs: Regex = NEVER   # ... in a sentence that does not move between devices or name some not run
    qualifiers: Words


class VariantNames(_Strict):
    """Conditions whose name a post may write out as several variants, and the words after a name that make
    no other variant (a size, a precision, a tuning)."""

    conditions: ConditionNames
    not_variant: Regex = NEVER


class ScopeRules(_Strict):
    """The scope ladder; which sections set up measurements, and which paragraphs extend a scope."""

    ladder: list[Rung] = Field(min_length=1)
    setup_sections: list[str]
    setup_heading_pattern: str = NEVER
    setup_labels: Words
    usage_sections: Words
    back_matter_sections: Words
    back_matter_feature_words: Words   # words of a back-matter heading that do not name the feature it reproduces
    alternatives_lead_in: str = NEVER
    dated_item: str = NEVER
    figure_reference: str = NEVER
    setup_reference: str = NEVER
    names_no_metric: str = NEVER
    respectively: str = NEVER
    respective_joint: str = NEVER
    setup_label_min: int = 2
    lead_in_endings: list[str] = Field(default_factory=lambda: [":"])
    lead_in_sentence_kinds: Words
    footnote_marks: Words
    supporting_engines: Words
    composite: Words
    after_claim: Words
    own_sentence_only: Words   # pattern names (conditions.yaml) read by the `sentence` rung alone
    refinable: Words
    precision_formats: dict[str, str] = Field(default_factory=dict)
    precision_generic_words: Words
    column_labels: dict[str, list[str]] = Field(default_factory=dict)
    column_label_qualifier: Regex = ""   # a word before a named condition's column label ("Random prompt len")
    layout_columns: dict[str, list[str]] = Field(default_factory=dict)
    paired_length_column: Regex = NEVER
    count_words: Words
    unit_nouns: Words
    machine_nouns: Words
    baseline_cues: Words
    benchmark_command: Regex = r"bench|perf|loadgen|lm_eval"
    bare_version: Regex = r"(?<![\w./-])(?P<v>v\d+\.\d+(?:\.\d+)?)(?![\w.-]*\w)"
    bare_commit: Regex = NEVER
    commit_owner: Regex = NEVER
    version_owner_before: Regex = NEVER
    external_cues: Words
    family_modifier_cues: Words
    family_modified_nouns: str = NEVER
    feature_link_score: float = Field(default=85, ge=50, le=100)
    restatement_must_agree: Words
    model_variant_words: Words
    range_top_conditions: ConditionNames   # what a headline bound takes from the body range it tops
    setup_heading_max_words: int = Field(default=6, ge=1)
    measures_reach: int = Field(default=24, ge=0, le=200)   # characters after a `measures_cue` read for a family
    coordinated_verb_reach: int = Field(default=0, ge=0, le=200)
    # cues (document_reader.py, clauses.py, places.py, rungs_local.py, rungs_document.py, policy.py)
    topic_heading: Regex = NEVER
    clause_breaks: Regex = NEVER
    subject_breaks: Regex = NEVER
    # conditions a claim's own sentence says vary ("at larger batch sizes", "with longer prompts", "across a range
    # of models"): no value of them is taken from a place broader than the sentence (ladder.py)
    varied_in_sentence: dict[VariedKind, Regex] = Field(default_factory=dict)
    coordinated_break: Regex = NEVER
    coordinated_verb_break: Regex = NEVER
    measured_item: Regex = NEVER
    example_cue: Regex = NEVER
    example_kind_cue: Regex = NEVER
    example_code_cue: Regex = NEVER
    measured_code_cue: Regex = NEVER
    metric_binding: Regex = NEVER
    measures_cue: Regex = NEVER
    comparison_cue: Regex = NEVER
    versus_gap: Regex = NEVER
    between_gap: Regex = NEVER
    between_sides: Regex = NEVER
    header_comparison: Regex = NEVER
    draft_column: Regex = NEVER
    baseline_column: Regex = NEVER
    baseline_column_kinds: ConditionNames
    from_level_before: Regex = NEVER
    from_level_after: Regex = NEVER
    citation_cue: Regex = NEVER
    citation_self: Regex = NEVER
    ratio_clause_end: Regex = r"$"
    ratio_levels: Regex = NEVER
    ratio_clause_start: Regex = NEVER
    credit_sections: Regex = NEVER
    source_link: Regex = NEVER
    cited_sections: Regex = NEVER
    linked_work_item: Regex = NEVER
    others_works_lead: Regex = NEVER
    citation_own_work: Regex = NEVER
    linked_finding: Regex = NEVER
    paragraph_source: Regex = NEVER
    reference_marker: Regex = NEVER
    reference_own: Regex = NEVER
    footnote_source: Regex = NEVER
    table_note_credit: Regex = NEVER
    table_note_own: Regex = NEVER
    table_mark_credit: Regex = NEVER
    table_own_label: Regex = NEVER
    table_own_title_not: Regex = NEVER
    table_bold_markup: Regex = NEVER
    table_note_kinds: Words
    anchor_link: Regex = NEVER
    prompt_lead_in: Regex = NEVER
    no_value_cell: Regex = NEVER
    prompt_length_tail: Regex = NEVER
    accuracy_cue: Regex = NEVER
    accuracy_clause_cue: Regex = NEVER   # the words right before a dataset that make it the set of a score
    slo_point_cue: Regex = NEVER   # 'meet our SLOs': the load after it is the point that meets them
    speed_runs_cue: Regex = NEVER   # a sentence about speed runs: its device is no accuracy claim's (ties.py)
    accuracy_check_cue: Regex = NEVER
    serving_workloads: Regex = NEVER
    universal_scope: Regex = NEVER
    described_after: Regex = NEVER   # a sentence after the claim's that says how that result was measured
    described_after_end: Regex = NEVER   # where that sentence's clause about the run ends
    table_setup_lead: Regex = NEVER   # a paragraph right before a table that says how its benchmarks were run
    paragraph_label: Regex = NEVER
    unit_device: Regex = NEVER
    size_reference: Regex = NEVER
    topic_opener: Regex = NEVER
    code_run_sentence: Regex = NEVER   # a sentence that says what the code shown above it runs
    panel_label: Regex = NEVER   # a label that opens one panel's description in a caption ('(a) ...')
    setting_binding: SettingBinding = Field(default_factory=SettingBinding)
    several_systems: SeveralSystems = Field(default_factory=SeveralSystems)
    # condition -> regex (full match on the name as written): a name that gives the kind, not the value
    partial_values: dict[str, str] = Field(default_factory=dict)
    variant_names: VariantNames = Field(default_factory=VariantNames)

    @field_validator("column_labels")
    @classmethod
    def _known_labels(cls, v: dict[str, list[str]]) -> dict[str, list[str]]:
        known_conditions(list(v))
        return v

    @field_validator("partial_values")
    @classmethod
    def _partial(cls, v: dict[str, str]) -> dict[str, str]:
        for name, rx in v.items():
            if name not in CONDITIONS or name == "engine_version":
                raise ValueError(f"unknown condition {name!r} (an engine without version is `no_version`)")
            compiled(rx)
        return v

    @field_validator("composite", "after_claim", "refinable", "restatement_must_agree")
    @classmethod
    def _known(cls, v: list[str]) -> list[str]:
        return known_conditions(v)

    @model_validator(mode="after")
    def _sentence_first(self) -> "ScopeRules":
        """The claim's own sentence is the first rung, and the only one of reader or scope `sentence`: the
        other rungs ask what it states (the loads, modes, devices and models of the claim's own clause)."""
        first = self.ladder[0]
        if first.reader != "sentence" or first.scope != "sentence":
            raise ValueError(f"the first rung of the ladder must be {{reader: sentence, scope: sentence}}, not "
                             f"{{reader: {first.reader}, scope: {first.scope}}}: the other rungs ask what the "
                             f"claim's own sentence states")
        again = [i for i, rung in enumerate(self.ladder) if i and "sentence" in (rung.reader, rung.scope)]
        if again:
            raise ValueError(f"ladder rung {again[0]}: only the first rung reads the claim's sentence")
        return self

    @model_validator(mode="after")
    def _several_scopes(self) -> "ScopeRules":
        unknown = {*self.several_systems.scopes, *self.several_systems.headline_scopes} - {rung.scope for rung in self.ladder}
        if unknown:
            raise ValueError(f"several_systems names scopes not on the ladder: {sorted(unknown)}")
        return self

    def scope_rank(self) -> dict[str, int]:
        """How specific each scope is (0: most), by its first rung on the ladder; `restatement` (a condition
        taken from another place that gives the same figure) last."""
        rank: dict[str, int] = {}
        for rung in self.ladder:
            rank.setdefault(rung.scope, len(rank))
        rank.setdefault("restatement", len(rank))
        return rank

    def setup_heading(self) -> tuple[re.Pattern[str], re.Pattern[str]]:
        """(ending, phrase): a heading that ends with a setup word or phrase ("4. Experimental Setup",
        "Hardware"), or names a phrase of several words anywhere ("Evaluation Setup and Scripts",
        "Notes on the Benchmark Settings"; not "Hardware Trends"); `setup_heading_pattern` is the general
        shape of such a phrase."""
        words = sorted((re.escape(s) for s in self.setup_sections), key=len, reverse=True)
        multi = [w for w in words if "\\ " in w or " " in w] + [f"(?:{self.setup_heading_pattern})"]
        return (re.compile(rf"\b(?:{'|'.join(words)})[\s:.!?)]*$", re.I),
                re.compile(rf"\b(?:{'|'.join(multi)})\b", re.I))

    def back_matter_heading(self) -> re.Pattern[str]:
        """A heading of the post's back matter ("Appendix", "Reproducing the results"): details for the whole post."""
        return _heading_words(self.back_matter_sections)

    def usage_heading(self) -> re.Pattern[str]:
        """A heading of a how-to section for the reader ("How to set up", "Quick start"), never a setup."""
        return _heading_words(self.usage_sections)

    def hardware_name_parts(self) -> tuple[re.Pattern[str], re.Pattern[str]]:
        """(count, unit noun) written around a hardware name: "8x H200 GPUs", "4 servers, each with 8 H200",
        "9x8xH100", "an 8-GPU H100", "H100 x 8" -> "H200"/"H100" (the count is the mention's)."""
        words = "|".join(sorted((re.escape(w).replace("\\ ", "\\s+") for w in self.count_words),
                                key=len, reverse=True)) or "(?!)"
        nouns = "|".join(sorted((re.escape(w) for w in self.unit_nouns), key=len, reverse=True)) or "(?!)"
        machines = "|".join(sorted((re.escape(w) for w in self.machine_nouns), key=len, reverse=True)) or "(?!)"
        devices = r"(?:[x×*]|-?\s*(?:GPU|accelerator|chip|card)s?(?![\w-]))"
        count = re.compile(r"^\s*\d+\s*(?:" + machines + r")\s*,?\s*(?:each\s+|every\s+one\s+)?"
                           r"(?:with|of|having|equipped\s+with|holding|containing|x|×)?\s*(?:an?\s+)?\d*\s*"
                           + devices + r"?\s*"
                           r"|^\s*\d+\s*[x×]\s*\d+\s*[x×]\s*"
                           r"|^\s*(?:(?:" + words + r")(?![a-z0-9])|\d+)\s*" + devices + r"?\s*"
                           r"|(?:\s+|(?<=\d))[x×]\s*\d+$", re.I)   # "H100 x 8", "H100x8"; not "RTX 4090"
        return count, re.compile(r"\s+(?:" + nouns + r")$", re.I)

    def baseline_tail(self) -> BaselineTail:
        """Tells a name right after a baseline cue ("... compared with the H100")."""
        words = sorted((re.escape(s) for s in self.baseline_cues), key=len, reverse=True)
        if not words:
            return BaselineTail(re.compile(r"(?!)"))
        gap = r"(?:[ \t]+|[ \t]*\n[ \t]*)"   # a space or one line break: not a paragraph's end
        return BaselineTail(re.compile(rf"(?:^|\W)(?:{'|'.join(words)}){gap}(?:(?:the|an?|our){gap})?"
                                       rf"(?:[^\s.;!?]+{gap})?$", re.I))

    def setup_label(self, line_start: bool = True) -> re.Pattern[str]:
        """Matches a line opening with a setup label and a colon ("Hardware: ..."); with `line_start` False,
        text opening so where the match starts (a list item's text)."""
        words = sorted((re.escape(s) for s in self.setup_labels), key=len, reverse=True)
        return re.compile(rf"{'^' if line_start else ''}\W*(?:{'|'.join(words)})\W*:", re.I | re.M)


class BaselineTail:
    """Whether the text before a position ends in a baseline cue and at most one more word."""

    WINDOW = 40   # characters looked back

    def __init__(self, rx: re.Pattern[str]):
        self.rx = rx   # matches text ending in a cue and blanks ("... compared with the ")

    def before(self, text: str, pos: int) -> bool:
        # the pattern ends in blanks: a name with no blank right before it follows no cue, unless a hyphen joins
        # it to a word that does ("against the FP32 reference", "than the stock-BF16 build")
        if pos > 1 and text[pos - 1] == "-" and text[pos - 2].isalnum():
            pos -= 1
            while pos > 0 and text[pos - 1].isalnum():
                pos -= 1
        return pos > 0 and text[pos - 1].isspace() and self.rx.search(text, max(0, pos - self.WINDOW), pos) is not None


@rule_cache()
def load_scope_rules(rules_dir: Path) -> ScopeRules:
    return load_yaml(Path(rules_dir) / SCOPES_FILE, ScopeRules)


def _heading_words(phrases: list[str]) -> re.Pattern[str]:
    """Any of `phrases` anywhere in a heading, as words (a space also matches a hyphen), case-insensitive."""
    words = sorted((re.escape(s).replace("\\ ", r"[\s-]*") for s in phrases), key=len, reverse=True)
    return re.compile(rf"\b(?:{'|'.join(words) or '(?!)'})\b", re.I)
