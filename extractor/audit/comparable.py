"""For the audit page: the claims each claim of a post is comparable with (`benchclaims compare` says
`comparable`): the post's own claims, and claims of other posts when the caller gives them (`audit --db`).

    links = comparable_links(record, others)    # {claim index: [{"index"| "doc", "id", "figure"}...]}
"""
from __future__ import annotations

from extractor.compare.groups import comparable_groups
from extractor.compare.model import ClaimRef
from extractor.records import DocumentRecord


def comparable_links(record: DocumentRecord, others: list[ClaimRef] = ()) -> dict[int, list[dict]]:
    """Per claim index of `record`, the claims it is comparable with: `index` for one of the post's own,
    `doc` for one of another post (claims of `others` from the same post are skipped)."""
    own = [ClaimRef.of(record, i) for i in range(len(record.claims))]
    index = {id(r): i for i, r in enumerate(own)}
    foreign = [r for r in others if r.doc != record.doc]
    links: dict[int, list[dict]] = {}
    for group in comparable_groups(own + foreign).groups:
        for member in group:
            i = index.get(id(member))
            if i is None:
                continue
            links[i] = [{"index": index[id(o)]} if id(o) in index else {"doc": o.doc}
                        for o in group if o is not member]
            for entry, o in zip(links[i], [o for o in group if o is not member]):
                entry.update(id=o.claim.id, figure=f"{o.claim.value:g} {o.claim.unit}")
    return links
