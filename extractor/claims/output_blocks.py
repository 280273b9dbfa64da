"""Program output: the lines of a document's code blocks that a program printed, told apart from source code,
shell commands and configuration by structure, whatever the block's fence language says.

- a block in a configuration language (`config_langs`: yaml, json, toml...) holds settings: no output;
- a block that `ast.parse` accepts as Python statements is source code (notebook `!`/`%` lines blanked
  first); one that parses only as bare annotations or literals ("Latency: 14.45", "[1.2, 3.4]") is printed;
- in any other block, a line is a command when it opens with a prompt (`$ `, `>>> `, `!`...) or a command word
  (`python`, `docker`, `vllm`...), with its continuation lines (a trailing backslash, open brackets); a line
  of Python statement keywords (`import`, `def`, `print(`...) is code; every other non-blank line is output.

Each output line is returned without its indentation and log prefix ("INFO 07-30 12:00:00 x.py:12] ",
"[INFO] "), and marked when it is error text (an exception, a traceback, an error or warning log line).
The vocabularies are data: `rules/program_output.yaml`.
"""
from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, field_validator

from extractor.ingest import Document
from extractor.rules_io import load_yaml, rule_cache
from extractor.rule_files import OUTPUT

OUTPUT_FILE = OUTPUT.name

_CODE_LINE = re.compile(
    r"(?:import\s+\w|from\s+[\w.]+\s+import\b|def\s+\w+\s*\(|class\s+\w+\s*[(:]|return\b|yield\b|raise\b|"
    r"(?:for|while|if|elif|with|async\s+(?:def|for|with))\b.*:\s*$|else\s*:|try\s*:|except\b.*:\s*$|"
    r"finally\s*:|print\s*\(|@\w)")
_FENCE = re.compile(r"^[ \t]*(?:`{3,}|~{3,}).*$", re.M)
_BARE = (ast.Constant, ast.List, ast.Tuple, ast.Dict, ast.Set, ast.Name, ast.UnaryOp)
_OPEN, _CLOSE = "([{", ")]}"


