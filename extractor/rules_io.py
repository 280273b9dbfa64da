"""Reading rule files: JSONL and YAML entries validated by pydantic models.

Every error names the file, the line (JSONL) or entry (YAML) and the reason, so a
bad rule file stops the extractor with a message a rule author can act on.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, TypeVar

import yaml
from pydantic import BaseModel, Field, ValidationError

from extractor import derived_cache

M = TypeVar("M", bound=BaseModel)

RULES_ENV = "BENCHCLAIMS_RULES"
# a rule schema's list of phrases or patterns that may be left out (none)
Phrases = Annotated[list[str], Field(default_factory=list)]
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available: ~10x faster start-up


MAX_YAML_NODES = 1_000_000   # a rule file expanded (aliases counted each time they are used): far above any real one


class YamlTooLarge(yaml.YAMLError):
    """A YAML document whose aliases expand it past MAX_YAML_NODES (an alias bomb): refused before it is built."""

    def __init__(self, nodes: int):
        self.problem = (f"its aliases expand it to more than {nodes:,} nodes (an alias bomb?); "
                        "write the entries out instead")
        super().__init__(self.problem)


def parse_yaml(text: str) -> tuple[Any, yaml.Node | None]:
    """The data and the node tree (for line numbers) of a rule file's YAML, with the one set of limits every
    reader of rule files uses: the document is composed first, its size with every alias expanded is counted
    on the node graph (shared nodes counted once per use, in time linear in the distinct nodes), and only a
    document within MAX_YAML_NODES is built."""
    loader = _SAFE_LOADER(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        _expanded_size(node)
        return loader.construct_document(node), node
    finally:
        loader.dispose()


def _expanded_size(root: yaml.Node) -> int:
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes and not children_done:
            continue
        kids = [] if isinstance(node, yaml.ScalarNode) else \
            [x for pair in node.value for x in pair] if isinstance(node, yaml.MappingNode) else list(node.value)
        if children_done:
            total = 1 + sum(sizes.get(id(k), 0) for k in kids)
            if total > MAX_YAML_NODES:
                raise YamlTooLarge(MAX_YAML_NODES)
            sizes[id(node)] = total
            continue
        sizes[id(node)] = 0   # in progress: a node reached again through itself adds nothing more
        stack.append((node, True))
        stack.extend((k, False) for k in kids if id(k) not in sizes)
    return sizes[id(root)]


class RuleError(ValueError):
    """A rule file is invalid; the message says file, line or entry, and reason."""

    def __init__(self, path: Path | str, where: str, reason: str):
        self.path, self.where, self.reason = str(path), where, reason
        super().__init__(f"{path}: {where}: {reason}")


def default_rules_dir() -> Path:
    """The rules folder: $BENCHCLAIMS_RULES, else the one installed with the package."""
    env = os.environ.get(RULES_ENV)
    if env:
        return Path(env)
    return Path(str(resources.files("benchclaims_rules")))


def _reason(err: ValidationError) -> str:
    parts = []
    for e in err.errors():
        loc = ".".join(str(x) for x in e["loc"])
        parts.append(f"{loc}: {e['msg']}" if loc else e["msg"])
    return "; ".join(parts)


def compiled(pattern: str | None) -> str | None:
    """Pydantic validator body: the pattern must compile (the reason names the regex error)."""
    if pattern is not None:
        try:
            re.compile(pattern)
        except re.error as err:
            raise ValueError(f"pattern does not compile ({err})") from None
    return pattern


def known_names(names: list[str], allowed: tuple[str, ...], kind: str, listed_as: str | None = None) -> list[str]:
    """Validator body: `names`, each one of `allowed` (ValueError names the first unknown one, and lists the
    allowed ones under `listed_as`, by default `kind` + "s")."""
    for name in names:
        if name not in allowed:
            raise ValueError(f"unknown {kind} {name!r} ({listed_as or kind + 's'}: {', '.join(allowed)})")
    return names


def _read_rule_file(path: Path | str) -> tuple[bytes, str]:
    """A rule file's bytes and their sha256 (the key under which what is validated from them is kept)."""
    data = Path(path).read_bytes()
    return data, hashlib.sha256(data).hexdigest()


