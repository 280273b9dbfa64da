"""Code blocks as a source of conditions: which blocks are the run's code, and the condition mentions their
parsed code states (shell commands: shell.py; Python: python.py). The mentions carry the rule `code:<lang>:...`
and replace what the text patterns read in those blocks (`CodeReader.replace`)."""
from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from extractor.conditions.code.flow import CellNames, cell_names, feeding
from extractor.conditions.code.harnesses import NUMERIC, Reading, load_harnesses
from extractor.conditions.code.python import MODEL_ID, PythonBlock, PythonReader, parse, prompt_value
from extractor.conditions.code.shell import Command, ShellReader
from extractor.conditions.code.source import Source, block_source
from extractor.conditions.mentions import MentionFinder
from extractor.conditions.readings import Mention
from extractor.ingest import Document
from extractor.spans import overlaps_near

CODE_RULE = "code:"
PYTHON_RULE = "code:python:"
PYTHON_LANGS = frozenset({"python", "py", "python3", "ipython", "ipython3", "pycon", "jupyter"})
SHELL_LANGS = frozenset({"bash", "sh", "shell", "console", "zsh", "shell-session", "shellsession", "terminal",
                         "text", "plain", "plaintext", "cmd", ""})
# what the text patterns read in a run's code block that the parsed code states instead: the settings patterns read
# (a flag, a keyword); in commands the names the gazetteers find (a model, a dataset, an engine, a precision suffix
# of a model's name) stay, and parsed code adds a model or dataset only where none was found; a precision option
# read by the table replaces what a pattern read of it
REPLACED = {"shell": frozenset({"input_length", "output_length", "batch_or_concurrency", "parallelism", "gpu_count",
                                "warmup"}),
            "python": frozenset({"input_length", "output_length", "batch_or_concurrency", "parallelism", "gpu_count",
                                 "warmup", "command_line", "precision", "dataset", "model"})}
NAMES = frozenset({"model", "dataset"})
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")


