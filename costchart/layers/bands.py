"""Layers of uncertainty and comparison: bands, averages' spread, differences, regions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart._cost.compare import check_names
from costchart._cost.geometry import repeat_for
from costchart._io import schema as col
from costchart._io.groups import split_groups
from costchart._io.parameters import checked
from costchart._io.validation import one_of
from costchart._palette import color_scale
from costchart.layers._base import (
    COST_TITLE,
    INK,
    MUTED,
    ONE_CURVE,
    PC_TITLE,
    build,
    check_y_max,
    cost_scale,
    pc_x,
    read,
)

__all__ = [
    "average_band",
    "band",
    "better_regions",
    "degenerate_ticks",
    "difference_curve",
    "significance",
    "zero_rule",
]


def _between(table: pd.DataFrame, low, high, y_max: float) -> pd.DataFrame:
    """``table`` with the band's ends cut to the axis, ``[0, y_max]``, in the data."""
    return table.assign(
        costchart_low=np.clip(np.asarray(low, dtype=np.float64), 0.0, y_max),
        costchart_high=np.clip(np.asarray(high, dtype=np.float64), 0.0, y_max),
    )


def _area_encoding(y_max: float) -> dict:
    return {
        "x": pc_x(),
        "y": alt.Y("costchart_low:Q", scale=cost_scale(y_max), title=COST_TITLE),
        "y2": alt.Y2("costchart_high:Q"),
    }


@checked
def band(
    table,
    *,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    palette: Mapping | None = None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    y_max: float = 0.5,
) -> alt.Chart:
    """A confidence band as a shaded area (draw its curve with :func:`envelope`).

    Both ends are cut to ``[0, y_max]`` in the data. Area marks take no ``order``
    encoding here: in Vega-Lite it sets the stacking order and breaks an area into slivers.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.bootstrap_band` (``pc``, ``lower``, ``upper``).
    color, detail, palette, legend, tooltip, mark
        As in :func:`costchart.layers.cost_lines`.
    y_max : float
        Top of the cost axis.
    """
    table = read(table, [col.PC, col.LOWER, col.UPPER], "band", color=color)
    return draw_band(**locals())  # checked once; the builder trusts it


def draw_band(
    table: pd.DataFrame,
    *,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    palette: Mapping | None = None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    y_max: float = 0.5,
) -> alt.Chart:
    """:func:`band` of a checked table (trusted): what the charts call."""
    y_max = check_y_max(y_max)
    drawn = _between(table, table[col.LOWER], table[col.UPPER], y_max)
    return build(
        alt.Chart(drawn),
        drawn,
        mark="area",
        style={"fillOpacity": 0.22},
        encoding=_area_encoding(y_max),
        color=color,
        fallback=ONE_CURVE,
        palette=palette,
        detail=detail,
        legend=legend,
        opacity="fillOpacity",
        base_opacity=0.22,
        fields=((col.PC, "Q", "pc"), (col.LOWER, "Q", "lower"), (col.UPPER, "Q", "upper")),
        tooltip=tooltip,
        overrides=mark,
    )


@checked
def degenerate_ticks(
    table,
    *,
    color: str | None = None,
    palette: Mapping | None = None,
    mark: Mapping | None = None,
    y_max: float = 0.5,
) -> alt.Chart:
    """Short ticks along the bottom at every ``pc`` where a band has no width.

    There the bootstrap sees no variability (see ``degenerate`` in
    :func:`costchart.bootstrap_band`), so the band says nothing about the uncertainty.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.bootstrap_band` (``pc``, ``degenerate``).
    color, palette, mark
        As in :func:`costchart.layers.cost_lines`.
    y_max : float
        Top of the cost axis (the ticks are 3 % of it).
    """
    table = read(table, [col.PC, col.DEGENERATE], "degenerate_ticks", color=color)
    return draw_degenerate_ticks(**locals())  # checked once; the builder trusts it


