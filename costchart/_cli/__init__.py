"""The ``costchart`` command: ``demo``, ``plot`` and ``table`` (and ``--version``).

Errors print one line (``costchart: error: ...``) and exit with status 2; warnings print
one line (``costchart: warning: ...``) each and the command goes on; progress goes to
standard error. ``table`` writes CSV to standard output unless ``--out`` names a
``.csv`` or ``.json`` file; ``plot --out -`` writes the Vega-Lite spec to standard output.
This module holds the parser and :func:`main`; the commands are in
:mod:`costchart._cli.commands`.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import shlex
import sys
import warnings
from pathlib import Path

from costchart import __version__
from costchart._io.errors import CostchartError

__all__ = ["main"]


def _whole(text: str, least: int, refusal: str) -> int:
    """``text`` as a whole number at least ``least`` (``2000``, ``2e3``), else ``refusal``.

    Digits are read as an integer, so a long seed keeps every digit.
    """
    try:
        number = int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        number = int(value) if math.isfinite(value) and value.is_integer() else least - 1
    if number < least:
        raise argparse.ArgumentTypeError(refusal.format(text=text))
    return number


def _resamples(text: str) -> int:
    """``--n-resamples``: a whole number at least 1 (the library checks it is enough)."""
    return _whole(text, 1, "{text!r} is not a whole number of resamples; pass e.g. 2000")


def _seed(text: str) -> int:
    """``--seed``: a whole number at least 0 (numpy's seeds)."""
    return _whole(text, 0, "{text!r} is not a seed; pass a whole number of 0 or more, e.g. 2026")


def build_parser() -> argparse.ArgumentParser:
    """The ``costchart`` command's argument parser (also read by the docs' CLI reference)."""
    parser = argparse.ArgumentParser(
        prog="costchart", description="ROC and cost curves for two-class classifiers."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    demo_parser = commands.add_parser(
        "demo", help="render a handful of the gallery's figures into an HTML report and PNGs"
    )
    demo_parser.add_argument("--out", default="costchart-demo", help="folder to write into")

    def data_arguments(sub):
        sub.add_argument("file", help="CSV or Parquet file, one row per instance")
        sub.add_argument("--score", required=True, help="column of scores")
        sub.add_argument("--label", required=True, help="column of true classes")
        sub.add_argument(
            "--pos-label",
            default=None,
            help="value of the positive class, read as the label column's type "
            "(2 for numeric labels; true/false/1/0 for booleans); by default 1 or True",
        )
        sub.add_argument(
            "--by",
            nargs="*",
            default=None,
            metavar="COLUMN",
            help="the columns that tell curves apart (one curve per group); a text column "
            "left out is pooled, with a warning; --by with no column pools on purpose",
        )
        sub.add_argument(
            "--bins",
            type=int,
            default=None,
            help="keep about this many points per curve, at score quantiles (exact points)",
        )
        sub.add_argument(
            "--band",
            choices=[
                "auto",
                "smoothed_bootstrap",
                "exact_bootstrap",
                "bootstrap",
                "exact",
                "resample",
            ],
            default=None,
            help="confidence band on the envelope's cost, by its inference: auto (the "
            "default of table --kind band) is the smoothed bootstrap, which resamples the "
            "envelope's choice of thresholds and covers their true cost; exact_bootstrap "
            "(no resampling) and bootstrap treat the chosen thresholds as fixed, which is "
            "optimistic (exact and resample are their deprecated names)",
        )
        sub.add_argument(
            "--compact",
            action="store_true",
            help="keep only the rows of --band that drawing it with straight lines needs "
            "(compact=True): each group's ends, both sides of every change of threshold and "
            "where the bounds bend, each row the full band's own and within 1e-4 of it at "
            "every pc between them; far fewer rows for many groups",
        )
        sub.add_argument(
            "--confidence-level",
            type=float,
            default=None,
            help="level of --band, of table --kind auc's interval and of --kind "
            "cheapest_set's set (0.9)",
        )
        sub.add_argument(
            "--n-resamples",
            type=_resamples,
            default=None,
            metavar="N",
            help="resamples of a resampled --band or of --kind cheapest_set (2000); each "
            "tail of the band needs at least 10, so a 0.9 band needs at least 200",
        )
        sub.add_argument(
            "--seed",
            type=_seed,
            default=None,
            metavar="N",
            help="seed of the resamples of a resampled --band or of --kind cheapest_set "
            "(rng=): the same seed, the same table; by default a fresh draw each run",
        )

    def instance_argument(sub):
        sub.add_argument(
            "--instance",
            default=None,
            metavar="COLUMN",
            help="with --kind cheapest_set: the column identifying each instance, to pair "
            "the classifiers' rows (every classifier scored on the same instances)",
        )

    plot_parser = commands.add_parser("plot", help="draw a chart of a predictions file")
    data_arguments(plot_parser)
    plot_parser.add_argument(
        "--facet", default=None, help="column whose values get a panel each (grouping too)"
    )
    plot_parser.add_argument(
        "--classifier",
        default=None,
        metavar="COLUMN",
        help="column that tells classifiers apart, one colour each (grouping too); by "
        "default the first --by column that is not --facet",
    )
    plot_parser.add_argument(
        "--kind",
        choices=["roc-cost", "cost", "roc", "cheapest_set"],
        default=None,
        help="roc-cost by default; cheapest_set: the envelope coloured by its owner with the "
        "confidence set of the cheapest beneath (needs --classifier and --instance; a "
        "panel set per group of the other --by columns and --facet)",
    )
    instance_argument(plot_parser)
    plot_parser.add_argument("--title", default=None, help="the chart's title")
    plot_parser.add_argument(
        "--y-max",
        type=float,
        default=None,
        metavar="Y",
        help="top of the cost axis, in (0, 1] (0.5 is the papers'); by default fitted to "
        "the envelopes (and a band's upper edge): their largest cost plus a tenth, rounded "
        "up to 0.05 (0.1 above 0.3), at most 0.5, stated in the key",
    )
    plot_parser.add_argument(
        "--combined",
        action="store_true",
        help="also draw the lower envelope of the classifiers shown (the least cost any of "
        "them reaches at each pc); in roc-cost, their ROC convex hull too",
    )
    plot_parser.add_argument(
        "--cost-lines",
        choices=["all", "hull", "none"],
        default=None,
        help="which cost lines to draw: every ROC point's, only the hull vertices' (the "
        "only ones that can be on the envelope) or none (all)",
    )
    plot_parser.add_argument(
        "--out",
        default="chart.html",
        help="file to write: .html .png .svg .pdf or .json (the Vega-Lite spec); "
        "- writes the spec to standard output (chart.html)",
    )

    table_parser = commands.add_parser(
        "table",
        help="write a transformer's table as CSV or JSON",
        description="Write a transformer's table. CSV text cells starting with = + - @, tab "
        "or carriage return get a leading ' so spreadsheets do not run them as formulas "
        "(numbers are left as they are). JSON is a list of row objects: NaN is written as "
        'null, infinite values (thresholds) as the strings "Infinity" and "-Infinity".',
    )
    data_arguments(table_parser)
    table_parser.add_argument(
        "--kind",
        choices=[
            "points",
            "hull",
            "lines",
            "envelope",
            "selection",
            "cheapest_regions",
            "cheapest_set",
            "auc",
            "band",
        ],
        default="points",
        help="which table: ROC points, their convex hull, cost lines, the lower envelope, "
        "the selection table (threshold per pc range), which classifier is the cheapest "
        "where (cheapest_regions, pooling the --classifier column), the classifiers that "
        "could be the cheapest at each pc (cheapest_set: --classifier and --instance, a set "
        "per group of the other --by columns), AUC, or the envelope's band (--band); points "
        "by default",
    )
    instance_argument(table_parser)
    table_parser.add_argument(
        "--classifier",
        default=None,
        help="with --kind cheapest_regions or cheapest_set: the column naming the "
        "classifiers, compared in each group of the other --by columns (added to --by if "
        "missing); cheapest_regions without it: each group's own thresholds",
    )
    table_parser.add_argument(
        "--out",
        default=STDOUT,
        help="file to write: .csv (or .txt) or .json; - (the default) writes CSV to "
        "standard output",
    )
    return parser


STDOUT = "-"
"""The ``--out`` value that means standard output."""


def one_line(error: BaseException) -> str:
    """The error's message on one line (readers' messages may span several)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return "; ".join(lines) or type(error).__name__


#: The library's keywords that the command line takes as flags.
_FLAGS = re.compile(
    r"\b(pos_label|n_resamples|confidence_level|bins|score|label|by|classifier|facet|y_max|"
    r"cost_lines|title|instance)(=| >=| <=)"
)
#: ``inference='x'`` in a library message: the command line's ``--band x``.
_BAND = re.compile(r"\binference='(\w+)'")
#: Keywords no English word spells (an underscore), named without ``=`` ("check pos_label").
_NAMED = re.compile(r"\b(pos_label|n_resamples|confidence_level|y_max|cost_lines)\b")
#: "or None" after a flag: a value no one can type; leaving the flag out means it.
_NONE = re.compile(r"(--([\w-]+)\b[^;]*?)\bor None\b")
#: A list of column names after a flag (``--by ['a', 'b']``): the names, as typed.
_LIST = re.compile(r"(--[\w-]+) [\[(]((?:'[^']*'(?:, )?)*)[\])]")


def as_flags(message: str) -> str:
    """A library message with its keywords written as the flags a CLI user typed.

    Examples
    --------
    >>> as_flags("pos_label=7 is not a class of column 'y'; pass by=['fold']")
    "--pos-label 7 is not a class of column 'y'; pass --by fold"
    >>> as_flags("pass n_resamples >= 200")
    'pass --n-resamples >= 200'
    >>> as_flags("fewer pc values, or inference='exact_bootstrap'")
    'fewer pc values, or --band exact_bootstrap'
    >>> as_flags("classifier= and facet= are both 'dataset'; pass different columns")
    "--classifier and --facet are both 'dataset'; pass different columns"
    >>> as_flags("column 'y' has no positives. Check pos_label and the data")
    "column 'y' has no positives. Check --pos-label and the data"
    >>> as_flags("pass e.g. bins=1000, or None for every distinct score")
    'pass e.g. --bins 1000, or leave --bins out for every distinct score'
    >>> as_flags("pass by=['fold', 'my model'] for one curve per group, or by=() to pool")
    "pass --by fold 'my model' for one curve per group, or --by with no column to pool"
    """
    # --band names the band's inference
    message = _BAND.sub(lambda m: f"--band {m.group(1)}", message)
    message = _FLAGS.sub(
        lambda m: "--" + m.group(1).replace("_", "-") + _after(m.group(2), m.end(), message),
        message,
    )
    message = _NAMED.sub(lambda m: "--" + m.group(1).replace("_", "-"), message)
    message = _NONE.sub(lambda m: f"{m.group(1)}or leave --{m.group(2)} out", message)
    return _LIST.sub(_typed_list, message)


def _typed_list(match: re.Match) -> str:
    """``--by ['a', 'b']`` as typed: ``--by a b`` (and ``--by []``: the flag alone)."""
    names = [shlex.quote(name) for name in re.findall(r"'([^']*)'", match.group(2))]
    return f"{match.group(1)} {' '.join(names)}" if names else f"{match.group(1)} with no column"


def _after(sign: str, end: int, message: str) -> str:
    """What follows a flag: a space before its value, nothing where the keyword had none."""
    if sign != "=":
        return sign
    return "" if end >= len(message) or message[end] in " ,;)" else " "


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning as one line on standard error, in the words of the command line."""
    sys.stderr.write(f"costchart: warning: {as_flags(one_line(message))}\n")
    sys.stderr.flush()


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    with warnings.catch_warnings():
        # Each warning once, as one line of the command's own (no source line of costchart).
        warnings.simplefilter("default")
        warnings.showwarning = _show_warning
        return _run(parser, args)


def _run(parser: argparse.ArgumentParser, args) -> int:
    """Run the command ``args`` chose; errors exit through ``parser``."""
    # The commands load numpy, pandas and altair: only once there is work to do, so
    # --help and --version answer at once.
    from costchart._cli.commands import demo, plot, table

    try:
        if args.command == "demo":
            demo(Path(args.out))
        elif args.command == "plot":
            plot(args)
        else:
            table(args)
    except BrokenPipeError:
        # The reader of standard output stopped early (``costchart table ... | head``):
        # not an error of ours. Point stdout at devnull so the exit flush stays quiet.
        with contextlib.suppress(OSError, ValueError):
            stdout = sys.stdout.fileno()
            os.dup2(os.open(os.devnull, os.O_WRONLY), stdout)
        return 1
    except (CostchartError, OSError) as error:
        parser.exit(2, f"costchart: error: {as_flags(one_line(error))}\n")
    return 0