class CodeReader:
    """The conditions the run's code states in a document (rules/harnesses.yaml)."""

    def __init__(self, rules_dir: Path | str | None, finder: MentionFinder):
        self.table = load_harnesses(rules_dir)
        self.finder = finder
        self.shell = ShellReader(self.table)
        self.python = PythonReader(self.table.python, self.table.precision)
        self.result_after_server = re.compile(self.table.result_after_server, re.I)
        self.printed_result = re.compile(self.table.printed_result, re.I)
        self._fed: tuple[Document | None, dict[int | None, set[int]]] = (None, {})
        self._commands: tuple[Document | None, dict[int, list[Command]]] = (None, {})

    def replace(self, d: Document, found: list[Mention]) -> list[Mention]:
        """`found` with the mentions the patterns read in the run's code blocks replaced by what the parsed
        code states there."""
        mentions, blocks = self.read(d)
        if not blocks:
            return found
        # a Python block is code throughout; in a shell block only its commands' lines are: the lines a program
        # prints in the same block ("Batch Size: 1", "Scenario: sync") keep what the patterns read there
        spans = sorted((a, b, lang) for i, lang in blocks.items()
                       for a, b in (self._command_lines(d, i) if lang == "shell" else [(d.blocks[i].start, d.blocks[i].end)]))

        def replaced(m: Mention) -> bool:
            return any(a <= m.span[0] < b and m.kind in REPLACED[lang] for a, b, lang in spans)

        ours = {kind: sorted(m.span for m in mentions if m.kind == kind) for kind in ("command_line", "precision")}
        kept = [m for m in found if not replaced(m)
                and not (m.kind in ours and overlaps_near(ours[m.kind], *m.span))]
        names = sorted(m.span for m in kept if m.kind in NAMES)
        added = [m for m in mentions if m.kind not in NAMES or m.rule.startswith(PYTHON_RULE)
                 or not overlaps_near(names, *m.span)]
        return sorted(kept + added, key=lambda m: (m.span, m.kind))

    def read(self, d: Document) -> tuple[list[Mention], dict[int, str]]:
        """The mentions of the run's code blocks, and those blocks: the blocks that run a benchmark harness or
        time something in Python, a server launched in a section that runs a benchmark, and the Python cells
        before a timed one in its section (block -> "shell" or "python")."""
        shell: dict[int, list[Command]] = {}
        python: dict[int, tuple[Source, PythonBlock]] = {}
        names: dict[int, CellNames] = {}
        for i, b in enumerate(d.blocks):
            if b.kind != "code":
                continue
            src = block_source(d.view, b.start, b.end, b.lang)
            if src is None:
                continue
            if src.lang in PYTHON_LANGS or src.lang not in SHELL_LANGS:
                if (src.lang in PYTHON_LANGS or not src.lang.startswith("{")) and (tree := parse(src)) is not None:
                    python[i] = (src, self.python.read(src, tree))
                    names[i] = cell_names(tree)
                continue
            if any(line.split() and self.shell.knows(_first_word(line)) for line in src.lines):
                if cmds := self.shell.commands(src):
                    shell[i] = cmds
        # a script outside the table states its run's settings only when the block right after it prints a result
        for i in list(shell):
            if any(c.harness.role == "script" for c in shell[i]) and not self._printed_result_follows(d, i):
                if not (kept := [c for c in shell[i] if c.harness.role != "script"]):
                    del shell[i]
                    continue
                shell[i] = kept
        measuring = {d.blocks[i].section for i, cmds in shell.items() if any(c.harness.role == "benchmark" for c in cmds)}
        run: set[int] = set()
        for i, cmds in shell.items():
            sec = d.blocks[i].section
            if any(c.harness.role in ("benchmark", "script") for c in cmds) or _related(d, sec, measuring) \
                    or self._result_follows(d, i):
                run.add(i)
        timing: set[str] = set()   # functions a cell defines that time something: a later cell calling one times
        timed: dict[int | None, int] = {}   # the last cell per section that times something
        for i, (_, p) in sorted(python.items()):
            if p.times and not p.timing_functions or p.calls & (timing | p.timing_functions):
                timed[d.blocks[i].section] = i
            timing |= p.timing_functions
        cells = {i for i in python if d.blocks[i].section in timed and i <= timed[d.blocks[i].section]}
        fed = feeding(names, cells)
        cells |= {j for got in fed.values() for j in got}
        feeds: dict[int | None, set[int]] = {}
        for i, got in fed.items():
            feeds.setdefault(d.blocks[i].section, set()).update(got)
        self._fed = (d, feeds)
        run |= cells
        spread = {d.blocks[i].section for i in cells if python[i][1].multi}
        out: list[Mention] = []
        for i in sorted(run):
            if i in shell:
                for cmd in shell[i]:
                    out += self._command(d, cmd)
            else:
                block = python[i][1]
                out += self._python(d, block)
                if block.single and d.blocks[i].section not in spread:
                    out.append(self._mention(d, Reading(condition="parallelism"), "single GPU", block.single,
                                             f"{PYTHON_RULE}device"))
        self._commands = (d, {i: shell[i] for i in run if i in shell})
        return out, {i: "shell" if i in shell else "python" for i in run}

    def _command_lines(self, d: Document, i: int) -> list[tuple[int, int]]:
        """The extents of the commands of shell block `i` (from a command's first word to the end of the line of
        its last setting), as `read` found them for `d`."""
        done, commands = self._commands
        if done is not d:
            return [(d.blocks[i].start, d.blocks[i].end)]
        out = []
        for cmd in commands.get(i, ()):
            last = max([cmd.span[1], *(s.span[1] for s in cmd.settings)])
            end = d.text.find("\n", last)
            out.append((cmd.span[0], end if 0 <= end <= d.blocks[i].end else d.blocks[i].end))
        return out or [(d.blocks[i].start, d.blocks[i].end)]

    def feeds(self, d: Document) -> dict[int | None, set[int]]:
        """Per section, the Python cells (block indexes) its run's cells read names from, wherever they sit
        (flow.py): the cell that loads the model a later section's timed function uses."""
        done, feeds = self._fed
        if done is not d:
            self.read(d)
            feeds = self._fed[1]
        return feeds

    def _result_follows(self, d: Document, i: int) -> bool:
        """Whether the next block after code block `i` that is no code is a paragraph of its section that
        reports a result (`result_after_server`)."""
        j = i + 1
        while j < len(d.blocks) and d.blocks[j].kind == "code":
            j += 1
        if j >= len(d.blocks) or d.blocks[j].kind != "paragraph" or d.blocks[j].section != d.blocks[i].section:
            return False
        return self.result_after_server.search(d.view, d.blocks[j].start, d.blocks[j].end) is not None

    def _printed_result_follows(self, d: Document, i: int) -> bool:
        """Whether the next code block after block `i`, in its section with at most one paragraph between (a lead
        such as "Output:"), prints a result: a figure with a performance unit (`result_after_server`)."""
        j, prose = i + 1, 0
        while j < len(d.blocks) and d.blocks[j].kind != "code" and d.blocks[j].section == d.blocks[i].section:
            prose += 1
            j += 1
        if prose > 1 or j >= len(d.blocks) or d.blocks[j].kind != "code" or d.blocks[j].section != d.blocks[i].section:
            return False
        lo, hi = d.blocks[j].start, d.blocks[j].end
        return self.result_after_server.search(d.view, lo, hi) is not None \
            or self.printed_result.search(d.view, lo, hi) is not None

    # -- mentions ------------------------------------------------------------------------
    def _command(self, d: Document, cmd: Command) -> list[Mention]:
        h = cmd.harness
        line_end = d.text.find("\n", cmd.span[0])
        end = max(cmd.span[1], line_end if line_end >= 0 else len(d.text))
        rule = f"{CODE_RULE}shell:{h.name}"
        out = [Mention(kind="command_line", value=h.name, canonical=h.name, quote=d.text[cmd.span[0]:end],
                       span=(cmd.span[0], end), rule=rule)] if h.role == "benchmark" else []
        for s in cmd.settings:
            if s.reading.keys:
                out += self._keys(d, s.reading, s.value, s.span, f"{rule}:{s.key}")
                continue
            m = self._mention(d, s.reading, s.value, s.span, f"{rule}:{s.key}")
            if m is not None:
                out.append(m)
        return out

    def _keys(self, d: Document, reading: Reading, value: str, span: tuple[int, int], rule: str) -> list[Mention]:
        """The settings of a "k=v,k=v" value (`--model_args pretrained=...,tensor_parallel_size=8`)."""
        from extractor.conditions.code.harnesses import parse_target
        out = []
        for part in value.split(","):
            key, eq, v = part.partition("=")
            if not eq or key not in reading.keys:
                continue
            at = d.text.find(part, span[0], span[1])
            if at < 0:
                continue
            m = self._mention(d, parse_target(reading.keys[key]), v, (at, at + len(part)), f"{rule}:{key}")
            if m is not None:
                out.append(m)
        return out

    def _python(self, d: Document, block: PythonBlock) -> list[Mention]:
        out = []
        for f in block.findings:
            m = self._mention(d, f.reading, f.value, f.span, f"{PYTHON_RULE}{f.key}")
            if m is not None:
                out.append(m)
        return out

    def _mention(self, d: Document, reading: Reading, value: object, span: tuple[int, int], rule: str
                 ) -> Mention | None:
        """The mention of what `reading` makes of `value`; None when the value states nothing (not a number
        where one is needed, a dtype left to the default)."""
        kind = reading.condition
        if isinstance(value, str) and value in reading.ignore:
            return None
        canonical = None
        sweep = False
        if reading.flag is not None:
            value = reading.flag
        elif kind in NUMERIC or reading.template:
            number = _number(value)
            if number is None:
                return None
            if isinstance(number, list):
                if reading.template or reading.rate:
                    return None
                value, sweep = {"min": min(number), "max": max(number), "values": number}, True
            elif reading.rate:
                value = {"rate": number}
            elif reading.template:
                if not isinstance(number, int):
                    return None
                value = reading.template.format(n=number)
            else:
                value = number
        elif kind == "precision":
            canonical = self.table.precision(str(value))
            if canonical is None:
                return None
            value = canonical
        elif reading.prompt:
            value = prompt_value(value)
            if value is None:
                return None
        elif kind == "model" or kind == "dataset":
            if not isinstance(value, str) or not value.strip():
                return None
            if reading.path:
                value = _repository_of(d, value)
                if value is None:
                    return None
            named = [m for m in self.finder.find(value) if m.kind == kind and m.canonical]
            canonical = named[0].canonical if len(named) == 1 else None
            if kind == "model" and canonical is None and (local := _checkpoint_folder(d, value, span)) is not None:
                value, span = local   # a local copy named as the model ("--model /models/Llama-3-8B")
                named = [m for m in self.finder.find(value) if m.kind == kind and m.canonical and m.span[0] == 0]
                canonical = named[0].canonical if len(named) == 1 else None
                if canonical is None:
                    return None
            if kind == "model" and canonical is None and not MODEL_ID.match(value) and not rule.endswith(":hub"):
                return None   # a bare word ("vllm" as a backend) or a local path is no checkpoint's name
        elif kind == "warmup" and (value is None or not rule.startswith(PYTHON_RULE)):
            value = " ".join(d.text[span[0]:span[1]].split())
        return Mention(kind=kind, value=value, canonical=canonical, sweep=sweep, quote=d.text[span[0]:span[1]],
                       span=span, rule=rule)


