"""
Averaging two curves in ROC space and in cost space (dh2006, Fig. 14-15)
========================================================================

Averaging ROC curves vertically (TPR at fixed FPR) or horizontally (FPR at fixed TPR)
gives curves that are not the expected performance under any operating condition.
Drummond and Holte averaged in cost space instead: the mean of the cost curves at each
``pc``, whose value is the expected cost there. Its ROC dual lies between the two curves
but differs from both ROC averages. Their small example: averaging the cost lines of the
ROC points (0.04, 0.4) and (0.3, 0.8) gives the cost line of (0.17, 0.6), the points'
mean -- while the two ROC averages give other points.

Two folds of the bundled naive Bayes on sonar show the three averages on real curves.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import load_predictions

# %%
# The paper's example: the average of two cost lines is the cost line of the points'
# mean. The average is a cost curve (pc, cost); curve_points gives its ROC dual.
pair = pd.DataFrame({"name": ["first", "second"], "fpr": [0.04, 0.3], "tpr": [0.4, 0.8]})
lines = cc.to_cost_lines(pair, by="name")
average_line = lines.groupby("pc", as_index=False)["cost"].mean()
print(cc.curve_points(average_line).round(3))  # fpr 0.17, tpr 0.6

# %%
# Two folds' ROC curves; their vertical and horizontal ROC averages; the vertical cost
# average and its ROC dual.
data = load_predictions().query("dataset == 'sonar' and classifier == 'naive bayes' and fold < 2")
points = cc.roc_points(data, score="score", label="label", by="fold")
points["fold"] = "fold " + points["fold"].astype(str)
vertical = cc.roc_average(points, over="fold", method="vertical")
horizontal = cc.roc_average(points, over="fold", method="horizontal")
cost_average = cc.vertical_average(cc.lower_envelope(points, by="fold"), over="fold")
dual = cc.curve_points(cost_average)
dual = pd.concat(
    [
        pd.DataFrame({"fpr": [0.0], "tpr": [0.0]}),
        dual[["fpr", "tpr"]],
        pd.DataFrame({"fpr": [1.0], "tpr": [1.0]}),
    ],
    ignore_index=True,
)
curves = pd.concat(
    [
        vertical[["fpr", "tpr"]].assign(curve="vertical ROC average"),
        horizontal[["fpr", "tpr"]].assign(curve="horizontal ROC average"),
        dual.assign(curve="ROC dual of the cost average"),
    ],
    ignore_index=True,
)
curves["order"] = curves.groupby("curve").cumcount()

# %%
# ROC space: the two folds (thin) and the three averages. Cost space: the two envelopes
# and their vertical average.
colours = cc.palette(
    ["vertical ROC average", "horizontal ROC average", "ROC dual of the cost average"]
)
colour = alt.Color(
    "curve:N", title="Average", scale=alt.Scale(domain=list(colours), range=list(colours.values()))
)
roc = (
    layers.roc_curve(points, detail="fold", mark={"color": "#999999", "strokeWidth": 1})
    + alt.Chart(curves)
    .mark_line(strokeWidth=2)
    .encode(x=alt.X("fpr:Q", title="False positive rate"), y="tpr:Q", color=colour, order="order:Q")
    + layers.chance()
).properties(width=300, height=300, title="ROC space: two folds and three averages")
cost = (
    layers.trivial_region()
    + layers.envelope(
        cc.lower_envelope(points, by="fold"),
        detail="fold",
        mark={"color": "#999999", "strokeWidth": 1},
    )
    + layers.envelope(cost_average, mark={"color": colours["ROC dual of the cost average"]})
    + layers.trivial()
    + layers.key(
        [
            ("one fold's curve", "thin line"),
            ("vertical cost average", "bold line"),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(width=300, height=300, title="Cost space: the vertical cost average")
chart = roc | cost
chart
