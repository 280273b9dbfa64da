#!/usr/bin/env python3
"""Regenerate the example outputs of README.md and docs/*.md from the commands they show, and the parts of docs/
written from the code and the rules.

    .venv/bin/python scripts/refresh_docs.py           # rewrite every example block and generated part in place
    .venv/bin/python scripts/refresh_docs.py --check   # exit 1 naming each file that differs (CI runs this
                                                       # through tests/test_docs_examples.py, test_generated_docs.py)

Generated from the code and the rules (`refresh_generated`): docs/scope-ladder.md, the whole page, from the
`ladder` of rules/scopes.yaml; and in docs/architecture.md the blocks between `<!-- generated: NAME -->` and
`<!-- end generated -->`: `stages` (each stage's contract, extractor/pipeline.py STAGES) and `rule-files`
(extractor/rule_files.py).

An example block is an HTML comment naming the command, then a fenced block holding what it prints
(standard output and standard error, as a terminal shows them):

    <!-- output: benchclaims query --metric ttft --max 100 --unit ms -->
    ```text
    ...
    ```

`<!-- output 12: ... -->` keeps the first 12 lines (and a last line `...` when it cut some).
The commands run in a scratch folder that holds a copy of `corpus/`, `before.jsonl` made from it by
`benchclaims batch corpus/ --db before.db --jsonl before.jsonl`, and `my-rules/`: the installed rules with one edit
(the literal `SGLang` line of gazetteers/engines.jsonl removed), for the rule-change example.
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"(<!-- output(?: (?P<head>\d+))?: (?P<cmd>benchclaims [^\n]*?) -->\n```(?P<lang>\w*)\n)"
                   r"(?P<body>.*?)(```)", re.S)
RULE_EDIT = ("gazetteers/engines.jsonl", '{"label": "ENGINE", "pattern": "SGLang", "id": "SGLang"}\n')


def doc_files(root: Path = ROOT) -> list[Path]:
    """The Markdown files whose examples are kept fresh: README.md and docs/*.md."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]   # README first: it runs `batch`


def scratch(root: Path, where: Path) -> None:
    """Lay out the scratch folder the examples run in (see the module docstring)."""
    from typer.testing import CliRunner

    from extractor.cli import app
    from extractor.rules_io import default_rules_dir

    shutil.copytree(root / "corpus", where / "corpus", ignore=shutil.ignore_patterns("expected", "gold"))
    rules = where / "my-rules"
    shutil.copytree(default_rules_dir(), rules, ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    edited = rules / RULE_EDIT[0]
    text = edited.read_text(encoding="utf-8")
    if RULE_EDIT[1] not in text:
        raise SystemExit(f"refresh_docs: the rule-change example's line is gone from {RULE_EDIT[0]}: "
                         "choose another edit (RULE_EDIT)")
    edited.write_text(text.replace(RULE_EDIT[1], ""), encoding="utf-8")
    res = CliRunner().invoke(app, ["batch", "corpus/", "--db", "before.db", "--jsonl", "before.jsonl"],
                             catch_exceptions=False)
    if res.exit_code != 0:
        raise SystemExit(f"refresh_docs: the batch of corpus/ failed:\n{res.output}")


def run(command: str) -> str:
    """What `command` (a benchclaims command line) prints, run in the current folder."""
    from typer.testing import CliRunner

    from extractor.cli import app

    res = CliRunner().invoke(app, shlex.split(command)[1:], env={"NO_COLOR": "1", "COLUMNS": "120"},
                             catch_exceptions=False)
    return res.output.replace(f"{Path.cwd()}{os.sep}", "")   # paths as the scratch folder names them


def refreshed(text: str, cache: dict[str, str]) -> str:
    """`text` with the body of every example block replaced by its command's output."""
    def block(m: re.Match[str]) -> str:
        cmd = m["cmd"]
        if cmd not in cache:
            cache[cmd] = run(cmd)
        lines = cache[cmd].rstrip("\n").splitlines()
        if m["head"] and len(lines) > int(m["head"]):
            lines = lines[:int(m["head"])] + ["..."]
        return m.group(1) + "".join(f"{line.rstrip()}\n" for line in lines) + "```"
    return BLOCK.sub(block, text)


def refresh(root: Path = ROOT, check: bool = False) -> list[Path]:
    """Rewrite (or with `check`, only compare) every example block; returns the files that differ."""
    stale = []
    here = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="benchclaims-docs-") as tmp:
        os.chdir(tmp)
        try:
            scratch(root, Path(tmp))
            cache: dict[str, str] = {}
            for path in doc_files(root):
                old = path.read_text(encoding="utf-8")
                new = refreshed(old, cache)
                if new != old:
                    stale.append(path)
                    if not check:
                        path.write_text(new, encoding="utf-8")
        finally:
            os.chdir(here)
    return stale


GENERATED = re.compile(r"(<!-- generated: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- end generated -->)", re.S)
LADDER_PAGE = "docs/scope-ladder.md"
ARCHITECTURE = "docs/architecture.md"


def stages_table() -> str:
    from extractor.pipeline import STAGES

    rows = [c.row() for c in STAGES]
    return "\n".join(["| stage | what it does | sets (claim fields) | reads (claim fields) |",
                      "| --- | --- | --- | --- |", *rows]) + "\n"


def rule_files_table() -> str:
    from extractor.rule_files import RULE_FILES

    def code(target: str | None) -> str:
        return f"`{target}`" if target else "-"
    rows = [f"| `{rf.name}` | {rf.stage} | {code(rf.model)} | {code(rf.loader)} | "
            f"{'yes' if rf.required else 'no'} | {rf.usage} |" for rf in RULE_FILES]
    return "\n".join(["| file | stage | validated by | loaded by | required | `rules usage` counts it |",
                      "| --- | --- | --- | --- | --- | --- |", *rows]) + "\n"


BLOCKS = {"stages": stages_table, "rule-files": rule_files_table}


def ladder_page(rules_dir: Path | None = None) -> str:
    """docs/scope-ladder.md: the rungs of rules/scopes.yaml, in the order they are read."""
    from extractor.conditions.rules import load_scope_rules
    from extractor.rules_io import default_rules_dir

    ladder = load_scope_rules(rules_dir or default_rules_dir()).ladder
    lines = ["# The scope ladder", "",
             "<!-- generated from rules/scopes.yaml (`ladder`) by scripts/refresh_docs.py: "
             "edit the rules, not this page -->", "",
             "Where a claim's load conditions are read from, most specific place first. The most specific rung",
             "that states a condition wins; when that rung states two different values and nothing ties either",
             "to the claim, the condition is unrecoverable and its `why` says the post is ambiguous. A rung whose",
             "reader does not apply to a claim (the table rungs for a sentence) adds nothing. A condition read",
             "from a rung is reported with the rung's `scope` (`Condition.scope` in the record).", "",
             "| # | reader | scope | reads |", "| --- | --- | --- | --- |"]
    for i, rung in enumerate(ladder, 1):
        about = rung.about.replace("|", "\\|")
        if rung.via_cell:
            about += " (its mentions are column headers: they state a condition only through the claim row's cell)"
        lines.append(f"| {i} | `{rung.reader}` | `{rung.scope}` | {about} |")
    lines += ["", "To change the order or add a rung, edit `ladder` in `rules/scopes.yaml` (a new reader also needs",
              "its code in `extractor/conditions/`), run `benchclaims rules check`, then this script."]
    return "\n".join(lines) + "\n"


def refreshed_architecture(text: str) -> str:
    def block(m: re.Match[str]) -> str:
        make = BLOCKS.get(m["name"])
        if make is None:
            raise SystemExit(f"refresh_docs: {ARCHITECTURE}: no generator named {m['name']!r}")
        return m.group(1) + make() + m.group(4)
    return GENERATED.sub(block, text)


def refresh_generated(root: Path = ROOT, check: bool = False) -> list[Path]:
    """Rewrite (or with `check`, only compare) the generated pages and blocks; returns the files that differ."""
    stale = []
    arch = root / ARCHITECTURE
    targets = [(root / LADDER_PAGE, ladder_page()), (arch, refreshed_architecture(arch.read_text(encoding="utf-8")))]
    for path, new in targets:
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if new != old:
            stale.append(path)
            if not check:
                path.write_text(new, encoding="utf-8")
    return stale


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say which files are stale (exit 1 if any)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    stale = refresh_generated(ROOT, args.check) + refresh(ROOT, args.check)
    for path in stale:
        print(f"{'stale' if args.check else 'refreshed'}: {path.relative_to(ROOT)}")
    if args.check and stale:
        print("run: .venv/bin/python scripts/refresh_docs.py", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
