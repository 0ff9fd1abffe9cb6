"""``threshold_choice_chart``: one classifier's cost under three ways of setting its threshold.

The lower envelope is what a classifier costs if the best threshold is found for every
operating point. Two simpler rules need less: the score-driven rule trusts the score as a
probability (positive when ``score >= 1 - pc``; its cost curve is the Brier curve), and
the rate-driven rule sets the share of positive calls to ``pc`` (the ROC curve's own
counterpart in cost space). Drawn together for each classifier, the gaps between the
curves are what each rule gives away; the key and the legend give each curve's expected
loss (its area).
"""

from __future__ import annotations

import json

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart._charts._compose import zoom_entries
from costchart._charts._options import Look, colors_of, ready_chart
from costchart._charts._registry import register
from costchart._charts.linked import pairs
from costchart._cost.geometry import cost_top
from costchart._io import schema as col
from costchart._io.drawable import drawable
from costchart._io.errors import CostchartError
from costchart._io.frames import check_by_names, normalize_by
from costchart._io.groups import Groups, assemble, split_groups
from costchart._io.parameters import checked
from costchart._vega import field, json_values, nominal
from costchart.layers import key as key_layer
from costchart.layers._base import INK, ONE_CURVE, color_channel, cost_y, fpr_x, pc_x, tpr_y
from costchart.layers.roc import chance

__all__ = ["CHOICE_NAMES", "threshold_choice_chart"]

#: Each method drawn, in order: its name in the key and how its curve is dashed.
CHOICE_NAMES = {
    "optimal": "optimal: lower envelope",
    "score_driven": "score-driven (1 - pc): Brier curve",
    "rate_driven": "rate-driven ((TPR + FPR) / 2 = pc)",
}
_DASHES = {"optimal": [1, 0], "score_driven": [6, 3], "rate_driven": [2, 3]}
_KINDS = {"optimal": "line", "score_driven": "dashed line", "rate_driven": "dotted line"}
#: The order of rows within a curve (a Brier curve jumps: two rows at one pc).
_ROW = "costchart_row"


@checked
@ready_chart
def threshold_choice_chart(
    data,
    *,
    score: str,
    label: str,
    color: str | None = None,
    facet: str | None = None,
    pos_label=None,
    y_max: float | None = None,
    max_points: int = 100,
    weight: str | None = None,
    look: Look,
) -> alt.HConcatChart | alt.ConcatChart:
    """ROC curves beside the cost of three threshold-choice methods, with their losses.

    For each classifier (each value of ``color``) the cost view draws three curves: the
    lower envelope (the best threshold at every ``pc``, :func:`lower_envelope`), the Brier
    curve (positive when ``score >= 1 - pc``, :func:`brier_curve`) and the rate-driven
    curve (the share of positive calls set to ``pc``, :func:`rate_driven_curve`). The key
    names the methods by their dash; each curve's expected loss under uniform ``pc``
    (:func:`expected_loss`) is in the key for one classifier, or in the colour legend
    before each classifier's name, in the key's order; with ``facet=``, in each panel's
    top left corner, one line per classifier in its colour. The ROC curves are drawn
    beside.

    Parameters
    ----------
    data : pandas, polars or pyarrow DataFrame, dict of arrays, or lazy frame
        One row per instance; ``score`` is a probability of the positive class, in
        [0, 1] (the score-driven rule reads it as one).
    score, label, pos_label, weight
        As in :func:`roc_points`: a whole weight ``k`` draws every curve and loss as the
        row repeated ``k`` times would.
    classifier : str, optional
        The column naming each classifier: one colour each.
    facet : str, optional
        A column (e.g. the data set) whose values get a ROC and cost pair each.
    max_points : int
        ROC points drawn per curve in the ROC view (:func:`thin_points`; hull vertices
        always). In the cost view the envelope is drawn at its vertices, the Brier and
        rate-driven curves at one value of ``pc`` a pixel, each cost exact.
    y_max : float, optional
        Top of the cost axis. By default (``None``) fitted as in :func:`cost_chart`, to
        the three curves of every classifier (up to 0.5).
    palette, title, subtitle, show_key, size
        As in :func:`cost_chart`.
    columns : int, optional
        With ``facet=``, pairs per row (one by default), as in :func:`roc_cost_chart`.

    Returns
    -------
    altair.HConcatChart or altair.ConcatChart
        The ROC view and the cost view side by side; with ``facet=``, one pair per value.

    Examples
    --------
    >>> import costchart as cc
    >>> from costchart.datasets import load_predictions
    >>> data = load_predictions().query("dataset == 'diabetes'")
    >>> chart = cc.threshold_choice_chart(
    ...     data, score="score", label="label", classifier="classifier"
    ... )
    """
    asked = y_max  # None: fitted to the curves
    if color is not None and color == facet:
        msg = f"color= and facet= are both {color!r}; pass different columns"
        raise CostchartError(msg)
    by = normalize_by([c for c in (facet, color) if c is not None])
    check_by_names(by)
    # No colour or facet: the rows are pooled, with roc_points' warning beside text columns.
    given = by or None
    points = cc.roc_points(
        data, score=score, label=label, by=given, pos_label=pos_label, weight=weight
    )
    points = drawable(points, by, "data")  # dates, decimals, ... as the chart draws them
    groups = split_groups(points, by)  # costchart's own points: no second reading
    tables = _public_tables(data, points, (score, label, weight), by, pos_label, look.size + 1)
    curves, losses = _curves_and_losses(tables, groups)
    colors = colors_of(points, color, look)
    thinned = cc.thin_points(points, max_points=max_points, by=by)
    tables = {"points": thinned, **tables}
    roc = _roc_layers(thinned, color, facet, colors)
    y_max = cost_top(asked, curves[col.COST])  # the three curves drawn
    zoom = zoom_entries(asked, y_max)
    cost = _cost_layers(curves, color, facet, colors, (y_max, zoom), look, losses, groups)
    values = list(dict.fromkeys(key[0] for key in groups.keys)) if facet else None
    chart = pairs(roc, cost, facet=facet, values=values, look=look, hover=None)
    return register(chart, tables)


