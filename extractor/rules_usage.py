"""How often each rule entry fires over a set of posts: the rule author's check for fitted rules.

    report = rules_usage(["posts/"], rules_dir="rules/")
    report.unused()       # entries that fire on no document
    report.single()       # entries that fire on exactly one document
    report.single("phrasing")    # ... of them, the phrasings: a rule that fits one post (a memorised sentence?)

Entries and how they are counted:
- `conditions.yaml` patterns (by name) and gazetteer lines (`gazetteers/x.jsonl:LINE`): exactly, as
  the mentions the extractor finds in each document (a mention carries the rule that produced it).
- the phrases and regexes of the other YAML files (claim cues, setup headings, caveat patterns,
  organisation patterns...), one entry per string, named by its YAML path and line, and the
  spellings of `unit_spellings.jsonl`: searched in the document's masked view, a regex as written
  (case-insensitive), a phrase on word boundaries (case-insensitive, any blank for a space). That
  is where they *can* fire; whether the stage using them acts on the match is not tracked.

Every entry is either `vocabulary` or `phrasing` (its `form`), decided from the entry alone:
- vocabulary: a gazetteer line, a unit spelling, a one-word phrase (a cue word such as "boosted" or
  "HumanEval"; hyphens and slashes join words), or an entry of a name list (`VOCABULARY_LISTS`: the
  organisations of authorship.yaml, the benchmark commands of caveats.yaml, the supporting engines of
  scopes.yaml, the benchmark names of the accuracy cues). Names and words of the field: a post that
  uses one only once does not make it fitted.
- phrasing: a condition pattern, a regex, or a phrase of several words. One that fires on a single
  post is likely that post's wording: make it the general class of phrasing, or drop it.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterable, Iterator, Literal

import yaml
from pydantic import BaseModel, Field

from extractor.rule_files import CONDITIONS, GAZETTEERS, RULE_FILES, SPELLINGS, rule_file
from extractor.rules_io import default_rules_dir, parse_yaml

EntryKind = Literal["pattern", "gazetteer", "regex", "phrase"]
EntryForm = Literal["vocabulary", "phrasing"]

# Mapping keys whose lists name things of the schema (conditions, metrics, offers), not text to match.
NAME_KEYS = frozenset({"needs", "qualifiers", "unit_classes", "sweepable", "composite", "after_claim",
                       "refinable", "version", "restatement_must_agree", "lower_is_better_metrics",
                       "range_top_conditions"})
# Lists of names (YAML path prefixes, per file) whose entries are vocabulary even when written as a
# regex or in several words: organisations, benchmark tools, engines, benchmarks (the registry's `vocabulary`).
VOCABULARY_LISTS: dict[str, tuple[str, ...]] = {rf.name: rf.vocabulary for rf in RULE_FILES if rf.vocabulary}
# Files read exactly through the mention finder (their entries are named by the mentions).
MENTION_FILES = tuple(rf.name for rf in RULE_FILES if rf.usage == "mentions")
# Files whose entries never run over a post's text (what `compare` matches between two claims' values).
NOT_TEXT_FILES = tuple(rf.name for rf in RULE_FILES if rf.usage == "none")
_REGEX_HINT = re.compile(r"\\|\(\?|[\[\]^$|*+{}]")


class RuleEntry(BaseModel):
    """One rule entry: its file (relative to the rules folder), its name, and where it is."""

    file: str
    entry: str = Field(description="pattern name, gazetteer line, or YAML path of the string")
    line: int | None = None
    kind: EntryKind
    text: str = Field("", description="the string, regex, pattern name or gazetteer line as written")
    form: EntryForm = "phrasing"


def entry_form(file: str, entry: str, kind: EntryKind, text: str) -> EntryForm:
    """Whether an entry is vocabulary (a name or word of the field) or a phrasing (see the module doc)."""
    registered = rule_file(file)
    if kind == "gazetteer" or registered is not None and registered.all_vocabulary:
        return "vocabulary"
    if any(entry.startswith(prefix) for prefix in VOCABULARY_LISTS.get(file, ())):
        return "vocabulary"
    return "vocabulary" if kind == "phrase" and len(text.split()) == 1 else "phrasing"


class EntryUsage(RuleEntry):
    """How often one entry fires over the documents."""

    documents: int = 0
    matches: int = 0
    examples: list[str] = Field(default_factory=list, description="up to 3 of the documents it fires on")

    def row(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where:<34} {self.entry[:36]:<36} {self.text[:40]:<40} {self.documents:>5} {self.matches:>7}"


class UsageReport(BaseModel):
    """Usage of every entry of a rules folder over `documents` posts."""

    rules_dir: str
    documents: int
    failed: list[str] = Field(default_factory=list)
    entries: list[EntryUsage]

    def unused(self) -> list[EntryUsage]:
        return [e for e in self.entries if e.documents == 0]

    def single(self, form: EntryForm | None = None) -> list[EntryUsage]:
        """Entries that fire on exactly one document (of one form, if given)."""
        return [e for e in self.entries if e.documents == 1 and form in (None, e.form)]


# -- the entries of a rules folder ----------------------------------------------------------------
def _yaml_strings(node: yaml.Node, path: str, in_list: bool, regexy: bool) -> Iterator[tuple[str, int, str, bool]]:
    """(YAML path, line, string, regex?) of the matchable strings under `node`."""
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            key = str(k.value)
            if key in NAME_KEYS:
                continue
            sub = f"{path}.{key}" if path else key
            hint = regexy or any(w in key.lower() for w in ("regex", "pattern", "match", "link_", "command",
                                                             "version", "commit", "text", "left", "right", "needs_"))
            yield from _yaml_strings(v, sub, False, hint)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            yield from _yaml_strings(v, f"{path}.{i}", True, regexy)
    elif isinstance(node, yaml.ScalarNode) and node.tag.endswith(":str") and (in_list or regexy):
        value = str(node.value)
        if value.strip():
            yield path, node.start_mark.line + 1, value, regexy or bool(_REGEX_HINT.search(value))


def _phrase_regex(phrase: str) -> str:
    words = [re.escape(w) for w in phrase.split()]
    return r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)"


def text_entries(folder: Path) -> list[tuple[RuleEntry, re.Pattern[str], str | None]]:
    """The entries of the rule files not read through the mention finder, each with its matcher and, for a
    phrase, its first word lowercased (a cheap test before the regex)."""
    out: list[tuple[RuleEntry, re.Pattern[str], str | None]] = []
    for path in sorted(folder.glob("*.yaml")):
        if path.name in MENTION_FILES or path.name in NOT_TEXT_FILES:
            continue
        root = parse_yaml(path.read_text(encoding="utf-8"))[1]
        if root is None:
            continue
        for ypath, line, value, is_regex in _yaml_strings(root, "", False, False):
            try:
                rx = re.compile(value if is_regex else _phrase_regex(value), re.I | re.M)
            except re.error:
                continue  # a template or a message, not a matcher
            kind: EntryKind = "regex" if is_regex else "phrase"
            out.append((RuleEntry(file=path.name, entry=ypath, line=line, kind=kind, text=value,
                                  form=entry_form(path.name, ypath, kind, value)), rx, None if is_regex or not value.split() else value.split()[0].lower()))
    spellings = SPELLINGS.path(folder)
    if spellings.exists():
        for n, raw in enumerate(spellings.read_text(encoding="utf-8").splitlines(), 1):
            s = raw.strip()
            if not s or s.startswith(("#", "//")):
                continue
            item = json.loads(s)
            flags = 0 if item.get("case_sensitive") else re.I
            rx = re.compile(r"(?<![\w])" + re.escape(str(item["spelling"])) + r"(?![\w])", flags)
            spelling = str(item["spelling"])
            out.append((RuleEntry(file=spellings.name, entry=spelling, line=n, kind="phrase", text=spelling,
                                  form="vocabulary"), rx,
                        spelling.split()[0].lower() if spelling.split() else None))
    return out


def mention_entries(resolver) -> list[RuleEntry]:
    """The condition patterns and gazetteer lines of the resolver's rules, in file order."""
    rules = resolver.finder.rules
    out = [RuleEntry(file=f"{GAZETTEERS.name}/{ce.where.split(':')[0]}", entry=ce.where, line=int(ce.where.split(":")[1]),
                     kind="gazetteer", text=ce.entry.id, form="vocabulary") for ce in rules.gazetteer]
    lines = _pattern_lines(Path(rules.path))
    out += [RuleEntry(file=CONDITIONS.name, entry=p.entry.name, line=lines.get(p.entry.name), kind="pattern",
                      text=p.entry.name) for p in rules.patterns]
    return out


