"""Write the ``costchart`` command's help texts for the CLI reference page."""

from __future__ import annotations

import argparse
from pathlib import Path

from costchart._cli import build_parser


def write_cli_reference(folder: Path) -> None:
    """Write ``costchart.txt`` and one ``<command>.txt`` per subcommand into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    parser = build_parser()
    (folder / "costchart.txt").write_text(parser.format_help(), encoding="utf-8")
    for action in parser._actions:  # argparse has no public way to list subcommands
        if isinstance(action, argparse._SubParsersAction):
            for name, subparser in action.choices.items():
                (folder / f"{name}.txt").write_text(subparser.format_help(), encoding="utf-8")
