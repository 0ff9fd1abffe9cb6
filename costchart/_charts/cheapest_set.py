"""``cheapest_set_chart``: which classifier is the cheapest where, and which could be.

The cost view draws the classifiers' cost lines and envelopes with the pooled envelope
coloured by its owner (:func:`costchart.cheapest_regions`, as ``cost_chart(show_owners=True)``
does); beneath it, on the same ``pc`` axis, a strip with one row per classifier shows
:func:`costchart.cheapest_set`: a bar wherever the classifier is in the confidence set,
solid where it is the estimated cheapest, pale elsewhere. The ROC view beside it is linked
as in :func:`costchart.roc_cost_chart` (hover a point, pick classifiers in the legend; the
strip follows the legend too).
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers
from costchart._charts._compose import zoom_entries
from costchart._charts._drawn import DIGITS, drawn_tables
from costchart._charts._mark_budget import curve_selections
from costchart._charts._options import Look, check_name, colors_of, ready_chart
from costchart._charts._registry import register
from costchart._charts.cost import cost_layers
from costchart._charts.linked import pairs
from costchart._charts.owners import owner_layers, owner_tables
from costchart._charts.roc import roc_layers
from costchart._cost.geometry import cost_top
from costchart._io import schema as col
from costchart._io.drawable import drawable
from costchart._io.errors import CostchartError
from costchart._io.frames import as_pandas, normalize_by
from costchart._io.parameters import checked
from costchart._io.validation import flag
from costchart._vega import content_name, nominal
from costchart.layers._base import PC_TITLE, build

__all__ = ["STRIP_FROM", "STRIP_TO", "cheapest_set_chart", "strip_rows"]

#: The fields of a strip bar's ends: half-way to the neighbouring ``pc`` examined.
STRIP_FROM, STRIP_TO = "costchart_from", "costchart_to"
#: The key's words for the strip's two kinds of bar.
CHEAPEST_BAR = "estimated cheapest there (solid, its colour)"
#: Opacity of a bar of a classifier in the set that is not the estimated cheapest.
PALE = 0.35
#: Width, in ``pc``, of the bar of a group examined at one ``pc`` only.
LONE_WIDTH = 0.02
#: Height of one classifier's row of the strip, in pixels.
ROW = 16


def strip_rows(table: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """The rows of :func:`costchart.cheapest_set` as the strip draws them.

    A row's ``pc_lo`` and ``pc_hi`` are the first and last ``pc`` examined of its
    interval; the intervals of a group are consecutive runs of them. So that the bars of
    consecutive intervals meet, each bar runs from half-way between the interval's first
    ``pc`` and the previous interval's last (:data:`STRIP_FROM`) to half-way between its
    last ``pc`` and the next interval's first (:data:`STRIP_TO`); at the ends of the
    ``pc`` examined, from and to those ``pc`` themselves (nothing beyond was examined).
    A group examined at one ``pc`` only gets a bar :data:`LONE_WIDTH` wide around it.
    """
    drawn = table.reset_index(drop=True)
    keys = [*by, col.PC_LO, col.PC_HI]
    spans = drawn[keys].drop_duplicates()
    group = (
        spans.groupby(by, sort=False, dropna=False).ngroup().to_numpy()
        if by
        else np.zeros(len(spans), dtype=np.int64)
    )
    lo, hi = spans[col.PC_LO].to_numpy(np.float64), spans[col.PC_HI].to_numpy(np.float64)
    first = np.r_[True, group[1:] != group[:-1]]
    last = np.r_[group[1:] != group[:-1], True]
    start = np.where(first, lo, (np.r_[np.nan, hi[:-1]] + lo) / 2)
    stop = np.where(last, hi, (hi + np.r_[lo[1:], np.nan]) / 2)
    lone = start == stop  # one pc examined in the group: a bar of no width would not show
    start, stop = (
        np.where(lone, lo - LONE_WIDTH / 2, start),
        np.where(lone, hi + LONE_WIDTH / 2, stop),
    )
    ends = spans.assign(**{STRIP_FROM: np.clip(start, 0, 1), STRIP_TO: np.clip(stop, 0, 1)})
    drawn = drawn.merge(ends, on=keys, how="left", validate="many_to_one")
    numbers = [col.PC_LO, col.PC_HI, col.PC, col.DIFFERENCE, col.LOWER, col.UPPER]
    return drawn.round(dict.fromkeys([*numbers, STRIP_FROM, STRIP_TO], DIGITS))


def _strip_layers(strip: pd.DataFrame, *, color: str, colors, legend, level: float):
    """The strip's two layers (pale bars of the set, solid bars of the cheapest), the key."""
    order = list(colors) if colors else sorted(strip[color].unique())
    encoding = {
        "x": alt.X(f"{STRIP_FROM}:Q", title=PC_TITLE, scale=alt.Scale(domain=[0, 1], nice=False)),
        "x2": alt.X2(f"{STRIP_TO}:Q"),
        "y": alt.Y(
            **nominal(color, title=None),
            sort=[v for v in order if v in set(strip[color])],
            axis=alt.Axis(labelLimit=90, ticks=False, domain=False),
        ),
    }
    fields = (
        (col.CHEAPEST, "N", "estimated cheapest"),
        (col.PC_LO, "Q", "from pc"),
        (col.PC_HI, "Q", "to pc"),
        (col.DIFFERENCE, "Q", "cost minus the least cost"),
        (col.PC, "Q", "at pc"),
        (col.LOWER, "Q", "lower bound"),
        (col.UPPER, "Q", "upper bound"),
    )
    stack = []
    for cheapest, base in ((False, PALE), (True, 1.0)):
        chart = alt.Chart(strip).transform_filter(
            f"{'' if cheapest else '!'}datum[{col.CHEAPEST!r}]"
        )
        stack.append(
            build(
                chart,
                strip,
                mark="rect",
                style={},
                encoding=encoding,
                color=color,
                palette=colors,
                detail=False,
                legend=legend,
                opacity="fillOpacity",
                base_opacity=base,
                fields=fields,
            )
        )
    entries = [
        (f"could be the cheapest ({level:.0%} confidence set; pale, its colour)", "pale bar"),
        (CHEAPEST_BAR, "bar"),
    ]
    return stack, entries


