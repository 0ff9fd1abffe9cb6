"""
The vertical cost average and its ROC dual (dh2006, Fig. 15)
============================================================

The paper's two ROC curves, A through (0.04, 0.4) and B through (0.3, 0.8), become two lower
envelopes in cost space. Averaging them vertically, at equal operating point ``pc``, gives a
curve whose cost at every ``pc`` is exactly the mean of the two costs: the average
performance, which is what one wants to estimate. Turned back into ROC space, each segment
of that average is one ROC point, and the middle one is (0.17, 0.6), halfway between A's and
B's vertices on the iso-performance line that joins them, which the ROC-space averages
(vertical and horizontal) do not reach. Drummond and Holte conclude that only the cost-space
average keeps expected cost equal to the average of the curves' expected costs. Made-up
points, as in the paper.
"""

import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# The two curves, their lower envelopes and the vertical average of the envelopes.
points = pd.DataFrame({"curve": ["A", "B"], "fpr": [0.04, 0.3], "tpr": [0.4, 0.8]})
envelopes = cc.lower_envelope(points, by="curve")
average = cc.vertical_average(points, over="curve")
print(average[["pc", "cost", "cost_lo", "cost_hi"]].round(4))

# %%
# Each segment of the average is the cost line of one ROC point: the average's ROC dual.
# The middle segment is the classifier (0.17, 0.6), the midpoint of A's and B's vertices.
dual = cc.curve_points(average)
print(dual.round(4))
middle = dual.iloc[2]
assert np.isclose(middle.fpr, 0.17) and np.isclose(middle.tpr, 0.6)
print(f"central vertex of the dual: ({middle.fpr:.2f}, {middle.tpr:.2f})")

# %%
# Expected cost (uniform over ``pc``): the average's is the mean of the two.
expected = cc.expected_cost(envelopes)
print(expected.round(4))
print("average curve:", round(float(cc.expected_cost(average)["expected_cost"].iloc[0]), 4))

# %%
# Cost space: the two envelopes (solid) and their average (bold dotted).
colours = {"A": "#0072B2", "B": "#D55E00", "cost average": "#000000"}
cost = (
    layers.trivial_region(y_max=0.5)
    + layers.trivial(y_max=0.5)
    + layers.envelope(envelopes, color="curve", palette=colours, mark={"strokeWidth": 2})
    + layers.envelope(
        average.assign(curve="cost average"),
        color="curve",
        palette=colours,
        mark={"strokeDash": [2, 2], "strokeWidth": 3},
    )
).properties(width=300, height=300, title="(a) Vertical average of the cost curves")

# %%
# ROC space: the two curves, the dual of the average (dashed) with its central vertex
# ringed, and the iso-performance line through A's and B's vertices.
slope = (0.8 - 0.4) / (0.3 - 0.04)
roc = (
    layers.chance()
    + layers.iso_performance(
        cc.roc_hull(points[points.curve == "A"], by="curve"),
        slope=[slope],
        mark={"color": "#444444", "strokeDash": [1, 0], "strokeWidth": 1},
    )
    + layers.roc_curve(
        cc.roc_hull(points, by="curve"), color="curve", palette=colours, mark={"strokeWidth": 2}
    )
    + layers.roc_curve(
        dual.assign(curve="cost average"),
        color="curve",
        palette=colours,
        mark={"strokeDash": [6, 3], "strokeWidth": 2.5},
    )
    + layers.selected(dual.iloc[[2]], space="roc")
).properties(width=300, height=300, title="(b) The ROC curve of the cost average")

chart = (
    (
        cost
        + layers.key(
            [
                ("lower envelopes / ROC curves of A and B", "line"),
                ("vertical cost average", "dotted line"),
                ("its ROC dual", "dashed line"),
                ("(0.17, 0.6), midway on the iso-performance line", "ring"),
                ("iso-performance line through A and B", "thin line"),
                ("trivial classifiers", "trivial"),
                ("worse than a trivial classifier", "region"),
            ]
        )
    )
    | roc
).properties(title="Averaging in cost space, seen in both spaces")
chart