def draw_degenerate_ticks(
    table: pd.DataFrame,
    *,
    color: str | None = None,
    palette: Mapping | None = None,
    mark: Mapping | None = None,
    y_max: float = 0.5,
) -> alt.Chart:
    """:func:`degenerate_ticks` of a checked table (trusted): what the charts call."""
    y_max = check_y_max(y_max)
    drawn = table[table[col.DEGENERATE].eq(True).to_numpy(bool)].assign(
        costchart_low=0.0, costchart_high=0.03 * y_max
    )
    return build(
        alt.Chart(drawn),
        drawn,
        mark="rule",
        style={"strokeWidth": 2.0, "strokeOpacity": 0.7},
        encoding=_area_encoding(y_max),
        color=color,
        fallback=MUTED,
        palette=palette,
        detail=False,
        fields=((col.PC, "Q", "no bootstrap variability at pc"),),
        overrides=mark,
    )


@checked
def average_band(
    table,
    *,
    color: str | None = None,
    palette: Mapping | None = None,
    legend=None,
    spread: str = "range",
    tooltip=None,
    mark: Mapping | None = None,
    y_max: float = 0.5,
) -> alt.Chart:
    """The spread of a vertical average as a shaded band (draw the mean with :func:`envelope`).

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.vertical_average`.
    color, palette, legend, tooltip, mark
        As in :func:`costchart.layers.cost_lines`.
    spread : {"range", "sd"}
        The band from the lowest to the highest curve, or the mean plus and minus one
        standard deviation.
    y_max : float
        Top of the cost axis.
    """
    table = read(
        table,
        [col.PC, col.COST, col.COST_LO, col.COST_HI, col.COST_SD],
        "average_band",
        color=color,
    )
    return draw_average_band(**locals())  # checked once; the builder trusts it


def draw_average_band(
    table: pd.DataFrame,
    *,
    color: str | None = None,
    palette: Mapping | None = None,
    legend=None,
    spread: str = "range",
    tooltip=None,
    mark: Mapping | None = None,
    y_max: float = 0.5,
) -> alt.Chart:
    """:func:`average_band` of a checked table (trusted): what the charts call."""
    y_max = check_y_max(y_max)
    one_of(spread, "spread", ("range", "sd"))  # before comparing: pd.NA has no truth value
    cost = table[col.COST].to_numpy(np.float64)
    if spread == "sd":
        sd = table[col.COST_SD].to_numpy(np.float64)
        drawn = _between(table, cost - sd, cost + sd, y_max)
    else:
        drawn = _between(table, table[col.COST_LO], table[col.COST_HI], y_max)
    return build(
        alt.Chart(drawn),
        drawn,
        mark="area",
        style={"fillOpacity": 0.18},
        encoding=_area_encoding(y_max),
        color=color,
        fallback=INK,
        palette=palette,
        legend=legend,
        opacity="fillOpacity",
        base_opacity=0.18,
        fields=(
            (col.PC, "Q", "pc"),
            (col.COST, "Q", "mean cost"),
            (col.COST_LO, "Q", "lowest"),
            (col.COST_HI, "Q", "highest"),
            (col.COST_SD, "Q", "sd"),
        ),
        tooltip=tooltip,
        overrides=mark,
    )


def difference_curve(
    table,
    *,
    names: Sequence[str] | None = None,
    tooltip=None,
    mark: Mapping | None = None,
) -> alt.Chart:
    """The difference of two cost curves against ``pc``.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        ``Comparison.difference`` from :func:`costchart._cost.compare`, or a table from
        :func:`costchart.difference_band` (``pc``, ``difference``).
    names : (str, str), optional
        The two classifiers, ``a`` and ``b``: the axis says ``"a - b"`` (the default
        names).
    tooltip, mark
        As in :func:`costchart.layers.cost_lines`.
    """
    table = read(table, [col.PC, col.DIFFERENCE], "difference_curve")
    return draw_difference_curve(**locals())  # checked once; the builder trusts it


