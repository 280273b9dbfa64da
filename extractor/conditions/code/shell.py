"""Shell commands read with `shlex`: each command of a block (continuation lines joined, `&&`, `;`, `|`
separated) is matched against the harness table (rules/harnesses.yaml) and its options are read by what the
table says they state. A launcher (`torchrun`, `docker run <image>`) is read through to the command it runs."""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import PurePosixPath

from extractor.conditions.code.harnesses import Harness, HarnessFile, Reading
from extractor.conditions.code.source import Source

_SEPARATORS = frozenset({";", "&&", "||", "|", "&", ";;"})
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PYTHON = re.compile(r"^python(?:\d(?:\.\d+)?)?$")
_QUOTED = re.compile(r"[\"'\\]")
_PREFIXES = frozenset({"sudo", "nohup", "time", "env", "exec", "srun", "numactl"})


@dataclass(slots=True)
class Token:
    """A word of a command and its span in the document (None when it cannot be found as written)."""

    text: str
    span: tuple[int, int] | None


@dataclass(slots=True)
class Setting:
    """What one option of a harness command states."""

    reading: Reading
    value: str
    span: tuple[int, int]
    key: str   # the option as written ("--max-concurrency", "pretrained")


@dataclass(slots=True)
class Command:
    """A harness command found in a block: the harness, the span of the command's first word, and what its
    options state."""

    harness: Harness
    span: tuple[int, int]
    settings: list[Setting] = field(default_factory=list)


