"""Layers of uncertainty: confidence bands, an average's spread, zero-width ticks.

The layers that compare two classifiers are in :mod:`costchart.layers.difference`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.parameters import checked
from costchart._io.validation import one_of
from costchart.layers._base import (
    COST_TITLE,
    INK,
    MUTED,
    ONE_CURVE,
    build,
    check_y_max,
    cost_scale,
    pc_x,
    read,
)
from costchart.layers._options import data_layer
from costchart.layers.difference import (  # where they were, before the split
    better_regions,
    difference_curve,
    significance,
    zero_rule,
)

__all__ = [
    "average_band",
    "band",
    "better_regions",
    "degenerate_ticks",
    "difference_curve",
    "draw_average_band",
    "draw_band",
    "draw_degenerate_ticks",
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
@data_layer
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
    hover=None,
) -> alt.Chart:
    """A confidence band as a shaded area (draw its curve with :func:`envelope`).

    Both ends are cut to ``[0, y_max]`` in the data. Area marks take no ``order``
    encoding here: in Vega-Lite it sets the stacking order and breaks an area into slivers.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.bootstrap_band` (``pc``, ``lower``, ``upper``).
    classifier, by, palette, legend, tooltip, mark
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
    hover=None,
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
        hover=hover,
        opacity="fillOpacity",
        base_opacity=0.22,
        fields=((col.PC, "Q", "pc"), (col.LOWER, "Q", "lower"), (col.UPPER, "Q", "upper")),
        tooltip=tooltip,
        overrides=mark,
    )


@checked
@data_layer
def degenerate_ticks(
    table,
    *,
    color: str | None = None,
    palette: Mapping | None = None,
    mark: Mapping | None = None,
    y_max: float = 0.5,
    detail=None,
    legend=None,
    hover=None,
    tooltip=None,
) -> alt.Chart:
    """Short ticks along the bottom at every ``pc`` where a band has no width.

    There the bootstrap sees no variability (see ``degenerate`` in
    :func:`costchart.bootstrap_band`), so the band says nothing about the uncertainty.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.bootstrap_band` (``pc``, ``degenerate``).
    classifier, palette, mark
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
    detail=None,
    legend=None,
    hover=None,
    tooltip=None,
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
        detail=detail or False,
        legend=legend,
        hover=hover,
        fields=((col.PC, "Q", "no bootstrap variability at pc"),),
        tooltip=tooltip,
        overrides=mark,
    )


@checked
@data_layer
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
    detail=None,
    hover=None,
) -> alt.Chart:
    """The spread of a vertical average as a shaded band (draw the mean with :func:`envelope`).

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.vertical_average`.
    classifier, palette, legend, tooltip, mark
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
    detail=None,
    hover=None,
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
        detail=detail,
        legend=legend,
        hover=hover,
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
