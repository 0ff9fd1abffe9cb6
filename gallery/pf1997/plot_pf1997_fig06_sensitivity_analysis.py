"""
Sensitivity analysis with iso-performance lines (pf1997, Fig. 6)
================================================================

When the operating conditions are only known to lie in a range, the hull tells which
classifiers can be optimal: each hull vertex is best for the slopes between those of its
two adjacent hull edges. Provost and Fawcett used this for sensitivity analysis: with the
slope known to lie between two values, only the vertices touched by iso-performance lines
in that range matter, and if there is just one, the choice does not depend on the exact
conditions. Cost space shows the same thing as the stretch of ``pc`` where each vertex's
cost line forms the lower envelope.

The four curves are made up to tell the paper's story; the conditions are ``pc`` between
0.3 and 0.6 (slopes 2.33 to 0.67).
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
# The vertices optimal somewhere in 0.3 <= pc <= 0.6, and where.
sensitivity = cc.iso_performance(points[["fpr", "tpr"]], pc_range=(0.3, 0.6), by=[])
print(sensitivity.merge(hull[["fpr", "tpr", "classifier"]], on=["fpr", "tpr"]).round(3))
print(hull[["classifier", "fpr", "tpr", "slope_lo", "slope_hi", "pc_lo", "pc_hi"]].round(3))

# %%
# ROC space: the hull and the iso-performance lines at the range's ends. Cost space: the
# envelope with the range's ends marked.
colours = cc.palette(curves)
ends = {"pc = 0.3": 0.3, "pc = 0.6": 0.6}
roc = (
    layers.roc_curve(points, color="classifier", palette=colours, max_points=None)
    + layers.hull(hull.drop(columns="classifier"), mark={"strokeWidth": 2.5, "color": "#222222"})
    + layers.iso_performance(hull.drop(columns="classifier"), pc=list(ends.values()))
    + layers.chance()
).properties(width=300, height=300, title="Iso-performance lines at the range's ends")
lines = cc.to_cost_lines(hull[["classifier", "fpr", "tpr"]], by=["classifier"])
cost = (
    layers.trivial_region()
    + layers.cost_lines(lines, color="classifier", palette={**colours, "trivial": "#888888"})
    + layers.envelope(cc.lower_envelope(points[["fpr", "tpr"]], by=[]))
    + layers.trivial()
    + layers.pc_markers(ends)
    + layers.pc_labels(ends)
    + layers.key(
        [
            ("ROC convex hull", "dashed line"),
            ("iso-performance lines (left)", "dotted line"),
            ("cost lines of the hull vertices", "thin line"),
            ("lower envelope", "bold line"),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(width=300, height=300, title="Which vertices are optimal for 0.3 <= pc <= 0.6")
chart = roc | cost
chart