class ShellReader:
    """The harness commands of a block of shell."""

    def __init__(self, table: HarnessFile):
        self.table = table
        self.by_first: dict[str, list[Harness]] = {}
        for h in table.harnesses:
            if h.role != "script":
                self.by_first.setdefault(h.program[0].lower(), []).append(h)
        for words in self.by_first.values():
            words.sort(key=lambda h: -len(h.program))
        self.by_name = {h.name: h for h in table.harnesses}
        # a command is read only when its first word is one of these (`knows`); shlex's words are pieces of the
        # line when it holds no quote or backslash, so a line holding none of them as a substring has no command
        self._known = re.compile("|".join(map(re.escape, sorted({*self.by_first, "python", "docker"},
                                                                key=lambda w: (-len(w), w)))))
        self.docker_values = frozenset(table.docker_value_options)
        # the options any other Python script is read by, when its printed result follows it (role `script`:
        # its program is a glob of the script's file name, `*.py`)
        self.scripts = [h for h in table.harnesses if h.role == "script"]

    def knows(self, word: str) -> bool:
        """Whether a command starting with `word` can be a harness or a launcher of one."""
        word = PurePosixPath(word).name.lower()
        return word in self.by_first or bool(_PYTHON.match(word)) or word == "docker"

    def commands(self, src: Source) -> list[Command]:
        """The harness commands of the block, in order."""
        out: list[Command] = []
        for words in self._commands(src):
            if cmd := self._read(words):
                out.append(cmd)
        return out

    # -- words ---------------------------------------------------------------------
    def _commands(self, src: Source) -> list[list[Token]]:
        """The block's commands as words with spans: lines continued with a backslash joined, comments
        dropped, separated at `;`, `&&`, `||`, `|`, `&`."""
        out: list[list[Token]] = []
        chars: list[str] = []
        where: list[int] = []
        for i, line in enumerate(src.lines):
            body = line.rstrip()
            more = body.endswith("\\")
            body = body[:-1] if more else body
            if not chars and body.lstrip().startswith("#"):
                continue
            chars.extend(body)
            where.extend(src.starts[i] + k for k in range(len(body)))
            if more:
                chars.append(" ")
                where.append(src.starts[i] + len(body))
                continue
            out.extend(self._split_known("".join(chars), where))
            chars, where = [], []
        if chars:
            out.extend(self._split_known("".join(chars), where))
        return out

    def _split_known(self, line: str, where: list[int]) -> list[list[Token]]:
        """`_split`, skipped for a line that cannot hold a command `_read` takes (no known first word in it, and
        no quote or backslash that shlex would read a word through)."""
        if not _QUOTED.search(line) and not self._known.search(line.lower()):
            return []
        return _split(line, where)

    # -- harness -------------------------------------------------------------------
    def _read(self, words: list[Token]) -> Command | None:
        """The harness command `words` run (through launchers), with its settings; None for another command."""
        i = 0
        while i < len(words) and (_ENV.match(words[i].text) or words[i].text in _PREFIXES):
            i += 1
        if i >= len(words):
            return None
        first = PurePosixPath(words[i].text).name.lower()
        if first == "docker":
            return self._docker(words, i)
        names = [w.text for w in words[i:]]
        script = False
        if _PYTHON.match(first):
            if len(names) > 2 and names[1] == "-m":
                i, names = i + 2, [names[2]] + names[3:]
            elif len(names) > 1 and not names[1].startswith("-"):
                i, names = i + 1, [PurePosixPath(names[1]).name] + names[2:]
                script = True
            else:
                return None
        else:
            names = [first] + names[1:]
        for h in self.by_first.get(names[0].lower(), ()):
            n = len(h.program)
            if [w.lower() for w in names[:n]] == [p.lower() for p in h.program]:
                return self._harness(h, words, i, i + n)
        if script:
            h = self.script_harness(names[0])
            if h is not None:
                return self._harness(h, words, i, i + 1)
        return None

    def script_harness(self, name: str) -> Harness | None:
        """The first `script` harness whose program (a glob, matched case-sensitively) matches the file name of
        the script `python <path>` runs."""
        return next((h for h in self.scripts if fnmatchcase(name, h.program[0])), None)

    def _docker(self, words: list[Token], i: int) -> Command | None:
        """`docker run [options] image [args]`: the harness the image runs, or the command after the image."""
        if i + 1 >= len(words) or words[i + 1].text != "run":
            return None
        j = i + 2
        while j < len(words) and words[j].text.startswith("-"):
            j += 1 if "=" in words[j].text or words[j].text not in self.docker_values else 2
        if j >= len(words):
            return None
        repo = words[j].text.split(":", 1)[0].split("@", 1)[0]
        harness = self.table.images.get(repo)
        if harness:
            return self._harness(self.by_name[harness], words, j, j + 1)
        return self._read(words[j + 1:])

    def _harness(self, h: Harness, words: list[Token], start: int, args: int) -> Command | None:
        """The command of harness `h` whose program words are words[start:args]: its settings."""
        first = next((w.span for w in words[:start + 1] if w.span), None)   # the command's first word (docker, env...)
        cmd = Command(h, first or (0, 0))
        j = args
        if h.positional and j < len(words) and not words[j].text.startswith("-") and words[j].span:
            cmd.settings.append(Setting(Reading(condition=h.positional), words[j].text, words[j].span, "positional"))
        while j < len(words):
            w = words[j]
            if h.role == "launcher" and not w.text.startswith("-"):
                inner = self._read([Token("python", None)] + words[j:]) if w.text.endswith(".py") \
                    else self._read(words[j:])
                if inner is not None:   # the command is the launcher's: it starts where the launcher does
                    inner.settings, inner.span = cmd.settings + inner.settings, cmd.span
                    return inner
                break
            name, eq, value = w.text.partition("=")
            if w.text.startswith("-") and name in h.options:
                reading = h.options[name]
                if reading.flag is not None:
                    if w.span:
                        _settings(cmd, reading, reading.flag, w.span, name)
                elif eq:
                    if w.span:
                        _settings(cmd, reading, value, w.span, name)
                elif j + 1 < len(words):
                    nxt = words[j + 1]
                    if w.span and nxt.span:
                        _settings(cmd, reading, nxt.text, (w.span[0], nxt.span[1]), name)
                    j += 1
            elif eq and not w.text.startswith("-") and name in h.keyvalue and w.span:
                cmd.settings.append(Setting(h.keyvalue[name], value, w.span, name))
            j += 1
        if h.role == "launcher":
            return None
        return cmd


def _settings(cmd: Command, reading: Reading, value: str, span: tuple[int, int], key: str) -> None:
    """Add what one option states to `cmd`: its reading, and the second one it may have (`also`)."""
    while reading is not None:
        cmd.settings.append(Setting(reading, value, span, key))
        reading = reading.also


def _split(line: str, where: list[int]) -> list[list[Token]]:
    """The commands of one logical line as words with document spans."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:   # an unclosed quote: not a command shlex can read
        return []
    out: list[list[Token]] = [[]]
    cursor = 0
    for word in words:
        at = line.find(word, cursor)
        span = None
        if at >= 0 and word:
            end = at + len(word)
            if end < len(line) and line[end] in "\"'":
                end += 1
            lo = at - 1 if at > 0 and line[at - 1] in "\"'" else at
            span = (where[lo], where[end - 1] + 1)
            cursor = at + len(word)
        if word in _SEPARATORS:
            out.append([])
            continue
        out[-1].append(Token(word, span))
    return [ws for ws in out if ws]
