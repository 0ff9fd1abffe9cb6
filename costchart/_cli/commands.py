"""The commands behind ``costchart`` (``demo``, ``plot``, ``table``) and their input/output.

Each command takes the parsed arguments of :func:`costchart._cli.build_parser`. Input is a
CSV or Parquet file, and any failure to read it is one :class:`CostchartError`;
``--pos-label`` is cast to the label column's type. ``--kind cheapest_set`` pairs the
classifiers' rows by ``--instance``. ``table`` writes spreadsheet-safe CSV or strict JSON
(:mod:`costchart._cli.writing`); ``plot`` writes a chart file or the Vega-Lite spec.
Progress goes to standard error through :func:`progress`. ``--out`` may not name the input
file.
"""

from __future__ import annotations

import csv
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from costchart._cli import STDOUT, one_line
from costchart._cli.options import check_options, level
from costchart._cli.writing import json_text, spreadsheet_safe
from costchart._export.files import make_folder, output_path, write_file
from costchart._io.errors import SEPARATORS, CostchartError, separator_in, warn
from costchart._io.pooling import text_columns_left_out

__all__ = ["STDOUT", "demo", "one_line", "plot", "progress", "table"]


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def demo(out: Path) -> list[Path]:
    """Render a handful of the gallery's figures into ``out`` (see :mod:`costchart._cli.demo`)."""
    from costchart._cli.demo import render_demo

    return render_demo(make_folder(out, name="--out"), progress=progress)


_FORMATS = {".csv": "CSV", ".txt": "CSV", ".parquet": "Parquet"}


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
            _check_header(file)
            # A byte-order mark (Excel's "CSV UTF-8") is no part of the first column's name.
            data = pd.read_csv(file, index_col=False, encoding="utf-8-sig")
        _check_separator(data, name)
        return data
    except CostchartError:
        raise
    except ImportError:
        msg = f"reading {name!r} needs a Parquet engine: pip install pyarrow"
        raise CostchartError(msg) from None
    except UnicodeDecodeError as error:
        msg = f"cannot read {name!r}: it is not UTF-8 text ({error.reason}); save it as UTF-8"
        raise CostchartError(msg) from None
    except pd.errors.ParserWarning:
        msg = f"cannot read {name!r} as CSV: rows have more fields than the header row"
        with file.open(encoding="utf-8-sig", errors="replace") as handle:
            separator = separator_in([handle.readline().strip()])
        if separator is not None:  # decimal commas, columns by semicolons (or tabs)
            msg += (
                f"; its header holds {SEPARATORS[separator]}, so the file seems to separate "
                "columns by it (and perhaps write decimals with commas): convert it to a "
                "comma-separated file with decimal points (or to Parquet)"
            )
        raise CostchartError(msg) from None
    except pd.errors.EmptyDataError:
        msg = f"cannot read {name!r}: the file is empty; pass a CSV with a header row"
        raise CostchartError(msg) from None
    except Exception as error:  # the readers raise many types; each means a bad file
        msg = f"cannot read {name!r} as {kind}: {one_line(error)}"
        raise CostchartError(msg) from None


def _check_separator(data: pd.DataFrame, name: str) -> None:
    """Refuse a CSV read as one column whose name holds another separator (``;``, tab)."""
    separator = separator_in(data.columns)
    if separator is not None:
        msg = (
            f"cannot read {name!r} as CSV: its header is one column, {data.columns[0]!r}, "
            f"which holds {SEPARATORS[separator]}: the file seems to separate its columns by "
            "it, but the command line reads comma-separated files; convert the file to "
            "commas (or to Parquet)"
        )
        raise CostchartError(msg)


