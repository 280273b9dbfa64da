"""The rule files of a rules folder: one registry, read by the loaders, `rules check` and `rules usage`.

Each file is named once here with the pydantic model that validates it, the loader that builds the extractor's
rules from it, and how `rules usage` counts its entries. The models and loaders are named by import path
("module:attribute", as spaCy's registry names functions) and resolved only when asked, so this module sits
below every stage. A new rule file is added here, and its loader reads its name from here:

    from extractor.rule_files import CLAIMS
    load_yaml(CLAIMS.path(rules_dir), ClaimRules)
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

Format = Literal["yaml", "jsonl", "jsonl_folder", "pint"]
# how `rules usage` counts a file's entries: searched in the text ("text"), as the mentions the extractor finds
# ("mentions": condition patterns, gazetteer lines), or not at all ("none": never run over a post's text)
Usage = Literal["text", "mentions", "none"]


@dataclass(frozen=True)
class RuleFile:
    """One rule file (or folder of files) and who reads it."""

    name: str                       # its path in the rules folder ("gazetteers" for the folder of .jsonl files)
    stage: str                      # the package whose rules it holds
    format: Format
    model: str | None               # "module:Model" validating the file (a JSONL file: each line)
    loader: str | None              # "module:function" building the rules from the folder (run by `rules check`)
    required: bool = True           # the extractor cannot run without it (else validated when present)
    usage: Usage = "text"
    vocabulary: tuple[str, ...] = ()   # YAML path prefixes of name lists: their entries are vocabulary
    all_vocabulary: bool = False       # every entry is a name or word of the field (gazetteers, spellings)

    def path(self, rules_dir: str | Path) -> Path:
        return Path(rules_dir) / self.name

    def schema(self) -> Any:
        """The pydantic model of the file (imported now)."""
        return _resolve(self.model) if self.model else None

    def load(self) -> Any:
        """The loader of the file: a callable of the rules folder (imported now)."""
        return _resolve(self.loader) if self.loader else None


def _resolve(target: str) -> Any:
    module, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


# in the order `rules check` runs the loaders
UNITS = RuleFile("units.txt", "quantities", "pint", None, "extractor.quantities.units:registry")
NUMBERS = RuleFile("numbers.yaml", "quantities", "yaml", "extractor.quantities.rules:NumberRules",
                   "extractor.quantities.rules:load_quantity_rules")
SPELLINGS = RuleFile("unit_spellings.jsonl", "quantities", "jsonl", "extractor.quantities.rules:UnitSpelling",
                     "extractor.quantities.rules:load_quantity_rules", all_vocabulary=True)
CLAIMS = RuleFile("claims.yaml", "claims", "yaml", "extractor.claims.rules:ClaimRules",
                  "extractor.claims.rules:load_claim_rules", vocabulary=("metric_cues.accuracy.",))
SCOPES = RuleFile("scopes.yaml", "conditions", "yaml", "extractor.conditions.rules:ScopeRules",
                  "extractor.conditions.rules:load_scope_rules", vocabulary=("supporting_engines.",))
WHERE = RuleFile("where_notes.yaml", "conditions", "yaml", "extractor.conditions.rules:WhereRules",
                 "extractor.conditions.rules:load_where_rules")
CONDITIONS = RuleFile("conditions.yaml", "conditions", "yaml", "extractor.conditions.patterns:ConditionsFile",
                      "extractor.conditions.mentions:MentionFinder", usage="mentions")
GAZETTEERS = RuleFile("gazetteers", "conditions", "jsonl_folder", "extractor.conditions.canonical:GazetteerEntry",
                      "extractor.conditions.mentions:MentionFinder", usage="mentions", all_vocabulary=True)
SET_ASIDE = RuleFile("set_aside.yaml", "claims", "yaml", "extractor.claims.set_aside:SetAsideRules",
                     "extractor.claims.set_aside:load_set_aside_rules")
COUNTING = RuleFile("counting.yaml", "claims", "yaml", "extractor.claims.counting:CountingRules",
                    "extractor.claims.counting:load_counting_rules", required=False)
CAVEATS = RuleFile("caveats.yaml", "notes", "yaml", "extractor.notes.rules:CaveatRules",
                   "extractor.notes.caveats:CaveatReader.from_rules", required=False,
                   vocabulary=("reproducibility.command.starters.",))
AUTHORSHIP = RuleFile("authorship.yaml", "notes", "yaml", "extractor.notes.rules:AuthorshipRules",
                      "extractor.notes.caveats:CaveatReader.from_rules", required=False, vocabulary=("orgs.",))
OUTPUT = RuleFile("program_output.yaml", "claims", "yaml", "extractor.claims.output_blocks:OutputRules", None)
HARNESSES = RuleFile("harnesses.yaml", "conditions", "yaml", "extractor.conditions.code.harnesses:HarnessFile",
                     None, required=False)
COMPARE = RuleFile("compare.yaml", "compare", "yaml", "extractor.compare.rules:CompareRules", None,
                   required=False, usage="none")

RULE_FILES: tuple[RuleFile, ...] = (UNITS, NUMBERS, SPELLINGS, CLAIMS, SCOPES, WHERE, CONDITIONS, GAZETTEERS,
                                    SET_ASIDE, COUNTING, CAVEATS, AUTHORSHIP, OUTPUT, HARNESSES, COMPARE)
_BY_NAME = {rf.name: rf for rf in RULE_FILES}


def rule_file(name: str) -> RuleFile | None:
    """The registered rule file of this name (relative to the rules folder), or None."""
    return _BY_NAME.get(name)


def loaders() -> list[Any]:
    """The loaders of the registered files, each once, in registry order."""
    out: list[Any] = []
    for rf in RULE_FILES:
        fn = rf.load()
        if fn is not None and fn not in out:
            out.append(fn)
    return out
