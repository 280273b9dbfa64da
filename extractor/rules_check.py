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
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ValidationError

from extractor.rules_io import RuleError, fresh_rule_caches, parse_yaml

Severity = Literal["error", "duplicate", "conflict"]


class RuleProblem(BaseModel):
    """One problem in a rules folder."""

    file: str
    where: str
    reason: str
    severity: Severity = "error"

    def line(self) -> str:
        return f"{self.file}: {self.where}: {self.severity}: {self.reason}"


# -- YAML with line numbers ---------------------------------------------------------------------
def _node_line(root: yaml.Node | None, loc: tuple) -> int | None:
    """Line (1-based) of the YAML node at pydantic location `loc`, as deep as it can be followed."""
    node, line = root, None
    for key in loc:
        if node is None:
            break
        line = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == str(key)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
        else:
            node = None
    if node is not None:
        line = node.start_mark.line + 1
    return line


def _where(root: yaml.Node | None, loc: tuple) -> str:
    entry = ".".join(str(x) for x in loc)
    line = _node_line(root, loc) if loc else None
    if line and entry:
        return f"line {line} (entry {entry})"
    return f"entry {entry}" if entry else (f"line {line}" if line else "file")


def _read_yaml(path: Path, problems: list[RuleProblem]) -> tuple[Any, yaml.Node | None] | None:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        problems.append(RuleProblem(file=str(path), where="file", reason=f"cannot read ({err.strerror})"))
        return None
    except UnicodeDecodeError as err:
        problems.append(RuleProblem(file=str(path), where="file", reason=f"not UTF-8 ({err.reason})"))
        return None
    try:
        return parse_yaml(text)   # the loader and limits of the extractor's own rule reading
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark else "file"
        problems.append(RuleProblem(file=str(path), where=where, reason=f"not YAML ({getattr(err, 'problem', err)})"))
        return None


def _duplicate_keys(path: Path, node: yaml.Node | None, problems: list[RuleProblem], trail: str = "") -> None:
    """A mapping key given twice (YAML keeps only the last one, silently)."""
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for k, v in node.value:
            key = str(k.value)
            here = f"{trail}.{key}" if trail else key
            if key in seen:
                problems.append(RuleProblem(file=str(path), where=f"line {k.start_mark.line + 1}", severity="duplicate",
                                            reason=f"key {here!r} is given twice (first on line {seen[key]}); "
                                                   "only the last one is used"))
            seen.setdefault(key, k.start_mark.line + 1)
            _duplicate_keys(path, v, problems, here)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            _duplicate_keys(path, v, problems, f"{trail}.{i}")


def _validate_yaml(path: Path, model: type[BaseModel], problems: list[RuleProblem]) -> tuple[Any, Any] | None:
    """Every validation error of a YAML rule file; (model or None, (data, node tree))."""
    read = _read_yaml(path, problems)
    if read is None:
        return None
    data, root = read
    _duplicate_keys(path, root, problems)
    try:
        return model.model_validate(data or {}), read
    except ValidationError as err:
        for e in err.errors():
            problems.append(RuleProblem(file=str(path), where=_where(root, tuple(e["loc"])), reason=e["msg"]))
        return None, read


# -- JSONL --------------------------------------------------------------------------------------
def _jsonl_entries(path: Path, model: type[BaseModel], problems: list[RuleProblem]) -> list[tuple[int, Any]]:
    """(line number, validated entry) of every valid line; a problem for every invalid one."""
    out: list[tuple[int, Any]] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        problems.append(RuleProblem(file=str(path), where="file", reason=f"cannot read ({err})"))
        return out
    for lineno, raw in enumerate(lines, 1):
        s = raw.strip()
        if not s or s.startswith(("#", "//")):
            continue
        try:
            data = json.loads(s)
        except json.JSONDecodeError as err:
            problems.append(RuleProblem(file=str(path), where=f"line {lineno}", reason=f"not JSON ({err.msg})"))
            continue
        try:
            out.append((lineno, model.model_validate(data)))
        except ValidationError as err:
            for e in err.errors():
                loc = ".".join(str(x) for x in e["loc"])
                problems.append(RuleProblem(file=str(path), where=f"line {lineno}",
                                            reason=f"{loc}: {e['msg']}" if loc else e["msg"]))
        except ValueError as err:
            problems.append(RuleProblem(file=str(path), where=f"line {lineno}", reason=str(err)))
    return out


def _norm_phrase(s: str) -> str:
    """A gazetteer name as matched: case, spaces and hyphens do not matter (see literal_regex)."""
    return re.sub(r"[\s\-_]+", " ", str(s).strip().lower())


