"""Run a gallery script as the docs do, once per test session, and hand back its tables.

The claims tests (``test_gallery_claims_<paper>.py``) check what each paper says its
figure shows on the tables the script binds at module level; this runs each script once,
scaled down, in a scratch folder (anything it saves lands there), its printing dropped.
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import runpy
import tempfile
from pathlib import Path

import numpy as np

GALLERY = Path(__file__).resolve().parent.parent / "gallery"

_RUN: dict[tuple[str, str], dict] = {}


def run_figure(paper: str, figure: str) -> dict:
    """The namespace of ``gallery/<paper>/plot_<paper>_<figure>_*.py`` (e.g. "fig08")."""
    key = (paper, figure)
    if key not in _RUN:
        (path,) = (GALLERY / paper).glob(f"plot_{paper}_{figure}_*.py")
        os.environ.pop("COSTCHART_GALLERY_FULL", None)
        here = Path.cwd()
        with tempfile.TemporaryDirectory() as scratch:
            os.chdir(scratch)
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    _RUN[key] = runpy.run_path(str(path), run_name="__main__")
                _RUN[key]["__costchart_figure__"] = key
            finally:
                os.chdir(here)
    return _RUN[key]


_SPECS: dict[tuple[str, str], list] = {}


def drawn_datasets(paper: str, figure: str) -> list:
    """The inline tables the figure's chart draws (its last expression), as DataFrames.

    Read from the spec as the docs export it (:func:`costchart._export.image.chart_spec`),
    so they are the rows the marks are drawn from, before Vega-Lite's own transforms.
    """
    key = (paper, figure)
    if key not in _SPECS:
        import pandas as pd

        from costchart._export.image import chart_spec

        (path,) = (GALLERY / paper).glob(f"plot_{paper}_{figure}_*.py")
        last = ast.parse(path.read_text(encoding="utf-8")).body[-1]
        chart = run_figure(paper, figure)[last.value.id]
        spec = chart_spec(chart)
        tables = list(spec.get("datasets", {}).values())
        tables += [view["data"]["values"] for view in _views_with_values(spec)]
        _SPECS[key] = [pd.DataFrame(rows) for rows in tables if isinstance(rows, list) and rows]
    return _SPECS[key]


def _views_with_values(node) -> list[dict]:
    found = []
    if isinstance(node, dict):
        if isinstance(node.get("data"), dict) and "values" in node["data"]:
            found.append(node)
        for key, value in node.items():
            if key != "datasets":
                found += _views_with_values(value)
    elif isinstance(node, list):
        for value in node:
            found += _views_with_values(value)
    return found


def drawn(ns: dict, name, columns: list[str] | None = None, *, rows: int = 200):
    """``ns[name]`` (or ``name`` itself, a table of the script's, e.g. ``result.curve``),
    after checking the figure's chart draws it: every one of its rows is a row of a table
    of the chart (on ``columns``, by default all of them; numbers to 1e-5, as drawn tables
    are rounded to 5 decimals), so a figure drawing another table fails.

    Use it wherever a claims test reads a script's table: ``hull = drawn(ns, "hull")``.
    At most ``rows`` rows (evenly spaced) are looked up in a long table.
    """
    table = ns[name] if isinstance(name, str) else name
    name = name if isinstance(name, str) else "the table"
    paper, figure = ns["__costchart_figure__"]
    columns = list(table.columns) if columns is None else list(columns)
    tables = drawn_datasets(paper, figure)
    candidates = [t for t in tables if set(columns) <= set(t.columns)]
    assert candidates, (
        f"{paper} {figure}: no table of the chart has the columns {columns} of {name!r}; "
        f"the chart draws tables with columns {[list(t.columns) for t in tables]}"
    )
    found = _found(_sample(table[columns], rows), [(t, columns) for t in candidates])
    assert found.all(), (
        f"{paper} {figure}: the chart does not draw {int((~found).sum())} rows of {name!r} "
        f"({columns})"
    )
    return table


def draws_any(ns: dict, table, *, rows: int = 200) -> bool:
    """Whether every row of ``table`` is a row of some table of the figure's chart, on the
    columns they share (two at least): the check every figure's claims get at once."""
    paper, figure = ns["__costchart_figure__"]
    pairs = []
    for candidate in drawn_datasets(paper, figure):
        shared = [c for c in table.columns if c in candidate.columns]
        if len(shared) >= 2:
            pairs.append((candidate, shared))
    return bool(pairs) and bool(_found(_sample(table, rows), pairs).all())


def _sample(table, rows: int):
    wanted = table.reset_index(drop=True)
    if len(wanted) > rows:
        wanted = wanted.iloc[np.linspace(0, len(wanted) - 1, rows).round().astype(int)]
    return wanted


def _found(wanted, pairs) -> np.ndarray:
    """For each row of ``wanted``: whether some (drawn table, columns) pair holds it."""
    found = np.zeros(len(wanted), dtype=bool)
    for candidate, columns in pairs:
        found |= _rows_in(wanted[columns], candidate[columns])
        if found.all():
            break
    return found


def _rows_in(wanted, drawn_rows) -> np.ndarray:
    """For each row of ``wanted``: whether it is a row of ``drawn_rows`` (numbers to 1e-5)."""
    import pandas as pd

    match = np.ones((len(wanted), len(drawn_rows)), dtype=bool)
    for column in wanted.columns:
        mine, theirs = wanted[column], drawn_rows[column]
        numeric = pd.api.types.is_numeric_dtype(mine) and not pd.api.types.is_bool_dtype(mine)
        if numeric:
            a = mine.to_numpy(dtype=float)[:, None]
            b = pd.to_numeric(theirs, errors="coerce").to_numpy(dtype=float)[None, :]
            close = np.abs(a - b) <= 1e-5 + 1e-6 * np.abs(a)
            # Drawn tables write infinite thresholds as null or as text: any non-number.
            match &= close | (~np.isfinite(a) & ~np.isfinite(b))
        else:
            match &= mine.astype(str).to_numpy()[:, None] == theirs.astype(str).to_numpy()[None, :]
    return match.any(axis=1)
