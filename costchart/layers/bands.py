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
    cost_scale,
    cost_top,
    details,
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


def average_spread(table: pd.DataFrame, spread: str) -> tuple[np.ndarray, np.ndarray]:
    """The lower and upper edges of a vertical average's ``spread`` ("range" or "sd")."""
    if spread == "sd":
        cost = table[col.COST].to_numpy(np.float64)
        sd = table[col.COST_SD].to_numpy(np.float64)
        return cost - sd, cost + sd
    return table[col.COST_LO].to_numpy(np.float64), table[col.COST_HI].to_numpy(np.float64)


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
    y_max: float | None = None,
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
    y_max : float, optional
        Top of the cost axis. By default (``None``) fitted to the band's upper edge and
        its curve (see the glossary, "The top of the cost axis").
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
    y_max: float | None = None,
    hover=None,
) -> alt.Chart:
    """:func:`band` of a checked table (trusted): what the charts call."""
    y_max = cost_top(y_max, *_curves(table))
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
    y_max: float | None = None,
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
    y_max : float, optional
        Top of the cost axis (the marks are 3 % of it tall). By default (``None``)
        fitted as :func:`band` is, to the table's ``upper`` and ``cost`` where it has them.
    """
    table = read(table, [col.PC, col.DEGENERATE], "degenerate_ticks", color=color)
    return draw_degenerate_ticks(**locals())  # checked once; the builder trusts it


def draw_degenerate_ticks(
    table: pd.DataFrame,
    *,
    color: str | None = None,
    palette: Mapping | None = None,
    mark: Mapping | None = None,
    y_max: float | None = None,
    detail=None,
    legend=None,
    hover=None,
    tooltip=None,
) -> alt.Chart:
    """:func:`degenerate_ticks` of a checked table (trusted): what the charts call."""
    y_max = cost_top(y_max, *_curves(table))
    keys = [*([color] if color else []), *details(table, color, None)]
    drawn = zero_width_marks(table, keys, 0.03 * y_max)
    encoding = {**_area_encoding(y_max), "x2": alt.X2(f"{_RUN_END}:Q")}
    return build(
        alt.Chart(drawn),
        drawn,
        mark="rule",
        style={"strokeWidth": 1.2, "strokeOpacity": 0.8},
        encoding=encoding,
        color=color,
        fallback=MUTED,
        palette=palette,
        detail=detail or False,
        legend=legend,
        hover=hover,
        fields=(
            (_RUN_START, "Q", "no bootstrap variability from pc"),
            (_RUN_END, "Q", "to pc"),
        ),
        tooltip=tooltip,
        overrides=mark,
    )


#: Where a stretch of zero width starts and ends (a lone ``pc``: both at it).
_RUN_START, _RUN_END = "costchart_run_start", "costchart_run_end"


def zero_width_marks(table: pd.DataFrame, keys: list, height: float) -> pd.DataFrame:
    """The rules that show where a band has no width, ``height`` tall, per curve.

    A lone ``pc`` of zero width (``degenerate``) gets a tick from 0 to ``height``; a run
    of consecutive ones (in ``pc`` order, within each curve of ``keys``) gets a thin line
    at ``height`` from its first ``pc`` to its last, with a tick at each end. A band of
    zero width everywhere (a perfect classifier) is then one thin line along the axis,
    not a tick at every grid point, which looked like a solid bar. Each rule runs from
    (``pc``, ``costchart_low``) to (``costchart_run_end``, ``costchart_high``).
    """
    parts = table.groupby(keys, sort=False, dropna=False) if keys else [((), table)]
    marks = []
    for _, part in parts:
        part = part.sort_values(col.PC, kind="stable")
        zero = part[col.DEGENERATE].eq(True).to_numpy(bool)
        edges = np.diff(np.concatenate([[0], zero.astype(np.int8), [0]]))
        starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1
        pc = part[col.PC].to_numpy(np.float64)
        runs = part.iloc[starts].assign(**{_RUN_START: pc[starts], _RUN_END: pc[ends]})
        long = runs[ends > starts]
        marks += [
            runs.assign(**{col.PC: pc[starts], "costchart_low": 0.0}),  # a tick at each start
            long.assign(**{col.PC: long[_RUN_END], "costchart_low": 0.0}),  # and end
            long.assign(**{col.PC: long[_RUN_START], "costchart_low": height}),  # the line
        ]
    marks = [m for m in marks if len(m)] or [
        table.iloc[:0].assign(**{_RUN_START: 0.0, _RUN_END: 0.0, "costchart_low": 0.0})
    ]
    drawn = pd.concat(marks, ignore_index=True)
    ticks = drawn["costchart_low"].eq(0.0).to_numpy(bool)
    return drawn.assign(
        costchart_high=height,
        **{_RUN_END: np.where(ticks, drawn[col.PC], drawn[_RUN_END])},
    )


def _curves(table: pd.DataFrame) -> list[pd.Series]:
    """What ``y_max=None`` fits of a band table: its curve and its upper edge."""
    return [table[c] for c in (col.COST, col.UPPER) if c in table.columns]


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
    y_max: float | None = None,
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
    y_max : float, optional
        Top of the cost axis. By default (``None``) fitted to the mean and the top of the
        spread (see the glossary, "The top of the cost axis").
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
    y_max: float | None = None,
    detail=None,
    hover=None,
) -> alt.Chart:
    """:func:`average_band` of a checked table (trusted): what the charts call."""
    one_of(spread, "spread", ("range", "sd"))  # before comparing: pd.NA has no truth value
    low, high = average_spread(table, spread)
    y_max = cost_top(y_max, table[col.COST], high)
    drawn = _between(table, low, high, y_max)
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
