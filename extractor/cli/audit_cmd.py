"""`benchclaims audit`: the load-condition audit of documents (text, Markdown, JSON or an HTML page)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from extractor.cli.app import app
from extractor.cli.common import POST_FILES, check_rules, guarded, read_record, read_text
from extractor.cli.conventions import format_option, example, error_exit, write_output, format_flag

FORMATS = ("text", "markdown", "json", "jsonl", "html")


def doc_header(name: str, fmt: str) -> str:
    """The line that opens one document's part of a several-file text or Markdown output."""
    return f"## {name}" if fmt == "markdown" else f"==> {name} <=="


@app.command("audit", epilog=example("benchclaims audit corpus/version-compare-docker.md --format html -o audit.html",
                                     "benchclaims audit corpus/recipe-repo-command.md --claim b9ee18a96951",
                                     "benchclaims audit posts/a.md posts/b.md -f jsonl"))
def audit_cmd(
    files: List[str] = POST_FILES,
    fmt: str = format_flag("text", FORMATS, " Several files: json is an "
                            "array of audits, text and markdown open each with a line naming the file; html "
                            "takes one file."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="File to write ('-' or none: standard output)."),
    rules: Optional[Path] = typer.Option(None, "--rules", callback=check_rules,
                                         help="Rules folder (default: the installed rules)."),
    claim: Optional[str] = typer.Option(None, "--claim", help="Audit this claim (its id, or a unique prefix; see `extract`) instead of the headline; one file only."),
    db: Optional[Path] = typer.Option(None, "--db", help="html: also link each claim to the comparable claims of the posts in this claims database (`benchclaims compare`)."),
) -> None:
    """Audit documents: headline figure, stated conditions, caveats, scenario, absent conditions.

    `--format html` writes one self-contained page (no network fetch): the post's text with every claim
    marked; clicking a claim shows its record and highlights the spans its conditions came from. With
    `--claim` the page opens with that claim selected.

    A file that cannot be read or extracted is reported and the others are still audited (exit 2).
    """
    from extractor.audit import build_audit, render_audit
    from extractor.audit.checklist import UnknownClaim

    fmt = format_option(fmt, FORMATS)
    if len(files) > 1 and fmt == "html":
        raise error_exit("--format html audits one document: give one file (or run audit once per file)")
    if len(files) > 1 and claim is not None:
        raise error_exit("--claim names a claim of one document: give one file")
    parts: list[str] = []
    failed = False
    for file in files:
        loaded = _load(file, rules, fmt == "html")
        if loaded is None:
            failed = True
            continue
        record, text, view, markdown = loaded
        try:
            if fmt == "html":
                out = _html(record, text, view, claim, db, markdown)
            elif fmt == "jsonl" or (fmt == "json" and len(files) > 1):
                out = json.dumps(build_audit(record, claim).model_dump(mode="json"), ensure_ascii=False,
                                 indent=None if fmt == "jsonl" else 2)
            else:
                out = render_audit(record, fmt, claim)  # type: ignore[arg-type]
        except UnknownClaim as err:
            raise error_exit(err) from None
        if len(files) > 1 and fmt in ("text", "markdown"):
            out = f"{doc_header(file, fmt)}\n\n{out}"
        parts.append(out.rstrip("\n"))
    if len(files) == 1:
        text_out = parts[0] if parts else ""
    elif fmt == "json":
        text_out = "[\n" + ",\n".join(parts) + "\n]" if parts else "[]"
    else:
        text_out = ("\n" if fmt == "jsonl" else "\n\n").join(parts)
    if text_out:
        write_output(text_out, output)
    if failed:
        raise typer.Exit(2)


def _load(file: str, rules: Path | None, want_text: bool):
    """(record, text, view, is_markdown) of one input, or None after printing why it could not be read; `text` and
    `view` (the masked view of an HTML post) only when `want_text`."""
    from extractor.api import detect_format, extract_text
    from extractor.ingest import ingest

    name = "-" if file == "-" else Path(file).name
    try:
        if file == "-" and want_text:   # the page shows the text: read standard input once, then extract it
            text = read_text(file)
            rules_dir = str(rules) if rules else None
            record = guarded(file, lambda: extract_text(text, name, rules_dir=rules_dir))
        else:
            record = read_record(file, rules=rules)
            text = read_text(file) if want_text else ""
    except typer.Exit:   # the reason is printed
        return None
    view, fmt_in = None, None
    if want_text:
        fmt_in = detect_format(name, text)
        view = ingest(text, name, fmt_in).view if fmt_in == "html" else None
    return record, text, view, fmt_in == "markdown"


def _html(record, text: str, view: str | None, claim: str | None, db: Path | None = None,
          markdown: bool = False) -> str:
    """The audit page (a Markdown post rendered), opening on the claim `claim` when given; each claim
    linked to the claims it is comparable with (the post's own, and those of the store `db` when given)."""
    from extractor.audit import render_audit_html
    from extractor.audit.checklist import find_claim
    from extractor.audit.comparable import comparable_links

    selected = find_claim(record, claim) if claim is not None else None
    others = []
    if db is not None:
        from extractor.corpus.restatements import stored_refs
        from extractor.corpus.store import Store, StoreError

        if not db.is_file():
            raise error_exit(f"{db}: no such database (run `benchclaims batch` first)")
        try:
            with Store(db) as store:
                others = stored_refs(store.conn)
        except StoreError as err:
            raise error_exit(err) from None
    return render_audit_html(record, text, view, selected, comparable_links(record, others) if db else None,
                             markdown=markdown)
