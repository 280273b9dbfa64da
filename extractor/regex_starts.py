"""How a regex match can begin: a finite set of lowercase strings, one of which starts every match.

`start_strings(pattern, flags)` reads the pattern with the parser of the standard `re`
module and returns the strings, or None when it cannot tell (a match may start with a
class such as `\\d` or `[^x]`, with any character, or with a string shorter than
`min_len`). It is conservative: None only means "no shortcut".

The strings are lowercased: a text can be searched for them in `text.lower()`. For ASCII
strings this agrees with `re.IGNORECASE` except on the characters of `CASE_TRAPS` ("İ"
lowercases to two characters; "ı" and "ſ" match "i" and "s" but do not lowercase to them),
so a text holding one of them must not be searched this way. With `digits=True`, `\\d` is read
as the ASCII digits: a text holding another digit ("٣") must not be searched either
(`searchable` tells both).
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from extractor import regex_cache

try:  # the parser of the standard `re` module (Python 3.11+)
    from re import _constants as C
    from re import _parser as P
except ImportError:  # pragma: no cover - a changed `re`: no shortcut
    C = P = None

CASE_TRAPS = "\u0130\u0131\u017f"
# Digits read from `\\d` stand in as private-use characters until the end, so that a string opening
# with one can be refused (digits are too common to look for) while written ones ("01-ai/") stay.
_CLASS_DIGITS = "".join(chr(0xE000 + i) for i in range(10))
_FROM_CLASS = str.maketrans(_CLASS_DIGITS, "0123456789")
# A non-ASCII character that is a digit or a case trap (the look-behind reads the character just
# matched: one scan that skips ASCII quickly).
_UNSEARCHABLE = re.compile(rf"[^\x00-\x7f](?<=[\d{CASE_TRAPS}])")
MAX_SET = 256
LONG_ENOUGH = 8       # a start string this long is not extended further

_UNKNOWN = (frozenset(), frozenset([""]))   # begins with something we cannot name
# what is read from a pattern is kept across processes (regex_cache.memo) under this module's own
# fingerprint as well: an edit of the reading never meets the results of the old one
_CODE = hashlib.blake2b(Path(__file__).read_bytes(), digest_size=8).hexdigest()


def start_strings(pattern: str, flags: int = 0, min_len: int = 2, digits: bool = False) -> frozenset[str] | None:
    """Strings (lowercase, at least `min_len` long) one of which begins every match, or None.
    `digits`: where that finds none, read `\\d` as 0-9 ("H100": "h0" ... "h9"; a string may hold such
    digits, but not begin with one). Only then: ten digits multiply the strings of the patterns that
    already have some."""
    return regex_cache.memo(("starts", _CODE, pattern, int(flags), min_len, digits),
                            lambda: _start_strings(pattern, flags, min_len, digits))


def _start_strings(pattern: str, flags: int, min_len: int, digits: bool) -> frozenset[str] | None:
    found = _read(pattern, flags, min_len, False)
    return found if found is not None or not digits else _read(pattern, flags, min_len, True)


def _read(pattern: str, flags: int, min_len: int, digits: bool) -> frozenset[str] | None:
    if P is None:
        return None
    try:
        tree = P.parse(pattern, flags)
        full, part = _seq(tree.data, digits)
    except Exception:  # noqa: BLE001 - an unexpected tree: no shortcut
        return None
    found = full | part
    if not found or any(len(s) < min_len or s[0] in _CLASS_DIGITS for s in found):
        return None
    return frozenset(s.translate(_FROM_CLASS) for s in found)


def shortest_prefixes(words) -> list[str]:
    """The words none of the others is a prefix of, sorted: a match beginning with "input:" begins with
    "input", so looking for the shorter suffices."""
    out: list[str] = []
    for w in sorted(words):
        if not (out and w.startswith(out[-1])):
            out.append(w)
    return out


def start_finder(pattern: str | None, flags: int = 0) -> re.Pattern[str] | None:
    """A regex finding, in the lowercased text, the strings (of any length) one of which begins every match
    of `pattern`; None when they cannot be named (or no pattern)."""
    words = start_strings(pattern, flags, min_len=1) if pattern else None
    return re.compile("|".join(re.escape(w) for w in shortest_prefixes(words))) if words else None


def search_from_starts(rx: re.Pattern[str], starts: re.Pattern[str] | None, text: str, lowered: str | None,
                       lo: int, hi: int) -> bool:
    """Whether `rx.search(text, lo, hi)` finds a match. A match lies wholly in text[lo:hi] and begins with a
    string `starts` (`start_finder`) finds in `lowered` (text.lower(), where `searchable`): where none is
    there, `rx` is not run. `starts` or `lowered` None: `rx` is run."""
    if starts is not None and lowered is not None and starts.search(lowered, lo, hi) is None:
        return False
    return rx.search(text, lo, hi) is not None


def searchable(text: str) -> bool:
    """Whether the start strings of `start_strings(..., digits=True)` can be looked for in the text
    lowercased (one character for one, CASE_TRAPS folded): no case trap, no digit but 0-9."""
    return text.isascii() or not _UNSEARCHABLE.search(text)


def _seq(items, digits: bool) -> tuple[frozenset[str], frozenset[str]]:
    """(full, part): the sequence matches exactly a string of `full`, or begins with one of `part`."""
    pending = {""}
    done: set[str] = set()
    for op, av in items:
        full, part = _item(op, av, digits)
        if len(pending) * (len(full) + len(part)) > MAX_SET:
            # too many combinations: a string begun so far is a start string as it is; only a match that
            # has begun with nothing yet ("" pending: what came before was optional) goes on
            done |= pending - {""}
            pending &= {""}
        done |= {p + x for p in pending for x in part}
        pending = {p + f for p in pending for f in full}
        long = {p for p in pending if len(p) >= LONG_ENOUGH}   # long enough to look for: stop there
        done |= long
        pending -= long
        if len(done) > MAX_SET:
            done = _shortened(done)
        if len(pending) > MAX_SET:
            raise ValueError("too many start strings")
        if not pending:
            return frozenset(), frozenset(done)
    return frozenset(pending), frozenset(done)


def _shortened(strings: set[str]) -> set[str]:
    """The strings cut to the longest length that leaves at most MAX_SET of them (at least 2 long): a
    match that begins with a string begins with its start too."""
    for n in range(LONG_ENOUGH - 1, 1, -1):
        cut = {x[:n] for x in strings}
        if len(cut) <= MAX_SET:
            return cut
    raise ValueError("too many start strings")


def _uncased(c: str) -> bool:
    """A character that has no other case (matched only by itself, also under IGNORECASE) and is no digit."""
    return len(c) == 1 and c.lower() == c == c.upper() and not c.isdigit() and c not in CASE_TRAPS


def _chars(items, digits: bool) -> frozenset[str] | None:
    out: set[str] = set()
    for op, av in items:
        if op is C.CATEGORY and av is C.CATEGORY_DIGIT and digits:
            out.update(_CLASS_DIGITS)
        elif op is C.LITERAL:
            out.add(chr(av))
        elif op is C.RANGE and av[1] - av[0] < 64:
            out.update(chr(c) for c in range(av[0], av[1] + 1))
        else:  # NEGATE, CATEGORY, a wide range
            return None
    low = {c.lower() for c in out}
    return frozenset(low) if all(c.isascii() and len(c) == 1 or c in _CLASS_DIGITS for c in low) else None


def _item(op, av, digits: bool) -> tuple[frozenset[str], frozenset[str]]:
    if op is C.LITERAL:
        c = chr(av).lower()
        return (frozenset([c]), frozenset()) if c.isascii() and len(c) == 1 or _uncased(c) else _UNKNOWN
    if op is C.IN:
        chars = _chars(av, digits)
        return (chars, frozenset()) if chars else _UNKNOWN
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return frozenset([""]), frozenset()          # zero width
    if op is C.SUBPATTERN:
        return _seq(av[-1].data, digits)
    if op is getattr(C, "ATOMIC_GROUP", object()):
        return _seq(av.data, digits)
    if op is C.BRANCH:
        full: set[str] = set()
        part: set[str] = set()
        for p in av[1]:
            f, q = _seq(p.data, digits)
            full |= f
            part |= q
        return frozenset(full), frozenset(part)
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", object())):
        lo, hi, sub = av
        full, part = _seq(sub.data, digits)
        if lo == hi == 1:
            return full, part
        begun = part | (full - {""}) | ({""} if "" in full else frozenset())
        if lo == 0:
            return frozenset([""]) | (full if hi == 1 else frozenset()), \
                (part if hi == 1 else frozenset(begun))
        return frozenset(), frozenset(begun)
    return _UNKNOWN                                   # ANY, NOT_LITERAL, CATEGORY, GROUPREF...


# -- anchors: a string every match holds, and what may come before it ---------------------------------------
_REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", object())) if C else ()
_CATEGORY_CLASSES = {"CATEGORY_DIGIT": r"\d", "CATEGORY_NOT_DIGIT": r"\D", "CATEGORY_WORD": r"\w",
                     "CATEGORY_NOT_WORD": r"\W", "CATEGORY_SPACE": r"\s", "CATEGORY_NOT_SPACE": r"\S"}


class Anchor:
    """Every match of one branch of a pattern holds one of `strings` (lowercase), and the characters it
    consumes before that string all match `before` (a one-character regex, case-insensitive; None: the
    match begins with the string)."""

    __slots__ = ("strings", "before", "run")

    def __init__(self, strings: frozenset[str], before: re.Pattern[str] | None):
        if before is not None and not regex_cache.memo(("one_character", _CODE, before.pattern),
                                                        lambda: one_character(before.pattern)):
            # scan.anchored_matches matches the run over the reversed text and cuts it at an end position: that
            # finds where the run begins only when each step reads one character and looks at no other
            raise ValueError(f"an anchor's characters before must be one-character classes without "
                             f"look-around: {before.pattern!r}")
        self.strings, self.before = strings, before
        # a run of such characters (matched from a position, it ends at the first other character; `before`
        # reads one character, so matched over the reversed text it finds where a run ending there begins)
        self.run = re.compile(f"(?:{before.pattern})*", re.I) if before is not None else None


_ONE_CHARACTER_OPS = frozenset(op for op in (getattr(C, "LITERAL", None), getattr(C, "NOT_LITERAL", None),
                                             getattr(C, "IN", None)) if op is not None)


def one_character(pattern: str) -> bool:
    """Whether every match of `pattern` is one character read by a literal or a class alone (alternatives
    of them): no look-around, anchor, group or repeat, so a run of it read backwards cannot depend on what
    lies outside the run."""
    if P is None:
        return False
    try:
        tree = P.parse(pattern, re.I)
    except re.error:
        return False
    items = list(tree.data)
    if len(items) == 1 and items[0][0] is C.BRANCH:
        items = [alt.data[0] if len(alt.data) == 1 else (None, None) for alt in items[0][1][1]]
    elif len(items) != 1:
        return False
    return all(op in _ONE_CHARACTER_OPS for op, _ in items)


def anchors(pattern: str, flags: int = 0) -> list[Anchor] | None:
    """Anchors covering every match of `pattern` (one per top-level alternative that needs its own), or
    None when some match may hold no string that can be named. Conservative, like `start_strings`: the
    characters allowed before a string are a superset of those the pattern can consume there."""
    found = regex_cache.memo(("anchors", _CODE, pattern, int(flags)), lambda: _anchor_parts(pattern, flags))
    if found is None:
        return None
    return [Anchor(strings, re.compile(before, re.I) if before else None) for before, strings in found]


def _anchor_parts(pattern: str, flags: int) -> list[tuple[str, frozenset[str]]] | None:
    """[(the pattern of the characters allowed before, strings)] of `anchors`, or None."""
    if P is None:
        return None
    try:
        found = _anchors(P.parse(pattern, flags).data)
    except Exception:  # noqa: BLE001 - an unexpected tree: no shortcut
        return None
    if found is None:
        return None
    return [("|".join(sorted(before)), strings) for before, strings in found]


def _anchors(items) -> list[tuple[frozenset[str], frozenset[str]]] | None:
    """[(classes allowed before, strings)] for a sequence, or None: of every way to anchor it (the strings
    its rest begins with after each item, or the anchors of one item that every match goes through), the
    one whose rarest-to-least-rare string is rarest (`_rarity`), then one needing no characters before its
    strings, then the fewest strings."""
    items = list(items)
    best, best_key = None, None
    for i, (op, av) in enumerate(items):
        before = _alphabet(items[:i])
        if before is None:
            break
        options = []
        try:
            full, part = _seq(items[i:], False)
            found = full | part
            if found and all(found) and not any(s[0] in _CLASS_DIGITS for s in found):
                options.append([(before, found)])
        except ValueError:
            pass
        inner: list | None = None
        if op is C.SUBPATTERN:
            inner = _anchors(av[-1].data)
        elif op in _REPEATS and av[0] >= 1:
            inner = _anchors(av[2].data)
        elif op is C.BRANCH:
            inner = []
            for alt in av[1]:
                one = _anchors(alt.data)
                if one is None:
                    inner = None
                    break
                inner += one
        if inner:
            options.append([(before | b, s) for b, s in inner])
        for option in options:
            strings = [s for _, ss in option for s in ss]
            rarity = min(map(_rarity, strings))
            # strings of 4 characters are rare enough: then a string a match begins with is best
            key = (min(rarity, 4), all(not b for b, _ in option), rarity, -len(strings))
            if best_key is None or key > best_key:
                best, best_key = option, key
    return best


_COMMON_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789 \t\n.,;:-_'\"()")


def _rarity(s: str) -> int:
    """How rare a string is in prose, roughly: its length; a letter, digit, blank or common punctuation
    mark alone counts 0."""
    return 0 if len(s) == 1 and s in _COMMON_CHARS else len(s)


def _alphabet(items) -> frozenset[str] | None:
    """One-character regexes, together matching every character the items can consume; None: any."""
    out: set[str] = set()
    for op, av in items:
        if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            continue
        if op is C.LITERAL:
            out.add(re.escape(chr(av)))
        elif op is C.NOT_LITERAL:
            out.add(f"[^{re.escape(chr(av))}]")
        elif op is C.IN:
            cls = _class(av)
            if cls is None:
                return None
            out.add(cls)
        elif op in _REPEATS:
            sub = _alphabet(av[2].data)
            if sub is None:
                return None
            out |= sub
        elif op is C.SUBPATTERN or op is getattr(C, "ATOMIC_GROUP", object()):
            sub = _alphabet((av if op is not C.SUBPATTERN else av[-1]).data)
            if sub is None:
                return None
            out |= sub
        elif op is C.BRANCH:
            for alt in av[1]:
                sub = _alphabet(alt.data)
                if sub is None:
                    return None
                out |= sub
        else:   # ANY, a group reference...
            return None
    return frozenset(out)


def _class(items) -> str | None:
    """The text of a character class from its parsed items, or None."""
    parts = []
    negate = False
    for op, av in items:
        if op is C.NEGATE:
            negate = True
        elif op is C.LITERAL:
            parts.append(re.escape(chr(av)))
        elif op is C.RANGE:
            parts.append(f"{re.escape(chr(av[0]))}-{re.escape(chr(av[1]))}")
        elif op is C.CATEGORY and str(av) in _CATEGORY_CLASSES:
            parts.append(_CATEGORY_CLASSES[str(av)])
        else:
            return None
    return f"[{'^' if negate else ''}{''.join(parts)}]" if parts else None