def draw_difference_curve(
    table: pd.DataFrame,
    *,
    names: Sequence[str] | None = None,
    tooltip=None,
    mark: Mapping | None = None,
) -> alt.Chart:
    """:func:`difference_curve` of a checked table (trusted): what the charts call."""
    a, b = ("a", "b") if names is None else check_names(names)
    name = f"{a} - {b}"
    return build(
        alt.Chart(table),
        table,
        mark="line",
        style={"color": INK, "strokeWidth": 2},
        encoding={
            "x": pc_x(),
            "y": alt.Y(f"{col.DIFFERENCE}:Q", title=f"Cost difference, {name}"),
            "order": alt.Order(f"{col.PC}:Q"),
        },
        fields=((col.PC, "Q", "pc"), (col.DIFFERENCE, "Q", f"difference, {name}")),
        tooltip=tooltip,
        overrides=mark,
    )


def zero_rule(*, panels: pd.DataFrame | None = None, mark: Mapping | None = None) -> alt.Chart:
    """A horizontal rule at zero (equal cost), for difference charts.

    Parameters
    ----------
    panels : pandas.DataFrame, optional
        Facet values to repeat the layer for (one row per panel).
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    """
    table = repeat_for(pd.DataFrame({"zero": [0.0]}), panels)
    return build(
        alt.Chart(table),
        table,
        mark="rule",
        style={"color": INK, "strokeDash": [3, 3]},
        encoding={"y": alt.Y("zero:Q")},
        detail=False,
        tooltip=False,
        overrides=mark,
    )


def better_regions(table, *, palette: Mapping | None = None, mark=None) -> alt.Chart:
    """Shading over the ``pc`` ranges where each of two classifiers is cheaper.

    The rectangles span the panel's height, so the layer goes under a cost chart or a
    difference chart alike.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        ``Comparison.better`` (``pc_lo``, ``pc_hi``, ``better``); ties are not shaded.
    palette : dict, optional
        Colours of the two names.
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    """
    table = read(table, [col.PC_LO, col.PC_HI, col.BETTER], "better_regions")
    split_groups(table, [col.BETTER])  # refuses names that cannot label a region (lists)
    decided = table[table[col.BETTER] != "tie"]
    return _regions(decided, col.BETTER, "cheaper", palette, mark)


def _regions(table: pd.DataFrame, name: str, title: str, palette, mark) -> alt.Chart:
    scale = color_scale(table[name], palette)
    return build(
        alt.Chart(table),
        table,
        mark="rect",
        style={"fillOpacity": 0.15},
        encoding={
            "x": alt.X(
                f"{col.PC_LO}:Q", title=PC_TITLE, scale=alt.Scale(domain=[0, 1], nice=False)
            ),
            "x2": alt.X2(f"{col.PC_HI}:Q"),
            "color": alt.Color(f"{name}:N", title=title, scale=scale),
        },
        detail=False,
        fields=((name, "N", title), (col.PC_LO, "Q", "from pc"), (col.PC_HI, "Q", "to pc")),
        overrides=mark,
    )


def significance(
    table, *, names: Sequence[str] | None = None, palette: Mapping | None = None, mark=None
) -> alt.Chart:
    """Shading over the ``pc`` ranges where a difference band shows one classifier cheaper.

    The regions come from :func:`costchart.significant_regions`, each coloured by the
    classifier that is significantly cheaper there.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.difference_band` (``pc``, ``difference``,
        ``significant``), or its regions from :func:`costchart.significant_regions`.
    names : (str, str), optional
        The names of ``a`` and ``b`` (default: those the band recorded).
    palette : dict, optional
        Colours of the two names.
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    """
    regions = (
        read(table, [col.PC_LO, col.PC_HI, "cheaper"], "significance")
        if hasattr(table, "columns") and "cheaper" in table.columns
        else cc.significant_regions(table, names=names)
    )
    return _regions(regions, "cheaper", "significantly cheaper", palette, mark)
