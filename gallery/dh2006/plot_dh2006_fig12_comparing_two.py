"""
Comparing two classifiers: the difference of their cost curves (dh2006, Fig. 12)
================================================================================

To compare two classifiers across all operating conditions, Drummond and Holte subtract
one cost curve from the other. Above zero the first is more expensive, below zero the
second; the crossovers bound the regions where each wins, and the area between the curve
and zero is the expected advantage over a range of conditions. This is the quantity a
confidence band on the difference later tests for significance.

The bundled logistic regression and tree on the ionosphere data.
"""

import altair as alt

import costchart as cc
from costchart import layers
from costchart.datasets import load_predictions

# %%
# The comparison: difference, crossovers, where each wins, the expected advantage.
data = load_predictions().query("dataset == 'ionosphere' and classifier in ['logistic', 'tree']")
points = cc.roc_points(data, score="score", label="label", by="classifier")
logistic = points[points["classifier"] == "logistic"].drop(columns="classifier")
tree = points[points["classifier"] == "tree"].drop(columns="classifier")
result = cc.compare(
    cc.lower_envelope(logistic), cc.lower_envelope(tree), names=("logistic", "tree")
)
print(result.better.round(3))
print(result)

# %%
# The two envelopes with the regions where each is cheaper, and their difference.
envelopes = cc.lower_envelope(points)
crossovers = {f"{pc:.3f}": float(pc) for pc in result.crossovers}
colours = cc.palette(["logistic", "tree"])
cost = (
    layers.better_regions(result.better, palette=colours)
    + layers.envelope(envelopes, color="classifier", palette=colours)
    + layers.trivial()
    + layers.pc_markers(crossovers)
    + layers.pc_labels(crossovers)
    + layers.key(
        [
            ("lower envelope", "bold line"),
            ("trivial classifiers", "trivial"),
            ("crossover (labelled with its pc)", "dotted line"),
        ]
    )
).properties(width=420, height=260, title="Ionosphere: where each classifier is cheaper")
difference = (
    layers.better_regions(result.better, palette=colours)
    + layers.zero_rule()
    + layers.difference_curve(result.difference, names=("logistic", "tree"))
).properties(width=420, height=160, title="Cost of logistic minus cost of tree")
chart = alt.vconcat(cost, difference)
chart
