"""
Iso-performance lines on the ROC convex hull (pf1997, Fig. 3)
=============================================================

All classifiers on one straight line of slope ``m = p(-) C(+|-) / (p(+) C(-|+))`` in ROC
space have the same expected cost: an iso-performance line. For given operating
conditions the best classifier is where the line of their slope first touches the ROC
convex hull, moving down from the top left. Provost and Fawcett drew two such lines: alpha,
steep (negatives common or false positives costly), touches the hull at a vertex of A;
beta, shallow, touches a vertex of B. Changing the conditions only changes the slope, so
the hull answers the question for all of them at once.

The four curves are made up to tell the paper's story; alpha is ``pc = 0.15`` (slope
about 5.7) and beta ``pc = 0.5`` (slope 1).
"""

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
# One hull over all the classifiers' points, each vertex labelled with its classifier
# (the corners (0, 0) and (1, 1) are the trivial classifiers).
hull = cc.roc_hull(points[["fpr", "tpr"]], by=[])
inner = points[(points["fpr"] > 0) & (points["fpr"] < 1)]
owners = inner[["classifier", "fpr", "tpr"]].drop_duplicates(["fpr", "tpr"])
hull = hull.merge(owners, on=["fpr", "tpr"], how="left").fillna({"classifier": "trivial"})

# %%
# The two operating conditions, their slopes and the hull vertex each line touches.
conditions = {"alpha": 0.15, "beta": 0.5}
for name, pc in conditions.items():
    best = cc.iso_performance(points[["fpr", "tpr"]], pc=pc, by=[])
    print(name, f"pc = {pc}, slope = {cc.slope_from_pc(pc):.2f}:")
    print(best[["fpr", "tpr"]].merge(hull[["fpr", "tpr", "classifier"]], on=["fpr", "tpr"]))

# %%
# The curves, the hull, and the two iso-performance lines touching it.
colours = cc.palette(curves)
chart = (
    layers.roc_curve(points, color="classifier", palette=colours, max_points=None)
    + layers.hull(hull.drop(columns="classifier"), mark={"strokeWidth": 2.5, "color": "#222222"})
    + layers.iso_performance(hull.drop(columns="classifier"), pc=list(conditions.values()))
    + layers.chance()
    + layers.key(
        [
            ("ROC convex hull", "dashed line"),
            ("iso-performance lines: alpha (pc = 0.15), beta (pc = 0.5)", "dotted line"),
            ("chance diagonal", "chance"),
        ]
    )
).properties(width=380, height=380, title="Two iso-performance lines touching the hull")
chart
