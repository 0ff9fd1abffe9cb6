"""Chart layers: one function per layer, each returning a plain :class:`altair.Chart`.

Layers draw costchart tables. Compose them with ``+`` (layer), ``|`` and ``&``
(concatenate) and ``.properties()``, as any Altair chart; or use the ready compositions
(:func:`costchart.cost_chart` and the others). They are grouped by role:

- cost space (:mod:`costchart.layers.cost`): :func:`cost_lines`, :func:`envelope`,
  :func:`trivial`, :func:`trivial_region`, :func:`operating_ranges`;
- markers of choices (:mod:`costchart.layers.markers`): :func:`pc_markers`,
  :func:`pc_labels`, :func:`selected`, :func:`hybrid`;
- ROC space (:mod:`costchart.layers.roc`, :mod:`costchart.layers.iso`): :func:`roc_curve`,
  :func:`roc_markers`, :func:`hull`, :func:`iso_lines`, :func:`chance`, :func:`roc_spread`;
- bands (:mod:`costchart.layers.bands`): :func:`band`, :func:`average_band`,
  :func:`degenerate_ticks`; comparisons (:mod:`costchart.layers.difference`):
  :func:`difference_curve`, :func:`zero_rule`, :func:`better_regions`, :func:`significance`;
- interaction (:mod:`costchart.layers.interaction`): :func:`hover_targets`,
  :func:`selections`;
- :func:`key`: the legend of what is drawn, in the papers' terms;
- :func:`shared_layer`: layers over one data set at the top, so the result can be faceted.

Every data layer takes the same options, declared once
(:class:`costchart.layers._options.LayerOptions`): ``classifier=`` (the column that tells
classifiers apart, coloured stably by :func:`costchart._palette` or ``palette=``), ``by=``
(further columns that tell curves apart; by default every grouping column other than
``classifier``),
``legend=`` / ``hover=`` (selections to react to), ``tooltip=`` (``None`` for the layer's
own, ``False`` for none, or column names) and ``mark=`` (Vega-Lite mark properties that
replace costchart's). Layers that draw ROC points thin them (``max_points=``), so large
curves stay under Altair's row limit. Cost-space marks are cut at ``y_max`` in the data;
by default a layer that draws a cost curve fits the axis to it and the others stop at 0.5,
so layers composed into one chart should be given one ``y_max``.

Examples
--------
>>> import costchart as cc
>>> from costchart import layers
>>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
>>> envelope = cc.lower_envelope(points)
>>> chart = layers.trivial_region() + layers.cost_lines(points) + layers.envelope(envelope)
>>> type(chart).__name__
'LayerChart'
"""

# Importing the theme registers it with Altair (enable it with alt.theme.enable).
from costchart import theme as _theme  # noqa: F401
from costchart._vega import shared_layer
from costchart.layers.bands import average_band, band, degenerate_ticks
from costchart.layers.cost import cost_lines, envelope, operating_ranges, trivial, trivial_region
from costchart.layers.difference import (
    better_regions,
    difference_curve,
    significance,
    zero_rule,
)
from costchart.layers.interaction import hover_targets, selections
from costchart.layers.iso import (  # iso_performance: the deprecated name of iso_lines
    iso_lines,
    iso_performance,  # noqa: F401
)
from costchart.layers.keys import key
from costchart.layers.markers import hybrid, pc_labels, pc_markers, selected
from costchart.layers.roc import chance, hull, roc_curve, roc_markers, roc_spread

__all__ = [
    "average_band",
    "band",
    "better_regions",
    "chance",
    "cost_lines",
    "degenerate_ticks",
    "difference_curve",
    "envelope",
    "hover_targets",
    "hull",
    "hybrid",
    "iso_lines",
    "key",
    "operating_ranges",
    "pc_labels",
    "pc_markers",
    "roc_curve",
    "roc_markers",
    "roc_spread",
    "selected",
    "selections",
    "shared_layer",
    "significance",
    "trivial",
    "trivial_region",
    "zero_rule",
]
