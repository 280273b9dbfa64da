"""What a post's token rates count, defined once and carried to the figures it governs (`rules/counting.yaml`).

A methodology note, a list of metrics, a table legend or a formula says which tokens the post's throughput
counts ("our throughput is computed as generated tokens per second", "TPS = (input + output tokens) / time");
the table cells and sentences it governs do not say it again. `CountingDefinitions.find` reads the definitions
of a document; `carry` gives their kind of tokens to the token-rate claims whose own text names none (tokens
`unspecified`), from the nearest scope that decides:

1. the table the definition captions, leads into or follows (a legend or a note right under it);
2. the definition's section, then each enclosing section;
3. the post.

At each scope the definitions must agree on one kind; when they do not, those whose name the claim's header or
sentence repeats decide, else the claim keeps `unspecified`. A definition of a per-user rate reaches per-user
claims only, and a per-user claim only such a definition. What the claim's own text states is never replaced.

    counting = CountingDefinitions(load_counting_rules(rules_dir), abbreviations)
    found = counting.find(d)
    notes = counting.carry(d, found, placed)      # placed: (claim, passage); notes: one per definition used
"""
from __future__ import annotations

import re
from itertools import islice
from pathlib import Path
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, field_validator

from extractor.ingest import Document
from extractor.ingest.segment import Passage, split_sentences
from extractor.records import Claim, Note
from extractor.rule_files import COUNTING
from extractor.rules_io import load_yaml, rule_cache

Kind = Literal["total", "output", "input"]
KIND_ORDER: tuple[Kind, ...] = ("total", "output", "input")
# blocks read for definitions: prose, captions, and the lines of code blocks (a formula set in a code block)
_READ_KINDS = ("paragraph", "list_item", "caption", "quote", "code")
# LaTeX read as words: "\text{Speed} = \frac{\text{tokens}_{\text{prompt}} + ...}" -> "Speed = tokens prompt + ..."
_LATEX = re.compile(r"\\(?:text|mathrm|textrm|mathit|operatorname|mathbf|textbf)\s*\{|\\frac|[{}_$]")
_LABEL_LEAD = re.compile(r"[\s\W\d]*$")   # what may come before a label: bullets, numbering, emphasis
MAX_LINKS = 8         # links of one form read per sentence
NAME_LENGTH = 60      # characters a rate name spans at most ("output throughput (tokens/second) per GPU")
COUNTED_REACH = 200   # characters after a link read for what is counted


class CountingForm(BaseModel):
    """One way a definition ties its name to what is counted."""

    model_config = ConfigDict(extra="forbid")

    link: str
    needs: Literal["name", "label", "rate"]

    @field_validator("link")
    @classmethod
    def _regex(cls, v: str) -> str:
        try:
            re.compile(v)
        except re.error as e:
            raise ValueError(f"link {v!r} is not a valid regex: {e}") from e
        return v


