"""
Averaging two curves in ROC space and in cost space (dh2000, Fig. 15-16)
========================================================================

Two ROC convex hulls of one learner (from different training samples, say) can be averaged
in ROC space or in cost space, and the two averages are different curves. Drummond and
Holte draw both averages in both spaces: the ROC vertical average (Provost et al.: mean TPR
at each FPR) and the vertical average of the cost curves (mean cost at each ``pc``), each
also transformed into the other space.

What the paper shows
--------------------

In ROC space (left) the vertical average of the two dashed hulls is the solid line; the
cost average, mapped back to ROC space, is the dotted line. In cost space (right) the cost
average is the solid line and the ROC average, mapped to cost space, the dotted one. The
curves do not agree, because the two averages pair up different classifiers: the ROC
average pairs points with the same FPR, the cost average the classifiers that are each
curve's best at the same ``pc``. So the cost average's ROC dual has a vertex, A, in the top
right that averages a real classifier of one hull with the always-positive classifier of
the other (at those ``pc`` the other hull is already best doing nothing). The cost average
is the mean expected cost when the best classifier of each curve is used; the ROC average,
seen in cost space, is never below it and is above it for many ``pc``, because it averages
in classifiers that are not optimal there.

The two hulls are made up, different enough that the averages separate visibly.
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# Two made-up convex hulls (the trivial classifiers are added), their cost curves.
FIRST, SECOND = "hull 1", "hull 2"
points = pd.DataFrame(
    {
        "curve": [FIRST] * 3 + [SECOND] * 3,
        "threshold": [3.0, 2.0, 1.0] * 2,
        "fpr": [0.05, 0.2, 0.5, 0.1, 0.3, 0.6],
        "tpr": [0.5, 0.75, 0.9, 0.3, 0.7, 0.97],
    }
)
hulls = cc.roc_hull(points, by="curve")
envelopes = cc.lower_envelope(points, by="curve")

# %%
# The vertical average of the cost curves, and its ROC dual: one ROC point per segment.
average = cc.vertical_average(envelopes, over="curve")
dual = cc.curve_points(average)
print(f"expected cost of the cost average: {cc.expected_cost(average)['expected_cost'].iat[0]:.4f}")
print(dual.round(3))

# %%
# The ROC vertical average of the hulls (mean TPR at each FPR), and its cost curve.
roc_avg = cc.roc_average(hulls, over="curve", averaging="vertical")
roc_avg_cost = cc.lower_envelope(roc_avg[["fpr", "tpr"]], by=[])
print(roc_avg[["fpr", "tpr"]].round(3))

# %%
# Vertex A of the dual: a segment of the cost average where one curve is at a trivial
# classifier and the other is not.


def active(curve, pc):
    """The classifier a curve's envelope uses at ``pc`` (its segment to the right)."""
    own = envelopes[(envelopes["curve"] == curve) & (envelopes["pc"] <= pc)]
    return own.iloc[-1][["fpr", "tpr"]].to_numpy(dtype=float)


def trivial(rates):
    return bool(np.allclose(rates, [0, 0]) or np.allclose(rates, [1, 1]))


mixed = [
    i
    for i, row in dual.iterrows()
    if trivial(active(FIRST, (row.pc_lo + row.pc_hi) / 2))
    != trivial(active(SECOND, (row.pc_lo + row.pc_hi) / 2))
]
vertex_a = dual.loc[[i for i in mixed if dual.loc[i, "fpr"] > 0.5]].assign(name="A")
print(vertex_a)

# %%
# ROC space: the two hulls (dashed), the ROC average (solid) and the cost average's dual
# (dotted). Cost space: the two cost curves (dashed), the cost average (solid) and the ROC
# average's cost curve (dotted). Colour tells which average, the line style in which space
# it was made.
BLUE, GREEN, PURPLE, ORANGE = "#0072B2", "#009E73", "#CC79A7", "#D55E00"


def closed(table):
    """An ROC curve from (0, 0) to (1, 1) through the table's points, in order."""
    ends = pd.DataFrame({"fpr": [0.0, 1.0], "tpr": [0.0, 1.0]})
    curve = pd.concat([ends.iloc[:1], table[["fpr", "tpr"]], ends.iloc[1:]], ignore_index=True)
    curve = curve.drop_duplicates().reset_index(drop=True)
    return curve.assign(order=range(len(curve)))


def roc_line(table, colour, dash):
    return (
        alt.Chart(closed(table))
        .mark_line(color=colour, strokeWidth=2.2, strokeDash=dash)
        .encode(
            x=alt.X("fpr:Q", title="False positive rate", scale=alt.Scale(domain=[0, 1])),
            y=alt.Y("tpr:Q", title="True positive rate", scale=alt.Scale(domain=[0, 1])),
            order="order:Q",
        )
    )


roc = (
    layers.hull(hulls[hulls["curve"] == FIRST], mark={"color": BLUE})
    + layers.hull(hulls[hulls["curve"] == SECOND], mark={"color": GREEN})
    + roc_line(roc_avg, PURPLE, [1, 0])
    + roc_line(dual, ORANGE, [2, 3])
    + alt.Chart(vertex_a)
    .mark_point(size=90, color=ORANGE, strokeWidth=2)
    .encode(x="fpr:Q", y="tpr:Q")
    + alt.Chart(vertex_a)
    .mark_text(dx=-4, dy=-12, fontWeight="bold")
    .encode(x="fpr:Q", y="tpr:Q", text="name:N")
    + layers.chance()
).properties(width=300, height=300, title="ROC space: hulls and two averages")
cost = (
    layers.trivial_region()
    + layers.envelope(
        envelopes[envelopes["curve"] == FIRST],
        mark={"color": BLUE, "strokeWidth": 1.5, "strokeDash": [6, 3]},
    )
    + layers.envelope(
        envelopes[envelopes["curve"] == SECOND],
        mark={"color": GREEN, "strokeWidth": 1.5, "strokeDash": [6, 3]},
    )
    + layers.envelope(average, mark={"color": ORANGE})
    + layers.envelope(roc_avg_cost, mark={"color": PURPLE, "strokeDash": [2, 3]})
    + layers.trivial()
    + layers.key(
        [
            ("hull 1 / its cost curve", "dashed line", BLUE),
            ("hull 2 / its cost curve", "dashed line", GREEN),
            ("ROC vertical average (solid) / in cost space (dotted)", "line", PURPLE),
            ("cost vertical average (solid) / in ROC space (dotted)", "line", ORANGE),
            ("vertex A: a classifier averaged with always-positive", "ring", ORANGE),
            ("trivial classifiers", "trivial"),
            ("worse than a trivial classifier", "region"),
        ]
    )
).properties(width=300, height=300, title="Cost space: cost curves and two averages")
chart = roc | cost
chart
