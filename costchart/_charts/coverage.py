"""The coverage chart: how often each band covered the truth, against ``pc``.

It draws a coverage table of the simulations in :mod:`costchart._bands.coverage`
(:func:`~costchart.coverage_grid`, :func:`~costchart.band_coverage`,
:func:`~costchart.difference_coverage`), not classifiers' predictions, so it takes its
own ``color=`` (the setting drawn as distinct lines) and panel size.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from costchart._io.drawable import drawable
from costchart._io.errors import CostchartError
from costchart._io.frames import require_columns
from costchart._io.parameters import checked
from costchart._io.tables import numbers, read_table
from costchart._io.validation import column_name
from costchart._vega import field

__all__ = ["coverage_chart"]


@checked
def coverage_chart(
    table: pd.DataFrame,
    *,
    color: str,
    facet: str,
    confidence_level: float = 0.9,
    columns: int | None = None,
    title: str | None = None,
    subtitle: str | None = None,
) -> alt.FacetChart:
    """Coverage against ``pc``: one line per value of ``color``, one panel per ``facet``.

    A dashed grey rule marks the target ``confidence_level``. ``table`` is a coverage table (from
    :func:`coverage_grid`, :func:`band_coverage` or :func:`difference_coverage`).

    Examples
    --------
    >>> from costchart import band_coverage, coverage_chart, coverage_grid
    >>> table = coverage_grid(
    ...     band_coverage, settings={"mu": [1.5, 3.0], "interval": ["normal", "discrete"]},
    ...     n_per_class=50, simulations=10, pc=[0.3, 0.5, 0.7], rng=0,
    ... )
    >>> chart = coverage_chart(table, color="interval", facet="mu")
    """
    data = drawable(_read(table, color, facet), [color, facet], "the coverage table")
    for name in (color, facet):
        data[name] = data[name].map(
            lambda value: f"{value:g}" if isinstance(value, float) else str(value)
        )
    dashes = [[1, 0], [6, 3], [2, 2], [8, 3, 2, 3]]
    values = list(dict.fromkeys(data[color]))
    colours = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7"]
    legend = color.replace("_", " ")
    lines = (
        alt.Chart()
        .mark_line(strokeWidth=1.6)
        .encode(
            x=alt.X("pc:Q", title="Probability cost, PC(+)"),
            y=alt.Y(
                "coverage:Q",
                title=f"Coverage of the {100 * confidence_level:g} % band",
                scale=alt.Scale(domain=[0, 1]),
            ),
            color=alt.Color(
                field=field(color),
                type="nominal",
                title=legend,
                scale=alt.Scale(domain=values, range=colours[: len(values)]),
            ),
            strokeDash=alt.StrokeDash(
                field=field(color),
                type="nominal",
                title=legend,
                scale=alt.Scale(domain=values, range=[dashes[i % 4] for i in range(len(values))]),
            ),
        )
    )
    target = (
        alt.Chart()
        .mark_rule(color="#444444", strokeDash=[4, 4])
        .encode(y=alt.datum(confidence_level))
    )
    chart = (
        alt.layer(lines, target, data=data)
        .properties(width=240, height=160)
        .facet(
            facet=alt.Facet(
                field=field(facet),
                type="nominal",
                title=facet.replace("_", " "),
                sort=list(dict.fromkeys(data[facet])),  # the order of the runs
            ),
            columns=2 if columns is None else columns,
        )
    )
    if title:
        chart = chart.properties(title=alt.Title(title, subtitle=subtitle or ""))
    return chart


def _read(table, color, facet) -> pd.DataFrame:
    """``table`` as a pandas copy with ``pc``, ``coverage`` (numbers), ``color``, ``facet``."""
    for value, name in ((color, "color"), (facet, "facet")):
        if not isinstance(column_name(value, name), str):
            msg = f"{name}={value!r} must be a column name (a string) of the coverage table"
            raise CostchartError(msg)
    data = read_table(table, "the coverage table").copy()
    require_columns(
        data.columns,
        ["pc", "coverage", color, facet],
        "the coverage table",
        "Pass a table from coverage_grid, band_coverage or difference_coverage, and name "
        "its columns as color= and facet=.",
    )
    for name in ("pc", "coverage"):
        numbers(data, name, "the coverage table")
    # Only the drawn columns go into the page (another column may have any name).
    return data[list(dict.fromkeys(["pc", "coverage", color, facet]))]
