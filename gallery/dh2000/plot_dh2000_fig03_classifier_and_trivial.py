"""
A classifier and the trivial classifiers, in ROC and cost space (dh2000, Fig. 3-4)
==================================================================================

Drummond and Holte begin with one classifier, B, and the two trivial classifiers that
are always available: always negative, at ROC point (0, 0), and always positive, at
(1, 1). In ROC space the convex hull of the three is the triangle's upper edge through B.
In cost space each classifier is a line, and the trivial ones are the diagonals ``cost =
pc`` and ``cost = 1 - pc``; the hull becomes the *lower envelope* of the three lines. Where
B's line lies below both diagonals, B is worth using; elsewhere a trivial classifier is
cheaper, something the ROC picture does not show without further construction.

B is made up: false positive rate 0.2, true positive rate 0.7.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# B as an ROC point; the hull adds the trivial classifiers (0, 0) and (1, 1).
b = pd.DataFrame({"classifier": ["B"], "threshold": [1.0], "fpr": [0.2], "tpr": [0.7]})
hull = cc.roc_hull(b, by="classifier")
envelope = cc.lower_envelope(b, by="classifier")
print(hull[["threshold", "fpr", "tpr", "pc_lo", "pc_hi"]])
print(cc.operating_range(b, by="classifier").round(3))

# %%
# ROC space: B, the trivial classifiers and the hull. Cost space: the three lines and
# their lower envelope.
trivial_points = pd.DataFrame(
    {"fpr": [0.0, 1.0], "tpr": [0.0, 1.0], "name": ["always negative", "always positive"]}
)
roc = (
    layers.hull(hull)
    + layers.roc_markers(b.drop(columns="classifier"), mark={"size": 90, "filled": True})
    + layers.roc_markers(
        trivial_points.assign(threshold=[float("inf"), -float("inf")]), detail="name"
    )
    + layers.chance()
).properties(width=300, height=300, title="ROC space: B and the trivial classifiers")
lines = cc.to_cost_lines(b, by="classifier")
cost = (
    layers.trivial(y_max=1)
    + alt.Chart(lines)
    .mark_line(color="#0072B2", strokeWidth=2)
    .encode(x="pc:Q", y=alt.Y("cost:Q", scale=alt.Scale(domain=[0, 1])))
    + layers.envelope(envelope, y_max=1)
    + layers.operating_ranges(cc.operating_range(b, by="classifier"), y_max=1)
    + layers.key(
        [
            ("ROC convex hull (left)", "dashed line"),
            ("cost line of B", "line"),
            ("trivial classifiers: always negative, always positive", "trivial"),
            ("lower envelope (the hull's dual)", "bold line"),
            ("B's operating range", "rule"),
        ]
    )
).properties(width=300, height=300, title="Cost space: three lines and their envelope")
chart = roc | cost
chart