def _number(value: object) -> int | float | list | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, list):
        nums = [_number(v) for v in value]
        return nums if nums and all(isinstance(n, (int, float)) for n in nums) else None
    text = str(value).strip()
    if "," in text:
        parts = [_number(p) for p in text.split(",")]
        return parts if len(parts) > 1 and all(isinstance(p, (int, float)) for p in parts) else None
    if not _NUMBER.match(text):
        return None
    return int(text) if "." not in text else float(text)


def _checkpoint_folder(d: Document, path: str, span: tuple[int, int]) -> tuple[str, tuple[int, int]] | None:
    """The last folder of a local checkpoint path and its span ("/models/Llama-3-8B/" -> "Llama-3-8B"): a local copy
    keeps the model's name (whether it is one, the gazetteer says); None for a name that is no path, or an org/name."""
    if "/" not in path.strip("/") and not path.startswith(("/", "./", "~/")) or MODEL_ID.match(path):
        return None
    folder = PurePosixPath(path.rstrip("/")).name
    at = d.text.rfind(folder, span[0], span[1]) if folder else -1
    return (folder, (at, at + len(folder))) if at >= 0 else None


def _repository_of(d: Document, path: str) -> str | None:
    """The `org/name` a checkpoint's path holds in its two last directories (`checkpoints/org/name/model.pth`), when
    the post names that repository elsewhere too (a download command, a link): else None, a local layout."""
    parts = PurePosixPath(path).parent.parts
    repo = "/".join(parts[-2:]) if len(parts) >= 2 else ""
    return repo if MODEL_ID.match(repo) and d.text.count(repo) > 1 else None


def _first_word(line: str) -> str:
    words = [w for w in line.split() if not re.match(r"^[A-Za-z_]\w*=", w)]
    return words[0] if words else ""


def _related(d: Document, section: int | None, measuring: set[int | None]) -> bool:
    """Whether a section is one that runs a benchmark, or lies above or below one."""
    if section in measuring:
        return True
    for other in measuring:
        for a, b in ((section, other), (other, section)):
            up = d.sections[a].parent if a is not None else None
            while up is not None:
                if up == b:
                    return True
                up = d.sections[up].parent
    return False
