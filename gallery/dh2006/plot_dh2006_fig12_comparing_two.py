"""
Comparing two classifiers: how much better, and where (dh2006, Fig. 12)
=======================================================================

Two ROC curves, one above the other: which is better is plain, by how much is not. The
distance between the curves in ROC space is not the difference in expected cost, and the
two classifiers to compare at a given condition are the ones each curve would use there.
Drummond and Holte drew the same two curves in cost space, where the vertical gap between
the cost curves is the difference at every operating condition.

What the paper shows
--------------------

In ROC space (panel a) the dashed curve is above the solid one, and the solid curve has a
single non-trivial classifier, B. With equal priors, at a cost ratio of 2.1 the dashed
curve's classifier A must be compared with B, but at 2.3 with C, the trivial
always-negative classifier at the origin. In cost space (panel b) B is the horizontal line
on top of the solid cost curve and C the rising diagonal. The dashed classifier's cost is
lower than or equal to the solid one's at every PC(+); the largest difference, about 0.05
(0.25 against 0.3), is near PC(+) = 0.3 and 0.7, and the difference is negligible near 0.5
and below 0.2 or above 0.8 (panel c).

The points are made up to give the paper's numbers: the dashed curve through A (0.1, 0.4),
(0.3, 0.7) and (0.6, 0.9); the solid curve through B (0.31, 0.69). The envelopes come from
:func:`costchart.lower_envelope`, their difference from :func:`costchart.compare`, and the
classifier each curve uses at a cost ratio from :func:`costchart.iso_performance`.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# The two ROC curves (made up), their hulls and their cost curves.
dashed = pd.DataFrame(
    {"threshold": [3.0, 2.0, 1.0], "fpr": [0.1, 0.3, 0.6], "tpr": [0.4, 0.7, 0.9]}
)
solid = pd.DataFrame({"threshold": [1.0], "fpr": [0.31], "tpr": [0.69]})
curves = pd.concat(
    [
        cc.roc_hull(dashed).assign(curve="dashed"),
        cc.roc_hull(solid).assign(curve="solid"),
    ],
    ignore_index=True,
)
names = {("dashed", 3.0): "A", ("solid", 1.0): "B", ("solid", float("inf")): "C"}
curves["name"] = [
    names.get(key, "") for key in zip(curves["curve"], curves["threshold"], strict=True)
]
result = cc.compare(cc.lower_envelope(dashed), cc.lower_envelope(solid), names=("dashed", "solid"))
difference = result.difference
print(result.advantage.round(3))

# %%
# Which classifiers to compare at cost ratios 2.1 and 2.3 (equal priors: the iso-performance
# slope is the cost ratio).
ratios = [2.1, 2.3]
choices = pd.concat(
    [
        cc.iso_performance(dashed, slope=ratios).assign(curve="dashed", ratio=ratios),
        cc.iso_performance(solid, slope=ratios).assign(curve="solid", ratio=ratios),
    ],
    ignore_index=True,
)
print(choices[["curve", "ratio", "choice", "fpr", "tpr", "pc_lo"]])

# %%
# (a) The ROC curves with A, B, C; (b) the cost curves; (c) their difference.
DASHED, SOLID = "#0072B2", "#D55E00"
dash = alt.StrokeDash(
    "curve:N", scale=alt.Scale(domain=["dashed", "solid"], range=[[6, 4], [1, 0]]), legend=None
)
colour = alt.Color(
    "curve:N", scale=alt.Scale(domain=["dashed", "solid"], range=[DASHED, SOLID]), legend=None
)
named = curves[curves["name"] != ""]
roc = (
    layers.chance()
    + alt.Chart(curves)
    .mark_line(strokeWidth=2.2)
    .encode(
        x=alt.X("fpr:Q", title="False positive rate", scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("tpr:Q", title="True positive rate", scale=alt.Scale(domain=[0, 1])),
        color=colour,
        strokeDash=dash,
        order="fpr:Q",
    )
    + alt.Chart(named).mark_point(filled=True, size=70).encode(x="fpr:Q", y="tpr:Q", color=colour)
    + alt.Chart(named)
    .mark_text(dx=-10, dy=-10, fontSize=15, fontWeight="bold")
    .encode(x="fpr:Q", y="tpr:Q", text="name:N", color=colour)
).properties(width=280, height=280, title="(a) ROC space: which is better is plain")
envelopes = pd.concat(
    [
        cc.lower_envelope(dashed).assign(curve="dashed"),
        cc.lower_envelope(solid).assign(curve="solid"),
    ],
    ignore_index=True,
)
cost = (
    layers.trivial()
    + alt.Chart(envelopes)
    .mark_line(strokeWidth=2.5)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("cost:Q", title="Normalized expected cost", scale=alt.Scale(domain=[0, 0.5])),
        color=colour,
        strokeDash=dash,
        order="pc:Q",
    )
    + alt.Chart(pd.DataFrame({"pc": [0.5, 0.12], "cost": [0.31, 0.12], "t": ["B", "C"]}))
    .mark_text(dy=-12, fontSize=15, fontWeight="bold", color=SOLID)
    .encode(x="pc:Q", y="cost:Q", text="t:N")
    + layers.key(
        [
            ("dashed ROC curve / its cost curve", "dashed line", DASHED),
            ("solid ROC curve / its cost curve", "bold line", SOLID),
            ("difference, dashed minus solid", "line", "#222222"),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(width=280, height=280, title="(b) Cost space: by how much, and where")
gap = (
    layers.zero_rule()
    + alt.Chart(difference)
    .mark_line(color="#222222", strokeWidth=2)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("difference:Q", title="Cost difference"),
    )
).properties(width=280, height=280, title="(c) Dashed minus solid")
chart = roc | cost | gap
chart
