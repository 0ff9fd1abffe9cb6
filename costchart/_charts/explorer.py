"""The operating-point explorer: move the operating condition, see the chosen threshold.

One Vega-Lite chart with a slider over ``pc`` (or sliders for the cost ratio and the
prevalence that set it). For the current ``pc`` it shows at once, for each classifier:

- in ROC space, the iso-performance line of slope ``(1 - pc) / pc`` touching the convex
  hull, and the hull vertex it touches: the threshold to use;
- in cost space, the lower envelope with a marker at ``pc`` and the expected cost;
- the confusion matrix that threshold gives per 1,000 cases.

The chosen vertex is the one whose ``pc`` range ``[pc_lo, pc_hi)`` (from
:func:`costchart.roc_hull`) holds ``pc`` -- at ``pc = 1`` the last one reaching it -- so
at a ``pc`` where two vertices tie the chart shows the one optimal just above it; both are
in :func:`costchart.iso_performance`, which turns a ``pc`` read back from the chart into
thresholds in Python.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart._charts._compose import titled
from costchart._charts._drawn import grouping_of, passed_by, threshold_text
from costchart._charts._explorer_signals import (
    RATIO_RANGE,
    chosen_rule,
    confusion_counts,
    cost_params,
    iso_line,
    pc_params,
)
from costchart._charts._options import Look, check_name, check_roles, ready_chart
from costchart._charts._registry import register
from costchart._cost.geometry import ALWAYS_POSITIVE
from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.parameters import checked
from costchart._io.validation import finite_number, one_of, probability, whole_number
from costchart._palette import chart_palette
from costchart._vega import content_name, nominal
from costchart.layers import _base as base
from costchart.layers.cost import trivial, trivial_region
from costchart.layers.keys import key as key_layer
from costchart.layers.roc import chance

__all__ = ["explorer"]


def _vertices(hull: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Each group's hull vertices (:func:`costchart.roc_hull`) with their prevalence."""
    needed = [col.TP, col.FP, col.TN, col.FN]
    missing = [c for c in needed if c not in hull.columns]
    if missing:
        msg = (
            f"points has no column {missing[0]!r}: the explorer needs the confusion counts "
            "of roc_points (tp, fp, tn, fn) for its confusion matrix"
        )
        raise CostchartError(msg)
    table = hull[[*by, col.THRESHOLD, col.FPR, col.TPR, col.PC_LO, col.PC_HI]].copy()
    counts = hull[needed].to_numpy(np.float64)
    positives, negatives = counts[:, 0] + counts[:, 3], counts[:, 1] + counts[:, 2]
    table["costchart_prevalence"] = positives / (positives + negatives)
    text = threshold_text(hull[col.THRESHOLD].to_numpy(np.float64))
    # The vertex (1, 1) predicts every instance positive, whatever its threshold reads.
    everything = ((table[col.FPR] == 1) & (table[col.TPR] == 1)).to_numpy()
    table["costchart_threshold"] = [
        f"{t} ({ALWAYS_POSITIVE})" if all_positive and ALWAYS_POSITIVE not in t else t
        for t, all_positive in zip(text, everything, strict=True)
    ]
    return table.drop(columns=col.THRESHOLD)