# -- per file -----------------------------------------------------------------------------------
def _check_claims(folder: Path, problems: list[RuleProblem]) -> None:
    from extractor.claims.rules import CLAIMS_FILE, ClaimRules

    path = folder / CLAIMS_FILE
    res = _validate_yaml(path, ClaimRules, problems)
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
                where = _where(root, (group, name, i))
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
    from extractor.conditions.rules import SCOPES_FILE, WHERE_FILE, ScopeRules, WhereRules
    from extractor.conditions.patterns import ConditionsFile
    from extractor.quantities.rules import NUMBERS_FILE, NumberRules
    from extractor.claims.output_blocks import OUTPUT_FILE, OutputRules
    from extractor.claims.set_aside import SET_ASIDE_FILE, SetAsideRules

    files: list[tuple[str, type[BaseModel]]] = [(SCOPES_FILE, ScopeRules), (WHERE_FILE, WhereRules),
                                                (NUMBERS_FILE, NumberRules), (OUTPUT_FILE, OutputRules),
                                                (SET_ASIDE_FILE, SetAsideRules)]
    from extractor.conditions.code.harnesses import HARNESSES_FILE, HarnessFile
    files.append((HARNESSES_FILE, HarnessFile))
    try:
        from extractor.notes.rules import AuthorshipRules, CaveatRules
        files += [("caveats.yaml", CaveatRules), ("authorship.yaml", AuthorshipRules)]
    except ImportError:  # caveats not part of this build
        pass
    from extractor.compare.rules import COMPARE_FILE, CompareRules

    files.append((COMPARE_FILE, CompareRules))
    for name, model in files:
        if (folder / name).exists() or name in (SCOPES_FILE, WHERE_FILE, NUMBERS_FILE, OUTPUT_FILE, SET_ASIDE_FILE):
            res = _validate_yaml(folder / name, model, problems)
            if name == "authorship.yaml" and res and res[0] is not None:
                _check_orgs(folder / name, res[0], res[1][1], problems)
    path = folder / "conditions.yaml"
    res = _validate_yaml(path, ConditionsFile, problems)
    if res is None or res[0] is None:
        return
    cond, (_, root) = res
    names: dict[str, int] = {}
    regexes: dict[tuple[str, str], int] = {}
    for i, p in enumerate(cond.patterns):
        where = _where(root, ("patterns", i))
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
                problems.append(RuleProblem(file=str(path), where=_where(root, ("orgs", i, "patterns", j)),
                                            severity="conflict",
                                            reason=f"pattern {pat!r} names both {other!r} and {org.name!r}"))
            seen.setdefault(pat.lower(), org.name)


def _check_units(folder: Path, problems: list[RuleProblem]):
    """units.txt line by line on a fresh pint registry; the registry, or None if unreadable."""
    import pint

    from extractor.quantities.units import UNITS_FILE, definitions

    path = folder / UNITS_FILE
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
    from extractor.quantities.rules import _SLOTS, SPELLINGS_FILE, UnitSpelling

    path = folder / SPELLINGS_FILE
    seen: dict[tuple[str, str], int] = {}
    for lineno, entry in _jsonl_entries(path, UnitSpelling, problems):
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
    from extractor.conditions.canonical import GazetteerEntry, expand, literal_regex

    fragments: dict[str, str] = {}
    try:
        data = parse_yaml((folder / "conditions.yaml").read_text(encoding="utf-8"))[0] or {}
        fragments = {str(k): str(v) for k, v in (data.get("fragments") or {}).items()}
    except Exception:  # noqa: BLE001 - conditions.yaml problems are reported on their own
        pass
    names: dict[tuple[str, str], tuple[str, str]] = {}  # (label, normalised name) -> (id, file:line)
    for path in sorted((folder / "gazetteers").glob("*.jsonl")):
        for lineno, e in _jsonl_entries(path, GazetteerEntry, problems):
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
    from extractor.claims.rules import load_claim_rules
    from extractor.conditions.rules import load_scope_rules, load_where_rules
    from extractor.conditions.mentions import MentionFinder
    from extractor.quantities.rules import load_quantity_rules
    from extractor.quantities.units import registry

    from extractor.claims.set_aside import load_set_aside_rules

    steps: list = [registry, load_quantity_rules, load_claim_rules, load_scope_rules, load_where_rules, MentionFinder,
                   load_set_aside_rules]
    try:
        from extractor.notes.caveats import CaveatReader
        steps.append(CaveatReader.from_rules)
    except ImportError:
        pass
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