@checked
@ready_chart
def cheapest_set_chart(
    data,
    *,
    score: str,
    label: str,
    color: str,
    instance: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    confidence_level: float = 0.9,
    n_resamples: int = 2000,
    rng=None,
    pc=None,
    progress=False,
    roc: bool = True,
    y_max: float | None = None,
    cost_lines: str = "hull",
    max_points: int = 100,
    name: str | None = None,
    look: Look,
) -> alt.HConcatChart | alt.VConcatChart | alt.ConcatChart:
    """Which classifier is the cheapest where, and which the data cannot rule out.

    The cost view draws each classifier's lower envelope and the cost lines of its hull
    vertices, and beneath them their pooled envelope as a wide, pale stroke in the colour
    of the classifier owning each stretch (:func:`cheapest_regions`; grey where a trivial
    classifier is the cheapest, an open dot where the envelope switches classifier).
    Beneath the cost view, on the same ``pc`` axis, a strip with one row per classifier
    draws :func:`cheapest_set`: a bar wherever the classifier is in the confidence set,
    solid where it is the estimated cheapest, pale where it is only not ruled out; its
    tooltip gives the cost difference to the cheapest and its bounds. Where one row
    alone has a bar the data can tell which classifier to use. The ROC view beside it is
    linked as in :func:`roc_cost_chart`: hovering a ROC point highlights its cost line,
    and picking classifiers in the legend fades the others in every view, the strip too.
    With ``by=``, each group gets its panels (a set is found per group).

    Parameters
    ----------
    data : pandas, polars or pyarrow table, or dict of arrays
        Long format: one row per classifier and instance, every classifier scored on the
        same instances (in each group), as for :func:`cheapest_set`.
    score, label, classifier, instance, by, pos_label
        As in :func:`cheapest_set`: the ROC points drawn are
        ``roc_points(data, by=[*by, classifier])``.
    confidence_level, n_resamples, rng, pc, progress
        The confidence set's, as in :func:`cheapest_set`.
    show_roc : bool
        Draw the linked ROC view beside the cost view and strip.
    y_max, max_points, name
        As in :func:`cost_chart`.
    cost_lines : {"hull", "all", "none"}
        Which cost lines the cost view draws, as in :func:`cost_chart`; by default only
        the hull vertices' (the only ones that can be on the envelope).
    palette, title, subtitle, show_key, size
        As in :func:`cost_chart`.
    columns : int, optional
        Panels (a ROC view, a cost view and its strip) per row with ``by=``; by default 1.

    Returns
    -------
    altair.HConcatChart, altair.VConcatChart or altair.ConcatChart

    Examples
    --------
    >>> import numpy as np, pandas as pd, costchart as cc
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([1, 0], 60)
    >>> data = pd.DataFrame({
    ...     "id": np.tile(np.arange(120), 2), "y": np.tile(y, 2),
    ...     "model": np.repeat(["sharp", "weak"], 120),
    ...     "s": np.concatenate([k * y + rng.normal(size=120) for k in (2.5, 0.5)])})
    >>> chart = cc.cheapest_set_chart(data, score="s", label="y", classifier="model",
    ...                               instance="id", pc=np.linspace(0, 1, 21), rng=0)
    >>> table = cc.chart_tables(chart)["cheapest_set"]
    >>> sorted(set(table["model"]))
    ['sharp', 'weak']
    """
    given, roc = y_max, flag(roc, "show_roc")
    by = normalize_by(by)
    if color in col.RESERVED:  # the ROC points are grouped by it: say which argument
        msg = (
            f"the classifier column is named {color!r}, a column costchart writes itself "
            "(the chart groups its ROC points by it); rename it (e.g. to 'model')"
        )
        raise CostchartError(msg)
    frame = as_pandas(data, [*by, color, instance, score, label])  # read once
    found = cc.cheapest_set(
        frame,
        score=score,
        label=label,
        classifier=color,
        instance=instance,
        by=by,
        pos_label=pos_label,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        rng=rng,
        progress=progress,
        pc=pc,
    )
    grouping = [*by, color]
    points = cc.roc_points(frame, score=score, label=label, by=grouping, pos_label=pos_label)
    facet = by[0] if len(by) == 1 else None
    tables = drawn_tables(points, color=color, facet=facet, max_points=max_points, by=grouping)
    y_max = cost_top(given, tables.envelope[col.COST])
    owned = owner_tables(tables, color)
    colors = colors_of(tables.points, color, look)
    strip = drawable(strip_rows(found, by), grouping, "cheapest_set")
    name = (
        check_name(name)
        if name is not None
        else content_name(
            "costchart", tables.points, strip, "cheapest_set", y_max, max_points, cost_lines, roc
        )
    )
    hover, legend = layers.selections([*tables.by, col.LINE], color, name=name)
    curves = curve_selections(tables, name)
    common = {"color": color, "colors": colors, "hover": hover, "legend": legend}
    entries: list = []
    left: list = []
    if roc:
        left, entries = roc_layers(
            tables, **common, iso=None, chance=True, with_legend=True, keys=None, curves=curves
        )
    cost, cost_entries = cost_layers(
        tables,
        **common,
        y_max=y_max,
        ranges=False,
        markers=None,
        cost_lines=cost_lines,
        with_legend=not roc,
        keys=None,
        curves=curves,
        owners=owner_layers(owned, color=color, colors=colors, y_max=y_max),
    )
    if cost_lines == "none" and not roc:
        cost[0] = cost[0].add_params(legend)
    below, strip_entries = _strip_layers(
        strip, color=color, colors=colors, legend=legend, level=float(confidence_level)
    )
    if look.key:
        shown = entries + cost_entries + strip_entries + zoom_entries(given, y_max)
        cost = [*cost, layers.key(shown)]
    keys = tables.points[by].drop_duplicates() if by else None
    values = None
    if keys is not None:
        values = keys[facet].tolist() if facet else list(keys.itertuples(index=False, name=None))
    height = ROW * int(strip[color].nunique()) + 8
    chart = pairs(
        left,
        cost,
        facet=(facet or by) if by else None,
        values=values,
        look=look,
        hover=hover,
        below=(below, height),
    )
    public = dict(tables.public)
    public |= {
        "cheapest_regions": owned.regions,
        "pooled_envelope": owned.envelope,
        "cheapest_set": found,
    }
    return register(chart, public)