class CountingRules(BaseModel):
    """The vocabularies of `counting.yaml`."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    version: int = 1
    rate_name: str
    forms: list[CountingForm]
    subject_reach: int = 120
    label_reach: int = 40
    counted_rate: str
    kinds: dict[Kind, list[str]]
    kinds_listed: str = r"(?!)"
    per_user: str = r"(?!)"

    @field_validator("rate_name", "counted_rate", "kinds_listed", "per_user")
    @classmethod
    def _regex(cls, v: str, info) -> str:
        try:
            re.compile(v)
        except re.error as e:
            raise ValueError(f"{info.field_name} is not a valid regex: {e}") from e
        return v

    @field_validator("kinds")
    @classmethod
    def _kinds(cls, v: dict[Kind, list[str]]) -> dict[Kind, list[str]]:
        for kind, patterns in v.items():
            for p in patterns:
                try:
                    re.compile(p)
                except re.error as e:
                    raise ValueError(f"kinds.{kind}: {p!r} is not a valid regex: {e}") from e
        return v


@rule_cache()
def load_counting_rules(rules_dir: Path) -> CountingRules:
    """Read and validate `counting.yaml` from a rules folder (cached per folder); without the file, no
    definitions are read."""
    path = COUNTING.path(rules_dir)
    if not path.exists():
        return CountingRules(rate_name=r"(?!)", forms=[], counted_rate=r"(?!)", kinds={})
    return load_yaml(path, CountingRules)


class Definition(NamedTuple):
    """A definition of what the post's token rates count: the kind, the name it defines (None: the post's
    token rate in general), where it is, and its scope (its table, if it belongs to one; its section)."""

    kind: Kind
    name: str | None
    span: tuple[int, int]
    section: int | None
    table: int | None
    per_user: bool


class CountingDefinitions:
    """Finds a document's definitions of what its token rates count and carries them to its claims."""

    def __init__(self, rules: CountingRules, abbreviations: frozenset[str]):
        self.abbreviations = abbreviations
        self.name = re.compile(rules.rate_name, re.I)
        self.forms = [(re.compile(f.link, re.I), f.needs) for f in rules.forms]
        self.rate = re.compile(rules.counted_rate, re.I)
        self.kinds = [(k, [re.compile(p, re.I) for p in rules.kinds.get(k, [])]) for k in KIND_ORDER]
        self.listed = re.compile(rules.kinds_listed, re.I)
        self.per_user = re.compile(rules.per_user, re.I)
        self.subject_reach, self.label_reach = rules.subject_reach, rules.label_reach

    # -- finding -------------------------------------------------------------------
    def find(self, d: Document) -> list[Definition]:
        """The definitions of `d`, in text order (at most one per sentence)."""
        if not self.forms:
            return []
        view, found = d.view, []
        tables = _table_neighbours(d)
        for i, block in enumerate(d.blocks):
            if block.kind not in _READ_KINDS or "token" not in view[block.start:block.end].lower():
                continue
            pieces = (_lines(view, block.start, block.end) if block.kind == "code"
                      else split_sentences(view, block.start, block.end, self.abbreviations))
            for s, e in pieces:
                found += self._definition(view[s:e], (s, e), block.section, tables.get(i))
        return found

    def _definition(self, sentence: str, span: tuple[int, int], section: int | None,
                    table: int | None) -> list[Definition]:
        if "token" not in sentence.lower():
            return []
        text = _LATEX.sub(" ", sentence)
        for link, needs in self.forms:
            # a definition ties its name early on: the first few links of a form are enough (a code line of
            # thousands of "=" or ":" is read in bounded time)
            for m in islice(link.finditer(text), MAX_LINKS):
                name = self._subject(text, m.start(), needs)
                if name is False:
                    continue
                counted = text[m.end():m.end() + COUNTED_REACH]
                if needs == "rate" and not self.rate.search(counted):
                    continue
                kind = self.kind_of(counted)
                if kind is None:
                    continue
                return [Definition(kind, name, span, section, table, bool(self.per_user.search(counted)))]
        return []

    def _subject(self, text: str, link_start: int, needs: str) -> str | None | bool:
        """The rate name the definition defines (None when the form needs none), or False when the form's
        subject is missing: a name ending at most `subject_reach` characters before the link, or for a label
        one right before it that opens the sentence (after bullets, numbering or emphasis only)."""
        if needs == "rate":
            return None
        reach = self.label_reach if needs == "label" else self.subject_reach
        if needs == "label" and link_start > 2 * reach + NAME_LENGTH:
            return False
        lo = 0 if needs == "label" else max(0, link_start - reach - NAME_LENGTH)
        names = [n for n in self.name.finditer(text, lo, link_start) if link_start - n.end() <= reach]
        if needs == "label":
            names = [n for n in names if _LABEL_LEAD.match(text, 0, n.start())]
        return names[-1].group().strip() if names else False

    def kind_of(self, counted: str) -> Kind | None:
        """The kind of tokens a counted text names: `total` first; output and input both named, unjoined, or a
        list of kinds ("input/output/total tokens") name no single kind."""
        if self.listed.search(counted):
            return None
        hits = [k for k, patterns in self.kinds if any(p.search(counted) for p in patterns)]
        if "total" in hits:
            return "total"
        return hits[0] if len(hits) == 1 else None

    # -- carrying ------------------------------------------------------------------
    def carry(self, d: Document, found: list[Definition], placed: list[tuple[Claim, Passage]]) -> list[Note]:
        """Give the definitions' kind to the token-rate claims of `placed` whose text names none; a provenance
        note for each definition that reached a claim."""
        if not found:
            return []
        used: dict[Definition, int] = {}
        for claim, passage in placed:
            if claim.tokens != "unspecified":
                continue
            chosen = self._governing(d, found, claim, passage)
            if chosen:
                claim.tokens = chosen[0].kind
                for definition in chosen:
                    used[definition] = used.get(definition, 0) + 1
        return [Note(kind="counting-definition",
                     message=f"token rates count {x.kind} tokens here: {n} claim(s) that do not say which tokens "
                             f"they count take it from this definition",
                     quote=d.text[x.span[0]:x.span[1]], span=x.span)
                for x, n in sorted(used.items(), key=lambda item: item[0].span)]

    def _governing(self, d: Document, found: list[Definition], claim: Claim,
                   passage: Passage) -> list[Definition]:
        """The definitions that decide a claim's kind: those of the nearest scope holding any, when they agree
        (or those whose name the claim's header or sentence repeats agree); else none."""
        user = claim.per == "user"
        fitting = [x for x in found if x.per_user == user]
        for scope in _scopes(d, fitting, passage):
            kinds = {x.kind for x in scope}
            if len(kinds) == 1:
                return scope
            named = _naming_text(d, claim, passage)
            echoed = [x for x in scope if x.name and _head(x.name) in named]
            return echoed if len({x.kind for x in echoed}) == 1 else []
        return []


