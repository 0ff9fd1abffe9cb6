"""
The operating range, estimated in ROC space and exact in cost space (dh2006, Fig. 9)
====================================================================================

Where is a classifier worth using at all? In ROC space the range of operating conditions
can only be estimated: the hull edges joining the curve to the trivial classifiers at
(0, 0) and (1, 1) have slopes that mark where the curve stops beating them, but a reader
must measure those slopes and convert them. Drummond and Holte's visual estimate from the
ROC picture was wider than the truth. In cost space the operating range is visible and
exact: the ``pc`` interval where the cost curve lies below both diagonals of the trivial
classifiers. Computed exactly, the end edges' slopes give the same interval, as printed
below.

The bundled tree on the Pima diabetes data.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import load_predictions

# %%
# The hull and the edges that leave the trivial classifiers: their slopes give the range.
data = load_predictions().query("dataset == 'diabetes' and classifier == 'tree'")
points = cc.roc_points(data, score="score", label="label")
hull = cc.roc_hull(points)
first_edge = hull.iloc[[0, 1]]
last_edge = hull.iloc[[-2, -1]]
slope_first = (first_edge["tpr"].iat[1] - first_edge["tpr"].iat[0]) / (
    first_edge["fpr"].iat[1] - first_edge["fpr"].iat[0]
)
slope_last = (last_edge["tpr"].iat[1] - last_edge["tpr"].iat[0]) / (
    last_edge["fpr"].iat[1] - last_edge["fpr"].iat[0]
)
from_roc = (cc.pc_from_slope(slope_first), cc.pc_from_slope(slope_last))
exact = cc.operating_range(points, of="envelope")
print(f"from the hull's end edges: {from_roc[0]:.3f} < pc < {from_roc[1]:.3f}")
print(exact.round(3))

# %%
# ROC space: the hull with its two end edges in bold. Cost space: the envelope and the
# exact operating range.
edges = pd.concat([first_edge.assign(edge="first"), last_edge.assign(edge="last")])
roc = (
    layers.roc_curve(points)
    + layers.hull(hull)
    + alt.Chart(edges)
    .mark_line(color="#D55E00", strokeWidth=3)
    .encode(x=alt.X("fpr:Q", title="False positive rate"), y="tpr:Q", detail="edge:N")
    + layers.chance()
).properties(width=300, height=300, title="ROC space: the hull's end edges")
cost = (
    layers.trivial_region()
    + layers.cost_lines(cc.to_cost_lines(points))
    + layers.envelope(cc.lower_envelope(points))
    + layers.trivial()
    + layers.operating_ranges(exact)
    + layers.key(
        [
            ("ROC curve", "line"),
            ("ROC convex hull", "dashed line"),
            ("hull edges to the trivial classifiers (orange)", "bold line"),
            ("lower envelope", "bold line"),
            ("exact operating range", "rule"),
            ("trivial classifiers", "trivial"),
            ("worse than a trivial classifier", "region"),
        ]
    )
).properties(
    width=300,
    height=300,
    title=alt.Title(
        "Cost space: the exact range",
        subtitle=f"{exact['pc_lo'].iat[0]:.3f} < pc < {exact['pc_hi'].iat[0]:.3f}",
    ),
)
chart = roc | cost
chart