def _public_tables(data, points, columns, by, pos_label, samples: int) -> dict:
    """The public transformers' tables the cost view draws, and the losses in its key.

    The envelope is drawn at its vertices, exactly. The Brier and rate-driven curves have a
    row per threshold (and the rate-driven one bends between them), so they are drawn at
    ``samples`` values of ``pc`` (one a pixel, ``pc=``), each cost exact: the page stays
    small however many thresholds the data has.
    """
    grid = np.linspace(0.0, 1.0, samples)
    score, label, weight = columns
    # The Brier curve reads the scores themselves (and refuses any outside [0, 1]).
    brier = cc.brier_curve(
        data, score=score, label=label, by=by or (), pos_label=pos_label, pc=grid, weight=weight
    )
    return {
        "envelope": cc.lower_envelope(points, by=by),
        "brier_curve": drawable(brier, by, "data"),
        "rate_driven_curve": cc.rate_driven_curve(points, by=by, pc=grid),
        "expected_loss": cc.expected_loss(points, threshold_choice=list(CHOICE_NAMES), by=by),
    }


def _curves_and_losses(
    tables: dict[str, pd.DataFrame], groups: Groups
) -> tuple[pd.DataFrame, dict[str, np.ndarray]]:
    """Every group's three cost curves, in drawing order, and each one's expected loss."""
    keys = list(groups.by)
    parts = [
        tables[name][[*keys, col.PC, col.COST]].assign(**{col.THRESHOLD_CHOICE: method})
        for name, method in (
            ("envelope", "optimal"),
            ("brier_curve", "score_driven"),
            ("rate_driven_curve", "rate_driven"),
        )
    ]
    table = pd.concat(parts, ignore_index=True)[[*keys, col.THRESHOLD_CHOICE, col.PC, col.COST]]
    table[_ROW] = np.arange(len(table))  # each curve's own order
    loss = tables["expected_loss"]
    losses = {
        method: loss.loc[loss[col.THRESHOLD_CHOICE] == method, "expected_loss"].to_numpy()
        for method in CHOICE_NAMES
    }
    return table, losses


def _roc_layers(points: pd.DataFrame, color, facet, colors) -> list[alt.Chart]:
    keys = [c for c in (facet, color) if c is not None]
    table = points[[*keys, col.FPR, col.TPR]].copy()
    table[_ROW] = np.arange(len(table))
    line = (
        alt.Chart(table)
        .mark_line(strokeWidth=1.5)
        .encode(
            x=fpr_x(),
            y=tpr_y(),
            color=color_channel(table, color, ONE_CURVE, colors),
            order=alt.Order(field(_ROW), type="quantitative"),
        )
    )
    return [chance(), line]


