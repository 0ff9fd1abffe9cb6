"""
Points become lines: an ROC graph and its dual cost graph (dh2000, Fig. 5-6)
============================================================================

The duality at the heart of cost curves: a point ``(FPR, TPR)`` in ROC space is the line
from ``(0, FPR)`` to ``(1, 1 - TPR)`` in cost space, and a line in ROC space (an
iso-performance line) is a point in cost space. Drummond and Holte drew a few classifiers
both ways, each labelled in both pictures. Points higher and further left in ROC space
become lines lower in cost space; the ROC convex hull becomes the lower envelope of the
lines; and a classifier below the hull is a line that never touches the envelope.

The five classifiers are made up.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# Five made-up classifiers as ROC points and as cost lines.
points = pd.DataFrame(
    {
        "classifier": ["P", "Q", "R", "S", "T"],
        "fpr": [0.05, 0.15, 0.35, 0.3, 0.6],
        "tpr": [0.4, 0.7, 0.9, 0.6, 0.95],
    }
)
lines = cc.to_cost_lines(points, by="classifier")
hull = cc.roc_hull(points[["fpr", "tpr"]], by=[])
on_hull = points.merge(hull[["fpr", "tpr"]], on=["fpr", "tpr"])
print("on the hull:", on_hull["classifier"].tolist())

# %%
# Each point labelled in ROC space, each line labelled at its right end in cost space.
colours = cc.palette(points["classifier"].tolist())
names = alt.Color(
    "classifier:N",
    scale=alt.Scale(domain=list(colours), range=list(colours.values())),
    title="Classifier",
)
roc = (
    layers.hull(hull)
    + alt.Chart(points)
    .mark_point(filled=True, size=90)
    .encode(
        x=alt.X("fpr:Q", title="False positive rate", scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("tpr:Q", title="True positive rate", scale=alt.Scale(domain=[0, 1])),
        color=names,
    )
    + alt.Chart(points)
    .mark_text(dx=9, dy=-8, fontWeight="bold")
    .encode(x="fpr:Q", y="tpr:Q", text="classifier:N")
    + layers.chance()
).properties(width=300, height=300, title="ROC space: five points and their hull")
ends = lines[lines["pc"] == 1]
cost = (
    layers.trivial(y_max=1)
    + alt.Chart(lines)
    .mark_line(strokeWidth=1.8)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("cost:Q", title="Normalized expected cost", scale=alt.Scale(domain=[0, 1])),
        color=names,
        detail="classifier:N",
    )
    + alt.Chart(ends)
    .mark_text(align="left", dx=5, fontWeight="bold")
    .encode(x="pc:Q", y="cost:Q", text="classifier:N")
    + layers.envelope(cc.lower_envelope(points[["fpr", "tpr"]], by=[]), y_max=1)
    + layers.key(
        [
            ("ROC convex hull (left)", "dashed line"),
            ("lower envelope: the hull's dual (right)", "bold line"),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(width=300, height=300, title="Cost space: five lines and their envelope")
chart = roc | cost
chart
