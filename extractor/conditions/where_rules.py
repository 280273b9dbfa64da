"""Where-note rules (`rules/where_notes.yaml`): where to look for a condition a post does not state, by what the
document offers (a recipe link, an image, a command...), and the wording of `why`; validated at load."""
from __future__ import annotations

import re
import string
from pathlib import Path
from typing import get_args

from pydantic import Field, field_validator, model_validator

from extractor.conditions.rules import Reason, Words, _Strict, known_conditions
from extractor.records import CONDITIONS
from extractor.rules_io import compiled, load_yaml, rule_cache

WHERE_FILE = "where_notes.yaml"
OFFERS = ("recipe", "issue", "image", "command", "figure", "engine")


class Offer(_Strict):
    """Patterns that show a document offers a place to look (a recipe link, an image...)."""

    link_target: str | None = None
    link_text: str | None = None
    text: str | None = None
    # every `text` match lies in one run of non-blank characters holding this string: only those runs are
    # searched (a whole post is not)
    text_holds: str | None = Field(None, min_length=1)

    @field_validator("link_target", "link_text", "text")
    @classmethod
    def _compiles(cls, v: str | None) -> str | None:
        return compiled(v)

    def patterns(self) -> dict[str, re.Pattern[str]]:
        """The compiled patterns this offer sets, by field name."""
        return {k: re.compile(v) for k, v in (("link_target", self.link_target), ("link_text", self.link_text),
                                                ("text", self.text)) if v}


class WhereNote(_Strict):
    """One where-note: used when the document offers everything in `needs`."""

    needs: Words
    where: str

    @model_validator(mode="after")
    def _placeholders(self):
        for need in self.needs:
            if need not in OFFERS:
                raise ValueError(f"unknown offer {need!r} (known: {', '.join(OFFERS)})")
        used = {f for _, f, _, _ in string.Formatter().parse(self.where) if f}
        missing = used - set(self.needs)
        if missing:
            raise ValueError(f"where-note uses {sorted(missing)} without needing it")
        return self


class WhereRules(_Strict):
    """Where-notes per condition, what a document can offer, and the wording of `why`."""

    offers: dict[str, Offer]
    notes: dict[str, list[WhereNote]]
    why: dict[str, str]
    sweep_note: str
    sweep_note_no_figure: str
    external_where: str = "the source the post cites for this result: {source}"

    @field_validator("offers")
    @classmethod
    def _offers(cls, v: dict[str, Offer]):
        for name in v:
            if name not in OFFERS:
                raise ValueError(f"unknown offer {name!r} (known: {', '.join(OFFERS)})")
        return v

    @field_validator("notes")
    @classmethod
    def _every_condition(cls, v: dict[str, list[WhereNote]]):
        known_conditions(list(v))
        for name, notes in v.items():
            if not notes or notes[-1].needs:
                raise ValueError(f"condition {name!r}: the last note must need nothing (the general place)")
        missing = [c for c in CONDITIONS if c not in v]
        if missing:
            raise ValueError(f"no where-notes for: {', '.join(missing)}")
        return v

    @field_validator("why")
    @classmethod
    def _why(cls, v: dict[str, str]):
        for key in get_args(Reason):
            if key not in v:
                raise ValueError(f"missing why-wording {key!r}")
        return v



@rule_cache()
def load_where_rules(rules_dir: Path) -> WhereRules:
    return load_yaml(Path(rules_dir) / WHERE_FILE, WhereRules)
