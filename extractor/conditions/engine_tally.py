"""What a rung's engine mentions say, tallied once per rung: the engine it names first, and per engine the
releases and commits it states (the engine decision of `Policy.engine` reads this, not every mention).

A tally is built mention by mention in document order (`EngineTally.add`), so the tally of a rung that
extends another (a long post's growing setup rung) is the other's tally, copied, with the new mentions
added: the decision costs what the rung adds, not what it holds."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from extractor.conditions.located import Located
from extractor.conditions.mentions import Mention

COMMIT = re.compile(r"(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}")   # a git commit, written "commit <sha>"


def release_of(version: str) -> str:
    """A release as compared: "v0.6.2" and "0.6.2" are one release."""
    return version.lower().removeprefix("v")


def label(m: Mention) -> str:
    """An engine and its version as a reader writes them ("vLLM 0.9.1")."""
    return f"{m.canonical or m.value} {m.version}"


@dataclass(slots=True)
class Builds:
    """The versions one engine is stated with, in document order of first mention."""

    first: Mention
    labels: set[str] = field(default_factory=set)
    versions: set[str] = field(default_factory=set)
    releases: dict[str, Mention] = field(default_factory=dict)   # release -> its first mention
    commits: dict[str, Mention] = field(default_factory=dict)    # sha as written -> its first mention
    beside: list[Mention] = field(default_factory=list)   # commits written in a sentence with a release

    def copy(self) -> Builds:
        return Builds(self.first, set(self.labels), set(self.versions), dict(self.releases), dict(self.commits),
                      list(self.beside))

    def one_build(self) -> tuple[Mention, Mention | None] | None:
        """The one build these versions state, as (its release, else its commit; the commit the release was
        built at, when stated in the release's sentence), or None when they state several: two releases
        ("v0.9.1" and "0.9.1" are one), two different commits (a short hash that begins a longer one is the
        same), or a release and a commit stated apart."""
        if len(self.releases) > 1:
            return None
        shas = sorted(self.commits, key=len, reverse=True)
        if any(not shas[0].startswith(sha) for sha in shas[1:]):
            return None
        if not self.releases:
            return next(iter(self.commits.values())), None
        if self.commits and not self.beside:
            return None
        return next(iter(self.releases.values())), (max(self.beside, key=lambda m: len(m.version or ""))
                                                     if self.beside else None)


@dataclass(slots=True)
class EngineTally:
    """A rung's engine mentions: the first serving engine named, each engine's versions, and the versioned
    engines that only run beside the serving one (`others`)."""

    first_named: str | None = None
    builds: dict[str, Builds] = field(default_factory=dict)   # by normalised engine name, in order
    others: set[str] = field(default_factory=set)

    def copy(self) -> EngineTally:
        return EngineTally(self.first_named, {k: b.copy() for k, b in self.builds.items()}, set(self.others))

    def add(self, located: list[Located], key_of, supporting) -> EngineTally:
        """This tally with `located` (in document order) added; `key_of(m)` the normalised name,
        `supporting(m)` whether the engine only runs beside the serving one. A sentence lies in one batch
        (the parts a rung is joined from are disjoint stretches of text), so a commit is paired with a
        release of its sentence within the batch."""
        release_sentences: dict[str, set[tuple[int, int]]] = {}
        commits: list[tuple[str, tuple[int, int], Mention]] = []
        for x in located:
            m = x.m
            if supporting(m):
                if m.version:
                    self.others.add(label(m))
                continue
            if self.first_named is None:
                self.first_named = m.canonical or str(m.value)
            if not m.version:
                continue
            b = self.builds.get(key_of(m))
            if b is None:
                b = self.builds[key_of(m)] = Builds(m)
            b.labels.add(label(m))
            b.versions.add(m.version)
            if COMMIT.fullmatch(m.version):
                b.commits.setdefault(m.version, m)
                if x.sentence is not None:
                    commits.append((key_of(m), x.sentence, m))
            else:
                b.releases.setdefault(release_of(m.version), m)
                if x.sentence is not None:
                    release_sentences.setdefault(key_of(m), set()).add(x.sentence)
        for key, sentence, m in commits:
            if sentence in release_sentences.get(key, ()):
                self.builds[key].beside.append(m)
        return self
