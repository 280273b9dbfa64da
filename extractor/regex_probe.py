r"""Find rule patterns that backtrack catastrophically, with a time-capped probe per pattern.

    slow = probe_patterns(["(a+)+$", r"\d+ tok/s"])     # {0: "over 1 s on 'aaaa…' (26 chars)"}

One regex match is a single C call that no signal interrupts, so the probes run in a child
process: the parent waits `cap` seconds per pattern, and a child still busy past it is killed,
the pattern reported, and a fresh child goes on with the next pattern.

Each pattern is searched on short runs of each character it could repeat (its literal characters
and one representative of each class it names) followed by a character that ends no match:
nested or overlapping quantifiers (`(a+)+`, `(\\w|\\d)*x`, `(\\s*,)*$`) take exponential time on
them. A longer run catches patterns whose cost grows as a high power of the input. The runs are tried
alone and after each literal word of the pattern, so a catastrophic tail behind a literal (`Engine\s+(v+)+$`)
is reached too.
"""
from __future__ import annotations

import multiprocessing as mp
import re
from multiprocessing.connection import Connection

SHORT_RUN = 26          # exponential backtracking: 2**26 steps is well over a second
LONG_RUN = 600          # cubic backtracking: 600**3 steps is well over a second
REPRESENTATIVES = "a A 1 . , - _ / ( ) : x".split() + [" ", "\t", "\n", "\u00e9"]
_LITERAL = re.compile(r"\\[dswDSW]|\\.|[^\\\[\](){}|*+?^$]")
_GROUP_OPEN = re.compile(r"\(\?(?:P<\w+>|<[=!]|[:=!>]|[aiLmsux-]+[:)])")
_QUANTIFIED_ATOM = re.compile(r"(\\[dswDSW]|\\.|[^\\\[\](){}|*+?^$])(?=[+*]|\)+[+*])")
_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")
MAX_WORDS = 4
_CLASS_REPS = {"\\d": "1", "\\w": "a", "\\s": " ", "\\D": "a", "\\W": "-", "\\S": "a"}


def _alphabet(pattern: str) -> list[str]:
    """Characters a pattern may repeat: those it quantifies first, then its other literals, a member of
    each class it names, and a few common ones."""
    bare = _GROUP_OPEN.sub("(", pattern)
    chars: list[str] = []
    for tokens in (_QUANTIFIED_ATOM.findall(bare), _LITERAL.findall(bare)):
        for tok in tokens:
            if tok in _CLASS_REPS:
                ch = _CLASS_REPS[tok]
            elif tok.startswith("\\"):
                ch = tok[1] if len(tok) == 2 and not tok[1].isalnum() else ""
            else:
                ch = tok
            if ch and ch not in chars:
                chars.append(ch)
    for ch in REPRESENTATIVES:
        if ch not in chars:
            chars.append(ch)
    return chars


def probes(pattern: str) -> list[str]:
    """The texts a pattern is tried on."""
    alphabet = _alphabet(pattern)
    texts = []
    for ch in alphabet:
        texts.append(ch * SHORT_RUN + "\x00")
    for a, b in zip(alphabet, alphabet[1:]):
        texts.append((a + b) * (SHORT_RUN // 2) + "\x00")
    for ch in alphabet[:4]:
        texts.append(ch * LONG_RUN + "\x00")
    for word in list(dict.fromkeys(_WORD.findall(pattern)))[:MAX_WORDS]:
        for ch in alphabet[:6]:
            texts.append(word + ch * SHORT_RUN + "\x00")
            texts.append(word + " " + ch * SHORT_RUN + "\x00")
    return texts


def _child(conn: Connection, patterns: list[str], start: int) -> None:
    for i in range(start, len(patterns)):
        conn.send(("start", i))
        try:
            rx = re.compile(patterns[i])
        except (re.error, OverflowError, RecursionError):
            continue
        for text in probes(patterns[i]):
            rx.search(text)
    conn.send(("end", len(patterns)))


def probe_patterns(patterns: list[str], cap: float = 1.0) -> dict[int, str]:
    """Index -> reason for each pattern whose probes take over `cap` seconds (patterns that do not compile
    are skipped: the loaders report them)."""
    slow: dict[int, str] = {}
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    start = 0
    while start < len(patterns):
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(child, patterns, start), daemon=True)
        proc.start()
        child.close()
        current: int | None = None
        finished = False
        try:
            while True:
                if not parent.poll(cap if current is not None else max(cap, 10.0)):
                    break                      # busy past the cap on `current`
                try:
                    kind, i = parent.recv()
                except EOFError:               # the child died: treat the pattern in hand as the culprit
                    break
                if kind == "end":
                    finished = True
                    break
                current = i
        finally:
            proc.kill()
            proc.join()
            parent.close()
        if finished or current is None:   # done, or the child never started: nothing to blame
            break
        slow[current] = f"backtracks catastrophically: its probes took over {cap:g} s"
        start = current + 1
    return slow
