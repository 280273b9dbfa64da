"""Reading a rule file for `rules check`: every validation problem with its file, line (YAML: the line of the
entry, followed through the node tree) and reason; one bad entry does not hide the next."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ValidationError

from extractor.rules_io import parse_yaml

Severity = Literal["error", "duplicate", "conflict"]


class RuleProblem(BaseModel):
    """One problem in a rules folder."""

    file: str
    where: str
    reason: str
    severity: Severity = "error"

    def line(self) -> str:
        return f"{self.file}: {self.where}: {self.severity}: {self.reason}"


def node_line(root: yaml.Node | None, loc: tuple) -> int | None:
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


def where_of(root: yaml.Node | None, loc: tuple) -> str:
    entry = ".".join(str(x) for x in loc)
    line = node_line(root, loc) if loc else None
    if line and entry:
        return f"line {line} (entry {entry})"
    return f"entry {entry}" if entry else (f"line {line}" if line else "file")


def read_yaml(path: Path, problems: list[RuleProblem]) -> tuple[Any, yaml.Node | None] | None:
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


def duplicate_keys(path: Path, node: yaml.Node | None, problems: list[RuleProblem], trail: str = "") -> None:
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
            duplicate_keys(path, v, problems, here)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            duplicate_keys(path, v, problems, f"{trail}.{i}")


def validate_yaml(path: Path, model: type[BaseModel], problems: list[RuleProblem]) -> tuple[Any, Any] | None:
    """Every validation error of a YAML rule file; (model or None, (data, node tree))."""
    read = read_yaml(path, problems)
    if read is None:
        return None
    data, root = read
    duplicate_keys(path, root, problems)
    try:
        return model.model_validate(data or {}), read
    except ValidationError as err:
        for e in err.errors():
            problems.append(RuleProblem(file=str(path), where=where_of(root, tuple(e["loc"])), reason=e["msg"]))
        return None, read


def jsonl_entries(path: Path, model: type[BaseModel], problems: list[RuleProblem]) -> list[tuple[int, Any]]:
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
