"""
The ROC convex hull of four classifiers (pf1997, Fig. 2)
========================================================

The ROC convex hull of all the classifiers' points is the upper boundary of the smallest
convex set containing them. Provost and Fawcett showed that a classifier is optimal for
*some* operating conditions if and only if it lies on this hull: any point below it is beaten,
under every class distribution and cost, by a hull vertex or by a random mix of two. The
hull is therefore the set of classifiers worth keeping, and the area beneath it (shaded)
is everything the classifiers together can achieve.

The four crossing curves are made up to tell the paper's story.
"""

import altair as alt

import costchart as cc
from costchart import layers
from costchart.datasets import crossing_roc_curves

# %%
# Four classifiers, A to D, as made-up ROC curves with the paper's story (its curves come
# from unnamed domains): A is best at few false positives, D at many, B in between, and C
# is never the best.
points = crossing_roc_curves()
curves = sorted(points["classifier"].unique())

# %%
# One hull over all the classifiers' points: which classifier each vertex comes from.
hull = cc.roc_hull(points[["fpr", "tpr"]], by=[])
inner = points[(points["fpr"] > 0) & (points["fpr"] < 1)]  # (0, 0), (1, 1): trivial
owners = inner[["classifier", "fpr", "tpr"]].drop_duplicates(["fpr", "tpr"])
hull = hull.merge(owners, on=["fpr", "tpr"], how="left")
print(hull[["classifier", "fpr", "tpr", "pc_lo", "pc_hi"]].round(3).to_string())
print("classifiers on the hull:", sorted(hull["classifier"].dropna().unique()))

# %%
# The curves, the hull shaded beneath, and its vertices coloured by classifier.
shade = (
    alt.Chart(hull)
    .mark_area(color="#999999", opacity=0.25)
    .encode(x=alt.X("fpr:Q", title="False positive rate"), y=alt.Y("tpr:Q"))
)
colours = cc.palette(curves)
chart = (
    shade
    + layers.roc_curve(points, color="classifier", palette=colours)
    + layers.hull(hull.drop(columns="classifier"), mark={"strokeWidth": 2.5, "color": "#222222"})
    + layers.chance()
    + layers.key(
        [
            ("ROC convex hull of all four", "dashed line"),
            ("area beneath the hull", "region"),
            ("chance diagonal", "chance"),
        ]
    )
).properties(width=360, height=360, title="The ROC convex hull of A, B, C and D")
chart