@checked
@ready_chart
def explorer(
    points,
    *,
    color: str | None = None,
    by: str | Sequence[str] | None = None,
    pc: float = 0.5,
    controls: str = "pc",
    cost_ratio: float = 1.0,
    p_pos: float | None = None,
    name: str | None = None,
    max_points: int = 100,
    look: Look,
) -> alt.HConcatChart:
    """An interactive chart to choose an operating point and see its threshold and cost.

    Parameters
    ----------
    points : pandas, polars or pyarrow table
        ROC points from :func:`costchart.roc_points` (with their counts), one curve per
        value of ``color``.
    classifier : str, optional
        Grouping column that tells classifiers apart: one chosen point, marker and
        confusion matrix each.
    by : str or list of str, optional
        Grouping columns of the table: by default the grouping it carries, with the
        ``classifier=`` column counted as declared (see the glossary).
    pc : float
        The operating point shown first (``controls="pc"``).
    controls : {"pc", "costs"}
        A slider over ``pc`` itself, or sliders for the cost ratio ``C(-|+) / C(+|-)``
        (false negative over false positive cost) and the prevalence ``p(+)``, which set
        ``pc = p * ratio / (p * ratio + 1 - p)`` (as :func:`costchart.pc_from_costs`).
    cost_ratio : float
        The cost ratio shown first (``controls="costs"``), in [0.05, 20].
    p_pos : float, optional
        The prevalence shown first (``controls="costs"``); by default the data's.
        The confusion matrix uses it; with ``controls="pc"`` it uses the data's prevalence.
    name : str, optional
        Prefix of the chart's parameters: ``<name>_pc`` (and ``<name>_ratio``,
        ``<name>_prevalence``). By default it is made from the chart's data and options
        (identical calls give identical specs); give one to read the parameters back
        from ``alt.JupyterChart(chart).params``.
    max_points : int
        ROC points drawn per curve (hull vertices always).
    palette : dict, optional
        Colours of ``classifier``'s values (see :func:`costchart._palette`).
    title, subtitle : str, optional
        The chart's title and subtitle.
    size : int
        Width and height of the ROC and cost views in pixels.
    columns, show_key
        Taken by every chart; the explorer draws one row of views and no key, so it
        refuses ``columns=`` and ``show_key=False``.

    Returns
    -------
    altair.HConcatChart
        The ROC view, the cost view and the confusion matrices, with the parameters at the
        top. Save it as HTML (:func:`costchart.save`) for a page that works offline, or
        wrap it in ``alt.JupyterChart`` in a notebook.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> chart = cc.explorer(points, pc=0.3, name="tree")
    >>> [p["name"] for p in chart.to_dict()["params"]]
    ['tree_pc']
    >>> cc.iso_performance(points, pc=0.3)[["threshold", "fpr", "tpr"]]
       threshold  fpr  tpr
    0        4.0  0.0  0.5
    """
    name = None if name is None else check_name(name)
    one_of(controls, "controls", ("pc", "costs"))
    pc = probability(pc, "pc")
    size = look.size
    whole_number(max_points, "max_points", minimum=2)
    for option, value, why in (
        ("columns", look.columns, "it draws one row of views, never facets"),
        ("show_key", look.key, "it has no key; its views are titled"),
    ):
        if value != getattr(Look, option):
            msg = f"explorer() takes no {option}={value!r}: {why}; leave it out"
            raise CostchartError(msg)
    given = by
    table, by = grouping_of(points, by, "points", declared=(color,))
    check_roles(by, "points", "roc_points", color=color)
    # The input is read once, by thin_points; the hull (thinning keeps every vertex) and
    # the envelope (of the hull) come from the thinned points.
    thinned = cc.thin_points(table, max_points=max_points, by=passed_by(table, given, by))
    if thinned.empty:
        msg = "points has no rows; there is no curve to explore"
        raise CostchartError(msg)
    # A grouping column with one value left (after filtering) tells no curves apart.
    telling = [c for c in by if thinned[c].nunique(dropna=False) > 1]
    if color is None and len(telling) == 1:
        color = telling[0]  # one column tells the curves apart: colour by it
    extra = [c for c in telling if c != color]
    if extra:
        msg = (
            f"the explorer draws one curve per colour value, but {extra} also tell curves "
            f"apart; filter points to one value of each, or pass classifier= (one of {telling})"
        )
        raise CostchartError(msg)
    if name is None:
        options = (color, pc, controls, cost_ratio, p_pos, max_points)
        name = content_name("costchart", table, "explorer", options)
    hull = cc.roc_hull(thinned, by=by)
    vertices = _vertices(hull, by)
    data_prevalence = float(vertices["costchart_prevalence"].iloc[0])
    if controls == "costs":
        ratio = finite_number(cost_ratio, "cost_ratio")
        if not RATIO_RANGE[0] <= ratio <= RATIO_RANGE[1]:
            msg = f"cost_ratio={ratio!r} is outside [{RATIO_RANGE[0]}, {RATIO_RANGE[1]}]"
            raise CostchartError(msg)
        # The data's prevalence, to the slider's step (a reader sees 0.53, not 0.533654).
        prevalence = round(data_prevalence, 2) if p_pos is None else probability(p_pos, "p_pos")
    colors = chart_palette(table[color], look.palette) if color else None

    pc_name = f"{name}_pc"
    params, prevalence_expr = (
        pc_params(pc_name, pc) if controls == "pc" else cost_params(name, ratio, prevalence)
    )

    def colour(frame):
        return base.color_channel(frame, color, base.INK, colors)

    # ROC view -------------------------------------------------------------------------
    curve = thinned[[*by, col.FPR, col.TPR]]
    chosen = (
        alt.Chart(vertices)
        .transform_filter(chosen_rule(pc_name))
        .transform_calculate(
            costchart_pc=pc_name,
            costchart_cost=f"(1 - datum.{col.TPR}) * {pc_name} + datum.{col.FPR} * (1 - {pc_name})",
        )
    )
    iso = iso_line(chosen, pc_name)
    tips = [
        *([alt.Tooltip(**nominal(color))] if color else []),
        alt.Tooltip("costchart_threshold:N", title="threshold"),
        alt.Tooltip(f"{col.FPR}:Q", title="FPR", format=".4f"),
        alt.Tooltip(f"{col.TPR}:Q", title="TPR", format=".4f"),
        alt.Tooltip("costchart_cost:Q", title="normalized expected cost", format=".4f"),
    ]
    roc_hull_table = hull[[*by, col.FPR, col.TPR]]
    roc_view = alt.layer(
        chance(),
        alt.Chart(curve)
        .mark_line(strokeWidth=1.5)
        .encode(x=base.fpr_x(), y=base.tpr_y(), color=colour(curve), order=f"{col.FPR}:Q"),
        alt.Chart(roc_hull_table)
        .mark_line(strokeDash=[6, 3], strokeWidth=1.2)
        .encode(x=base.fpr_x(), y=base.tpr_y(), color=colour(roc_hull_table), order=f"{col.FPR}:Q"),
        iso.mark_rule(strokeDash=[2, 3], strokeWidth=1.5).encode(
            x=alt.X(
                "costchart_x0:Q", scale=alt.Scale(domain=[0, 1], nice=False), title=base.FPR_TITLE
            ),
            y=alt.Y(
                "costchart_y0:Q", scale=alt.Scale(domain=[0, 1], nice=False), title=base.TPR_TITLE
            ),
            x2="costchart_x1:Q",
            y2="costchart_y1:Q",
            color=colour(vertices),
        ),
        chosen.mark_point(size=220, strokeWidth=2.5, filled=False, opacity=1)
        .encode(x=base.fpr_x(), y=base.tpr_y(), color=colour(vertices), tooltip=tips)
        .properties(name=f"{name}_chosen"),
    ).properties(
        width=size, height=size, title="ROC: the hull vertex the iso-performance line touches"
    )

    # Cost view ------------------------------------------------------------------------
    envelope_table = cc.lower_envelope(hull, by=by)
    envelope = envelope_table[[*by, col.PC, col.COST]]
    cost_view = alt.layer(
        trivial_region(),
        trivial(),
        alt.Chart(envelope)
        .mark_line(strokeWidth=2.5)
        .encode(x=base.pc_x(), y=base.cost_y(0.5), color=colour(envelope), order=f"{col.PC}:Q"),
        alt.Chart(pd.DataFrame({"costchart_one": [1]}))
        .transform_calculate(**{col.PC: pc_name})
        .mark_rule(strokeDash=[5, 4], strokeWidth=1.2, color=base.INK)
        .encode(x=base.pc_x()),
        chosen.transform_calculate(costchart_shown="min(datum.costchart_cost, 0.5)")
        .mark_point(size=160, filled=True, opacity=1)
        .encode(
            x=alt.X(
                "costchart_pc:Q", scale=alt.Scale(domain=[0, 1], nice=False), title=base.PC_TITLE
            ),
            y=alt.Y("costchart_shown:Q", scale=base.cost_scale(0.5), title=base.COST_TITLE),
            color=colour(vertices),
            tooltip=tips,
        ),
        key_layer(
            [
                ("ROC curve", "line"),
                ("ROC convex hull", "dashed line"),
                ("iso-performance line at pc", "dotted line"),
                ("chosen threshold", "ring"),
                ("chance diagonal", "chance"),
                ("lower envelope", "bold line"),
                ("trivial classifiers", "trivial"),
                ("worse than a trivial classifier", "region"),
                ("operating point pc", "rule"),
            ]
        ),
    ).properties(width=size, height=size, title="Cost: the envelope at pc")

    # Expected costs and confusion matrices --------------------------------------------
    counts = confusion_counts(chosen, prevalence_expr)
    cell = {
        "x": alt.X(
            "costchart_predicted:N",
            title=None,
            sort=["predicted +", "predicted -"],
            axis=alt.Axis(orient="top", labelAngle=0),
        ),
        "y": alt.Y("costchart_actual:N", title=None, sort=["actual +", "actual -"]),
    }
    matrix = alt.layer(
        # Right and wrong cells in fixed colours: no colour or fill scale, which the
        # classifiers' colours and the key already use.
        counts.transform_filter("test(/^true/, datum.costchart_cell)")
        .mark_rect(stroke="#ffffff", strokeWidth=2, fill="#d9ead3")
        .encode(**cell),
        counts.transform_filter("test(/^false/, datum.costchart_cell)")
        .mark_rect(stroke="#ffffff", strokeWidth=2, fill="#f4cccc")
        .encode(**cell),
        counts.mark_text(fontSize=13).encode(
            **cell, text=alt.Text("costchart_count:Q", format=",.0f")
        ),
    ).properties(width=150, height=90)
    label = f"datum[{json.dumps(str(color))}] + ': ' + " if color else ""
    summary = (
        chosen.transform_calculate(
            costchart_text=(
                f"{label}'threshold ' + datum.costchart_threshold + '\\ncost ' + "
                "format(datum.costchart_cost, '.4f')"
            )
        )
        # Two lines, kept within the panel: one long line (a trivial threshold's name)
        # pushed the legend off the chart.
        .mark_text(align="left", baseline="middle", fontSize=12, limit=260, lineBreak="\n")
        .encode(
            x=alt.value(0),
            y=alt.Y(**nominal(color), axis=None) if color else alt.value(10),
            text="costchart_text:N",
            color=colour(vertices),
        )
        .properties(width=260, height=34 * len(colors or [None]), view={"stroke": None})
    )
    header = (
        alt.Chart(pd.DataFrame({"costchart_one": [1]}))
        .transform_calculate(
            costchart_text=f"'pc = ' + format({pc_name}, '.3f') + ', per 1,000 cases:'"
        )
        .mark_text(align="left", fontSize=13, fontWeight="bold")
        .encode(x=alt.value(0), y=alt.value(8), text="costchart_text:N")
        .properties(width=260, height=16, view={"stroke": None})
    )
    if color:
        matrix = matrix.facet(row=alt.Row(**nominal(color, title=None)))
    panel = alt.vconcat(header, summary, matrix, spacing=8)
    chart = alt.hconcat(roc_view, cost_view, panel)
    # Declared at the top (add_params would push them into the faceted matrices, where
    # altair 6.3 fails on the unnamed layer).
    chart.params = [param.param for param in params]  # type: ignore[misc]
    public = {"points": thinned, "hull": hull, "envelope": envelope_table}
    if look.subtitle is None:  # a plain title, as before subtitles
        chart = chart if look.title is None else chart.properties(title=look.title)
        return register(chart, public)
    return register(titled(chart, look), public)
