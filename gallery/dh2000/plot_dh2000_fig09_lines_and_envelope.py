"""
Many classifiers as cost lines, and their lower envelope (dh2000, Fig. 9)
=========================================================================

Drawing one cost line per classifier puts a whole set of classifiers in one picture, where
any two are compared by the vertical distance between their lines at the operating point
of interest. The lowest line at each operating point is the classifier to use there, and
together those pieces make the lower envelope: the cost-space dual of the ROC convex hull.

What the paper shows
--------------------

Each ROC point becomes a line from ``(0, FP)`` to ``(1, 1 - TP)``. A classifier whose line is
below another's everywhere dominates it, which the picture shows at a glance. Every line
bounds a half-plane from above; their intersection (with the trivial classifiers) is the
lower envelope, drawn dashed: at every ``pc`` it is the minimum cost over all the lines, and
its segments are the lines of exactly the ROC hull's vertices. Classifiers below the ROC
hull (here P and T) never reach the envelope.

The seven classifiers are made up.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# Seven made-up classifiers, their cost lines, the lower envelope and the ROC hull.
points = pd.DataFrame(
    {
        "classifier": ["P", "Q", "R", "S", "T", "U", "V"],
        "fpr": [0.15, 0.04, 0.12, 0.3, 0.45, 0.55, 0.7],
        "tpr": [0.35, 0.38, 0.6, 0.8, 0.78, 0.93, 0.96],
    }
)
lines = cc.to_cost_lines(points, by="classifier")
envelope = cc.lower_envelope(points[["fpr", "tpr"]], by=[])
hull = cc.roc_hull(points[["fpr", "tpr"]], by=[])
on_hull = points.merge(hull[["fpr", "tpr"]], on=["fpr", "tpr"])["classifier"].tolist()
print("classifiers on the hull (segments of the envelope):", on_hull)
print(envelope.round(3))

# %%
# Every line in its own colour, labelled at its right end; the envelope dashed on top.
colours = cc.palette(points["classifier"].tolist())
ends = lines[lines["pc"] == 1]
chart = (
    layers.trivial(y_max=1)
    + alt.Chart(lines)
    .mark_line(strokeWidth=1.6)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("cost:Q", title="Normalized expected cost", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color(
            "classifier:N",
            scale=alt.Scale(domain=list(colours), range=list(colours.values())),
            title="Classifier",
        ),
    )
    + alt.Chart(ends)
    .mark_text(align="left", dx=5, fontWeight="bold")
    .encode(x="pc:Q", y="cost:Q", text="classifier:N")
    + layers.envelope(envelope, y_max=1, mark={"strokeDash": [6, 3], "strokeWidth": 3})
    + layers.key(
        [
            ("lower envelope: least cost at each PC(+)", "dashed line", "#222222"),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(width=400, height=320, title="Seven classifiers and their lower envelope")
chart
