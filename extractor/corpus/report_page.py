"""The corpus report as one self-contained HTML page: each figure an inline SVG drawn by matplotlib
(Agg, no pyplot state), with the table of its numbers beside it. No network fetch, no external file.

The SVG is deterministic (fixed `svg.hashsalt`, no date in the metadata, text kept as text), so the
same database gives the same bytes.
"""
from __future__ import annotations

import html
import io
import re

from extractor.corpus.report import CorpusReport, Ranked, Scorecard
from extractor.corpus.report_groups import groups_section_html

LABELS = {"model": "model", "hardware": "hardware", "batch_or_concurrency": "batch / concurrency",
          "input_length": "input length", "output_length": "output length", "engine_version": "engine version",
          "warmup": "warm-up", "scenario": "scenario"}
RC = {"svg.hashsalt": "benchclaims-report", "svg.fonttype": "none", "font.size": 9,
      "font.family": "DejaVu Sans", "axes.spines.top": False, "axes.spines.right": False}
STATED, UNRECOVERABLE, HEADLINE = "#2b7bd9", "#d9822b", "#1a6b2a"
_XML_HEAD = re.compile(r"\A<\?xml[^>]*>\s*(?:<!DOCTYPE[^>]*>\s*)?", re.S)


def _svg(fig) -> str:
    """A matplotlib figure as an inline <svg> element (no XML prolog, no date)."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    return _XML_HEAD.sub("", buf.getvalue())


def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=72)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def scorecard_svg(card: Scorecard) -> str:
    """Grouped horizontal bars: per checklist condition, the share of all claims and of headline claims."""
    names = list(LABELS)
    fig = _figure(6.2, 3.6)
    ax = fig.subplots()
    ys = range(len(names))
    all_ = [card.all[n].share or 0 for n in names]
    head = [card.headline[n].share or 0 for n in names]
    ax.barh([y + 0.2 for y in ys], all_, height=0.38, color=STATED, label=f"all claims ({card.claims})")
    ax.barh([y - 0.2 for y in ys], head, height=0.38, color=HEADLINE,
            label=f"headline claims ({card.headline_claims})")
    ax.set_yticks(list(ys), [LABELS[n] for n in names])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax.set_xlabel("share of claims that state the condition")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncols=2, frameon=False)
    return _svg(fig)


def heatmap_svg(cards: dict[str, Scorecard], title: str) -> str | None:
    """Rows: groups (sources, authorship categories), most claims first; columns: conditions; cells: share
    stated. None for fewer than two groups: one row says nothing the scorecard does not."""
    if len(cards) < 2:
        return None
    groups = sorted(cards, key=lambda g: (-cards[g].claims, g))
    names = list(LABELS)
    fig = _figure(6.8, 1.2 + 0.3 * len(groups))
    ax = fig.subplots()
    grid = [[cards[g].all[n].share if cards[g].all[n].share is not None else float("nan") for n in names]
            for g in groups]
    import numpy as np

    # pcolormesh, not imshow: vector cells, where imshow would embed a raster image in the SVG
    ax.pcolormesh(np.ma.masked_invalid(np.array(grid, dtype=float)), vmin=0, vmax=1, cmap="Blues",
                  edgecolors="white", linewidth=1)
    ax.invert_yaxis()
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if v == v:  # not NaN
                ax.text(j + 0.5, i + 0.5, f"{100 * v:.0f}", ha="center", va="center", fontsize=8,
                        color="white" if v > 0.6 else "#222")
    ax.set_xticks([j + 0.5 for j in range(len(names))], [LABELS[n] for n in names], rotation=35, ha="right")
    ax.set_yticks([i + 0.5 for i in range(len(groups))], [f"{g} ({cards[g].claims})" for g in groups])
    ax.tick_params(length=0)
    ax.set_title(title, fontsize=9)
    for side in ("left", "bottom"):
        ax.spines[side].set_visible(False)
    return _svg(fig)


def bars_svg(items: list[tuple[str, int]], xlabel: str, color: str = STATED) -> str:
    """Horizontal bars of counts, largest on top."""
    fig = _figure(5.4, 0.7 + 0.28 * max(1, len(items)))
    ax = fig.subplots()
    ax.barh(range(len(items)), [n for _, n in items], color=color)
    ax.set_yticks(range(len(items)), [name for name, _ in items])
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.xaxis.get_major_locator().set_params(integer=True)
    return _svg(fig)


def over_time_svg(report: CorpusReport) -> str:
    """Per month: the share of the claims' checklist conditions that are stated (the bar, 0-100%), with the
    number of claims behind it written on the bar, so a month of few claims is seen as such."""
    periods = report.over_time
    fig = _figure(max(4.0, min(12.0, 1.5 + 0.35 * len(periods))), 3.0)
    ax = fig.subplots()
    xs = range(len(periods))
    shares = [p.stated / (p.stated + p.unrecoverable) if p.stated + p.unrecoverable else 0.0 for p in periods]
    ax.bar(xs, [1.0] * len(periods), color=UNRECOVERABLE, alpha=0.25, label="unrecoverable")
    ax.bar(xs, shares, color=STATED, label="stated")
    for x, p, v in zip(xs, periods, shares):
        ax.text(x, min(v + 0.03, 0.93), f"{100 * v:.0f}%\n{p.claims} cl.", ha="center", va="bottom", fontsize=7)
    ax.set_ylim(0, 1.12)
    ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax.set_xticks(list(xs), [p.period for p in periods], rotation=45 if len(periods) > 6 else 0,
                  ha="right" if len(periods) > 6 else "center")
    ax.set_ylabel("checklist conditions stated")
    ax.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.22 if len(periods) > 6 else -0.12), ncols=2)
    return _svg(fig)


def posts_table(report: CorpusReport) -> str:
    """Every post: title (linked to its audit page when written), date, source, authorship, claims, the
    headline claim (linked to it on the page) and the share of checklist conditions its claims state."""
    head = ["post", "date", "source", "authorship", "claims", "headline", "disclosure"]
    rows = []
    for p in report.posts:
        title = html.escape(p.title or p.doc)
        page = html.escape(p.audit) if p.audit else None
        cell = f'<a class="audit" href="{page}">{title}</a>' if page else title
        headline = html.escape(p.headline or "")
        if page and p.headline_claim is not None and p.headline:
            headline = f'<a href="{page}#claim={p.headline_claim}">{headline}</a>'
        cells = [f'{cell}<div class="doc">{html.escape(p.doc)}</div>', html.escape(p.date or ""),
                 html.escape(p.source or ""), html.escape(p.authorship or ""), str(p.claims), headline,
                 _pct(p.disclosure)]
        rows.append(f'<tr data-doc="{html.escape(p.doc)}">' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    th = "".join(f"<th>{h}</th>" for h in head)
    return f'<table class="posts"><thead><tr>{th}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _table(head: list[str], rows: list[list[str]], cls: str = "") -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


def _card_rows(card: Scorecard) -> list[list[str]]:
    return [[LABELS[n], f"{card.all[n].stated}/{card.all[n].claims}", _pct(card.all[n].share),
             f"{card.headline[n].stated}/{card.headline[n].claims}", _pct(card.headline[n].share)]
            for n in LABELS]


def _group_rows(cards: dict[str, Scorecard]) -> list[list[str]]:
    return [[g, str(c.claims)] + [_pct(c.all[n].share) for n in LABELS] for g, c in cards.items()]


def _ranked_rows(items: list[Ranked]) -> list[list[str]]:
    return [[r.name, str(r.claims), str(r.documents)] for r in items]


def _section(sid: str, title: str, what: str, svg: str | None, table: str) -> str:
    fig = f'<figure class="plot">{svg}</figure>' if svg else '<p class="empty">Nothing to plot.</p>'
    return (f'<section id="{sid}"><h2>{html.escape(title)}</h2><p class="what">{html.escape(what)}</p>'
            f'<div class="pair">{fig}<div class="numbers">{table}</div></div></section>')


def render_report_html(report: CorpusReport) -> str:
    """The report page (see the module docstring)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib import rc_context

    card = report.scorecard
    has = report.claims > 0
    linked = sum(p.audit is not None for p in report.posts)
    posts = (f'<section id="posts"><h2>Posts ({len(report.posts)})</h2><p class="what">Newest first. '
             + ("Each title opens the post's audit page; the headline opens its claim there."
                if linked else "Audit pages: <code>benchclaims report --audit-pages</code> writes one per post "
                "and links them here.")
             + " Disclosure: the share of the checklist conditions its claims state.</p>"
             + posts_table(report) + "</section>")
    with rc_context(RC):
        sections = [posts,
            _section("scorecard", "Disclosure scorecard",
                     "For each checklist condition, the share of claims that state it (the rest are "
                     "unrecoverable: the post does not say), over all claims and over headline claims.",
                     scorecard_svg(card) if has else None,
                     _table(["condition", "stated", "share", "headline stated", "headline share"], _card_rows(card))),
            _section("by-source", "By source", "Share of each source's claims that state each condition (%).",
                     heatmap_svg(report.by_source, "stated, % of claims") if has else None,
                     _table(["source", "claims"] + list(LABELS.values()), _group_rows(report.by_source), "wide")),
            _section("by-authorship", "By authorship",
                     "The same shares per authorship category (hardware vendor, engine project, cloud provider, "
                     "independent, mixed).",
                     heatmap_svg(report.by_authorship, "stated, % of claims") if has else None,
                     _table(["authorship", "claims"] + list(LABELS.values()), _group_rows(report.by_authorship), "wide")),
            _section("metrics", "Claims per metric", "How many claims report each metric.",
                     bars_svg(list(report.metrics.items()), "claims") if has else None,
                     _table(["metric", "claims"], [[m, str(n)] for m, n in report.metrics.items()])),
            _section("hardware", "Most-claimed hardware",
                     "Hardware named (canonical name) by the most claims, with the posts that name it.",
                     bars_svg([(r.name, r.claims) for r in report.hardware], "claims") if report.hardware else None,
                     _table(["hardware", "claims", "posts"], _ranked_rows(report.hardware))),
            _section("models", "Most-claimed models", "Models named by the most claims, with the posts that name them.",
                     bars_svg([(r.name, r.claims) for r in report.models], "claims", HEADLINE) if report.models else None,
                     _table(["model", "claims", "posts"], _ranked_rows(report.models))),
            _section("set-aside", "Set-aside figures",
                     f"Figures with a performance unit that are neither a claim nor a condition "
                     f"({report.set_aside} in all), per reason; per post below.",
                     bars_svg(list(report.set_aside_reasons.items()), "figures") if report.set_aside else None,
                     _table(["reason", "figures"], [[r, str(n)] for r, n in report.set_aside_reasons.items()])
                     + _table(["post", "claims", "set aside", "reasons"],
                              [[html.escape(p.path.rsplit("/", 1)[-1]), str(p.claims), str(p.set_aside),
                                html.escape(", ".join(f"{r} {n}" for r, n in p.reasons.items()))]
                               for p in report.posts], "posts")),
            _section("over-time", "Stated vs unrecoverable over time",
                     f"Per month of the posts' dates, the checklist conditions ({len(LABELS)} per claim) "
                     "that the claims state and that are unrecoverable; undated posts last.",
                     over_time_svg(report) if has else None,
                     _table(["month", "claims", "stated", "unrecoverable", "stated share"],
                            [[p.period, str(p.claims), str(p.stated), str(p.unrecoverable),
                              _pct(p.stated / (p.stated + p.unrecoverable) if p.claims else None)]
                             for p in report.over_time])),
        ]
    sections.append(groups_section_html(report.comparable_groups))
    span = (f"{report.first_date} to {report.last_date}" if report.first_date else "no dated posts")
    summary = (f"{report.documents} posts ({report.failed_documents} failed), {report.claims} claims, "
               f"{card.headline_claims} headline; dated {span}, {report.undated_documents} undated")
    parts = {"SUMMARY": html.escape(summary), "DB": html.escape(report.database), "SECTIONS": "\n".join(sections)}
    return re.sub(r"%(SUMMARY|DB|SECTIONS)%", lambda m: parts[m.group(1)], _PAGE)


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>benchclaims corpus report</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;color:#222;margin:1rem 2rem;max-width:1400px}
h1{font-size:1.3rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.6rem 0 .2rem}
.what{color:#555;margin:.1rem 0 .5rem}.pair{display:flex;gap:2rem;align-items:flex-start;flex-wrap:wrap}
figure.plot{margin:0;flex:0 0 auto}figure.plot svg{max-width:100%;height:auto}
table{border-collapse:collapse;font-size:12.5px}th,td{border-bottom:1px solid #eee;padding:.15rem .5rem;text-align:right}
th:first-child,td:first-child{text-align:left}thead th{border-bottom:2px solid #ccc}
nav a{margin-right:.8rem}
table.posts td,table.posts th{text-align:left;vertical-align:top}table.posts td:nth-child(2){white-space:nowrap}table.posts td:nth-child(5),table.posts td:nth-child(7){text-align:right}
table.posts .doc{color:#888;font-size:11px}
table.groups td{text-align:left;vertical-align:top}table.groups ul{margin:0;padding-left:1rem}
</style></head>
<body>
<h1>Corpus report</h1>
<p id="summary">%SUMMARY%</p><p class="what">Database: %DB%</p>
<nav><a href="#posts">posts</a><a href="#scorecard">scorecard</a><a href="#by-source">by source</a><a href="#by-authorship">by authorship</a><a href="#metrics">metrics</a><a href="#hardware">hardware</a><a href="#models">models</a><a href="#set-aside">set aside</a><a href="#over-time">over time</a><a href="#comparable">comparable groups</a></nav>
%SECTIONS%
<script>
document.body.setAttribute("data-figures", String(document.querySelectorAll("figure.plot svg").length));
document.body.setAttribute("data-js", "ready");
</script>
</body></html>
"""
