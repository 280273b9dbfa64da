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
    assigned = counting.carry(d, counting.find(d), placed)   # placed: (claim, passage), before the conditions
    notes = counting.notes(d, assigned, claims)   # after them: one note per definition that reaches a claim
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
from extractor.rules_io import compiled, load_yaml, rule_cache

Kind = Literal["total", "output", "input"]
KIND_ORDER: tuple[Kind, ...] = ("total", "output", "input")
# blocks read for definitions: prose, captions, and the lines of code blocks (a formula set in a code block)
_READ_KINDS = ("paragraph", "list_item", "caption", "quote", "code")
# LaTeX read as words: "\mathrm{TPS} = \frac{\mathrm{tokens}_{\mathrm{in}} + ...}{t}" -> "TPS = tokens in + ... t"
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

    _regex = field_validator("link")(lambda cls, v: compiled(v))


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

    _regex = field_validator("rate_name", "counted_rate", "kinds_listed", "per_user")(lambda cls, v: compiled(v))

    @field_validator("kinds")
    @classmethod
    def _kinds(cls, v: dict[Kind, list[str]]) -> dict[Kind, list[str]]:
        for patterns in v.values():
            for p in patterns:
                compiled(p)
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
    def carry(self, d: Document, found: list[Definition],
              placed: list[tuple[Claim, Passage]]) -> dict[tuple[int, int], tuple[Definition, bool]]:
        """Give the definitions' kind to the token-rate claims of `placed` whose text names none. Returns, by
        the span of each claim that took a kind, the definition it took it from and whether that definition
        governs it from the post level (`notes` undoes those on figures the post cites)."""
        if not found:
            return {}
        by_table: dict[int, list[Definition]] = {}
        by_section: dict[int | None, list[Definition]] = {}
        for x in found:
            if x.table is not None:
                by_table.setdefault(x.table, []).append(x)
            by_section.setdefault(x.section, []).append(x)
        places: dict[tuple, list[list[Definition]]] = {}   # the scopes of a place, read once per place
        assigned: dict[tuple[int, int], tuple[Definition, bool]] = {}
        for claim, passage in placed:
            if claim.tokens != "unspecified":
                continue
            user = claim.per == "user"
            key = (passage.table, passage.section, user)
            if key not in places:
                places[key] = _scopes(d, by_table, by_section, found, passage, user)
            chosen, post = self._governing(d, places[key], claim, passage)
            if chosen:
                claim.tokens = chosen[0].kind
                assigned[claim.span] = (chosen[0], post)
        return assigned

    def notes(self, d: Document, assigned: dict[tuple[int, int], tuple[Definition, bool]],
              claims: list[Claim]) -> list[Note]:
        """After the conditions stage: a figure the post cites from elsewhere takes no kind from a definition of
        the post level (it says what the post measured); a provenance note for each definition that still
        reaches a claim."""
        used: dict[Definition, int] = {}
        for claim in claims:
            entry = assigned.get(claim.span)
            if entry is None or claim.tokens != entry[0].kind:
                continue
            if claim.cited_from and entry[1]:
                claim.tokens = "unspecified"
                continue
            used[entry[0]] = used.get(entry[0], 0) + 1
        return [Note(kind="counting-definition",
                     message=f"token rates count {x.kind} tokens here: {n} claim(s) that do not say which tokens "
                             f"they count take it from this definition",
                     quote=d.text[x.span[0]:x.span[1]], span=x.span)
                for x, n in sorted(used.items(), key=lambda item: item[0].span)]

    def _governing(self, d: Document, scopes: list[list[Definition]], claim: Claim,
                   passage: Passage) -> tuple[list[Definition], bool]:
        """The definitions that decide a claim's kind: those of the nearest scope holding any, when they agree
        (or those whose name the claim's header or sentence repeats agree); else none. With whether that scope
        is the post's."""
        for scope in scopes:
            post = isinstance(scope, _PostScope)
            if len({x.kind for x in scope}) == 1:
                return scope, post
            named = _naming_text(d, claim, passage)
            echoed = [x for x in scope if x.name and _head(x.name) in named]
            return (echoed, post) if len({x.kind for x in echoed}) == 1 else ([], False)
        return [], False


class _PostScope(list):
    """The definitions of the whole post: the widest scope."""


def _scopes(d: Document, by_table: dict[int, list[Definition]], by_section: dict[int | None, list[Definition]],
            found: list[Definition], passage: Passage, user: bool) -> list[list[Definition]]:
    """The definitions of each scope of a passage that fit its per-user kind, nearest first, the empty ones left
    out: its table, its section and each enclosing one, the post."""
    levels: list[list[Definition]] = []
    if passage.table is not None:
        levels.append(by_table.get(passage.table, []))
    section = passage.section
    while section is not None:
        levels.append(by_section.get(section, []))
        section = d.sections[section].parent
    levels = [[x for x in level if x.per_user == user] for level in levels]
    post = _PostScope(x for x in found if x.per_user == user)
    return [level for level in levels if level] + ([post] if post else [])


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
