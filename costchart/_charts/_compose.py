"""The last step of a ready-made chart: its key, its facets and its title.

:func:`with_key` adds the key layer (with :func:`zoom_entries`, its note of a fitted cost
axis), :func:`compose` layers the stack over one data set and facets it
(:func:`panels_per_row`), :func:`titled` gives the title and subtitle.
"""

from __future__ import annotations

import json

import altair as alt

from costchart import layers
from costchart._charts._options import PANELS_PER_ROW, Look
from costchart._cost.geometry import COST_TOP
from costchart._vega import nominal, shared_layer

__all__ = ["compose", "panels_per_row", "titled", "with_key", "zoom_entries"]


def zoom_entries(y_max, top: float) -> list[tuple[str, str]]:
    """The key's note of a cost axis fitted below 0.5: ``y_max`` as given, ``top`` drawn.

    With ``y_max=None`` the cost axis is fitted to the curves drawn
    (:func:`costchart._cost.geometry.fitted_top`); where that stops it below the papers'
    0.5, the key says so, since charts side by side may then differ in scale.
    """
    if y_max is None and top < COST_TOP:
        return [(f"cost axis to {top:g}, fitted to the curves", "note")]
    return []


def titled(chart, look: Look):
    if look.title is None:
        return chart
    title = alt.Title(look.title, subtitle=look.subtitle if look.subtitle else alt.Undefined)
    return chart.properties(title=title)


def with_key(stack, entries, look: Look, keys):
    return [*stack, layers.key(entries, facet=keys)] if look.key and entries else stack


def panels_per_row(panels: int | None) -> int:
    """Facet panels per row when ``columns=None``: a full grid where one exists.

    Up to 3 panels sit in one row, 4 in a 2 x 2 grid (no row of one panel beside empty
    cells with bare axes), more in rows of :data:`PANELS_PER_ROW`.
    """
    if panels is None:
        return PANELS_PER_ROW
    return panels if panels <= PANELS_PER_ROW else 2 if panels == 4 else PANELS_PER_ROW


def compose(stack, *, facet, look: Look, panels: int | None = None):
    # The data always goes to the top: facets need it there, and the combined data set is
    # free of Altair's 5,000-row limit on frames (many curves' hull vertices exceed it).
    chart = shared_layer(*stack).properties(width=look.size, height=look.size)
    if facet:
        columns = panels_per_row(panels) if look.columns is None else look.columns
        # The header names the column, so a panel reads "dataset: sonar", not just "sonar".
        # Parenthesised: Vega-Lite pastes a conditional in place of datum.label.
        header = alt.Header(labelExpr=f"{json.dumps(str(facet) + ': ')} + (datum.label)")
        chart = chart.facet(
            facet=alt.Facet(**nominal(facet, title=None), header=header), columns=columns
        )
    return titled(chart, look)