def _text(data: bytes) -> io.TextIOWrapper:
    """The bytes read as `open(path, encoding="utf-8")` reads the file (universal newlines)."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")


def _model_name(model: type) -> str:
    return f"{model.__module__}.{model.__qualname__}"


def load_jsonl(path: Path, model: type[M]) -> list[M]:
    """One entry a line; blank lines and lines starting with '//' or '#' are skipped. While the extractor is
    built, the validated entries are kept across processes by the file's digest (extractor/derived_cache.py)."""
    data, digest = _read_rule_file(path)
    return derived_cache.remember(("rules-jsonl", _model_name(model), digest),
                                  lambda: _validate_jsonl(path, data, model))


def _validate_jsonl(path: Path, raw: bytes, model: type[M]) -> list[M]:
    entries: list[M] = []
    with _text(raw) as fh:
        for lineno, line in enumerate(fh, 1):
            s = line.strip()
            if not s or s.startswith(("#", "//")):
                continue
            try:
                data = json.loads(s)
            except json.JSONDecodeError as err:
                raise RuleError(path, f"line {lineno}", f"not JSON ({err.msg})") from None
            try:
                entries.append(model.model_validate(data))
            except ValidationError as err:
                raise RuleError(path, f"line {lineno}", _reason(err)) from None
            except ValueError as err:
                raise RuleError(path, f"line {lineno}", str(err)) from None
    return entries


def load_yaml(path: Path, model: type[M]) -> M:
    """A whole YAML file validated as one model (lists inside name their entry on error). While the extractor
    is built, the validated model is kept across processes by the file's digest (extractor/derived_cache.py)."""
    data, digest = _read_rule_file(path)
    return derived_cache.remember(("rules-yaml", _model_name(model), digest),
                                  lambda: _validate_yaml(path, data, model))


def _validate_yaml(path: Path, raw: bytes, model: type[M]) -> M:
    try:
        with _text(raw) as fh:
            text = fh.read()
        data, _ = parse_yaml(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark else "file"
        raise RuleError(path, where, f"not YAML ({getattr(err, 'problem', err)})") from None
    try:
        return model.model_validate(data or {})
    except ValidationError as err:
        first = err.errors()[0]
        where = "entry " + ".".join(str(x) for x in first["loc"]) if first["loc"] else "file"
        raise RuleError(path, where, _reason(err)) from None


def rules_fingerprint(rules_dir: Path) -> str:
    """Hash of every rule file's name and bytes: the rules version stamped on records."""
    digest = hashlib.sha256()
    for p in sorted(Path(rules_dir).rglob("*")):
        if p.is_file() and not p.name.startswith(".") and p.suffix != ".py" and "__pycache__" not in p.parts:
            digest.update(p.relative_to(rules_dir).as_posix().encode())
            digest.update(b"\0")
            digest.update(p.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()[:16]


# -- the rule caches -----------------------------------------------------------------------------
# What is built from a rules folder (validated rules, a unit registry, a reader) is cached per folder.
# The caches are made here, so that one function can make them all re-read a folder.
_MEMOS: list[Any] = []                 # memoised loaders (functools.lru_cache)
_FOLDER_CACHES: list[dict[Path, Any]] = []   # dicts keyed by a resolved folder or a file in it

F = TypeVar("F", bound=Callable[..., Any])


def rule_cache(maxsize: int = 8) -> Callable[[F], F]:
    """`functools.lru_cache(maxsize)` for a function of a rules folder, known to `fresh_rule_caches`."""
    def wrap(fn: F) -> F:
        memo = lru_cache(maxsize=maxsize)(fn)
        _MEMOS.append(memo)
        return memo  # type: ignore[return-value]
    return wrap


def folder_cache() -> dict[Path, Any]:
    """A cache keyed by a resolved rules folder (or a file in it), known to `fresh_rule_caches`."""
    cache: dict[Path, Any] = {}
    _FOLDER_CACHES.append(cache)
    return cache


@contextmanager
def fresh_rule_caches(folder: Path) -> Iterator[None]:
    """Within the block every rule cache re-reads `folder` (what `rules check` loads is the folder as it is
    now); the entries of `folder` that other code holds are restored afterwards, and the memoised loaders
    are cleared before and after."""
    key = Path(folder).resolve()

    def of_folder(cache: dict[Path, Any]) -> list[Path]:
        return [k for k in cache if k == key or k.parent == key]

    def clear_memos() -> None:
        for memo in _MEMOS:
            memo.cache_clear()

    saved = [{k: cache.pop(k) for k in of_folder(cache)} for cache in _FOLDER_CACHES]
    clear_memos()
    try:
        yield
    finally:
        for cache, entries in zip(_FOLDER_CACHES, saved):
            for k in of_folder(cache):
                del cache[k]
            cache.update(entries)
        clear_memos()
