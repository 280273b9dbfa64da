"""Who published a post: hardware vendor, engine project, cloud provider, independent, or mixed.

Evidence (rules/authorship.yaml): front-matter author, byline and self-identification;
the post's own address in front matter; affiliations and teams credited in the
acknowledgements; with no organisation in the byline, the product the post presents.
Every piece of evidence becomes a provenance Note with its quote and span.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from extractor.notes.rules import AuthorshipRules, CueFinder, Org, leading_word
from extractor.ingest.model import Document
from extractor.records import Note

KIND = "authorship"


@dataclass(frozen=True)
class Hit:
    """An organisation found in the text, with its category and extent."""

    org: Org
    start: int
    end: int


class OrgMatcher:
    """Finds organisations: each pattern is tried only where a word equal to its leading literal starts.

    Dispatching on words keeps a 30-organisation gazetteer at tokenizer speed.
    """

    WORD = re.compile(r"[A-Za-z0-9]+")

    def __init__(self, orgs: list[Org]):
        self.orgs = orgs
        self.keyed: dict[str, list[tuple[Org, re.Pattern[str]]]] = {}
        for o in orgs:
            for p in o.patterns:
                rx = re.compile(p, 0 if o.case else re.I)
                self.keyed.setdefault(leading_word(p).lower(), []).append((o, rx))
        self.domains = [(o, d.lower()) for o in orgs for d in o.domains]

    def find(self, text: str, base: int = 0) -> list[Hit]:
        hits: list[Hit] = []
        end = -1
        for w in self.WORD.finditer(text):
            if w.start() < end:
                continue
            for org, rx in self.keyed.get(w.group(0).lower(), ()):
                m = rx.match(text, w.start())
                if m:
                    hits.append(Hit(org, base + m.start(), base + m.end()))
                    end = m.end()
                    break
        return hits

    def by_domain(self, value: str) -> Org | None:
        low = value.lower()
        best = None
        for org, dom in self.domains:
            if dom in low and (best is None or len(dom) > len(best[1])):
                best = (org, dom)
        return best[0] if best else None


class AuthorshipReader:
    """Classifies a document's authorship and returns the evidence as Notes."""

    def __init__(self, rules: AuthorshipRules):
        self.r = rules
        self.orgs = OrgMatcher(rules.orgs)
        self.bylines = [re.compile(p, re.I | re.M) for p in rules.bylines]
        self.self_id = CueFinder(rules.self_identification, rules.self_identification_cues, case=True)
        self.credit_sections = re.compile(rules.credit_sections)
        self.affiliation = re.compile(rules.affiliation)
        self.credited = re.compile(rules.credited_team, re.I)
        self.org_like = re.compile(rules.org_like, re.I)
        self.msg = rules.messages

    # -- evidence ------------------------------------------------------------------
    def _author_texts(self, d: Document, lower: str | None) -> list[tuple[str, tuple[int, int] | None, str]]:
        """(who, span, source) for each author statement."""
        out: list[tuple[str, tuple[int, int] | None, str]] = []
        if d.meta:
            ms, me = d.meta_span or (0, 0)
            for key in self.r.author_keys:
                val = d.meta.get(key)
                vals = val if isinstance(val, list) else [val]
                for v in vals:
                    if isinstance(v, dict):
                        v = v.get("name")
                    if not isinstance(v, str) or not v.strip():
                        continue
                    at = d.text.find(v, ms, me) if me > ms else -1
                    out.append((v, (at, at + len(v)) if at >= 0 else None, "front matter"))
        start = d.meta_span[1] if d.meta_span else 0
        head = d.view[start:start + self.r.byline_window]
        for rx in self.bylines:
            for m in rx.finditer(head):
                s, e = start + m.start("who"), start + m.end("who")
                out.append((d.text[s:e], (s, e), "byline"))
        for m in self.self_id.finditer(d.view, lower):
            who = next(g for g in m.groups() if g is not None)
            s = m.start() + m.group(0).index(who)
            out.append((d.text[s:s + len(who)], (s, s + len(who)), "self-identification"))
        return out

    def _classify_who(self, who: str, span: tuple[int, int] | None) -> list[tuple[str, str, tuple[int, int] | None, str]]:
        """(category, name, span, quote) for each organisation an author statement names."""
        base = span[0] if span else None
        parens = list(re.finditer(r"\(([^()]+)\)", who))
        chunks = [(m.group(1), m.start(1)) for m in parens] if parens else [(who, 0)]
        out = []
        for chunk, off in chunks:
            hits = self.orgs.find(chunk)
            if hits:
                for h in hits:
                    sp = (base + off + h.start, base + off + h.end) if base is not None else None
                    out.append((h.org.category, h.org.name, sp, chunk[h.start:h.end]))
            elif parens or self.org_like.search(chunk):
                sp = (base + off, base + off + len(chunk)) if base is not None else None
                out.append(("independent", chunk.strip(), sp, chunk))
        return out

    def _credit_regions(self, d: Document) -> list[tuple[int, int]]:
        return [(s.start, s.body_end) for s in d.sections if self.credit_sections.search(s.title.strip())]

    # -- verdict -------------------------------------------------------------------
    def read(self, d: Document, lower: str | None = None) -> tuple[str | None, list[Note]]:
        """(category or None, evidence notes); `lower` is d.view.lower() when already computed."""
        notes: list[Note] = []
        cats: set[str] = set()
        seen: set[tuple[str, tuple[int, int] | None]] = set()
        for who, span, source in self._author_texts(d, lower):
            found = self._classify_who(who, span)
            for cat, name, sp, quote in found:
                if (name, sp) in seen:
                    continue
                seen.add((name, sp))
                cats.add(cat)
                tmpl = self.msg.author if cat != "independent" else self.msg.author_unknown_org
                msg = tmpl.format(who=who.strip(), category=cat, source=source)
                notes.append(_note(d, msg, sp))
        for key in self.r.domain_keys:
            val = d.meta.get(key) if d.meta else None
            if isinstance(val, str):
                org = self.orgs.by_domain(val)
                if org:
                    cats.add(org.category)
                    ms, me = d.meta_span or (0, 0)
                    at = d.text.find(val, ms, me) if me > ms else -1
                    notes.append(_note(d, self.msg.domain.format(who=val, category=org.category),
                                       (at, at + len(val)) if at >= 0 else None))

        aff: Counter[str] = Counter()
        aff_first: dict[str, tuple[str, tuple[int, int]]] = {}
        credited: list[Hit] = []
        for s, e in self._credit_regions(d):
            region = d.view[s:e]
            for m in self.affiliation.finditer(region):
                org_text = m.group("org")
                hits = self.orgs.find(org_text)
                if hits:
                    name, cat = hits[0].org.name, hits[0].org.category
                else:
                    name, cat = org_text.strip(), "independent"
                aff[name] += 1
                aff_first.setdefault(name, (cat, (s + m.start(), s + m.end())))
            for m in self.credited.finditer(region):
                lo = max(0, m.start() - self.r.credited_window)
                window = region[lo:m.start()]
                nl = window.rfind("\n")
                hits = self.orgs.find(window[nl + 1:], s + lo + nl + 1)
                if hits:
                    credited.append(hits[-1])

        extra: set[str] = set()
        total = sum(aff.values())
        by_cat: Counter[str] = Counter()
        for name, n in aff.items():
            by_cat[aff_first[name][0]] += n
        for name, n in sorted(aff.items(), key=lambda kv: aff_first[kv[0]][1][0]):
            cat, sp = aff_first[name]
            notes.append(_note(d, self.msg.affiliation.format(count=n, who=name, category=cat), sp))
        for cat, n in by_cat.items():
            if cat not in cats and n >= self.r.mixed.min_people and total and n / total >= self.r.mixed.min_share:
                extra.add(cat)
        if cats == {"independent"} and self.r.mixed.independent_with_credited_team:
            done: set[str] = set()
            for h in credited:
                if h.org.category != "independent" and h.org.name not in done:
                    done.add(h.org.name)
                    extra.add(h.org.category)
                    notes.append(_note(d, self.msg.credited.format(who=h.org.name, category=h.org.category),
                                       (h.start, h.end)))

        if not cats:
            hit = self._subject(d)
            if hit is not None:
                cats = {hit.org.category}
                notes.append(_note(d, self.msg.subject.format(who=hit.org.name, category=hit.org.category),
                                   (hit.start, hit.end)))
        final = cats | extra
        if not final:
            return None, notes
        category = "mixed" if len(final) > 1 else next(iter(final))
        names = " and ".join(sorted(final))
        notes.append(Note(kind=KIND, message=self.msg.verdict[category].format(categories=names)))  # type: ignore[index]
        return category, notes

    def _subject(self, d: Document) -> Hit | None:
        """The first organisation named in the title, else in the lead of the post."""
        if d.title_span:
            hits = self.orgs.find(d.view[d.title_span[0]:d.title_span[1]], d.title_span[0])
            if hits:
                return hits[0]
        start = d.meta_span[1] if d.meta_span else 0
        hits = self.orgs.find(d.view[start:start + self.r.subject_window], start)
        return hits[0] if hits else None


def _note(d: Document, message: str, span: tuple[int, int] | None) -> Note:
    if span is None:
        return Note(kind=KIND, message=message)
    return Note(kind=KIND, message=message, quote=d.text[span[0]:span[1]], span=span)