def _scopes(d: Document, found: list[Definition], passage: Passage):
    """The definitions of each scope of a passage, nearest first, the empty ones left out: its table, its
    section and each enclosing one, the post."""
    levels = []
    if passage.table is not None:
        levels.append([x for x in found if x.table == passage.table])
    section = passage.section
    while section is not None:
        levels.append([x for x in found if x.section == section])
        section = d.sections[section].parent
    levels.append(found)
    return [level for level in levels if level]


def _naming_text(d: Document, claim: Claim, passage: Passage) -> str:
    """What names a claim's quantity: its headers, else its sentence (lower case)."""
    ctx = claim.context
    own = " ".join(h for h in (ctx.column_header, ctx.row_header) if h)
    return (own or d.view[passage.start:passage.end]).lower()


def _head(name: str) -> str:
    """The last word of a rate name, lower case ("Inference speed" -> "speed", "tokens/s/die" -> "tokens/s/die")."""
    return name.split()[-1].lower()


def _lines(view: str, start: int, end: int) -> list[tuple[int, int]]:
    out, pos = [], start
    for line in view[start:end].split("\n"):
        if line.strip():
            out.append((pos, pos + len(line)))
        pos += len(line) + 1
    return out


def _table_neighbours(d: Document) -> dict[int, int]:
    """Block index -> table index for the blocks that belong to a table: its caption, the block right before it
    (its lead-in) and the one right after it (a legend or note under it)."""
    table_at = {t.start: i for i, t in enumerate(d.tables)}
    out: dict[int, int] = {}
    for i, block in enumerate(d.blocks):
        if block.kind != "table" or block.start not in table_at:
            continue
        t = table_at[block.start]
        for j in (i - 1, i + 1):
            if 0 <= j < len(d.blocks) and d.blocks[j].kind != "table":
                out.setdefault(j, t)
        caption = d.tables[t].caption
        if caption is not None:
            for j, b in enumerate(d.blocks):
                if b.start <= caption.start < b.end:
                    out[j] = t
    return out
