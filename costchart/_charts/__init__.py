"""Ready compositions: cost, ROC, linked, band, difference, average, PR and decision charts.

Each takes a costchart table, derives what it draws with the transformers (thinning,
hull, envelope, operating ranges, averages) and composes the layers of
:mod:`costchart.layers`, with a key that names every kind of element drawn. The result
is an ordinary Altair chart: change it with ``.properties()``, combine it with ``|`` and
``&`` (each chart's selections have their own names), save it with :func:`costchart.save`.

Every composition takes ``title=``, ``subtitle=``, ``palette=`` (the same colours for a
classifier in every chart), ``key=``, ``size=`` and ``columns=``. The charts live in one
module each (:mod:`~costchart._charts.cost`, :mod:`~costchart._charts.roc`,
:mod:`~costchart._charts.linked`, :mod:`~costchart._charts.bands`,
:mod:`~costchart._charts.average`, :mod:`~costchart._charts.pr`,
:mod:`~costchart._charts.decision`, :mod:`~costchart._charts.explorer`) over shared
internals: the tables a chart draws (:mod:`~costchart._charts._drawn`, re-exported here),
the options it takes (:mod:`~costchart._charts._options`), the mark budget of many curves
(:mod:`~costchart._charts._mark_budget`) and the last step, key, facets and title
(:mod:`~costchart._charts._compose`).
"""

from __future__ import annotations

from costchart._charts._drawn import (
    MAX_ALL_COST_LINES,
    MAX_CHART_POINTS,
    MAX_CURVES_WITH_ALL_LINES,
    MIN_POINTS_PER_CURVE,
    ChartTables,
    drawn_tables,
)
from costchart._charts.average import average_chart
from costchart._charts.bands import band_chart, difference_chart
from costchart._charts.cheapest_set import cheapest_set_chart
from costchart._charts.cost import cost_chart
from costchart._charts.decision import decision_curve_chart
from costchart._charts.explorer import explorer
from costchart._charts.linked import roc_cost_chart
from costchart._charts.pr import pr_chart
from costchart._charts.roc import roc_chart
from costchart._vega import shared_layer

__all__ = [
    "MAX_ALL_COST_LINES",
    "MAX_CHART_POINTS",
    "MAX_CURVES_WITH_ALL_LINES",
    "MIN_POINTS_PER_CURVE",
    "ChartTables",
    "average_chart",
    "band_chart",
    "cheapest_set_chart",
    "cost_chart",
    "decision_curve_chart",
    "difference_chart",
    "drawn_tables",
    "explorer",
    "pr_chart",
    "roc_chart",
    "roc_cost_chart",
    "shared_layer",
]