def _check_header(file: Path) -> None:
    """Refuse a CSV header naming a column twice (pandas would rename one ``name.1``)."""
    with file.open(encoding="utf-8-sig", newline="") as handle:
        header = next(csv.reader(handle), [])
    seen: set[str] = set()
    for name in header:
        if name in seen:
            msg = (
                f"cannot read {str(file)!r}: its header names column {name!r} twice; give "
                "every column its own name"
            )
            raise CostchartError(msg)
        seen.add(name)


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


def _grouping(args) -> list[str]:
    """The columns that tell curves apart: ``--by``, with ``plot``'s classifier and facet."""
    drawn = [getattr(args, "classifier", None), getattr(args, "facet", None)]
    return list(dict.fromkeys([*(args.by or []), *(c for c in drawn if c is not None)]))


def _warn_if_pooled(args, data: pd.DataFrame) -> None:
    """Warn, as the library does, when text columns are left out of the grouping.

    Without ``--by`` every row is pooled into one curve; with ``--by model`` on a file that
    also has a ``dataset`` column, each model's curve pools every data set. ``--by`` with
    no column pools on purpose, without a word (with ``--classifier`` or ``--facet`` too).
    """
    grouping = _grouping(args)
    if args.by == []:  # --by with no column: pooled on purpose
        return
    instance = [args.instance] if getattr(args, "instance", None) is not None else []
    left = text_columns_left_out(data, [args.score, args.label, *grouping, *instance])
    if not left:
        return
    named = ", ".join(repr(c) for c in left)
    fix = f"pass --by {' '.join(map(str, [*grouping, *left]))} for one curve per group"
    if grouping:
        msg = (
            f"the curves are told apart by {', '.join(map(repr, grouping))} only, so each pools "
            f"every value of the text column(s) {named}; {fix}"
        )
    else:
        msg = (
            f"--by was not given, so every row is pooled into one curve, but the file has text "
            f"or categorical columns ({named}) that may tell curves apart; {fix}, or --by with "
            "no column to pool on purpose"
        )
    warn(msg)


def _columns(args, data: pd.DataFrame) -> dict:
    """The column arguments every transformer of instances takes (pooled: ``by=()``)."""
    return {
        "score": args.score,
        "label": args.label,
        "by": tuple(_grouping(args)),  # the pooling warning is the command's own
        "pos_label": _pos_label(args.pos_label, data, args.label),
    }


def _points(args, data: pd.DataFrame) -> pd.DataFrame:
    import costchart as cc

    return cc.roc_points(data, **_columns(args, data), bins=args.bins)


def _band(args, data: pd.DataFrame, inference: str) -> pd.DataFrame:
    import costchart as cc

    return cc.bootstrap_band(
        data,
        **_columns(args, data),
        inference=inference,
        confidence_level=level(args),
        progress=progress,
        bins=args.bins,
        compact=args.compact,
        **_resampling(args),
    )


def _paired(args, data: pd.DataFrame) -> dict:
    """The arguments of ``--kind cheapest_set``: the pairing, the set's level, its groups."""
    return {
        **_columns(args, data),
        "by": [c for c in _grouping(args) if c != args.classifier],
        "classifier": args.classifier,
        "instance": args.instance,
        "confidence_level": level(args),
        "progress": progress,
        **_resampling(args),
    }


def _resampling(args) -> dict:
    """``--n-resamples`` and ``--seed`` as the library's ``n_resamples=`` and ``rng=``."""
    given = {"n_resamples": args.n_resamples, "rng": args.seed}
    return {name: value for name, value in given.items() if value is not None}


_TABLE_SUFFIXES = (".csv", ".txt", ".json")
_CHART_SUFFIXES = (".html", ".png", ".svg", ".pdf", ".json")


def _output(args, suffixes: tuple[str, ...]) -> Path | None:
    """The file ``--out`` names (checked before any work), or None for standard output.

    The input file is refused: writing there would replace the data read.
    """
    if args.out is None or args.out == STDOUT:
        return None
    path = output_path(
        args.out, suffixes, name="--out", other=", or pass --out - for standard output"
    )
    if path.resolve() == Path(args.file).resolve():
        msg = (
            f"--out {args.out} is the input file: writing it would replace the data; pass "
            "another file"
        )
        raise CostchartError(msg)
    return path


