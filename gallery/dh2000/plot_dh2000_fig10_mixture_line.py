"""
A mixture of two classifiers as a cost line (dh2000, Fig. 10)
=============================================================

A point on an edge of the ROC convex hull is not one of the classifiers, but it can be
realised by using one of the edge's two classifiers on a random fraction of the instances
and the other on the rest. Drummond and Holte show the dual of that operation in cost
space: the mixture is again a straight cost line, the weighted sum of the two classifiers'
lines, passing through the point where they cross on the lower envelope.

What the paper shows
--------------------

Two classifiers, R and S, are adjacent on the ROC hull, so their cost lines (solid) meet at
a vertex of the lower envelope. Using R with probability ``w`` and S otherwise gives the ROC
point ``w * R + (1 - w) * S`` on the segment between them, and its cost line (dotted) is
``w * cost_R + (1 - w) * cost_S`` at every ``pc``: it lies between the two solid lines and
goes through their crossing, where all three cost the same. It is never below the
envelope, so mixing never beats the better of the two; at the crossing it ties.

R and S are made up; ``w = 0.4``.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# The two classifiers, the mixture's ROC point and all three cost lines.
W = 0.4
pair = pd.DataFrame({"classifier": ["R", "S"], "fpr": [0.12, 0.3], "tpr": [0.6, 0.8]})
r, s = pair.iloc[0], pair.iloc[1]
mixture = pd.DataFrame(
    {
        "classifier": [f"mixture, w = {W}"],
        "fpr": [W * r["fpr"] + (1 - W) * s["fpr"]],
        "tpr": [W * r["tpr"] + (1 - W) * s["tpr"]],
    }
)
lines = cc.to_cost_lines(pair, by="classifier")
mixture_line = cc.to_cost_lines(mixture, by="classifier")
envelope = cc.lower_envelope(pair[["fpr", "tpr"]], by=[])
hull = cc.roc_hull(pair[["fpr", "tpr"]], by=[])
# The envelope vertex where R's line hands over to S's: the pc of the hull edge R-S.
crossing = envelope[envelope["fpr"] == s["fpr"]].iloc[[0]]
print(mixture)
print(crossing[["pc", "cost"]])

# %%
# ROC space: R, S, the hull and the mixture point on the segment between them. Cost space:
# the two solid lines, the dotted mixture line through their crossing, and the envelope.
BLUE, GREEN, MIX = "#0072B2", "#009E73", "#D55E00"
colours = {"R": BLUE, "S": GREEN, f"mixture, w = {W}": MIX}
names = alt.Color(
    "classifier:N",
    scale=alt.Scale(domain=list(colours), range=list(colours.values())),
    legend=None,
)
both = pd.concat([pair, mixture], ignore_index=True)
roc = (
    layers.hull(hull)
    + alt.Chart(both)
    .mark_point(filled=True, size=80)
    .encode(
        x=alt.X("fpr:Q", title="False positive rate", scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("tpr:Q", title="True positive rate", scale=alt.Scale(domain=[0, 1])),
        color=names,
    )
    + alt.Chart(both)
    .mark_text(align="left", dx=8, dy=8, fontWeight="bold")
    .encode(x="fpr:Q", y="tpr:Q", text="classifier:N", color=names)
    + layers.chance()
).properties(width=300, height=300, title="ROC space: a point between R and S")
cost = (
    layers.trivial(y_max=0.6)
    + alt.Chart(lines)
    .mark_line(strokeWidth=2)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("cost:Q", title="Normalized expected cost", scale=alt.Scale(domain=[0, 0.6])),
        color=names,
    )
    + alt.Chart(mixture_line)
    .mark_line(strokeWidth=2.5, strokeDash=[2, 3])
    .encode(x="pc:Q", y="cost:Q", color=names)
    + layers.envelope(envelope, y_max=0.6, mark={"strokeWidth": 1, "strokeDash": [6, 3]})
    + alt.Chart(crossing)
    .mark_point(size=140, color="#222222", strokeWidth=2)
    .encode(x="pc:Q", y="cost:Q")
    + alt.Chart(lines[lines["pc"] == 1])
    .mark_text(align="right", dx=-4, dy=-8, fontWeight="bold")
    .encode(x="pc:Q", y="cost:Q", text="classifier:N", color=names)
    + layers.key(
        [
            ("cost line of R", "line", BLUE),
            ("cost line of S", "line", GREEN),
            (f"mixture: R with probability {W}, else S", "dotted line", MIX),
            ("lower envelope / ROC hull", "dashed line", "#222222"),
            ("where R's and S's lines cross", "ring", "#222222"),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(width=300, height=300, title="Cost space: the mixture is a line")
chart = roc | cost
chart
