"""
Ten ROC points, their hull, and the lower envelope (dh2006, Fig. 4)
===================================================================

A scoring classifier gives a set of ROC points, one per threshold. Drummond and Holte drew
ten of them (the two trivial classifiers among them) with their convex hull, and the
matching cost lines with their lower envelope, to show that the envelope is the hull seen
in cost space.

What the paper shows
--------------------

Each of the ten ROC points of panel (a) becomes one cost line in panel (b). The lower
envelope of the lines, the lowest cost at every PC(+), is the exact counterpart of the ROC
convex hull: each segment of the envelope is the line of one hull vertex, and each vertex
of the envelope is one edge of the hull, at the ``pc`` of that edge's slope. The points
below the hull are exactly the classifiers whose lines never reach the envelope, so they
are never worth using; the envelope stands out clearly among the lines.

Eight thresholds (score quantiles) of the bundled logistic regression on the ionosphere
data, plus the two trivial classifiers at (0, 0) and (1, 1): ten ROC points, as in the
paper, all ten drawn, and the hull runs from (0, 0) to (1, 1).
"""

import numpy as np

import costchart as cc
from costchart.datasets import load_predictions

# %%
# The ROC points at eight thresholds (score quantiles) and the two trivial classifiers,
# the first and last rows of the ROC points (always negative at (0, 0), always positive at
# (1, 1)): ten points, all drawn.
data = load_predictions().query("dataset == 'ionosphere' and classifier == 'logistic'")
points = cc.roc_points(data, score="score", label="label")
deciles = np.quantile(data["score"], np.linspace(0.05, 0.95, 8))
rows = [points[points["threshold"] >= t].index[-1] for t in deciles]
ten = points.loc[sorted({points.index[0], *rows, points.index[-1]})]
hull = cc.roc_hull(ten)
lines = cc.to_cost_lines(ten)
envelope = cc.lower_envelope(ten)
print(f"{len(ten)} points, the trivial ones among them; {len(hull) - 1} hull vertices")

# %%
# The linked ROC and cost views: hover a point to see its line, and the reverse.
chart = cc.roc_cost_chart(
    ten,
    y_max=0.5,
    size=300,
    title="Ten classifiers: the hull and the lower envelope",
    subtitle="Ionosphere, logistic regression at eight thresholds, and the trivial classifiers",
)
chart
