"""The tables a chart draws, kept by the chart functions for :func:`chart_tables`.

Every chart function draws tables that public transformers returned (thinned points,
hull, envelope, operating ranges, AUC, averages, bands, ...) and records them here, by
name, for the chart object it returns; :func:`chart_tables` hands them back. The record
lives as long as the chart does (a weak reference drops it).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping

import pandas as pd

from costchart._io.errors import CostchartError

__all__ = ["chart_tables", "register"]

_TABLES: dict[int, dict[str, pd.DataFrame]] = {}


def register(chart, tables: Mapping[str, pd.DataFrame]):
    """Record ``tables`` as what ``chart`` draws; return ``chart``."""
    key = id(chart)
    _TABLES[key] = dict(tables)
    weakref.finalize(chart, _TABLES.pop, key, None)
    return chart


def chart_tables(chart) -> dict[str, pd.DataFrame]:
    """The tables a costchart chart draws, by name, as the public transformers return them.

    A chart draws what public transformers return, the way scikit-learn's
    ``RocCurveDisplay`` draws ``roc_curve``: this gives those tables back, so that every
    number on a chart can be read, checked or drawn anew. The drawn marks hold the same
    rows, rounded to 5 decimals (and thresholds as text).

    Parameters
    ----------
    chart : altair chart
        A chart as a costchart chart function returned it (:func:`roc_chart`,
        :func:`cost_chart`, :func:`roc_cost_chart`, :func:`band_chart`,
        :func:`difference_chart`, :func:`average_chart`, :func:`pr_chart`,
        :func:`decision_curve_chart`, :func:`threshold_choice_chart`,
        :func:`explorer`). Charts made from it (``.properties()``, ``+``, ``|``) are
        new objects: ask the chart the function returned.

    Returns
    -------
    dict of str to pandas.DataFrame
        Each table the chart draws, named by what it is, e.g. for the ROC and cost charts

        - ``points``: :func:`thin_points` of the points (``max_points=`` of the chart,
          ``max_total=3000``);
        - ``operating_range``: :func:`operating_range` of those points (``of="lines"``);
        - ``hull``: :func:`roc_hull` of those points;
        - ``envelope``: :func:`lower_envelope` of the hull;
        - ``envelope_range``: ``operating_range(hull, of="envelope")``;
        - ``auc``: :func:`auc` of all the points (``roc_chart(show_auc=True)``).

        Copies: changing them changes nothing drawn.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> tables = cc.chart_tables(cc.roc_chart(points))
    >>> sorted(tables)
    ['envelope', 'envelope_range', 'hull', 'operating_range', 'points']
    >>> tables["hull"][["fpr", "tpr"]].equals(cc.roc_hull(points)[["fpr", "tpr"]])
    True
    """
    tables = _TABLES.get(id(chart))
    if tables is None:
        msg = (
            f"chart_tables takes a chart as a costchart chart function returned it, not "
            f"{type(chart).__name__!s} {chart!r:.60}; charts made from one (.properties(), "
            "+, |, &) are new objects: pass the chart the function returned"
        )
        raise CostchartError(msg)
    return {name: table.copy() for name, table in tables.items()}
