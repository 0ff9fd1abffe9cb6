"""``pr_chart``: precision-recall curves, correctly interpolated, with the hull's frontier."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt

import costchart as cc
from costchart._charts._compose import compose
from costchart._charts._drawn import grouping_of, passed_by
from costchart._charts._options import Look, check_roles, colors_of, keys_of, ready_chart
from costchart._charts._registry import register
from costchart._io import schema as col
from costchart._io.parameters import checked
from costchart._io.validation import flag
from costchart._vega import field, nominal
from costchart.layers import key as key_layer
from costchart.layers._base import color_channel

__all__ = ["pr_chart"]


@checked
@ready_chart
def pr_chart(
    points,
    *,
    color: str | None = None,
    facet: str | None = None,
    by: str | Sequence[str] | None = None,
    hull: bool = True,
    steps: int = 20,
    max_points: int = 100,
    look: Look,
) -> alt.LayerChart | alt.FacetChart:
    """Precision against recall, interpolated as Davis and Goadrich showed.

    Parameters
    ----------
    points : table
        ROC points with counts (e.g. :func:`roc_points` with ``by=``).
    classifier, facet : str, optional
        Grouping columns to colour by and to facet by.
    by : str or list of str, optional
        Grouping columns of the table: by default the grouping it carries, with the
        ``classifier=`` and ``facet=`` columns counted as declared (see the glossary).
    show_hull : bool
        Also draw the ROC convex hull mapped into PR space (dashed): the best precision
        reachable at each recall by choosing and mixing thresholds.
    steps : int
        Interpolated points drawn inside each segment (see :func:`pr_curve`).
    max_points : int
        Points drawn per curve (:func:`thin_points` keeps the hull vertices exactly); the
        interpolation then runs between the points kept.
    palette, title, subtitle, show_key, size, columns
        As in :func:`cost_chart`.

    Returns
    -------
    altair.LayerChart or altair.FacetChart

    Examples
    --------
    >>> import costchart as cc
    >>> from costchart.datasets import load_predictions
    >>> data = load_predictions().query("dataset == 'sonar'")
    >>> points = cc.roc_points(data, score="score", label="label", by="classifier")
    >>> chart = cc.pr_chart(points, classifier="classifier")
    """
    hull = flag(hull, "show_hull")
    given = by
    table, by = grouping_of(points, by, "points", declared=(color, facet))
    check_roles(by, "points", "roc_points", color=color, facet=facet)
    drawn = cc.thin_points(table, max_points=max_points, by=passed_by(table, given, by))
    colors = colors_of(drawn, color, look)
    curve = cc.pr_curve(drawn, by=by, steps=steps)
    dots = cc.pr_points(drawn, by=by)
    public = {"points": drawn, "pr_curve": curve, "pr_points": dots}
    encode_x = alt.X(
        field(col.RECALL),
        type="quantitative",
        title="Recall (true positive rate)",
        scale=alt.Scale(domain=[0, 1]),
    )
    encode_y = alt.Y(
        field(col.PRECISION), type="quantitative", title="Precision", scale=alt.Scale(domain=[0, 1])
    )
    detail = [alt.Detail(**nominal(c)) for c in by if c not in (color, facet)]
    colour = color_channel(curve, color, "#0072B2", colors)
    stack = [
        alt.Chart(curve)
        .mark_line(strokeWidth=1.8)
        .encode(x=encode_x, y=encode_y, color=colour, detail=detail),
        alt.Chart(dots)
        .mark_point(filled=True, size=18, opacity=0.6)
        .encode(
            x=encode_x,
            y=encode_y,
            color=color_channel(dots, color, "#0072B2", colors),
            detail=detail,
        ),
    ]
    entries = [("PR curve (interpolated between points)", "line"), ("ROC points", "dot")]
    if hull:
        vertices = cc.roc_hull(drawn, by=by)  # thinning keeps every hull vertex
        frontier = cc.pr_curve(vertices, by=by, steps=steps)
        public |= {"hull": vertices, "hull_pr_curve": frontier}
        stack.append(
            alt.Chart(frontier)
            .mark_line(strokeDash=[6, 4], strokeWidth=1.2)
            .encode(
                x=encode_x,
                y=encode_y,
                color=color_channel(frontier, color, "#444444", colors),
                detail=detail,
            )
        )
        entries.append(("ROC convex hull in PR space", "dashed line"))
    if look.key:
        stack.append(key_layer(entries, facet=keys_of(drawn, facet)))
    return register(compose(stack, facet=facet, look=look), public)
