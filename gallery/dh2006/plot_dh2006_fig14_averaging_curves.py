"""
Vertical and horizontal averages of two ROC curves (dh2006, Fig. 14)
====================================================================

Two ROC curves, each made of one classifier joined to the trivial corners, stand for two
evaluations of the same learner on different samples. Averaging them in ROC space can be
done vertically (the mean true positive rate at each false positive rate) or horizontally
(the mean false positive rate at each true positive rate), and the two give different
curves. Neither keeps the performance of the originals: both averages pass below the
iso-performance line that joins the two curves' vertices. The companion figure (Fig. 15)
averages in cost space instead.

What the paper shows
--------------------

The curves are the paper's own: one through the ROC point (0.04, 0.4), the other through
(0.3, 0.8). Their vertical and horizontal averages (dotted) are different curves: the
vertical one has vertices at false positive rates 0.04 and 0.3, the horizontal one at
true positive rates 0.4 and 0.8. The line through the two vertices (slope 0.4 / 0.26,
about 1.54) is a line of equal expected cost, so a fair average of the two curves would
touch it; the two ROC averages stay well below it everywhere, while the mean of the two
vertices, (0.17, 0.6), lies on it.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# The paper's two ROC curves, as convex hulls of one classifier each.
points = pd.DataFrame({"curve": ["A", "B"], "fpr": [0.04, 0.3], "tpr": [0.4, 0.8]})
curves = cc.roc_hull(points, by="curve")

# %%
# The two ROC-space averages: vertical (mean TPR at each FPR) and horizontal (mean FPR at
# each TPR).
vertical = cc.roc_average(curves, over="curve", averaging="vertical")
horizontal = cc.roc_average(curves, over="curve", averaging="horizontal")
print(vertical[["fpr", "tpr"]].round(3))
print(horizontal[["fpr", "tpr"]].round(3))

# %%
# The iso-performance line through the two vertices, and the vertices' mean on it.
slope = (0.8 - 0.4) / (0.3 - 0.04)
iso = pd.DataFrame({"fpr": [0.0, 0.04 + 0.6 / slope]}).assign(
    tpr=lambda d: 0.4 + slope * (d.fpr - 0.04)
)
mean_vertex = points[["fpr", "tpr"]].mean().to_frame().T
print("mean of the vertices:", mean_vertex.round(3).to_dict("records")[0])
for name, average in [("vertical", vertical), ("horizontal", horizontal)]:
    gap = (0.4 + slope * (average.fpr - 0.04) - average.tpr).min()
    print(f"{name} average: at least {gap:.3f} below the iso-performance line")

# %%
# The two curves (solid), the two averages (dotted), the iso-performance line (thin).
colours = {
    "A": "#0072B2",
    "B": "#D55E00",
    "vertical average": "#009E73",
    "horizontal average": "#CC79A7",
}
averages = pd.concat(
    [
        vertical[["fpr", "tpr"]].assign(curve="vertical average"),
        horizontal[["fpr", "tpr"]].assign(curve="horizontal average"),
    ],
    ignore_index=True,
)
# One colour per curve, named in the key below (no separate colour legend).
colour = alt.Color(
    "curve:N", scale=alt.Scale(domain=list(colours), range=list(colours.values())), legend=None
)
iso_line = (
    alt.Chart(iso)
    .mark_line(color="#444444", strokeWidth=1)
    .encode(x=alt.X("fpr:Q", title="False positive rate"), y="tpr:Q")
)
chart = (
    layers.chance()
    + iso_line
    + layers.roc_curve(curves, by="curve", mark={"strokeWidth": 2}).encode(color=colour)
    + layers.roc_curve(
        averages, by="curve", mark={"strokeDash": [2, 3], "strokeWidth": 2.5}
    ).encode(color=colour)
    + layers.selected(mean_vertex, space="roc")
    + layers.key(
        [
            ("ROC curve through (0.04, 0.4)", "line", colours["A"]),
            ("ROC curve through (0.3, 0.8)", "line", colours["B"]),
            ("vertical average", "dotted line", colours["vertical average"]),
            ("horizontal average", "dotted line", colours["horizontal average"]),
            ("iso-performance line through both vertices", "thin line", "#444444"),
            ("(0.17, 0.6): the vertices' mean, on that line", "ring"),
        ]
    )
).properties(
    width=340,
    height=340,
    title=alt.Title(
        "Two ROC curves and their ROC-space averages",
        subtitle="Both averages pass below the iso-performance line through the vertices",
    ),
)
chart