def _pattern_lines(path: Path) -> dict[str, int]:
    root = parse_yaml(path.read_text(encoding="utf-8"))[1]
    out: dict[str, int] = {}
    for k, v in root.value if isinstance(root, yaml.MappingNode) else ():
        if k.value == "patterns" and isinstance(v, yaml.SequenceNode):
            for item in v.value:
                for kk, vv in item.value:
                    if kk.value == "name":
                        out[str(vv.value)] = vv.start_mark.line + 1
    return out


# -- counting -------------------------------------------------------------------------------------
def rules_usage(paths: Iterable[str | Path], rules_dir: str | Path | None = None) -> UsageReport:
    """For each entry of the rules folder, on how many of the documents at `paths` it fires, and how often."""
    from extractor.api import detect_format, read_document
    from extractor.conditions.resolver import ConditionResolver
    from extractor.errors import DocumentFailure
    from extractor.ingest import ingest

    folder = Path(rules_dir) if rules_dir else default_rules_dir()
    resolver = ConditionResolver(folder)
    by_rule = {e.entry: EntryUsage(**e.model_dump()) for e in mention_entries(resolver)}
    texts = [(EntryUsage(**e.model_dump()), rx, first) for e, rx, first in text_entries(folder)]
    n, failed = 0, []
    for p in paths:
        name = Path(p).name
        try:
            text, _ = read_document(p)
            d = ingest(text, name, detect_format(name, text))
        except (DocumentFailure, OSError, ValueError) as err:
            failed.append(f"{p}: {err}")
            continue
        n += 1
        counts: dict[str, int] = {}
        for m in resolver.mentions(d):
            counts[m.rule] = counts.get(m.rule, 0) + 1
        for rule, k in counts.items():
            _add(by_rule.get(rule), name, k)
        lowered = d.view.lower()
        for usage, rx, first in texts:
            if first is None or first in lowered:   # a phrase can only match where its first word is
                _add(usage, name, sum(1 for _ in rx.finditer(d.view)))
    entries = sorted([*by_rule.values(), *(u for u, _, _ in texts)], key=lambda e: (e.file, e.line or 0, e.entry))
    return UsageReport(rules_dir=str(folder), documents=n, failed=failed, entries=entries)


def _add(usage: EntryUsage | None, doc: str, matches: int) -> None:
    if usage is None or not matches:
        return
    usage.documents += 1
    usage.matches += matches
    if len(usage.examples) < 3:
        usage.examples.append(doc)
