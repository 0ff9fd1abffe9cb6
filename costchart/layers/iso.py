"""Iso-performance lines in ROC space: the layer :func:`iso_lines`.

The transformer :func:`costchart.iso_performance` gives the vertices optimal at given
operating conditions as a table; this layer draws the lines through them. Before, the
layer was called ``layers.iso_performance`` as well; that name still works one release.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import numpy as np

from costchart._cost.geometry import iso_performance_lines
from costchart._io import schema as col
from costchart._io.deprecation import future_warning, take_aliases
from costchart._io.errors import CostchartError
from costchart._io.parameters import checked
from costchart._io.validation import probabilities
from costchart.layers._base import (
    INK,
    ROC_AXES,
    Axes,
    build,
    fpr_x,
    read,
    tpr_y,
)
from costchart.layers._options import data_layer

__all__ = ["draw_iso_lines", "iso_lines", "iso_performance"]


def _slopes_to_pc(slopes) -> list[float]:
    try:
        values = np.atleast_1d(np.asarray(slopes, dtype=np.float64))
    except (TypeError, ValueError):
        msg = f"slope={slopes!r} must be numbers of at least 0"
        raise CostchartError(msg) from None
    bad = np.isnan(values) | (values < 0)
    if values.ndim != 1 or bad.any():
        shown = float(values[bad][0]) if values.ndim == 1 and bad.any() else slopes
        msg = f"slope={shown!r} must be numbers of at least 0 (or inf); one slope per line"
        raise CostchartError(msg)
    with np.errstate(divide="ignore"):
        return (1 / (1 + values)).tolist()


@checked
@data_layer
def iso_lines(
    table,
    *,
    slope: float | Sequence[float] | None = None,
    iso: Sequence[float] | None = None,
    color: str | None = None,
    palette: Mapping | None = None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    detail=None,
    hover=None,
) -> alt.Chart:
    """Iso-performance lines in ROC space, each touching the hull at its optimal vertex.

    The lines come from :func:`costchart._cost.geometry.iso_performance_lines`. (The
    transformer :func:`costchart.iso_performance` gives the optimal vertices as a table;
    this layer draws the lines; it was called ``layers.iso_performance`` too.)

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.roc_hull`.
    slope : float or list of float, optional
        Iso-performance slopes ``m = p(-)C(+|-) / (p(+)C(-|+))``.
    iso : list of float, optional
        Operating points ``pc`` instead of slopes (``m = (1 - pc) / pc``), as the charts'
        ``iso=``.
    classifier, palette, legend, tooltip, mark
        As in :func:`costchart.layers.cost_lines`.
    """
    table = read(
        table,
        [col.FPR, col.TPR, col.SLOPE_LO, col.SLOPE_HI],
        "iso_lines",
        color=color,
    )
    return draw_iso_lines(**locals())  # checked once; the builder trusts it


def draw_iso_lines(
    table,
    *,
    axes: Axes = ROC_AXES,
    slope: float | Sequence[float] | None = None,
    iso: Sequence[float] | None = None,
    color: str | None = None,
    palette: Mapping | None = None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    detail=None,
    hover=None,
) -> alt.Chart:
    """:func:`iso_lines` of a checked table (trusted), with a chart's axes (``axes``)."""
    if (slope is None) == (iso is None):
        msg = "iso_lines needs either slope= or iso= (one of them)"
        raise CostchartError(msg)
    if iso is not None:
        values = np.atleast_1d(probabilities(iso, "iso"))
        if values.ndim != 1:
            msg = f"iso={iso!r} must be a list of operating points pc, one per line"
            raise CostchartError(msg)
        conditions = values.tolist()
    else:
        conditions = _slopes_to_pc(slope)
    table = iso_performance_lines(table, conditions)
    return build(
        alt.Chart(table),
        table,
        mark="line",
        style={"strokeDash": [2, 3], "strokeWidth": 1.2},
        encoding={"x": fpr_x(title=axes.x), "y": tpr_y(title=axes.y)},
        color=color,
        fallback=INK,
        palette=palette,
        detail=[c for c in table.columns if c not in (col.SLOPE, col.FPR, col.TPR)]
        if detail is None
        else detail,
        legend=legend,
        hover=hover,
        opacity="strokeOpacity",
        fields=((col.PC, "Q", "iso-performance line of pc"), (col.SLOPE, "Q", "slope")),
        tooltip=tooltip,
        overrides=mark,
        axes=axes,
    )


def iso_performance(table, **options) -> alt.Chart:
    """The deprecated name of :func:`iso_lines` (whose ``pc=`` is ``iso=``).

    :func:`costchart.iso_performance` is the transformer; the layer is ``iso_lines``.
    """
    future_warning(
        "layers.iso_performance is deprecated and will be removed in the next release; "
        "use layers.iso_lines (pc= is iso= there); cc.iso_performance is the transformer"
    )
    take_aliases("iso_lines", options, {"pc": "iso"})
    return iso_lines(table, **options)