class OutputRules(BaseModel):
    """The vocabularies of `program_output.yaml`."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    version: int = 1
    config_langs: list[str]
    commands: list[str]
    prompts: list[str]
    log_prefix: str
    error_line: str
    setting_words: list[str]
    model_labels: list[str]
    illustrative_lead: str = r"(?!)"
    statistic_labels: dict[str, list[str]] = {}

    @field_validator("log_prefix", "error_line", "illustrative_lead")
    @classmethod
    def _regex(cls, v: str) -> str:
        try:
            re.compile(v)
        except re.error as e:
            raise ValueError(f"not a valid regex: {e}") from e
        return v


@rule_cache()
def load_output_rules(rules_dir: Path) -> OutputRules:
    """Read and validate `program_output.yaml` from a rules folder (cached per folder)."""
    return load_yaml(Path(rules_dir) / OUTPUT_FILE, OutputRules)


@dataclass(frozen=True, slots=True)
class OutputLine:
    """One printed line of a code block: [start, end) without indentation and log prefix."""

    block: int
    start: int
    end: int
    error: bool = False


def _balance(line: str) -> int:
    """Open brackets minus closed ones (strings not told apart: a rough count for continuation lines)."""
    return sum(line.count(c) for c in _OPEN) - sum(line.count(c) for c in _CLOSE)


class OutputBlocks:
    """Finds the program output lines of a document's code blocks."""

    def __init__(self, rules: OutputRules):
        self.rules = rules
        self._last: tuple[Document, list[OutputLine]] | None = None
        self.config_langs = {lang.lower() for lang in rules.config_langs}
        self.commands = frozenset(rules.commands)
        self.prompts = tuple(rules.prompts)
        self.log_prefix = re.compile(rules.log_prefix)
        self.error_line = re.compile(rules.error_line)
        self.illustrative_lead = re.compile(rules.illustrative_lead, re.I | re.M)
        self.setting_words = re.compile(
            r"\b(?:" + "|".join(re.escape(w).replace(r"\ ", r"[\s_-]+") for w in rules.setting_words) + r")\b", re.I) \
            if rules.setting_words else None
        self.statistic_labels = {w.lower(): stat for stat, words in rules.statistic_labels.items() for w in words}
        labels = sorted(rules.model_labels, key=len, reverse=True)
        self.model_line = re.compile(
            r"(?:" + "|".join(re.escape(w).replace(r"\ ", r"[\s_-]+") for w in labels) + r")\s*[:=]?\s*"
            r"(?P<value>[\"']?(?P<id>[A-Za-z][\w.+-]*(?:/[\w.+-]+)+|[A-Za-z][\w.+-]*\d[\w.+-]*)[\"']?)", re.I) \
            if labels else None

    @classmethod
    def from_rules(cls, rules_dir: Path) -> "OutputBlocks":
        """The finder of a rules folder, one per folder: the claim and condition stages share it, so the
        lines of the document being extracted are found once for both."""
        return _shared_blocks(rules_dir)

    def lines(self, d: Document) -> list[OutputLine]:
        """The output lines of every code block of the document, in order (the claim and condition stages
        both ask for the document being extracted: its lines are found once)."""
        if self._last is not None and self._last[0] is d:
            return self._last[1]
        out: list[OutputLine] = []
        for i, b in enumerate(d.blocks):
            if b.kind == "code":
                out += self.block_lines(d, i)
        self._last = (d, out)
        return out

    def is_setting(self, label: str) -> bool:
        """A result label that names a setting, a limit or a target ("Request timeout", "TTFT SLO")."""
        return bool(self.setting_words and self.setting_words.search(label))

    def statistic(self, label: str) -> str | None:
        """The statistic a result label names alone ("Average", "Slowest", "p99", "P99.9"), else None."""
        low = " ".join(label.lower().split())
        if (m := re.fullmatch(r"p(\d{1,2}(?:\.\d+)?)", low)) is not None:
            return "median" if m.group(1) == "50" else f"p{m.group(1)}"
        return self.statistic_labels.get(low)

    def block_lines(self, d: Document, i: int) -> list[OutputLine]:
        b = d.blocks[i]
        lang = ((b.lang or "").split() or [""])[0].lower()
        # the block's text without its fence lines
        body = _FENCE.sub(lambda m: " " * len(m.group()), d.text[b.start:b.end])
        if lang in self.config_langs or not any(ch.isdigit() for ch in body) or self._illustrative(d, i) \
                or is_source(body):
            return []
        out: list[OutputLine] = []
        depth, cont = 0, False
        for m in re.finditer(r"[^\n]+", body):
            line = m.group()
            s = line.strip()
            if not s:
                continue
            if cont or depth > 0:               # a command or statement continued from the line before
                depth, cont = max(0, depth + _balance(s)), s.endswith("\\")
                continue
            if s.startswith(self.prompts) or self._command(s):
                depth, cont = max(0, _balance(s)), s.endswith("\\")
                continue
            if _CODE_LINE.match(s):
                depth = max(0, _balance(s))
                continue
            lead = len(line) - len(line.lstrip())
            pre = self.log_prefix.match(line, lead)
            start = b.start + m.start() + (pre.end() if pre else lead)
            end = b.start + m.start() + len(line.rstrip())
            if start < end:
                out.append(OutputLine(i, start, end, bool(self.error_line.search(line))))
        return out

    def _illustrative(self, d: Document, i: int) -> bool:
        """Whether the paragraph right before the block (in its section) presents it as an illustration
        ("You should see logs like:")."""
        if i == 0:
            return False
        b, before = d.blocks[i], d.blocks[i - 1]
        return before.section == b.section and before.kind in ("paragraph", "list_item", "caption") \
            and self.illustrative_lead.search(d.view, before.start, before.end) is not None

    def _command(self, s: str) -> bool:
        """A line that runs a command: its first word (path stripped) is a command, or it sets a variable
        for one ("CUDA_VISIBLE_DEVICES=0 python ...")."""
        first = s.split(None, 1)[0]
        if re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", first) and " " in s:
            return True
        word = first.rsplit("/", 1)[-1]
        return word in self.commands or first.startswith(("./", "~/"))


@rule_cache()
def _shared_blocks(rules_dir: Path) -> OutputBlocks:
    return OutputBlocks(load_output_rules(rules_dir))


def is_source(body: str) -> bool:
    """Whether a block's text is Python source: `ast.parse` accepts it (notebook `!`/`%` lines blanked) with a
    statement that is more than a bare annotation or literal ("Latency: 14.45" and "[1, 2]" parse too)."""
    text = re.sub(r"(?m)^[ \t]*[!%].*$", "", textwrap.dedent(body))
    if not text.strip():
        return True
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(not (isinstance(s, ast.AnnAssign) and s.value is None and isinstance(s.annotation, _BARE))
               and not (isinstance(s, ast.Expr) and isinstance(s.value, _BARE)) for s in tree.body)
