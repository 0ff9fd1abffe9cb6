"""``band_chart`` and ``difference_chart``: cost curves with their bootstrap bands.

This module holds :func:`band_chart`, a cost curve with its confidence band from
:func:`costchart.bootstrap_band`, and :func:`difference_chart`, the cost difference of
two classifiers from :func:`costchart.difference_band` with its band and the shading
where one is significantly cheaper.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt

import costchart as cc
from costchart import layers
from costchart._charts._compose import compose, with_key, zoom_entries
from costchart._charts._options import Look, check_roles, colors_of, keys_of, ready_chart
from costchart._charts._registry import register
from costchart._cost.geometry import cost_top
from costchart._io import schema as col
from costchart._io.deprecation import renamed_pair
from costchart._io.errors import CostchartError, warn
from costchart._io.frames import carry_grouping, infer_by
from costchart._io.parameters import checked
from costchart._palette import chart_palette
from costchart._vega import title_text
from costchart.layers import _base as layers_base
from costchart.layers.bands import draw_band, draw_degenerate_ticks
from costchart.layers.cost import draw_envelope
from costchart.layers.difference import draw_difference_curve

__all__ = ["band_chart", "difference_chart"]


def _band_entry(table) -> str:
    """The band's key entry from its description; warns when it has none."""
    from costchart._bands.describe import recorded_level  # loads with the first band

    if recorded_level(table) is None:
        warn(
            "the band does not record its level and method (it went through another "
            "library, a merge or a concatenation); the key says 'confidence band': pass "
            "band_label= to name it"
        )
    return cc.band_label(table)


@checked
@ready_chart
def band_chart(
    table,
    *,
    color: str | None = None,
    facet: str | None = None,
    by: str | Sequence[str] | None = None,
    y_max: float | None = None,
    band_label: str | None = None,
    look: Look,
) -> alt.LayerChart | alt.FacetChart:
    """A cost curve with its confidence band, over the trivial classifiers, with a key.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A band table from :func:`costchart.bootstrap_band` or
        :func:`costchart.confusion_band`.
    classifier, facet : str, optional
        Grouping columns for colour and panels.
    by : str or list of str, optional
        Grouping columns of the table: by default the grouping it carries, with the
        ``classifier=`` and ``facet=`` columns counted as declared (see the glossary).
    y_max : float, optional
        Top of the cost axis; the band and curve are cut there. By default (``None``)
        fitted as in :func:`cost_chart`, to the curves and the band's upper edge, so the
        whole band shows (up to 0.5; a band reaching above is cut there).
    band_label : str, optional
        The band's key entry; by default what the band recorded about itself (e.g.
        ``"90 % exact bootstrap band"``, see :func:`costchart.band_label`).
    palette, title, subtitle, show_key, size, columns
        As in :func:`cost_chart`.
    """
    given = y_max
    if band_label is not None and (not isinstance(band_label, str) or not band_label):
        msg = f"band_label={band_label!r} must be a non-empty string (the band's key entry)"
        raise CostchartError(msg)
    source = table
    table = layers_base.read(table, [col.PC, col.COST, col.LOWER, col.UPPER], "band_chart")
    label = band_label or _band_entry(source)
    by = infer_by(table, by, name="band", declared=(color, facet))
    check_roles(by, "band", "bootstrap_band", color=color, facet=facet)
    table = carry_grouping(table.copy(deep=False), by)  # what the layers read
    if table.empty:
        msg = "band has no rows; there is no band to draw"
        raise CostchartError(msg)
    keys = keys_of(table, facet)
    colors = colors_of(table, color, look)
    y_max = cost_top(given, table[col.COST], table[col.UPPER])  # the whole band fits
    stack = [
        layers.trivial_region(y_max=y_max, facet=keys),
        draw_band(table, color=color, palette=colors, y_max=y_max),
        draw_envelope(table, color=color, palette=colors, y_max=y_max),
        layers.trivial(y_max=y_max, facet=keys),
    ]
    entries = [
        ("worse than a trivial classifier", "region"),
        (label, "band"),
        ("lower envelope (cost curve)", "bold line"),
        ("trivial classifiers", "trivial"),
    ]
    if col.DEGENERATE in table.columns and table[col.DEGENERATE].eq(True).any():
        stack.append(draw_degenerate_ticks(table, color=color, palette=colors, y_max=y_max))
        entries.append(("zero-width band: no bootstrap variability", "tick"))
    chart = compose(
        with_key(stack, entries + zoom_entries(given, y_max), look, keys),
        facet=facet,
        look=look,
        panels=None if keys is None else len(keys),
    )
    return register(chart, {"band": table})


