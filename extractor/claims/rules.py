"""The claim rules (`rules/claims.yaml`), validated at load."""
from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from extractor.records import STATISTIC_PATTERN, Metric, Per, Tokens
from extractor.rules_io import Phrases, load_yaml, rule_cache
from extractor.rule_files import CLAIMS

CLAIMS_FILE = CLAIMS.name
METRICS = set(get_args(Metric))
UNIT_CLASSES = {"token_rate", "request_rate", "time", "ratio", "percent", "cost", "memory", "bandwidth",
                "compute", "energy", "score", "token_count", "token_time", "accept_length",
                "item_rate", "named_ratio"}


def _phrases(values: list) -> list[str]:
    out = []
    for v in values:
        if isinstance(v, bool):    # YAML reads a bare on/off/yes/no/true/false as a boolean, not as the word
            raise ValueError(f"cue {v!r} is a YAML boolean, not a phrase: quote the word (\"on\", \"no\")")
        if not isinstance(v, (str, int, float)) or not str(v).strip():
            raise ValueError(f"cue {v!r} is not a non-empty phrase")
        out.append(str(v).strip())
    return out


class ClaimRules(BaseModel):
    """Cue lexicons and settings that decide which quantities are claims and what they measure."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    metric_cues: dict[str, list[str]]
    unit_classes: dict[str, list[str]]
    change_up: list[str]
    change_down: list[str]
    change_neutral: Phrases
    change_up_adjacent: Phrases
    change_down_adjacent: Phrases
    not_claim: Phrases
    media_words: Phrases = Field(default_factory=list)
    measure_cues: Phrases
    rate_claim_cues: Phrases
    limit_cues: Phrases
    setting_intro: Phrases
    clause_breaks: Phrases
    clause_joins: Phrases
    baseline_value_before: Phrases
    baseline_value_after: Phrases
    baseline_score_before: Phrases
    count_headers: Phrases
    direction_better: Phrases
    direction_worse: Phrases
    direction_neutral: Phrases
    direction_neutral_before: Phrases
    lower_is_better_metrics: Phrases
    lower_is_better: Phrases
    higher_is_better: Phrases
    share_of: Phrases
    accept_length_cues: Phrases
    level_intro: Phrases
    level_measured_intro: Phrases
    overhead_words: Phrases
    training_words: Phrases = Field(default_factory=list)
    training_time_metric: str = "latency"
    change_amount_intro: Phrases
    device_spec_before: Phrases
    device_spec_after: Phrases
    device_spec_not_after: Phrases
    per_device_after: str = ""
    ratio_headers: Phrases
    cost_per_tokens: str = r"(?!)"
    bare_assignment_before: str = r"(?!)"
    bare_fraction_after: str = r"(?!)"
    bare_fraction_before: str = r"(?!)"
    table_baseline_header: str = r"(?!)"
    table_called_baseline: str = r"(?!)"
    table_reference_column: str = r"(?!)"
    table_lead_baseline: list[str] = []
    prose_baseline_before: list[str] = []
    previous_comparison_setup: list[str] = []
    previous_comparison: list[str] = []
    method_with_without: list[str] = Field(default_factory=list)
    method_feature_generic_words: list[str] = Field(default_factory=list)
    baseline_continuation_start: str = r"(?!)"
    baseline_coordinated_name: str = r"(?!)"
    ratio_quantity_of: str = r"(?!)"
    sweep_baseline: str = r"(?!)"
    sweep_not_across: str = r"(?!)"
    sweep_metric_subject: str = r"(?!)"
    coordinated_comparison_gap: str = r"(?!)"
    sweep_named_cause: str = r"(?!)"
    sweep_subject_verb: str = r"(?!)"
    sweep_lead: str = r"(?!)"
    sweep_counted_noun: str = r"(?!)(x)"   # group 1: the counted noun
    sweep_uncounted_nouns: list[str] = Field(default_factory=list)
    sweep_singular: dict[str, str] = Field(default_factory=dict)
    table_setting_headers: str = r"(?!)"
    table_memory_headers: str = r"(?!)"
    table_memory_saving_header: str = r"(?!)"
    table_gain_header: str = r"(?!)"
    table_floor_after: str = r"(?!)"
    table_approx_before_metric: str = r"(?!)"
    table_approx_header: str = r"(?!)"
    table_share_of_header: str = r"(?!)"
    table_plural_marker: str = r"(?!)(x)"   # group 1: what stays of the header before "(s)"
    measured_memory_sections: str = r"(?!)"
    sla_share_after: Phrases
    level_reached_intro: Phrases
    level_pair_from: Phrases
    adoption_words: Phrases
    model_size_words: Phrases
    named_ratio_cues: Phrases
    rate_unit_before: Phrases
    statistic_cues: dict[str, list[str]] = Field(default_factory=dict)
    statistic_metrics: Phrases
    statistic_min_is_requirement: Phrases = Field(default_factory=list)
    statistic_not_before: str = r"(?!)"
    statistic_sentence_lead: str = ""
    statistic_table_lead: str = ""
    enumeration_gap: str = r"(?!)"
    share_of_time_after: str = r"(?!)"
    ratio_before_device: str = r"(?!)"
    ratio_that_of: str = r"(?!)"
    share_of_ideal_after: str = r"(?!)"
    memory_share_before: str = r"(?!)"
    memory_share_after: str = r"(?!)"
    score_at_size_after: str = r"(?!)"
    cache_hit_after: str = r"(?!)"
    named_rate_after: str = r"(?!)"
    remaining_share_before: str = r"(?!)"
    level_series_gap: str = r"(?!)"

    @field_validator("per_device_after", "cost_per_tokens", "bare_assignment_before", "bare_fraction_after",
                     "bare_fraction_before", "table_baseline_header", "table_called_baseline", "table_reference_column",
                     "table_setting_headers", "table_memory_headers", "table_memory_saving_header", "table_gain_header", "table_floor_after",
                     "table_approx_before_metric", "table_approx_header",
                     "table_share_of_header", "table_plural_marker", "statistic_not_before", "measured_memory_sections", "enumeration_gap", "share_of_time_after",
                     "ratio_before_device", "ratio_that_of", "share_of_ideal_after", "memory_share_before",
                     "memory_share_after", "score_at_size_after", "cache_hit_after", "named_rate_after",
                     "remaining_share_before", "level_series_gap", "baseline_continuation_start",
                     "baseline_coordinated_name", "ratio_quantity_of", "sweep_baseline", "sweep_not_across",
                     "sweep_metric_subject", "coordinated_comparison_gap", "sweep_named_cause", "sweep_subject_verb",
                     "sweep_lead", "sweep_counted_noun")
    @classmethod
    def _regex(cls, v: str, info):
        try:
            rx = re.compile(v)
        except re.error as e:
            raise ValueError(f"{info.field_name} is not a valid regex: {e}") from e
        if info.field_name in ("table_plural_marker", "sweep_counted_noun") and rx.groups < 1:
            raise ValueError(f"{info.field_name} needs a group 1 (what is counted)")
        return v

    @field_validator("table_lead_baseline", "prose_baseline_before", "previous_comparison_setup",
                     "previous_comparison", "method_with_without")
    @classmethod
    def _base_regexes(cls, v: list[str], info):
        for pattern in v:
            try:
                compiled = re.compile(pattern)
            except re.error as e:
                raise ValueError(f"{info.field_name}: {pattern!r} is not a valid regex: {e}") from e
            if "base" not in compiled.groupindex:
                raise ValueError(f"{info.field_name}: {pattern!r} names no group `base`")
        return v
    tokens: dict[Tokens, list[str]]
    per: dict[Per, list[str]]
    baseline_intro: list[str]
    baseline_stop: list[str]
    baseline_clause_lead: list[str] = []
    headline_sections: list[str]
    headline_fields: list[str]
    intro_paragraphs: int = 3
    abbreviations: Phrases

    @field_validator("change_up", "change_down", "change_neutral", "change_up_adjacent", "change_down_adjacent",
                     "not_claim", "media_words", "measure_cues", "rate_claim_cues", "limit_cues", "setting_intro", "clause_breaks",
                     "clause_joins",
                     "baseline_value_before", "baseline_value_after",
                     "baseline_score_before", "count_headers", "baseline_intro",
                     "baseline_stop", "headline_sections", "headline_fields", "abbreviations",
                     "direction_better", "direction_worse", "direction_neutral", "direction_neutral_before", "lower_is_better",
                     "higher_is_better", "share_of", "accept_length_cues", "level_intro", "level_measured_intro",
                     "change_amount_intro",
                     "device_spec_before", "device_spec_after", "ratio_headers", "sla_share_after", "level_reached_intro",
                     "overhead_words", "training_words", "device_spec_not_after", "level_pair_from", "adoption_words", "model_size_words", "named_ratio_cues", "rate_unit_before", mode="before")
    @classmethod
    def _cue_list(cls, v):
        return _phrases(v or [])

    @field_validator("metric_cues")
    @classmethod
    def _metric_names(cls, v: dict[str, list[str]]):
        for name, cues in v.items():
            if name not in METRICS:
                raise ValueError(f"unknown metric {name!r} (known: {', '.join(sorted(METRICS))})")
            _phrases(cues)
        return v

    @field_validator("statistic_cues")
    @classmethod
    def _statistic_names(cls, v: dict[str, list[str]]):
        for name, cues in v.items():
            if not re.match(STATISTIC_PATTERN, name):
                raise ValueError(f"unknown statistic {name!r} (mean, median, min, max or pNN)")
            _phrases(cues)
        return v

    @field_validator("lower_is_better_metrics", "statistic_metrics", "statistic_min_is_requirement")
    @classmethod
    def _polar_metrics(cls, v: list[str]):
        unknown = sorted(set(v) - METRICS)
        if unknown:
            raise ValueError(f"unknown metric(s) {', '.join(unknown)} (known: {', '.join(sorted(METRICS))})")
        return v

    @field_validator("unit_classes")
    @classmethod
    def _classes(cls, v: dict[str, list[str]]):
        for name, metrics in v.items():
            if name not in UNIT_CLASSES:
                raise ValueError(f"unknown unit class {name!r} (known: {', '.join(sorted(UNIT_CLASSES))})")
            for m in metrics:
                if m and m not in METRICS:
                    raise ValueError(f"unit class {name!r}: unknown metric {m!r}")
        return v

    @model_validator(mode="after")
    def _no_conflicts(self):
        up = {c.lower() for c in self.change_up + self.change_up_adjacent}
        clash = sorted(up & {c.lower() for c in self.change_down + self.change_down_adjacent})
        if clash:
            raise ValueError(f"cues both in change_up and change_down: {', '.join(clash)}")
        for a, b in (("direction_better", "direction_worse"), ("lower_is_better", "higher_is_better")):
            clash = sorted({c.lower() for c in getattr(self, a)} & {c.lower() for c in getattr(self, b)})
            if clash:
                raise ValueError(f"cues both in {a} and {b}: {', '.join(clash)}")
        return self


@rule_cache()
def load_claim_rules(rules_dir: Path) -> ClaimRules:
    """Read and validate `claims.yaml` from a rules folder (cached per folder)."""
    return load_yaml(Path(rules_dir) / CLAIMS_FILE, ClaimRules)
