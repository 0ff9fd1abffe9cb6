"""``average_chart``: the vertical average of cost curves over folds, beside its ROC dual.

This module holds :func:`average_chart`, which draws :func:`costchart.vertical_average`
with its spread over the curves in cost space and, beside it,
:func:`costchart.roc_average`'s vertical average with the range of TPR.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt

import costchart as cc
from costchart import layers
from costchart._charts._compose import compose, with_key, zoom_entries
from costchart._charts._drawn import grouping_of
from costchart._charts._options import Look, check_roles, colors_of, keys_of, ready_chart
from costchart._charts._registry import register
from costchart._charts.linked import pairs
from costchart._cost.average import over_names  # the over= parameter's check
from costchart._cost.geometry import cost_top
from costchart._io import schema as col
from costchart._io.frames import infer_by
from costchart._io.parameters import checked
from costchart._io.validation import flag, one_of
from costchart.layers.bands import average_spread, draw_average_band
from costchart.layers.cost import draw_envelope
from costchart.layers.roc import draw_roc_curve

__all__ = ["average_chart"]


@checked
@ready_chart
def average_chart(
    points,
    *,
    over: str | Sequence[str],
    color: str | None = None,
    facet: str | None = None,
    by: str | Sequence[str] | None = None,
    spread: str = "range",
    roc: bool = True,
    y_max: float | None = None,
    look: Look,
) -> alt.LayerChart | alt.HConcatChart | alt.ConcatChart | alt.FacetChart:
    """The vertical average of cost curves over folds, with its spread, and its ROC dual.

    The cost view draws :func:`costchart.vertical_average` (the mean normalized expected
    cost at each ``pc``: the expected cost of the classifier picked per fold) with the
    range over the curves or one standard deviation either side; the ROC view beside it
    draws :func:`costchart.roc_average`'s vertical average with the range of TPR as error
    bars. Only the cost average is an average of costs.

    Parameters
    ----------
    points : pandas, polars or pyarrow table
        ROC points of several curves, e.g. ``roc_points(..., by=["classifier", "fold"])``.
    over : str or list of str
        The column(s) whose curves are averaged (e.g. ``"fold"``).
    classifier, facet, by
        As in :func:`cost_chart` (grouping columns other than ``over``).
    spread : {"range", "sd"}
        Shade from the lowest to the highest curve, or the mean plus and minus one
        standard deviation.
    show_roc : bool
        Draw the ROC vertical average beside the cost average.
    y_max : float, optional
        Top of the cost axis. By default (``None``) fitted as in :func:`cost_chart`, to
        the average and the top of its spread, so the whole spread shows (up to 0.5).
    palette, title, subtitle, show_key, size
        As in :func:`cost_chart`.
    columns : int, optional
        With ``roc=True``, pairs of views per row when faceted (by default 1); else panels
        per row (by default 3).

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"s": [4, 3, 2, 1] * 2, "y": [1, 0, 1, 0, 1, 1, 0, 0], "fold": [1] * 4 + [2] * 4}
    >>> points = cc.roc_points(data, score="s", label="y", by="fold")
    >>> type(cc.average_chart(points, over="fold")).__name__
    'HConcatChart'
    """
    given, roc = y_max, flag(roc, "show_roc")
    one_of(spread, "spread", ("range", "sd"))
    over_columns = over_names(over)
    table, grouping = grouping_of(points, by, "points", declared=(color, facet, *over_columns))
    average = cc.vertical_average(
        table, over=over, by=[c for c in grouping if c not in over_columns]
    )
    by = infer_by(average, None, name="average")
    check_roles(by, "the averaged curves", "roc_points", color=color, facet=facet)
    keys = keys_of(average, facet)
    colors = colors_of(average, color, look)
    # Fitted to the average and the top of its spread, so the whole spread shows.
    y_max = cost_top(given, average[col.COST], average_spread(average, spread)[1])
    spread_label = (
        "range over the curves (lowest to highest)" if spread == "range" else "mean ± 1 sd"
    )
    cost = [
        layers.trivial_region(y_max=y_max, facet=keys),
        draw_average_band(average, color=color, palette=colors, spread=spread, y_max=y_max),
        layers.trivial(y_max=y_max, facet=keys),
        draw_envelope(average, color=color, palette=colors, y_max=y_max),
    ]
    entries = [
        ("worse than a trivial classifier", "region"),
        (f"cost average's {spread_label}", "spread"),
        ("trivial classifiers", "trivial"),
        ("vertical average of the cost curves", "bold line"),
    ]
    if not roc:
        chart = compose(
            with_key(cost, entries + zoom_entries(given, y_max), look, keys),
            facet=facet,
            look=look,
            panels=None if keys is None else len(keys),
        )
        return register(chart, {"vertical_average": average})
    roc_table = cc.roc_average(points, over=over, averaging="vertical")
    roc_layers = [
        layers.chance(),
        layers.roc_spread(roc_table, classifier=color, palette=colors),
        draw_roc_curve(roc_table, color=color, palette=colors, max_points=None),
    ]
    entries += [
        ("ROC vertical average", "line"),
        ("range of TPR over the curves", "error bar"),
        ("chance diagonal", "chance"),
    ]
    if look.key:
        cost = [*cost, layers.key(entries + zoom_entries(given, y_max))]
    values = keys[facet].tolist() if facet and keys is not None else None
    chart = pairs(roc_layers, cost, facet=facet, values=values, look=look, hover=None)
    return register(chart, {"vertical_average": average, "roc_average": roc_table})
