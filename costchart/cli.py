"""The ``costchart`` command: ``demo``, ``plot`` and ``table``.

Errors print one line (``costchart: error: ...``) and exit with status 2; progress goes
to standard error.
"""

from __future__ import annotations

import argparse
import math
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from costchart._errors import CostchartError

__all__ = ["main"]


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def demo(out: Path) -> list[Path]:
    """Render the gallery of the bundled example predictions into ``out``."""
    import costchart as cc
    from costchart.gallery import charts as gallery_charts

    out.mkdir(parents=True, exist_ok=True)
    _progress("computing the tables of the bundled examples ...")
    charts = gallery_charts()
    written = []
    for name, chart in charts.values():
        path = cc.save(chart, out / f"{name}.png")
        _progress(f"wrote {path}")
        written.append(path)
    report = cc.report(
        {caption: chart for caption, (_, chart) in charts.items()},
        out / "costchart-demo.html",
        title="costchart demo: cost curves of three classifiers on four UCI data sets",
    )
    _progress(f"wrote {report}")
    return [report, *written]


_FORMATS = {".csv": "CSV", ".txt": "CSV", ".parquet": "Parquet"}


def _one_line(error: BaseException) -> str:
    """The error's message on one line (readers' messages may span several)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return "; ".join(lines) or type(error).__name__


def _read(file: Path) -> pd.DataFrame:
    """Read a CSV or Parquet file; any failure becomes one :class:`CostchartError`."""
    name = str(file)
    if not file.exists():
        msg = f"no file {name!r}"
        raise CostchartError(msg)
    if file.is_dir():
        msg = f"{name!r} is a folder; pass a .csv or .parquet file"
        raise CostchartError(msg)
    kind = _FORMATS.get(file.suffix.lower())
    if kind is None:
        msg = f"cannot read {name!r}: use a .csv or .parquet file"
        raise CostchartError(msg)
    try:
        if kind == "Parquet":
            return pd.read_parquet(file)
        with warnings.catch_warnings():
            # Rows longer than the header: pandas would silently take the first field
            # as the index (and shift every column) or drop fields; refuse instead.
            warnings.simplefilter("error", pd.errors.ParserWarning)
            return pd.read_csv(file, index_col=False)
    except ImportError:
        msg = f"reading {name!r} needs a Parquet engine: pip install pyarrow"
        raise CostchartError(msg) from None
    except UnicodeDecodeError as error:
        msg = f"cannot read {name!r}: it is not UTF-8 text ({error.reason}); save it as UTF-8"
        raise CostchartError(msg) from None
    except pd.errors.ParserWarning:
        msg = f"cannot read {name!r} as CSV: rows have more fields than the header row"
        raise CostchartError(msg) from None
    except pd.errors.EmptyDataError:
        msg = f"cannot read {name!r}: the file is empty; pass a CSV with a header row"
        raise CostchartError(msg) from None
    except Exception as error:  # the readers raise many types; each means a bad file
        msg = f"cannot read {name!r} as {kind}: {_one_line(error)}"
        raise CostchartError(msg) from None


_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}


def _pos_label(text: str | None, data: pd.DataFrame, label: str):
    """``--pos-label`` cast to the type of the label column.

    A CSV of 1/2 labels reads as integers, so the text ``"2"`` must become the number 2.
    Booleans accept true/false/1/0. Text that does not fit the type stays text: it is no
    label of the column, and the library says which labels there are.
    """
    if text is None or list(data.columns).count(label) != 1:
        return text
    dtype = data[label].dtype
    if isinstance(dtype, pd.CategoricalDtype):
        dtype = dtype.categories.dtype
    kind = getattr(dtype, "kind", "O")
    word = text.strip()
    try:
        if kind == "b":
            return _BOOLEANS.get(word.lower(), text)
        if kind in "iu":
            try:
                return int(word)
            except ValueError:
                number = float(word)
                return int(number) if number.is_integer() else text
        if kind == "f":
            return float(word)
    except (ValueError, OverflowError):
        return text
    return text


def _columns(args, data: pd.DataFrame) -> dict:
    """The column arguments every transformer of instances takes."""
    return {
        "score": args.score,
        "label": args.label,
        "by": args.by or None,
        "pos_label": _pos_label(args.pos_label, data, args.label),
    }


def _points(args, data: pd.DataFrame) -> pd.DataFrame:
    import costchart as cc

    return cc.roc_points(data, **_columns(args, data), bins=args.bins)


def _band(args, data: pd.DataFrame, method: str) -> pd.DataFrame:
    import costchart as cc

    resamples = {} if args.n_resamples is None else {"n_resamples": args.n_resamples}
    return cc.bootstrap_band(
        data,
        **_columns(args, data),
        method=method,
        confidence_level=args.confidence_level,
        progress=_progress,
        bins=args.bins,
        **resamples,
    )


def _check_band_options(args, *, band: bool) -> None:
    """Refuse band options that would be silently ignored."""
    if not band and args.band is not None:
        msg = "--band applies to table --kind band; drop --band or pass --kind band"
        raise CostchartError(msg)
    if args.n_resamples is not None and args.band != "resample":
        msg = f"--n-resamples {args.n_resamples} applies to --band resample; pass --band resample"
        raise CostchartError(msg)


def _resamples(text: str) -> int:
    """``--n-resamples``: a whole number at least 1 (the library checks it is enough)."""
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not (math.isfinite(number) and number.is_integer() and number >= 1):
        msg = f"{text!r} is not a whole number of resamples; pass e.g. 2000"
        raise argparse.ArgumentTypeError(msg)
    return int(number)


def plot(args) -> Path:
    """Draw a chart of a predictions file (with ``--band``, the envelope's confidence band)."""
    import costchart as cc

    _check_band_options(args, band=True)
    data = _read(Path(args.file))
    by = args.by or []
    color = next((c for c in by if c != args.facet), None)
    if args.band is not None:
        if args.kind not in (None, "cost"):
            msg = f"--band draws a cost chart, not --kind {args.kind}; drop --kind or pass cost"
            raise CostchartError(msg)
        chart = cc.band_chart(_band(args, data, args.band), color=color, facet=args.facet)
    else:
        kinds: dict[str, Callable[..., Any]] = {
            "roc-cost": cc.roc_cost_chart,
            "cost": cc.cost_chart,
            "roc": cc.roc_chart,
        }
        chart = kinds[args.kind or "roc-cost"](_points(args, data), color=color, facet=args.facet)
    path = cc.save(chart, args.out)
    _progress(f"wrote {path}")
    return path


def table(args) -> Path:
    """Write a transformer's table as CSV."""
    import costchart as cc

    _check_band_options(args, band=args.kind == "band")
    data = _read(Path(args.file))
    if args.kind == "band":
        result = _band(args, data, args.band or "exact")
    else:
        points = _points(args, data)
        tables = {
            "points": lambda: points,
            "hull": lambda: cc.roc_hull(points),
            "lines": lambda: cc.to_cost_lines(points),
            "envelope": lambda: cc.lower_envelope(points),
            "selection": lambda: cc.selection_table(points),
            "auc": lambda: cc.auc(points),
        }
        result = tables[args.kind]()
    result.to_csv(args.out, index=False)
    _progress(f"wrote {args.out} ({len(result):,} rows)")
    return Path(args.out)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="costchart", description="ROC and cost curves for two-class classifiers."
    )
    commands = parser.add_subparsers(dest="command", required=True)

    demo_parser = commands.add_parser("demo", help="render the gallery of the bundled examples")
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
        sub.add_argument("--by", nargs="*", default=[], help="grouping columns")
        sub.add_argument(
            "--bins",
            type=int,
            default=None,
            help="keep about this many points per curve, at score quantiles (exact points)",
        )
        sub.add_argument(
            "--band",
            choices=["exact", "resample"],
            default=None,
            help="confidence band on the envelope's cost: exact bootstrap or resampling",
        )
        sub.add_argument(
            "--confidence-level", type=float, default=0.9, help="level of --band (0.9)"
        )
        sub.add_argument(
            "--n-resamples",
            type=_resamples,
            default=None,
            metavar="N",
            help="resamples of --band resample (2000); each tail of the band needs at "
            "least 10, so a 0.9 band needs at least 200",
        )

    plot_parser = commands.add_parser("plot", help="draw a chart of a predictions file")
    data_arguments(plot_parser)
    plot_parser.add_argument("--facet", default=None, help="grouping column to facet by")
    plot_parser.add_argument(
        "--kind", choices=["roc-cost", "cost", "roc"], default=None, help="roc-cost by default"
    )
    plot_parser.add_argument("--out", default="chart.html", help=".html .png .svg .pdf or .json")

    table_parser = commands.add_parser("table", help="write a transformer's table as CSV")
    data_arguments(table_parser)
    table_parser.add_argument(
        "--kind",
        choices=["points", "hull", "lines", "envelope", "selection", "auc", "band"],
        default="points",
    )
    table_parser.add_argument("--out", default="table.csv", help="CSV file to write")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "demo":
            demo(Path(args.out))
        elif args.command == "plot":
            plot(args)
        else:
            table(args)
    except (CostchartError, OSError) as error:
        parser.exit(2, f"costchart: error: {_one_line(error)}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
