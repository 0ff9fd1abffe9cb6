"""``decision_curve_chart``: net benefit against the threshold probability."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers as cost_layers
from costchart._charts._compose import compose, titled
from costchart._charts._options import Look, check_roles, colors_of, keys_of, ready_chart
from costchart._charts._registry import register
from costchart._io import schema as col
from costchart._io.data_checks import finite_numbers
from costchart._io.drawable import drawable
from costchart._io.errors import CostchartError
from costchart._io.frames import check_unique_columns, infer_by
from costchart._io.parameters import checked
from costchart._io.validation import finite_number, flag
from costchart._vega import content_name, field, nominal, shared_layer
from costchart.layers import key as key_layer
from costchart.layers._base import color_channel
from costchart.layers.cost import draw_envelope

__all__ = ["decision_curve_chart"]


@checked
@ready_chart
def decision_curve_chart(
    table: pd.DataFrame,
    *,
    color: str | None = None,
    facet: str | None = None,
    by: str | Sequence[str] | None = None,
    band: bool = True,
    y_min: float = -0.05,
    points=None,
    look: Look,
) -> alt.LayerChart | alt.FacetChart | alt.HConcatChart:
    """Decision curves: each model's net benefit, with treat-all and treat-none.

    Parameters
    ----------
    table : pandas.DataFrame
        A table from :func:`net_benefit` (its grouping columns, ``strategy``,
        ``threshold``, ``net_benefit``, ``lower``, ``upper``).
    classifier, facet : str, optional
        Grouping columns of ``table`` to colour and to facet by.
    by : str or list of str, optional
        Grouping columns of the table: by default the grouping it carries, with the
        ``classifier=`` and ``facet=`` columns counted as declared (see the glossary).
    show_band : bool
        Draw each model's confidence band.
    y_min : float
        Bottom of the net-benefit axis (curves below it are cut): treat-all falls steeply
        at high thresholds.
    palette, title, subtitle, show_key, size, columns
        As in :func:`cost_chart`.
    points : table, optional
        The ROC points of the same data and groups (:func:`roc_points`). The chart then
        links a cost view beside the decision curves: hovering a threshold probability
        ``t`` marks it, and marks ``pc_t`` -- the operating point it corresponds to -- on
        the lower envelopes (not with ``facet=``).

    Examples
    --------
    >>> import costchart as cc
    >>> from costchart.datasets import load_predictions
    >>> data = load_predictions().query("dataset == 'diabetes'")
    >>> table = cc.net_benefit(data, score="score", label="label", by="classifier")
    >>> chart = cc.decision_curve_chart(table, classifier="classifier")
    """
    needed = [col.STRATEGY, col.THRESHOLD, col.NET_BENEFIT, col.LOWER, col.UPPER]
    if not isinstance(table, pd.DataFrame) or any(c not in table.columns for c in needed):
        msg = f"table must be a net_benefit table with columns {needed}; pass cc.net_benefit(...)"
        raise CostchartError(msg)
    check_unique_columns(list(table.columns), "table")
    for name in (col.THRESHOLD, col.NET_BENEFIT, col.LOWER, col.UPPER):
        finite_numbers(table[name].to_numpy(), f"column {name!r} of table")
    floor = finite_number(y_min, "y_min")
    band = flag(band, "show_band")
    by = infer_by(table, by, name="the net-benefit table", declared=(color, facet))
    check_roles(by, "the net-benefit table", "net_benefit", color=color, facet=facet)
    table = drawable(table, by, "the net-benefit table")  # dates, decimals, ... as text
    model = table[table[col.STRATEGY] == "model"]
    others = table[table[col.STRATEGY] != "model"].copy()
    ceiling = float(np.nanmax(table[col.NET_BENEFIT].to_numpy())) if len(table) else 1.0
    top = max(ceiling * 1.05, floor + 0.01)
    if floor >= top:
        msg = f"y_min={y_min!r} is above every net benefit; pass a smaller y_min"
        raise CostchartError(msg)
    colors = colors_of(model, color, look)
    x = alt.X(
        field(col.THRESHOLD),
        type="quantitative",
        title="Threshold probability",
        scale=alt.Scale(domain=[0, 1]),
    )
    y_scale = alt.Scale(domain=[floor, top], clamp=False)
    y = alt.Y(field(col.NET_BENEFIT), type="quantitative", title="Net benefit", scale=y_scale)
    detail = [alt.Detail(**nominal(c)) for c in by if c not in (color, facet)]
    stack = []
    entries = [("net benefit of the model", "bold line")]
    if band:
        stack.append(
            alt.Chart(model)
            .mark_area(opacity=0.18, clip=True)
            .encode(
                x=x,
                y=alt.Y(field(col.LOWER), type="quantitative", scale=y_scale),
                y2=alt.Y2(field(col.UPPER)),
                color=color_channel(model, color, "#0072B2", colors),
                detail=detail,
            )
        )
        entries.append((_band_entry(table), "band"))
    stack.append(
        alt.Chart(model)
        .mark_line(strokeWidth=2.2, clip=True)
        .encode(x=x, y=y, color=color_channel(model, color, "#0072B2", colors), detail=detail)
    )
    treat_all = others[others[col.STRATEGY] == "all"]
    treat_none = others[others[col.STRATEGY] == "none"]
    stack.append(
        alt.Chart(treat_all)
        .mark_line(color="#555555", strokeDash=[6, 4], strokeWidth=1.4, clip=True)
        .encode(x=x, y=y, detail=[alt.Detail(**nominal(c)) for c in by if c != facet])
    )
    stack.append(
        alt.Chart(treat_none)
        .mark_line(color="#555555", strokeWidth=1.4, clip=True)
        .encode(x=x, y=y, detail=[alt.Detail(**nominal(c)) for c in by if c != facet])
    )
    entries += [("treat all", "dashed line"), ("treat none", "line")]
    if points is None:
        if look.key:
            stack.append(key_layer(entries, facet=keys_of(table, facet)))
        return register(compose(stack, facet=facet, look=look), {"net_benefit": table})
    if facet is not None:
        msg = "points= links a cost view to one panel of decision curves; leave out facet="
        raise CostchartError(msg)
    envelope = cc.lower_envelope(points)
    chart = _linked(stack, entries, model, points, envelope, color, colors, x, y, look)
    return register(chart, {"net_benefit": table, "envelope": envelope})


def _linked(stack, entries, model, points, envelope, color, colors, x, y, look):
    """The decision curves beside the envelopes, linked by the hovered threshold."""
    hover = alt.selection_point(
        name=content_name("costchart_dca", model, points, color),
        fields=[col.THRESHOLD],
        on="pointerover",
        nearest=True,
        empty=False,
        clear="pointerout",
    )
    marker: dict = {"color": "#D55E00", "strokeWidth": 1.5}
    stack.append(
        alt.Chart(model)
        .mark_point(opacity=0, size=300, clip=True)  # unclipped, they would stretch the view
        .encode(x=x, y=y)
        .add_params(hover)
    )
    stack.append(alt.Chart(model).mark_rule(**marker).encode(x=x).transform_filter(hover))
    cost = [
        cost_layers.trivial_region(),
        draw_envelope(envelope, color=color, palette=colors),
        cost_layers.trivial(),
        alt.Chart(model)
        .mark_rule(**marker)
        .encode(x=alt.X(field(col.PC), type="quantitative"))
        .transform_filter(hover),
        alt.Chart(model)
        .mark_text(align="left", dx=4, dy=-6, color="#D55E00")
        .encode(
            x=alt.X(field(col.PC), type="quantitative"),
            y=alt.value(12),
            text=alt.Text(field(col.PC), type="quantitative", format=".3f"),
        )
        .transform_filter(hover),
    ]
    entries = [*entries, ("hovered threshold t / its pc on the cost view", "line")]
    entries += [("lower envelope", "bold line"), ("trivial classifiers", "trivial")]
    if look.key:
        stack.append(key_layer(entries))
    decision = shared_layer(*stack).properties(width=look.size, height=look.size)
    costs = shared_layer(*cost).properties(width=look.size, height=look.size)
    return titled(alt.hconcat(decision, costs).resolve_scale(color="shared"), look)


def _band_entry(table: pd.DataFrame) -> str:
    recorded = getattr(table, "attrs", {}).get("costchart", {})
    level = recorded.get("confidence_level")
    if level is None:
        return "confidence band"
    return f"{100 * level:.4g} % bootstrap band (exact moments)"
