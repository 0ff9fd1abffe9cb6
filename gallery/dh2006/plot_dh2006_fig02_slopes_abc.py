"""
ROC points A, B, C and the slopes between them (dh2006, Fig. 2)
===============================================================

Drummond and Holte's introduction to ROC analysis: a dashed ROC curve through a few
classifiers, among them A and C, and a solid curve made of one classifier B joined to the
trivial classifiers at (0, 0) and (1, 1). In ROC space everything about operating
conditions is carried by slopes: the slopes of the segments beside a point say for which
conditions it is the best point of its curve, and the slopes of B's two solid segments
say where B beats the trivial classifiers at all.

What the paper shows
--------------------

B is the classifier with false positive rate 0.35 and true positive rate 0.7. The two
segments of the dashed curve that meet at A have slopes 2.4 (to its left) and 1.5 (to its
right): when the operating condition's iso-performance slope lies between 1.5 and 2.4, A
is the best classifier on the dashed curve, and outside that interval some other point of
the curve beats it. The slopes of the solid segments from (0, 0) to B and from B to
(1, 1) bound B's operating range: outside it a trivial classifier is better than B.

A and C are made up (the paper gives only the slopes beside A and B's coordinates): C at
(0.1, 0.45), A at (0.2, 0.69) and one more point at (0.3, 0.84), so that the segments
beside A have the paper's slopes. Every number on the chart is a segment's slope read off
:func:`costchart.roc_hull`.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# The dashed curve (C, A and one more point) and the solid curve (B alone). The hull of
# each curve carries, for every vertex, the slopes of the segments on either side.
dashed = pd.DataFrame(
    {"threshold": [3.0, 2.0, 1.0], "fpr": [0.1, 0.2, 0.3], "tpr": [0.45, 0.69, 0.84]}
)
solid = pd.DataFrame({"threshold": [1.0], "fpr": [0.35], "tpr": [0.7]})
names = {"dashed": {3.0: "C", 2.0: "A"}, "solid": {1.0: "B"}}
hulls = pd.concat(
    [
        cc.roc_hull(dashed, by=[]).assign(curve="dashed"),
        cc.roc_hull(solid, by=[]).assign(curve="solid"),
    ],
    ignore_index=True,
)
pairs = zip(hulls["curve"], hulls["threshold"], strict=True)
hulls["name"] = [names[curve].get(threshold, "") for curve, threshold in pairs]
print(hulls[["curve", "name", "fpr", "tpr", "slope_lo", "slope_hi", "pc_lo", "pc_hi"]])

# %%
# One row per segment between consecutive hull vertices: its slope is the left vertex's
# ``slope_lo`` (the slope of the segment to its right).
segments = []
for curve, hull in hulls.groupby("curve", sort=False):
    hull = hull.reset_index(drop=True)
    for i in range(len(hull) - 1):
        left, right = hull.iloc[i], hull.iloc[i + 1]
        segments.append(
            {
                "curve": curve,
                "left": left["name"] or f"({left.fpr:g}, {left.tpr:g})",
                "right": right["name"] or f"({right.fpr:g}, {right.tpr:g})",
                "slope": left["slope_lo"],
                "fpr": (left["fpr"] + right["fpr"]) / 2,
                "tpr": (left["tpr"] + right["tpr"]) / 2,
            }
        )
segments = pd.DataFrame(segments)
segments["label"] = segments["slope"].map(lambda s: f"{s:.2g}")
print(segments[["curve", "left", "right", "slope"]])

# %%
# What the slopes mean: A is the dashed curve's best point for slopes between 1.5 and
# 2.4; B beats the trivial classifiers between the pc values of its two solid segments.
choices = cc.iso_performance(dashed, slope=[1.4, 1.6, 2.0, 2.3, 2.5])
b_range = cc.operating_range(solid)
print(choices[["choice", "fpr", "tpr", "pc_lo"]])
print(b_range[["fpr", "tpr", "pc_lo", "pc_hi"]])

# %%
# The two curves, the named points and each segment's slope beside it.
curves = alt.Chart(hulls).mark_line(strokeWidth=2, color="#222222", point=False)
curve_style = alt.StrokeDash(
    "curve:N", scale=alt.Scale(domain=["dashed", "solid"], range=[[6, 4], [1, 0]]), legend=None
)
roc = (
    layers.chance()
    + curves.encode(
        x=alt.X("fpr:Q", title="False positive rate", scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("tpr:Q", title="True positive rate", scale=alt.Scale(domain=[0, 1])),
        strokeDash=curve_style,
        detail="curve:N",
        order="fpr:Q",
    )
    + alt.Chart(hulls[hulls["name"] != ""])
    .mark_point(filled=True, size=80, color="#0072B2")
    .encode(x="fpr:Q", y="tpr:Q")
    + alt.Chart(hulls[hulls["name"] != ""])
    .mark_text(dx=-9, dy=-9, fontSize=15, fontWeight="bold", color="#0072B2")
    .encode(x="fpr:Q", y="tpr:Q", text="name:N")
    + alt.Chart(segments)
    .mark_text(dx=12, dy=8, fontSize=12, color="#D55E00")
    .encode(x="fpr:Q", y="tpr:Q", text="label:N")
    + layers.key(
        [
            ("dashed ROC curve (through C and A)", "dashed line", "#222222"),
            ("solid ROC curve (through B)", "line", "#222222"),
            ("classifiers A, B, C", "dot", "#0072B2"),
            ("chance diagonal", "chance"),
        ]
    )
).properties(
    width=380,
    height=380,
    title=alt.Title(
        "Points A, B, C and the slopes of the segments beside them",
        subtitle="A is best on its curve for slopes between 1.5 and 2.4",
    ),
)
chart = roc
chart