def _cost_layers(curves, color, facet, colors, axis, look, losses, groups) -> list[alt.Chart]:
    y_max, zoom = axis  # the top of the cost axis, and the key's note if it was fitted
    methods = list(CHOICE_NAMES)
    colour = color_channel(curves, color, ONE_CURVE, colors)
    if color and not facet:
        # The legend gives each classifier's three losses, in the key's order, then its
        # name (a long name is cut, not the numbers); looked up by the value itself, as a
        # number or a flag prints in JavaScript.
        values = json.dumps(json_values(pd.Series([key[0] for key in groups.keys])))
        labels = json.dumps(
            [" · ".join(f"{losses[m][i]:.3f}" for m in methods) for i in range(len(groups))]
        )
        expression = f"{labels}[indexof({values}, datum.value)] + '  ' + datum.label"
        colour = colour.copy()
        colour.legend = alt.Legend(
            # the choices' short names, as the key names them ("score", not "score_driven")
            title=[
                "expected loss",
                f"{' · '.join(m.removesuffix('_driven') for m in methods)}, {color}",
            ],
            labelExpr=expression,
        )
    tooltip = [
        *([alt.Tooltip(**nominal(color))] if color else []),
        alt.Tooltip(**nominal(col.THRESHOLD_CHOICE), title="threshold choice"),
        alt.Tooltip(field(col.PC), type="quantitative", format=".3f"),
        alt.Tooltip(field(col.COST), type="quantitative", format=".3f"),
    ]
    # One layer per method with its own dash: a dash scale would merge with the key's.
    stack = [
        alt.Chart(curves)
        .transform_filter(alt.FieldEqualPredicate(field=field(col.THRESHOLD_CHOICE), equal=m))
        .mark_line(strokeWidth=1.6, strokeDash=_DASHES[m], clip=True)
        .encode(
            x=pc_x(),
            y=cost_y(y_max),
            color=colour,
            order=alt.Order(field(_ROW), type="quantitative"),
            tooltip=tooltip,
        )
        for m in methods
    ]
    if facet:
        stack.extend(_loss_lines(groups, losses, color, colors))
    if look.key:
        entries: list[tuple[str, str] | tuple[str, str, str]]
        if color or facet:
            entries = [(CHOICE_NAMES[m], _KINDS[m]) for m in methods]
        else:
            entries = [
                (f"{CHOICE_NAMES[m]}, loss {losses[m][0]:.3f}", _KINDS[m], ONE_CURVE)
                for m in methods
            ]
        stack.append(key_layer([*entries, *zoom]))
    return stack


#: Where a panel's loss lines start, and their spacing (pixels).
_LINE_TOP, _LINE_STEP = 6, 14


def _loss_lines(groups: Groups, losses: dict[str, np.ndarray], color, colors) -> list[alt.Chart]:
    """Each curve's three losses at the top left of its panel, in its colour, under a header."""
    methods = list(CHOICE_NAMES)
    text = [" · ".join(f"{losses[m][i]:.3f}" for m in methods) for i in range(len(groups))]
    if color:
        text = [f"{line}  {key[-1]}" for line, key in zip(text, groups.keys, strict=True)]
    table = assemble(
        groups,
        np.ones(len(groups), dtype=np.int64),
        {"costchart_loss": np.array(text, dtype=object)},
    )
    # One line a curve, below the header, in the order the curves come in its panel.
    table["costchart_line"] = _LINE_TOP + _LINE_STEP * (
        table.groupby(groups.by[0], sort=False).cumcount() + 1
    )
    header = table[[groups.by[0]]].drop_duplicates().reset_index(drop=True)
    header = header.assign(
        costchart_loss="expected loss: " + " · ".join(m.removesuffix("_driven") for m in methods),
        costchart_line=_LINE_TOP,
    )

    def lines(rows: pd.DataFrame, colour) -> alt.Chart:
        return (
            alt.Chart(rows)
            .mark_text(align="left", baseline="top", dx=6, fontSize=11)
            .encode(
                x=alt.value(0),
                y=alt.Y(field("costchart_line"), type="quantitative", scale=None),
                text=alt.Text(field("costchart_loss"), type="nominal"),
                color=colour,
            )
        )

    return [
        lines(header, alt.value(INK)),
        lines(table, color_channel(table, color, ONE_CURVE, colors, legend=None)),
    ]
