"""
Ten ROC points, their hull, and the lower envelope (dh2006, Fig. 4)
===================================================================

A scoring classifier gives a set of ROC points, one per threshold. Drummond and Holte drew
ten of them with their convex hull, and the ten matching cost lines with their lower
envelope: the envelope is the hull seen in cost space. At each operating condition it is
the cost of the best of the ten classifiers, and the classifiers whose lines never touch
it are exactly those below the hull, which are never worth using.

Ten thresholds (score deciles) of the bundled logistic regression on the ionosphere data.
"""

import numpy as np

import costchart as cc
from costchart.datasets import load_predictions

# %%
# The ROC points at ten thresholds: the score's deciles.
data = load_predictions().query("dataset == 'ionosphere' and classifier == 'logistic'")
points = cc.roc_points(data, score="score", label="label")
deciles = np.quantile(data["score"], np.linspace(0.05, 0.95, 10))
rows = [points[points["threshold"] >= t].index[-1] for t in deciles]
ten = points.loc[sorted(set(rows))]
hull = cc.roc_hull(ten)
print(f"{len(ten)} points, {int(np.isfinite(hull['threshold']).sum())} of them on the hull")

# %%
# The linked ROC and cost views: hover a point to see its line, and the reverse.
chart = cc.roc_cost_chart(
    ten,
    y_max=0.5,
    size=300,
    title="Ten classifiers: the hull and the lower envelope",
    subtitle="Ionosphere, logistic regression at ten thresholds",
)
chart
