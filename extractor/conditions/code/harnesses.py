"""The schema of `rules/harnesses.yaml` (validated at load): the options of the common benchmark and serving
harnesses, and the Python keywords and calls that state a run's conditions."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from extractor.conditions.rules import NEVER, Regex
from extractor.rules_io import default_rules_dir, load_yaml, rule_cache

HARNESSES_FILE = "harnesses.yaml"
# the conditions code can state, and the form "condition:template" ("parallelism:TP{n}")
CodeCondition = Literal["model", "input_length", "output_length", "batch_or_concurrency", "parallelism",
                        "gpu_count", "warmup", "precision", "dataset", "scenario"]
NUMERIC = frozenset({"input_length", "output_length", "batch_or_concurrency", "gpu_count"})
_TARGET = re.compile(r"^(?P<c>[a-z_]+)(?::(?P<t>.*\{n\}.*))?$")


class Reading(BaseModel):
    """What one option or keyword states: a condition, with a template for its number ("TP{n}"), a value when it
    is a flag, a canonical value per written value, or the conditions of the keys of a "k=v,k=v" value."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    condition: CodeCondition | None = None
    template: str | None = None
    flag: str | None = None
    rate: bool = False
    prompt: bool = False   # the value is the text of the prompt the run sends (a dataset: 'single prompt "..."')
    path: bool = False     # the value is a file path whose two last directories name the model ("ckpt/org/name/model.pth")
    ignore: list[str] = Field(default_factory=list)
    keys: dict[str, str] = Field(default_factory=dict)
    also: Reading | None = None   # a second condition the same value states (`--world_size 8`: a count and a layout)

    @model_validator(mode="after")
    def _one(self) -> "Reading":
        if (self.condition is None) == (not self.keys):
            raise ValueError("give either a condition or keys")
        if self.template is not None and "{n}" not in self.template:
            raise ValueError("a template holds {n}")
        for key, target in self.keys.items():
            parse_target(target)
        return self


def parse_target(target: str | Reading) -> Reading:
    """`"output_length"` or `"parallelism:TP{n}"` as a Reading (a ValueError for an unknown condition)."""
    if isinstance(target, Reading):
        return target
    m = _TARGET.match(target)
    if not m or m["c"] not in CodeCondition.__args__:
        raise ValueError(f"unknown condition {target!r}")
    return Reading(condition=m["c"], template=m["t"])


class Harness(BaseModel):
    """One command of a benchmark or serving harness."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    name: str
    program: list[str] = Field(min_length=1)
    role: Literal["benchmark", "server", "launcher", "script"]
    positional: CodeCondition | None = None
    options: dict[str, Reading] = Field(default_factory=dict)
    keyvalue: dict[str, Reading] = Field(default_factory=dict)

    @field_validator("options", "keyvalue", mode="before")
    @classmethod
    def _targets(cls, v):
        return {k: parse_target(t) if isinstance(t, str) else t for k, t in (v or {}).items()}

    @model_validator(mode="after")
    def _script_glob(self) -> "Harness":
        if self.role == "script" and len(self.program) != 1:
            raise ValueError(f"a script harness's program is one glob of the script's file name ('*.py'), "
                             f"not {self.program!r}")
        return self

    @field_validator("options")
    @classmethod
    def _dashed(cls, v: dict[str, Reading]) -> dict[str, Reading]:
        for option in v:
            if not option.startswith("-"):
                raise ValueError(f"option {option!r} does not start with a dash")
        return v


class PythonRules(BaseModel):
    """Python calls and names that state conditions (extractor/conditions/code/python.py)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    keywords: dict[str, Reading] = Field(default_factory=dict)
    model_calls: list[str] = Field(default_factory=list)
    hub_calls: list[str] = Field(default_factory=list)
    not_model_objects: list[str] = Field(default_factory=list)
    helper_names: Regex = NEVER
    prompt_names: list[str] = Field(default_factory=list)
    single_image_calls: list[str] = Field(default_factory=list)
    warmup_names: Regex = NEVER
    timers: list[str] = Field(default_factory=list)
    one_device: Regex = NEVER
    multi_device: list[str] = Field(default_factory=list)
    multi_device_maps: list[str] = Field(default_factory=list)

    @field_validator("keywords", mode="before")
    @classmethod
    def _targets(cls, v):
        return {k: parse_target(t) if isinstance(t, str) else t for k, t in (v or {}).items()}

    @field_validator("not_model_objects")
    @classmethod
    def _regexes(cls, v: list[str]) -> list[str]:
        for p in v:
            re.compile(p)
        return v


class HarnessFile(BaseModel):
    """rules/harnesses.yaml."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    version: int = 1
    precisions: dict[str, str] = Field(default_factory=dict)
    docker_value_options: list[str] = Field(default_factory=list)
    images: dict[str, str | None] = Field(default_factory=dict)
    result_after_server: Regex = NEVER
    printed_result: Regex = NEVER
    harnesses: list[Harness] = Field(default_factory=list)
    python: PythonRules = Field(default_factory=PythonRules)

    @field_validator("harnesses")
    @classmethod
    def _unique(cls, v: list[Harness]) -> list[Harness]:
        seen: set[tuple[str, ...]] = set()
        for h in v:
            key = tuple(h.program)
            if key in seen:
                raise ValueError(f"program {' '.join(key)!r} given twice")
            seen.add(key)
        return v

    @model_validator(mode="after")
    def _images(self) -> "HarnessFile":
        names = {h.name for h in self.harnesses}
        for image, harness in self.images.items():
            if harness is not None and harness not in names:
                raise ValueError(f"image {image!r} names no harness {harness!r}")
        return self

    def precision(self, written: str) -> str | None:
        """The canonical precision of a dtype or quantisation as written ("torch.bfloat16", "fp8")."""
        return self.precisions.get(written.rsplit(".", 1)[-1].strip().lower())


def load_harnesses(rules_dir: Path | str | None = None) -> HarnessFile:
    """rules/harnesses.yaml of `rules_dir` (default rules when None), validated; an empty table when absent."""
    return _load(str(Path(rules_dir) if rules_dir else default_rules_dir()))


@rule_cache(maxsize=4)
def _load(rules_dir: str) -> HarnessFile:
    path = Path(rules_dir) / HARNESSES_FILE
    return load_yaml(path, HarnessFile) if path.exists() else HarnessFile()
