"""The comparison rules (`rules/compare.yaml`): what must match for two claims to be compared, validated
at load (an unknown condition, metric, role or caveat kind names the entry)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from extractor.conditions.rules import known_conditions
from extractor.records import Metric, Qualifier
from extractor.rules_io import compiled, default_rules_dir, known_names, load_yaml, rule_cache
from extractor.rule_files import COMPARE

COMPARE_FILE = COMPARE.name
METRICS: tuple[str, ...] = get_args(Metric)
Role = Literal["required", "if_either", "shown"]
CLAIM_FIELDS = ("tokens", "statistic", "baseline")


def known_metrics(names: list[str]) -> list[str]:
    """`names`, each a metric of the record."""
    return known_names(names, METRICS, "metric")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class ConditionRule(_Strict):
    """How one load condition weighs in the verdict and how two stated values are matched."""

    role: Role
    match: Literal["text", "stated", "number", "hardware", "forms"] = "text"
    tolerance: float = Field(0.0, ge=0.0, lt=1.0, description="relative tolerance of `number`")
    similarity: int = Field(90, ge=50, le=100, description="`text` without a canonical name: the rapidfuzz "
                                                           "token-set ratio from which two texts are the same")
    by_metric: dict[str, Role] = Field(default_factory=dict, description="the role for claims of these metrics")

    @field_validator("by_metric")
    @classmethod
    def _metrics(cls, v: dict[str, Role]) -> dict[str, Role]:
        known_metrics(list(v))
        return v

    def role_for(self, metric: str) -> Role:
        """The condition's role for a claim of `metric`."""
        return self.by_metric.get(metric, self.role)


class FieldRule(_Strict):
    """A field of the claims compared as a row, for some metrics (none listed: every metric)."""

    role: Role
    metrics: list[str] = Field(default_factory=list)

    _metrics = field_validator("metrics")(known_metrics)


class PrecisionForm(_Strict):
    """A precision format and the regex that finds it in a stated precision."""

    form: str
    regex: str

    _regex = field_validator("regex")(compiled)


class CaveatRule(_Strict):
    """Which claims a document caveat (a kind of rules/caveats.yaml) is shown beside."""

    applies: Literal["headline", "metrics", "all"]
    metrics: list[str] = Field(default_factory=list)

    _metrics = field_validator("metrics")(known_metrics)

    @model_validator(mode="after")
    def _metrics_given(self) -> "CaveatRule":
        if self.applies == "metrics" and not self.metrics:
            raise ValueError("applies: metrics needs a list of metrics")
        return self


class RestatementRule(_Strict):
    """When a claim of one post restates the figure of a claim of another."""

    tolerance: float = Field(0.005, ge=0.0, lt=0.5)
    approx_tolerance: float = Field(0.02, ge=0.0, lt=0.5)
    must_state: list[str] = Field(default_factory=lambda: ["model", "hardware"])

    _names = field_validator("must_state")(known_conditions)


class CompareRules(_Strict):
    """rules/compare.yaml."""

    version: int = 1
    conditions: dict[str, ConditionRule]
    claim_fields: dict[str, FieldRule] = Field(default_factory=dict)
    relative_metrics: list[str] = Field(default_factory=list)
    table_labels: Role = "required"
    per_token_metrics: list[str] = Field(default_factory=list)
    precision_forms: list[PrecisionForm] = Field(default_factory=list)
    caveats: dict[str, CaveatRule] = Field(default_factory=dict)
    qualifiers: dict[Qualifier, str] = Field(default_factory=dict)
    restatement: RestatementRule = Field(default_factory=RestatementRule)

    _relative = field_validator("relative_metrics", "per_token_metrics")(known_metrics)

    @field_validator("conditions")
    @classmethod
    def _conditions(cls, v: dict[str, ConditionRule]) -> dict[str, ConditionRule]:
        known_conditions(list(v))
        if "gpu_count" in v:
            raise ValueError("gpu_count is read as the device count of `hardware` (match: hardware), "
                             "not a row of its own")
        return v

    @field_validator("claim_fields")
    @classmethod
    def _fields(cls, v: dict[str, FieldRule]) -> dict[str, FieldRule]:
        known_names(list(v), CLAIM_FIELDS, "claim field", "fields")
        return v

    @field_validator("qualifiers")
    @classmethod
    def _templates(cls, v: dict[str, str]) -> dict[str, str]:
        for name, text in v.items():
            try:
                text.format(value="1")
            except (KeyError, IndexError, ValueError) as err:
                raise ValueError(f"qualifiers.{name}: the message may use only {{value}} ({err})") from None
        return v

    def precision_forms_of(self, text: str) -> frozenset[str]:
        """The precision forms named in `text` (empty when none is)."""
        return frozenset(p.form for p in self.precision_forms if re.search(p.regex, text, re.I))


@rule_cache()
def _load(rules_dir: str) -> CompareRules:
    return load_yaml(Path(rules_dir) / COMPARE_FILE, CompareRules)


def load_compare_rules(rules_dir: str | Path | None = None) -> CompareRules:
    """The comparison rules of `rules_dir` (the installed rules by default), validated and cached."""
    return _load(str(rules_dir or default_rules_dir()))
