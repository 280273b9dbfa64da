"""Validate a rules folder: every problem with its file, line or entry, and reason.

    problems = check_rules("rules/")          # [] when the folder is clean
    for p in problems: print(p.line())

Each file is read with the same pydantic models the extractor uses, entry by entry so
that one bad entry does not hide the next; then the folder goes through the extractor's
own loaders (fresh, not from their per-path caches, so an edited copy is re-read) and,
when everything loaded, an extractor is built from it and run on a short text. On top of
validity it reports duplicate and conflicting entries: a cue phrase under two metrics
(or token kinds / per kinds), a gazetteer name with two ids, a unit spelling given twice,
a condition pattern or organisation pattern given twice.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import yaml

from extractor.rule_files import AUTHORSHIP, CLAIMS, CONDITIONS, GAZETTEERS, RULE_FILES, SPELLINGS, UNITS, loaders
from extractor.rules_check.reading import RuleProblem, jsonl_entries, validate_yaml, where_of
from extractor.rules_io import RuleError, fresh_rule_caches, parse_yaml

__all__ = ["RuleProblem", "check_rules"]


def _norm_phrase(s: str) -> str:
    """A gazetteer name as matched: case, spaces and hyphens do not matter (see literal_regex)."""
    return re.sub(r"[\s\-_]+", " ", str(s).strip().lower())


# -- per file -----------------------------------------------------------------------------------
def _check_claims(folder: Path, problems: list[RuleProblem]) -> None:
    path = CLAIMS.path(folder)
    res = validate_yaml(path, CLAIMS.schema(), problems)
    if res is None:
        return
    _, (data, root) = res
    if not isinstance(data, dict):
        return
    for group in ("metric_cues", "tokens", "per"):
        table = data.get(group)
        if not isinstance(table, dict):
            continue
        first: dict[str, tuple[str, int]] = {}
        for name, cues in table.items():
            for i, cue in enumerate(cues if isinstance(cues, list) else []):
                if not isinstance(cue, (str, int, float)):
                    continue
                key = " ".join(str(cue).lower().split())  # cues match tokens: '-' is not ' '
                where = where_of(root, (group, name, i))
                if key in first:
                    other, _ = first[key]
                    if other == name:
                        problems.append(RuleProblem(file=str(path), where=where, severity="duplicate",
                                                    reason=f"cue {cue!r} is listed twice under {group}.{name}"))
                    else:
                        problems.append(RuleProblem(file=str(path), where=where, severity="conflict",
                                                    reason=f"cue {cue!r} is under both {group}.{other} and "
                                                           f"{group}.{name}"))
                else:
                    first[key] = (name, i)


def _check_yaml_models(folder: Path, problems: list[RuleProblem]) -> None:
    """Every registered YAML file but claims.yaml (`_check_claims`), when it is required or present."""
    cond_res = None
    for rf in RULE_FILES:
        if rf.format != "yaml" or rf is CLAIMS or not (rf.required or rf.path(folder).exists()):
            continue
        res = validate_yaml(rf.path(folder), rf.schema(), problems)
        if rf is AUTHORSHIP and res and res[0] is not None:
            _check_orgs(rf.path(folder), res[0], res[1][1], problems)
        if rf is CONDITIONS:
            cond_res = res
    _check_patterns(CONDITIONS.path(folder), cond_res, problems)


def _check_patterns(path: Path, res: tuple[Any, Any] | None, problems: list[RuleProblem]) -> None:
    """A condition pattern name or regex given twice."""
    if res is None or res[0] is None:
        return
    cond, (_, root) = res
    names: dict[str, int] = {}
    regexes: dict[tuple[str, str], int] = {}
    for i, p in enumerate(cond.patterns):
        where = where_of(root, ("patterns", i))
        if p.name in names:
            problems.append(RuleProblem(file=str(path), where=where, severity="duplicate",
                                        reason=f"pattern name {p.name!r} also at patterns.{names[p.name]}"))
        names.setdefault(p.name, i)
        key = (p.kind, p.regex)
        if key in regexes:
            problems.append(RuleProblem(file=str(path), where=where, severity="duplicate",
                                        reason=f"same {p.kind} regex as patterns.{regexes[key]}"))
        regexes.setdefault(key, i)


def _check_orgs(path: Path, rules: Any, root: yaml.Node | None, problems: list[RuleProblem]) -> None:
    seen: dict[str, str] = {}
    for i, org in enumerate(rules.orgs):
        for j, pat in enumerate(org.patterns):
            other = seen.get(pat.lower())
            if other is not None and other != org.name:
                problems.append(RuleProblem(file=str(path), where=where_of(root, ("orgs", i, "patterns", j)),
                                            severity="conflict",
                                            reason=f"pattern {pat!r} names both {other!r} and {org.name!r}"))
            seen.setdefault(pat.lower(), org.name)


def _check_units(folder: Path, problems: list[RuleProblem]):
    """units.txt line by line on a fresh pint registry; the registry, or None if unreadable."""
    import pint

    from extractor.quantities.units import definitions

    path = UNITS.path(folder)
    reg = pint.UnitRegistry(autoconvert_offset_to_baseunit=True)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        problems.append(RuleProblem(file=str(path), where="file", reason=f"cannot read ({err})"))
        return None
    defined: list[tuple[int, str]] = []
    for lineno, line in definitions(lines):
        try:
            reg.define(line)
        except Exception as err:  # noqa: BLE001 - pint raises several error types
            problems.append(RuleProblem(file=str(path), where=f"line {lineno}",
                                        reason=f"bad unit definition ({err})"))
            continue
        name = line.split("=", 1)[0].strip()
        if "=" in line and not name.startswith(("[", "@")) and name.isidentifier():
            defined.append((lineno, name))
    for lineno, name in defined:  # pint resolves references lazily: use each unit once
        try:
            reg.Quantity(1, name).to_base_units()
        except Exception as err:  # noqa: BLE001
            problems.append(RuleProblem(file=str(path), where=f"line {lineno}",
                                        reason=f"unit {name!r} cannot be resolved ({err})"))
    return reg


def _check_spellings(folder: Path, reg, problems: list[RuleProblem]) -> None:
    from extractor.quantities.rules import _SLOTS

    path = SPELLINGS.path(folder)
    seen: dict[tuple[str, str], int] = {}
    for lineno, entry in jsonl_entries(path, SPELLINGS.schema(), problems):
        for slot in _SLOTS[entry.role]:
            key = (slot, entry.key())
            if key in seen:
                problems.append(RuleProblem(file=str(path), where=f"line {lineno}", severity="duplicate",
                                            reason=f"{slot} spelling {entry.spelling!r} also on line {seen[key]}"))
            seen.setdefault(key, lineno)
        if entry.unit is not None and reg is not None:
            try:
                reg.parse_units(entry.unit.strip() or "dimensionless")
            except Exception as err:  # noqa: BLE001
                problems.append(RuleProblem(file=str(path), where=f"line {lineno}",
                                            reason=f"unknown unit expression {entry.unit!r} ({err})"))


def _check_gazetteers(folder: Path, problems: list[RuleProblem]) -> None:
    from extractor.conditions.canonical import expand, literal_regex

    fragments: dict[str, str] = {}
    try:
        data = parse_yaml(CONDITIONS.path(folder).read_text(encoding="utf-8"))[0] or {}
        fragments = {str(k): str(v) for k, v in (data.get("fragments") or {}).items()}
    except Exception:  # noqa: BLE001 - conditions.yaml problems are reported on their own
        pass
    names: dict[tuple[str, str], tuple[str, str]] = {}  # (label, normalised name) -> (id, file:line)
    for path in sorted(GAZETTEERS.path(folder).glob("*.jsonl")):
        for lineno, e in jsonl_entries(path, GAZETTEERS.schema(), problems):
            here = f"{path.name}:{lineno}"
            try:
                src = expand(e.regex, fragments) if e.regex else literal_regex(e.pattern or "")
                re.compile(src, 0 if e.case else re.I)
            except (ValueError, re.error) as err:
                problems.append(RuleProblem(file=str(path), where=f"line {lineno}", reason=f"bad regex: {err}"))
            key = (e.label, _norm_phrase(e.pattern) if e.pattern else "re:" + e.regex)
            if key in names:
                other_id, other_at = names[key]
                what = f"name {e.pattern!r}" if e.pattern else "regex"
                if other_id == e.id:
                    problems.append(RuleProblem(file=str(path), where=f"line {lineno}", severity="duplicate",
                                                reason=f"{e.label} {what} with id {e.id!r} also at {other_at}"))
                else:
                    problems.append(RuleProblem(file=str(path), where=f"line {lineno}", severity="conflict",
                                                reason=f"{e.label} {what} has id {e.id!r} here and "
                                                       f"{other_id!r} at {other_at}"))
            names.setdefault(key, (e.id, here))


def _loaders(folder: Path, problems: list[RuleProblem], smoke: bool) -> None:
    steps = loaders()   # the registered files' loaders, each once
    reported = {(p.file, p.where) for p in problems}
    with fresh_rule_caches(folder):
        for step in steps:
            try:
                step(folder)
            except RuleError as err:
                if (err.path, err.where) not in reported and not any(p.file == err.path and p.severity == "error"
                                                                      for p in problems):
                    problems.append(RuleProblem(file=err.path, where=err.where, reason=err.reason))
            except Exception as err:  # noqa: BLE001 - a loader crash is a problem of the folder too
                problems.append(RuleProblem(file=str(folder), where=getattr(step, "__name__", "loader"),
                                            reason=f"{type(err).__name__}: {err}"))
        if smoke and not any(p.severity == "error" for p in problems):
            try:
                from extractor.pipeline import Extractor

                ex = Extractor(folder)
                ex.extract("Throughput reached 1,200 tokens/s on 8x H100 at batch size 32.\n", doc="check.md",
                           fmt="markdown", path=None, sha256="0" * 64)
            except RuleError as err:
                problems.append(RuleProblem(file=err.path, where=err.where, reason=err.reason))
            except Exception as err:  # noqa: BLE001
                problems.append(RuleProblem(file=str(folder), where="extractor",
                                            reason=f"the extractor cannot run on these rules "
                                                   f"({type(err).__name__}: {err})"))


_QUANTIFIED = re.compile(r"[+*}]")


def _scalars(node: yaml.Node | None) -> Iterator[tuple[int, str]]:
    """(line, text) of every string scalar in a YAML node tree."""
    stack = [node] if node is not None else []
    while stack:
        n = stack.pop()
        if isinstance(n, yaml.ScalarNode):
            if n.tag.endswith(":str"):
                yield n.start_mark.line + 1, n.value
        elif isinstance(n, yaml.MappingNode):
            stack.extend(v for _, v in n.value)
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)


def _json_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _json_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _json_strings(v)


def _check_backtracking(folder: Path, problems: list[RuleProblem]) -> None:
    """Every rule string that is a quantified regex, run on time-capped probes (regex_probe): a pattern
    that backtracks catastrophically would stall every document it meets, so it is an error."""
    from extractor.regex_probe import probe_patterns

    found: list[tuple[str, str, str]] = []   # (file, where, pattern)
    for path in sorted(folder.rglob("*")):
        if path.suffix in (".yaml", ".yml"):
            try:
                root = parse_yaml(path.read_text(encoding="utf-8"))[1]
            except (OSError, UnicodeDecodeError, yaml.YAMLError):
                continue   # reported by the validation
            found.extend((str(path), f"line {line}", text) for line, text in _scalars(root))
        elif path.suffix == ".jsonl":
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                continue
            for n, line in enumerate(lines, 1):
                try:
                    data = json.loads(line) if line.strip() and not line.lstrip().startswith(("#", "//")) else None
                except json.JSONDecodeError:
                    continue
                found.extend((str(path), f"line {n}", text) for text in _json_strings(data))
    seen: dict[str, int] = {}
    candidates = []
    for entry in found:
        if _QUANTIFIED.search(entry[2]) and entry[2] not in seen:
            seen[entry[2]] = len(candidates)
            candidates.append(entry)
    slow = probe_patterns([c[2] for c in candidates])
    for i, reason in sorted(slow.items()):
        file, where, pattern = candidates[i]
        problems.append(RuleProblem(file=file, where=where, reason=f"pattern {pattern!r} {reason}"))


def check_rules(rules_dir: str | Path | None = None, *, smoke: bool = True) -> list[RuleProblem]:
    """Every problem of a rules folder (default: the installed rules), in file order."""
    from extractor.rules_io import default_rules_dir

    folder = Path(rules_dir) if rules_dir else default_rules_dir()
    if not folder.is_dir():
        return [RuleProblem(file=str(folder), where="folder", reason="not a folder")]
    problems: list[RuleProblem] = []
    _check_claims(folder, problems)
    _check_yaml_models(folder, problems)
    reg = _check_units(folder, problems)
    _check_spellings(folder, reg, problems)
    _check_gazetteers(folder, problems)
    _check_backtracking(folder, problems)
    _loaders(folder, problems, smoke)
    order = {s: i for i, s in enumerate(("error", "conflict", "duplicate"))}
    return sorted(problems, key=lambda p: (p.file, order[p.severity], _line_no(p.where), p.where, p.reason))


def _line_no(where: str) -> int:
    m = re.match(r"line (\d+)", where)
    return int(m.group(1)) if m else 0