@renamed_pair()
@checked
@ready_chart
def difference_chart(
    difference,
    *,
    facet: str | None = None,
    by: str | Sequence[str] | None = None,
    a: str | None = None,
    b: str | None = None,
    band_label: str | None = None,
    look: Look,
) -> alt.LayerChart | alt.FacetChart:
    """The cost difference of two classifiers with its band, where one is cheaper shaded.

    The axis and key name both classifiers; the shading, coloured by the classifier that
    is significantly cheaper, covers the ``pc`` where the band excludes 0 under the
    minimum-evidence rule of :func:`costchart.difference_band` (see
    :func:`costchart.significant_regions`).

    Parameters
    ----------
    difference : pandas, polars or pyarrow table
        A table from :func:`costchart.difference_band`; a compact one (``compact=True``)
        is drawn as the full band, with the same shaded regions.
    facet : str, optional
        Grouping column for panels.
    by : str or list of str, optional
        Grouping columns of the table: by default the grouping it carries, with the
        ``facet=`` column counted as declared (see the glossary).
    a, b : str, optional
        Names of the two classifiers compared; by default those the band recorded (else
        "a", "b").
    band_label : str, optional
        The band's key entry; by default what the band recorded about itself.
    palette : dict, optional
        Colours of the two names (see :func:`costchart._palette`).
    title, subtitle, show_key, size, columns
        As in :func:`cost_chart`.
    """
    if band_label is not None and (not isinstance(band_label, str) or not band_label):
        msg = f"band_label={band_label!r} must be a non-empty string (the band's key entry)"
        raise CostchartError(msg)
    table = layers_base.read(
        difference,
        [col.PC, col.DIFFERENCE, col.LOWER, col.UPPER, col.SIGNIFICANT],
        "difference_chart",
    )
    # What the band recorded, read once the table is known to be one.
    label = band_label or _band_entry(difference)
    from costchart._bands.describe import pair_of, recorded_names  # with the first band

    a, b = recorded_names(difference, pair_of(a, b))
    by = infer_by(table, by, name="difference", declared=(facet,))
    check_roles(by, "difference", "difference_band", facet=facet)
    table = carry_grouping(table.copy(deep=False), by)  # what the layers read
    if table.empty:
        msg = "difference has no rows; there is no difference to draw"
        raise CostchartError(msg)
    keys = keys_of(table, facet)
    # A report's palette names every classifier; the key lists only the two compared.
    everyone = chart_palette([a, b], look.palette)
    colors = {name: everyone[name] for name in (a, b)}
    axis = title_text(f"Cost of {a} minus cost of {b}")  # names in Vega-Lite's expressions
    drawn = table.assign(costchart_low=table[col.LOWER], costchart_high=table[col.UPPER])
    band = layers_base.build(
        alt.Chart(drawn),
        drawn,
        mark="area",
        # Neutral grey: the shading below it is in the classifiers' colours.
        style={"fillOpacity": 0.3, "color": layers_base.MUTED},
        encoding={
            "x": layers_base.pc_x(),
            "y": alt.Y("costchart_low:Q", title=axis),
            "y2": alt.Y2("costchart_high:Q"),
        },
        detail=False,
        fields=((col.PC, "Q", "pc"), (col.LOWER, "Q", "lower"), (col.UPPER, "Q", "upper")),
    )
    curve = draw_difference_curve(table, a=a, b=b).encode(
        y=alt.Y(f"{col.DIFFERENCE}:Q", title=axis)
    )
    regions = cc.significant_regions(table, a=a, b=b)
    stack = [
        layers.significance(regions, palette=colors),
        band,
        curve,
        layers.zero_rule(facet=keys),
    ]
    entries = [
        (f"difference, {a} - {b} (below 0: {a} cheaper)", "bold line"),
        (label, "spread", layers_base.MUTED),  # the band's own grey
        ("no difference", "rule"),
    ]
    chart = compose(
        with_key(stack, entries, look, keys),
        facet=facet,
        look=look,
        panels=None if keys is None else len(keys),
    )
    return register(chart, {"difference": table, "significant_regions": regions})
