"""The ``costchart`` command's help texts, as ``docs/cli.md`` shows them.

The page holds the texts themselves (so it reads as plain Markdown too), each in a
``text`` block after a ``<!-- help: NAME -->`` comment. ``tests/test_docs.py`` checks that
they are the parser's current ones; after changing the command line, rewrite them with::

    python docs/_ext/cli_reference.py
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

#: The width the help texts are wrapped to, whatever the terminal.
COLUMNS = 80

PAGE = Path(__file__).resolve().parents[1] / "cli.md"

#: A help block of the page: its marker comment and the fenced text after it.
BLOCK = re.compile(
    r"(<!-- help: (?P<name>[\w-]+) -->\n```text\n)(?P<text>(?:(?!^```).)*?)(\n?^```)", re.S | re.M
)


def help_texts() -> dict[str, str]:
    """The help of ``costchart`` and of each subcommand, by name, wrapped at 80 columns."""
    from costchart._cli import build_parser

    saved = {name: os.environ.get(name) for name in ("COLUMNS", "NO_COLOR")}
    os.environ.update(COLUMNS=str(COLUMNS), NO_COLOR="1")  # argparse reads both
    try:
        parser = build_parser()
        texts = {"costchart": parser.format_help()}
        for action in parser._actions:  # argparse has no public way to list subcommands
            if isinstance(action, argparse._SubParsersAction):
                for name, subparser in action.choices.items():
                    texts[name] = subparser.format_help()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return {name: text.rstrip() for name, text in texts.items()}


def page_texts(page: str) -> dict[str, str]:
    """The help texts a page shows, by name."""
    return {match["name"]: match["text"] for match in BLOCK.finditer(page)}


def rewrite(page: str, texts: dict[str, str]) -> str:
    """The page with each help block replaced by the current text."""

    def replace(match: re.Match) -> str:
        text = texts.get(match["name"], match["text"])
        return match[1] + text + ("\n" if text else "") + "```"

    return BLOCK.sub(replace, page)


def main() -> int:
    """Rewrite the help blocks of ``docs/cli.md``."""
    sys.path.insert(0, str(PAGE.parents[1]))  # the clone's costchart
    page = PAGE.read_text(encoding="utf-8")
    texts = help_texts()
    missing = sorted(set(texts) - set(page_texts(page)))
    if missing:
        print(f"docs/cli.md has no <!-- help: NAME --> block for {missing}", file=sys.stderr)
        return 1
    PAGE.write_text(rewrite(page, texts), encoding="utf-8")
    print(f"rewrote the help texts of {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
