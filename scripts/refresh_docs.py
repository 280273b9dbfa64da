#!/usr/bin/env python3
"""Regenerate the example outputs of README.md and docs/*.md from the commands they show.

    .venv/bin/python scripts/refresh_docs.py           # rewrite every example block in place
    .venv/bin/python scripts/refresh_docs.py --check   # exit 1 naming each block that differs (CI runs this
                                                       # through tests/test_docs_examples.py)

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say which files are stale (exit 1 if any)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    stale = refresh(ROOT, args.check)
    for path in stale:
        print(f"{'stale' if args.check else 'refreshed'}: {path.relative_to(ROOT)}")
    if args.check and stale:
        print("run: .venv/bin/python scripts/refresh_docs.py", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
