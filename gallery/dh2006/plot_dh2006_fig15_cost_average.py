"""
The vertical cost average and its ROC dual (dh2006, Fig. 15)
============================================================

The two ROC curves of Fig. 14, one through (0.04, 0.4) and one through (0.3, 0.8), become
two lower envelopes in cost space. Averaging them vertically, at equal operating point
``pc``, gives a curve whose cost at every ``pc`` is the mean of the two costs: the average
performance, which is what one wants to estimate. Turned back into ROC space, each segment
of that average is one ROC point, and together they make the average's ROC dual. Made-up
points, the paper's own.

What the paper shows
--------------------

(a) The two envelopes (solid) and their vertical average (bold dotted): at each ``pc`` the
average is exactly the mean of the two envelopes' costs. (b) The average turned into an
ROC curve (dashed): its central vertex is (0.17, 0.6), the mean of the two vertices, so it
lies on the iso-performance line through (0.04, 0.4) and (0.3, 0.8), midway between them,
which the ROC-space averages of Fig. 14 never reach. Of the averaging methods, only the
cost-space one gives a curve whose expected cost is the mean of the two curves' expected
costs (here 0.195, between A's 0.203 and B's 0.187).
"""

import altair as alt
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
# One colour per curve, named in the key (no separate colour legend).
colour = alt.Color(
    "curve:N", scale=alt.Scale(domain=list(colours), range=list(colours.values())), legend=None
)
cost = (
    layers.trivial_region(y_max=0.5)
    + layers.trivial(y_max=0.5)
    + layers.envelope(envelopes, by="curve", mark={"strokeWidth": 2}).encode(color=colour)
    + layers.envelope(
        average[["pc", "cost"]].assign(curve="cost average"),
        by="curve",
        mark={"strokeDash": [2, 2], "strokeWidth": 3},
    ).encode(color=colour)
).properties(width=300, height=300, title="(a) Vertical average of the cost curves")

# %%
# ROC space: the two curves, the dual of the average (dashed) with its central vertex
# ringed, and the iso-performance line through A's and B's vertices.
slope = (0.8 - 0.4) / (0.3 - 0.04)
ISO = "#444444"
roc = (
    layers.chance()
    + layers.iso_lines(
        cc.roc_hull(points[points.curve == "A"], by="curve"),
        slope=[slope],
        mark={"color": ISO, "strokeDash": [1, 0], "strokeWidth": 1},
    )
    + layers.roc_curve(
        cc.roc_hull(points, by="curve")[["curve", "fpr", "tpr"]],
        by="curve",
        mark={"strokeWidth": 2},
    ).encode(color=colour)
    + layers.roc_curve(
        dual[["fpr", "tpr"]].assign(curve="cost average"),
        by="curve",
        mark={"strokeDash": [6, 3], "strokeWidth": 2.5},
    ).encode(color=colour)
    + layers.selected(dual.iloc[[2]], space="roc")
).properties(width=300, height=300, title="(b) The ROC curve of the cost average")

chart = (
    (
        cost
        + layers.key(
            [
                ("A, through (0.04, 0.4): envelope / ROC curve", "line", colours["A"]),
                ("B, through (0.3, 0.8): envelope / ROC curve", "line", colours["B"]),
                ("vertical cost average", "dotted line", colours["cost average"]),
                ("its ROC dual", "dashed line", colours["cost average"]),
                ("(0.17, 0.6), midway on the iso-performance line", "ring"),
                ("iso-performance line through A and B", "thin line", ISO),
                ("trivial classifiers", "trivial"),
                ("worse than a trivial classifier", "region"),
            ]
        )
    )
    | roc
).properties(title="Averaging in cost space, seen in both spaces")
chart
