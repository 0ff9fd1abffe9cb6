"""
Averaging two cost curves, and the average's ROC dual (dh2000, Fig. 15-16)
==========================================================================

To summarise several curves of one learner (from different training or test sets),
Drummond and Holte average them in cost space: at every operating condition, the mean of
the curves' costs. This *vertical* average of the cost curves is exactly the expected cost
of the learner at each ``pc``, which no average in ROC space gives. Because the curves are
piecewise linear, so is their average, and each of its segments is the cost line of one ROC
point: mapping the segments back gives the average's dual, an ROC curve lying between the
two convex hulls.

The two curves are logistic regression's on two cross-validation folds of the Pima
diabetes data (bundled predictions).
"""

import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import load_predictions

# %%
# Two folds' ROC points, their hulls and lower envelopes.
data = load_predictions().query(
    "dataset == 'diabetes' and classifier == 'logistic' and fold in [0, 1]"
)
points = cc.roc_points(data, score="score", label="label", by="fold")
points["fold"] = "fold " + points["fold"].astype(str)
hulls = cc.roc_hull(points, by="fold")
envelopes = cc.lower_envelope(points, by="fold")

# %%
# The vertical average of the two cost curves, and its ROC dual: one ROC point per
# segment of the average.
average = cc.vertical_average(envelopes, over="fold")
dual = cc.curve_points(average)
print(f"expected cost over pc: {cc.expected_cost(average)['expected_cost'].iat[0]:.4f}")
print(dual.round(3).head(8))

# %%
# ROC space: the two hulls (dashed) and the average's dual. Cost space: the two envelopes
# and their vertical average.
dual_curve = pd.concat(
    [
        pd.DataFrame({"fpr": [0.0], "tpr": [0.0]}),
        dual[["fpr", "tpr"]],
        pd.DataFrame({"fpr": [1.0], "tpr": [1.0]}),
    ],
    ignore_index=True,
).drop_duplicates()
dual_curve["curve"] = "ROC dual of the average"
dual_curve["threshold"] = range(len(dual_curve), 0, -1)
colours = cc.palette(
    ["fold 0", "fold 1", "ROC dual of the average", "vertical average"],
    colors={"ROC dual of the average": "#222222", "vertical average": "#222222"},
)
roc = (
    layers.hull(hulls, color="fold", palette=colours)
    + layers.roc_curve(
        dual_curve, color="curve", palette=colours, max_points=None, mark={"strokeWidth": 2.5}
    )
    + layers.chance()
).properties(width=300, height=300, title="ROC space: two hulls and the average's dual")
cost = (
    layers.trivial_region()
    + layers.envelope(envelopes, color="fold", palette=colours, mark={"strokeWidth": 1.5})
    + layers.envelope(average.assign(curve="vertical average"), color="curve", palette=colours)
    + layers.trivial()
    + layers.key(
        [
            ("ROC convex hull of a fold", "dashed line"),
            ("lower envelope of a fold", "line"),
            ("vertical average / its ROC dual", "bold line"),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(width=300, height=300, title="Cost space: the vertical average")
chart = roc | cost
chart
