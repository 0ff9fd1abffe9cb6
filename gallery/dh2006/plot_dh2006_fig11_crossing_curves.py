"""
Two ROC curves that cross, and their cost curves (dh2006, Fig. 11)
==================================================================

When two ROC curves cross, each classifier is better for some operating conditions. ROC
space shows that they cross, but not where in terms of costs and priors, nor by how much
either wins. In cost space the crossing of the two lower envelopes is a ``pc`` value that
can be read off, and the vertical gap between the envelopes is the difference in expected
cost at every condition. Drummond and Holte used this to show which classifier to pick
for which condition at a glance.

The bundled naive Bayes and tree on the ionosphere data.
"""

import costchart as cc
from costchart.datasets import load_predictions

# %%
# The two classifiers' ROC points; where their envelopes cross.
data = load_predictions().query("dataset == 'ionosphere' and classifier in ['naive bayes', 'tree']")
points = cc.roc_points(data, score="score", label="label", by="classifier")
bayes = points[points["classifier"] == "naive bayes"].drop(columns="classifier")
tree = points[points["classifier"] == "tree"].drop(columns="classifier")
result = cc.compare(
    cc.lower_envelope(bayes), cc.lower_envelope(tree), names=("naive bayes", "tree")
)
print("crossovers at pc =", result.crossovers.round(3))
print(result.better.round(3))

# %%
# Linked ROC and cost views of the two, with the crossovers marked in cost space.
markers = {f"crossover {pc:.2f}": float(pc) for pc in result.crossovers}
chart = cc.roc_cost_chart(
    points,
    color="classifier",
    markers=markers,
    cost_lines="none",
    size=300,
    title="Crossing ROC curves become crossing cost curves (ionosphere)",
)
chart
