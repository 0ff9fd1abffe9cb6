"""Which classifier owns each stretch of the envelope: ``cost_chart(show_owners=True)``.

The classifiers of a panel are pooled (:func:`costchart.cheapest_regions` of the chart's
points, by every grouping column but ``classifier=``); each interval of that table is
drawn along the pooled envelope (:func:`costchart.lower_envelope`, whose vertices give the
costs at the interval's ends) as a wide, pale stroke in its owner's colour, beneath the
classifiers' own lines; the trivial classifiers' stretches in grey; and each mixture (the
envelope passing from one classifier to another) as an open dot.
"""

from __future__ import annotations

from dataclasses import dataclass

import altair as alt
import pandas as pd

import costchart as cc
from costchart._charts._drawn import DIGITS, ChartTables
from costchart._cost.geometry import cut_curve
from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._palette import color_scale
from costchart._vega import nominal
from costchart.layers._base import MUTED, cost_y, pc_x

__all__ = ["OWNED", "Owners", "owner_layers", "owner_tables"]

#: The field numbering the stretches drawn (one line each).
STRETCH = "costchart_stretch"
#: The key's words for what the owner layers draw.
OWNED = "cheapest of all classifiers (its colour)"
TRIVIAL_OWNED = "cheapest: a trivial classifier"
MIXED = "mixture of two classifiers (switch)"
#: How wide and pale a stretch is drawn: a highlighter under the classifiers' lines.
WIDTH, OPACITY = 9.0, 0.45


@dataclass(frozen=True)
class Owners:
    """The public tables the owner layers draw, and the pooled grouping."""

    regions: pd.DataFrame  # cheapest_regions of the chart's points
    envelope: pd.DataFrame  # lower_envelope of the same points, pooled the same way
    by: list[str]  # the grouping each panel's classifiers are pooled in


def owner_tables(tables: ChartTables, color: str | None) -> Owners:
    """:func:`costchart.cheapest_regions` and the pooled envelope of the chart's points.

    The points drawn keep every hull vertex, so both are exact.
    """
    if not color:
        msg = (
            "show_owners=True colours the envelope by the classifier owning each stretch: "
            "pass classifier= (the column naming the classifiers)"
        )
        raise CostchartError(msg)
    points = tables.public["points"]
    pooled = [c for c in tables.by if c != color]
    return Owners(
        cc.cheapest_regions(points, by=pooled), cc.lower_envelope(points, by=pooled), pooled
    )


def stretches(owners: Owners, color: str) -> pd.DataFrame:
    """Two rows per interval that is not a mixture: its ends, at the envelope's cost there.

    The ends are envelope vertices (both tables come from one hull), so the costs are
    joined on the grouping and the exact ``pc``.
    """
    by, regions = owners.by, owners.regions
    single = regions[regions[col.CHOICE] != "mixture"].reset_index(drop=True)
    single = single.assign(**{STRETCH: range(len(single))})
    vertices = owners.envelope[[*by, col.PC, col.COST]]
    ends = []
    for side in (col.PC_LO, col.PC_HI):
        end = single[[*by, color, col.CHOICE, col.THRESHOLD, STRETCH, side]].rename(
            columns={side: col.PC}
        )
        ends.append(end.merge(vertices, on=[*by, col.PC], how="left", validate="many_to_one"))
    drawn = pd.concat(ends, ignore_index=True).sort_values([STRETCH, col.PC], kind="stable")
    return drawn.reset_index(drop=True).round({col.PC: DIGITS, col.COST: DIGITS})


def owner_layers(
    owners: Owners, *, color: str, colors: dict | None, y_max: float
) -> tuple[list[alt.Chart], list[alt.Chart], list[tuple[str, str] | tuple[str, str, str]]]:
    """The layers beneath the lines (the stretches), above them (the mixtures), the key."""
    drawn = stretches(owners, color)
    owned = drawn[drawn[col.CHOICE] == "threshold"]
    trivial = drawn[drawn[col.CHOICE] != "threshold"]
    mixtures = owners.regions[owners.regions[col.CHOICE] == "mixture"]
    scale = color_scale(list(colors) if colors else sorted(owned[color].unique()), colors)
    layers: list[alt.Chart] = []
    above: list[alt.Chart] = []
    entries: list[tuple[str, str] | tuple[str, str, str]] = []
    detail = [alt.Detail(**nominal(c)) for c in [*owners.by, STRETCH]]
    if len(owned):
        cut = cut_curve(owned, y_max=y_max, by=[*owners.by, STRETCH])
        layers.append(
            alt.Chart(cut)
            .mark_line(strokeWidth=WIDTH, strokeOpacity=OPACITY, strokeCap="butt")
            .encode(
                x=pc_x(),
                y=cost_y(y_max),
                color=alt.Color(**nominal(color), scale=scale),
                detail=detail,
                order=alt.Order(f"{col.PC}:Q"),
            )
        )
        entries.append((OWNED, "wide line"))
    if len(trivial):
        cut = cut_curve(trivial, y_max=y_max, by=[*owners.by, STRETCH])
        layers.append(
            alt.Chart(cut)
            .mark_line(strokeWidth=WIDTH, strokeOpacity=OPACITY, strokeCap="butt", color=MUTED)
            .encode(x=pc_x(), y=cost_y(y_max), detail=detail, order=alt.Order(f"{col.PC}:Q"))
        )
        entries.append((TRIVIAL_OWNED, "wide line", MUTED))
    if len(mixtures):
        shown = mixtures[mixtures[col.COST_LO] <= y_max]
        second = f"{color}_2"
        tips = [
            alt.Tooltip(**nominal(color), title="below pc"),
            alt.Tooltip(**nominal(second), title="above pc"),
            alt.Tooltip(f"{col.PC}:Q", title="pc", format=".4f"),
            alt.Tooltip(f"{col.COST}:Q", title="cost", format=".4f"),
        ]
        points = (
            shown[[*owners.by, color, second, col.PC_LO, col.COST_LO]]
            .rename(columns={col.PC_LO: col.PC, col.COST_LO: col.COST})
            .round({col.PC: DIGITS, col.COST: DIGITS})
        )
        above.append(
            alt.Chart(points)
            .mark_point(filled=True, fill="white", stroke="#222222", strokeWidth=1.5, size=55)
            .encode(x=pc_x(), y=cost_y(y_max), tooltip=tips)
        )
        entries.append((MIXED, "open dot"))
    return layers, above, entries