def plot(args) -> Path | None:
    """Draw a chart of a predictions file (with ``--band``, the envelope's confidence band).

    ``--out -`` writes the Vega-Lite JSON spec to standard output.
    """
    import costchart as cc
    from costchart._export import content_of

    kind = check_options(args, "plot")
    path = _output(args, _CHART_SUFFIXES)
    data = _read(Path(args.file))
    classifier = args.classifier or next((c for c in args.by or [] if c != args.facet), None)
    look = {"classifier": classifier, "facet": args.facet, "title": args.title}
    chart: Any  # a layered, faceted or concatenated chart, by kind
    if kind == "band":
        chart = cc.band_chart(_band(args, data, args.band), **look, y_max=args.y_max)
    elif kind == "roc":
        chart = cc.roc_chart(_points(args, data), **look)
    elif kind == "cheapest_set":
        lines = {} if args.cost_lines is None else {"cost_lines": args.cost_lines}
        chart = cc.cheapest_set_chart(
            data, **_paired(args, data), title=args.title, y_max=args.y_max, **lines
        )
    else:
        cost_view: dict[str, Any] = {"y_max": args.y_max, "combined": args.combined}
        if args.cost_lines is not None:
            cost_view["cost_lines"] = args.cost_lines
        draw: Callable[..., Any] = cc.cost_chart if kind == "cost" else cc.roc_cost_chart
        chart = draw(_points(args, data), **look, **cost_view)
    _warn_if_pooled(args, data)  # once the columns are found: an error says more
    if path is None:
        # The spec exactly as save() writes it to a .json file.
        spec = content_of(chart, Path("chart.json"))  # JSON: text
        sys.stdout.write(f"{spec if isinstance(spec, str) else spec.decode()}\n")
        sys.stdout.flush()
        return None
    # What save() writes, written here so that a refusal names --out.
    write_file(path, content_of(chart, path), name="--out")
    progress(f"wrote {path}")
    return path


def table(args) -> Path | None:
    """Write a transformer's table: CSV to standard output, or a .csv or .json file."""
    import costchart as cc

    kind = check_options(args, "table")
    pooled = args.classifier  # --kind cheapest_regions pools it in each group of --by
    path = _output(args, _TABLE_SUFFIXES)
    data = _read(Path(args.file))
    if kind == "band":
        result = _band(args, data, args.band or "auto")
    elif kind == "cheapest_set":
        result = cc.cheapest_set(data, **_paired(args, data))
    elif kind == "auc" and args.bins is None:  # the AUC with its interval (DeLong's)
        # AUC's interval needs the instances: binned points give the AUC alone.
        result = cc.auc_ci(data, **_columns(args, data), confidence_level=level(args))
    else:
        points = _points(args, data)
        tables = {
            "points": lambda: points,
            "hull": lambda: cc.roc_hull(points),
            "lines": lambda: cc.to_cost_lines(points),
            "envelope": lambda: cc.lower_envelope(points),
            "selection": lambda: cc.selection_table(points),
            "cheapest_regions": lambda: cc.cheapest_regions(
                points, by=None if pooled is None else [c for c in args.by or [] if c != pooled]
            ),
            "auc": lambda: cc.auc(points),
        }
        result = tables[kind]()
    _warn_if_pooled(args, data)  # once the columns are found: an error says more
    if path is None:
        spreadsheet_safe(result).to_csv(sys.stdout, index=False)
        sys.stdout.flush()
        return None
    if path.suffix.lower() == ".json":
        text = json_text(result)
    else:
        text = spreadsheet_safe(result).to_csv(index=False)
    write_file(path, text, name="--out")
    progress(f"wrote {path} ({len(result):,} rows)")
    return path
