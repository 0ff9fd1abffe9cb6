"""Layers that compare two classifiers: their cost difference, and where each is cheaper.

:func:`difference_curve` draws a difference of two cost curves, :func:`zero_rule` its
zero line, :func:`better_regions` and :func:`significance` shade the ``pc`` ranges where
one classifier is cheaper (significantly, for :func:`significance`).
"""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt
import pandas as pd

import costchart as cc
from costchart._cost.geometry import repeat_for
from costchart._io import schema as col
from costchart._io.deprecation import renamed, renamed_pair
from costchart._io.errors import CostchartError
from costchart._io.groups import split_groups
from costchart._io.parameters import checked
from costchart._palette import color_scale
from costchart._vega import nominal, title_text
from costchart.layers._base import INK, PC_TITLE, build, pc_x, read
from costchart.layers._options import data_layer

__all__ = [
    "better_regions",
    "difference_curve",
    "draw_difference_curve",
    "significance",
    "zero_rule",
]


@renamed_pair()
@checked
@data_layer
def difference_curve(
    table,
    *,
    a: str | None = None,
    b: str | None = None,
    tooltip=None,
    mark: Mapping | None = None,
    color: str | None = None,
    detail=None,
    palette: Mapping | None = None,
    legend=None,
    hover=None,
) -> alt.Chart:
    """The difference of two cost curves against ``pc``.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        ``Comparison.difference`` from :func:`costchart._cost.compare`, or a table from
        :func:`costchart.difference_band` (``pc``, ``difference``).
    a, b : str, optional
        The names of the two classifiers compared, for the axis: ``"a - b"``.
    tooltip, mark
        As in :func:`costchart.layers.cost_lines`.
    """
    table = read(table, [col.PC, col.DIFFERENCE], "difference_curve", color=color)
    return draw_difference_curve(**locals())  # checked once; the builder trusts it


def draw_difference_curve(
    table: pd.DataFrame,
    *,
    a: str | None = None,
    b: str | None = None,
    tooltip=None,
    mark: Mapping | None = None,
    color: str | None = None,
    detail=None,
    palette: Mapping | None = None,
    legend=None,
    hover=None,
) -> alt.Chart:
    """:func:`difference_curve` of a checked table (trusted): what the charts call."""
    # Imported here: the band engine (and scipy) loads with the first band, not the
    # first chart.
    from costchart._bands.describe import pair_of

    a, b = pair_of(a, b) or ("a", "b")
    name = f"{a} - {b}"
    return build(
        alt.Chart(table),
        table,
        mark="line",
        style={"color": INK, "strokeWidth": 2},
        encoding={
            "x": pc_x(),
            "y": alt.Y(f"{col.DIFFERENCE}:Q", title=title_text(f"Cost difference, {name}")),
            "order": alt.Order(f"{col.PC}:Q"),
        },
        color=color,
        palette=palette,
        detail=detail,
        legend=legend,
        hover=hover,
        fields=((col.PC, "Q", "pc"), (col.DIFFERENCE, "Q", f"difference, {name}")),
        tooltip=tooltip,
        overrides=mark,
    )


@renamed(panels="facet")
def zero_rule(*, facet: pd.DataFrame | None = None, mark: Mapping | None = None) -> alt.Chart:
    """A horizontal rule at zero (equal cost), for difference charts.

    Parameters
    ----------
    facet, mark
        As in :func:`costchart.layers.trivial` (facet values; mark properties).
    """
    table = repeat_for(pd.DataFrame({"zero": [0.0]}), facet)
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


@checked
@data_layer
def better_regions(
    table,
    *,
    palette: Mapping | None = None,
    mark=None,
    color: str | None = None,
    detail=None,
    legend=None,
    hover=None,
    tooltip=None,
) -> alt.Chart:
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
    table = read(table, [col.PC_LO, col.PC_HI, col.BETTER], "better_regions", color=color)
    split_groups(table, [col.BETTER])  # refuses names that cannot label a region (lists)
    decided = table[table[col.BETTER] != "tie"]
    shared = {"detail": detail, "legend": legend, "hover": hover, "tooltip": tooltip}
    return _regions(decided, color or col.BETTER, "cheaper", palette, mark, **shared)


def _regions(table: pd.DataFrame, name: str, title: str, palette, mark, **shared) -> alt.Chart:
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
            "color": alt.Color(**nominal(name, title=title), scale=scale),
        },
        detail=shared.pop("detail", None) or False,
        fields=((name, "N", title), (col.PC_LO, "Q", "from pc"), (col.PC_HI, "Q", "to pc")),
        overrides=mark,
        **shared,
    )


@renamed_pair()
@checked
@data_layer
def significance(
    table,
    *,
    a: str | None = None,
    b: str | None = None,
    palette: Mapping | None = None,
    mark=None,
    color: str | None = None,
    detail=None,
    legend=None,
    hover=None,
    tooltip=None,
) -> alt.Chart:
    """Shading over the ``pc`` ranges where a difference band shows one classifier cheaper.

    The regions come from :func:`costchart.significant_regions`, each coloured by the
    classifier that is significantly cheaper there.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.difference_band` (``pc``, ``difference``,
        ``significant``), or its regions from :func:`costchart.significant_regions`.
    a, b : str, optional
        The names of the two classifiers compared (default: those the band recorded).
    palette : dict, optional
        Colours of the two names.
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    """
    regions = (
        read(table, [col.PC_LO, col.PC_HI, "cheaper"], "significance")
        if hasattr(table, "columns") and "cheaper" in table.columns
        else cc.significant_regions(table, a=a, b=b)
    )
    name = color or "cheaper"
    if name not in regions.columns:
        msg = f"classifier={name!r} is not a column of the regions: {list(regions.columns)}"
        raise CostchartError(msg)
    shared = {"detail": detail, "legend": legend, "hover": hover, "tooltip": tooltip}
    return _regions(regions, name, "significantly cheaper", palette, mark, **shared)
