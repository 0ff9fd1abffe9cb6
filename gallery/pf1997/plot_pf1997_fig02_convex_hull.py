"""
The ROC convex hull of four classifiers (pf1997, Fig. 2)
========================================================

The ROC convex hull of all the classifiers' points is the upper boundary of the smallest
convex set containing them. Provost and Fawcett showed that a classifier is optimal for
*some* operating conditions if and only if it lies on this hull: any point below it is beaten,
under every class distribution and cost, by a hull vertex or by a random mix of two. The
hull is therefore the set of classifiers worth keeping, and the area beneath it (shaded)
is everything the classifiers together can achieve.

What the paper shows
--------------------

The curves of Fig. 1 with the convex hull of all their points drawn as the edge of a
shaded region. Only points of A (at few false positives) and of C (at many) are hull
vertices; no point of B or of D touches the hull, so B and D are never optimal, whatever
the costs and class proportions, and the points of A and C off the hull can be dropped too.

The four crossing curves are made up to tell that story
(``costchart.datasets.crossing_roc_curves``).
"""

import altair as alt
import numpy as np

import costchart as cc
from costchart import layers
from costchart.datasets import crossing_roc_curves

# %%
# Four classifiers, A to D, as made-up ROC curves with the paper's story.
points = crossing_roc_curves()
curves = sorted(points["classifier"].unique())

# %%
# One hull over all the classifiers' points: which classifier each vertex comes from
# (the corners (0, 0) and (1, 1) are the trivial classifiers).
hull = cc.roc_hull(points[["fpr", "tpr"]], by=[])
inner = points[(points["fpr"] > 0) & (points["fpr"] < 1)]
owners = inner[["classifier", "fpr", "tpr"]].drop_duplicates(["fpr", "tpr"])
hull = hull.merge(owners, on=["fpr", "tpr"], how="left").fillna({"classifier": "trivial"})
print(hull[["classifier", "fpr", "tpr", "slope_lo", "slope_hi"]].round(3).to_string())
print("classifiers on the hull:", sorted(set(hull["classifier"]) - {"trivial"}))

# %%
# How far below the hull each classifier's nearest point lies (0 for a hull vertex; the
# corners are left out, every curve has them).
below = inner.assign(below=np.interp(inner["fpr"], hull["fpr"], hull["tpr"]) - inner["tpr"])
closest = below.groupby("classifier")["below"].min()
print(closest.round(3))

# %%
# The curves, the hull shaded beneath, and its vertices as dots in their classifier's
# colour.
colours = cc.palette(curves)
shade_colour = "#999999"
shade = (
    alt.Chart(hull)
    .mark_area(color=shade_colour, opacity=0.25)
    .encode(x=alt.X("fpr:Q", title="False positive rate"), y=alt.Y("tpr:Q"))
)
vertices = (
    alt.Chart(hull[hull["classifier"] != "trivial"])
    .mark_point(filled=True, size=90, opacity=1)
    .encode(
        x="fpr:Q",
        y="tpr:Q",
        color=alt.Color("classifier:N").scale(domain=list(colours), range=list(colours.values())),
    )
)
chart = (
    shade
    + layers.roc_curve(points, classifier="classifier", palette=colours)
    + layers.hull(hull.drop(columns="classifier"), mark={"strokeWidth": 2.5, "color": "#222222"})
    + vertices
    + layers.chance()
    + layers.key(
        [
            ("ROC convex hull of all four", "dashed line", "#222222"),
            ("area beneath the hull", "region", shade_colour),
            ("chance diagonal", "chance"),
        ]
    )
).properties(width=360, height=360, title="The ROC convex hull of A, B, C and D: only A and C")
chart
