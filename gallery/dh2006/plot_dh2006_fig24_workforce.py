"""
Workforce utilization in ROC and cost space (dh2006, Fig. 24)
=============================================================

Under a workforce constraint only so many cases can be handled: at most ``k`` instances
may be predicted positive, ``P * TP + N * FP <= k``. In ROC space this is a line of
*negative* slope, ``-N/P``, and the best classifier is where it meets the ROC convex hull,
usually a random mixture of two hull vertices. In cost space the same line becomes one
point, and it lies outside the usual range of ``pc``.

Here: logistic regression on the German credit data (bundled cross-validated
predictions), with the 300 bad loans as the positive class (the cases to review) and the
700 good ones negative, and a review team that can take 400 loans.

What the paper shows
--------------------

(a) The workforce line is a negatively sloped dashed line in ROC space, and the optimal
classifier is where it crosses the ROC convex hull. (b) In cost space the line is the
point drawn as a circle; with a slope ``-N/P`` below -1 it lies on the left, at a
negative ``pc`` (here ``pc`` = 1 / (1 - 700/300) = -0.75). The construction: extend the
classifiers' cost lines to that ``pc`` (the vertical dashed line), take the two nearest
to the point above and below it, and draw the line from the point through the place where
those two cross; that line (bold) is the classifier that makes the best use of the
workforce. The chart keeps the point in view by widening the ``pc`` axis to -1, which
is the weakness the paper notes: the point can lie arbitrarily far from the normal range,
so ROC space shows this criterion more conveniently than cost space.
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import load_predictions

# %%
# ROC points with bad loans as positives, and the workforce choice at 400 reviews.
credit = load_predictions().query("dataset == 'credit' and classifier == 'logistic'")
data = credit.assign(bad=1 - credit["label"], risk=1 - credit["score"])
points = cc.roc_points(data, score="risk", label="bad")
positives, negatives = int(points["tp"].max()), int(points["fp"].max())
capacity = 400
choice = cc.workforce(points, capacity=capacity)
print(choice.round(4))
mixture = choice[choice["role"] == "mixture"]
components = choice[choice["role"] == "component"]

# %%
# The constraint as a ROC line: ``P * tpr + N * fpr = capacity``, so slope ``-N/P`` and
# intercept ``capacity / P``; its cost point lies outside ``0 <= pc <= 1``.
slope, intercept = -negatives / positives, capacity / positives
virtual_pc, virtual_cost = cc.roc_line_to_cost_point(slope, intercept)
print(f"virtual cost point: pc = {virtual_pc:.3f}, cost = {virtual_cost:.3f}")

# %%
# The hull vertices' cost lines, extended from the virtual point's pc to pc = 1, and their
# costs at the virtual pc: the two nearest above and below the point are the components.
hull = cc.roc_hull(points)
vertices = hull[(hull.fpr > 0) | (hull.tpr > 0)][["fpr", "tpr"]].reset_index(drop=True)
vertices = vertices[(vertices.fpr < 1) | (vertices.tpr < 1)]
PC_MIN = -1.0
extended = pd.concat(
    [
        vertices.assign(pc=pc, cost=(1 - pc) * vertices.fpr + pc * (1 - vertices.tpr))
        for pc in (PC_MIN, 1.0)
    ]
).reset_index(names="vertex")
at_virtual = vertices.assign(
    cost=(1 - virtual_pc) * vertices.fpr + virtual_pc * (1 - vertices.tpr)
).sort_values("cost")
above = at_virtual[at_virtual.cost >= virtual_cost].iloc[0]
below = at_virtual[at_virtual.cost < virtual_cost].iloc[-1]
(f1, t1), (f2, t2) = (above.fpr, above.tpr), (below.fpr, below.tpr)
cross_pc = (f2 - f1) / ((f2 - f1) + (1 - t1) - (1 - t2))
crossing = pd.DataFrame({"pc": [cross_pc], "cost": [(1 - cross_pc) * f1 + cross_pc * (1 - t1)]})
f, t = float(mixture.fpr.iloc[0]), float(mixture.tpr.iloc[0])
chosen = pd.DataFrame(
    {"pc": [virtual_pc, 1.0], "cost": [virtual_cost, 1 - t]}
)  # the mixture's cost line, from the point to pc = 1
print(at_virtual.round(3).to_string())
print(crossing.round(4))

# %%
# ROC space: the curve, the hull, the workforce line and the chosen mixture.
ROC, LINE, COMPONENT, GREY = "#0072B2", "#D55E00", "#009E73", "#8c8c8c"
HIGHLIGHT = "#c2185b"  # the colour layers.selected draws the chosen classifier in
fpr_ends = np.array([max(0, (intercept - 1) / -slope), min(1, intercept / -slope)])
line_in_roc = pd.DataFrame({"fpr": fpr_ends, "tpr": slope * fpr_ends + intercept})
roc = (
    layers.roc_curve(points)
    + layers.hull(hull)
    + alt.Chart(line_in_roc)
    .mark_line(color=LINE, strokeDash=[6, 3], strokeWidth=2)
    .encode(x=alt.X("fpr:Q", title="False positive rate"), y="tpr:Q")
    + layers.selected(components, space="roc", mark={"color": COMPONENT})
    + layers.selected(mixture, space="roc", mark={"filled": True, "color": HIGHLIGHT})
    + layers.chance()
).properties(width=300, height=300, title=f"(a) ROC space: {capacity} loans reviewed")

# %%
# Cost space, widened to pc = -1 to keep the point in view.
x = alt.X("pc:Q", title="Probability cost, PC(+)", scale=alt.Scale(domain=[PC_MIN, 1], nice=False))
y = alt.Y("cost:Q", title="Normalized expected cost", scale=alt.Scale(domain=[-0.2, 1]))
outside = pd.DataFrame({"pc": [PC_MIN], "pc2": [0.0]})
component_lines = extended.merge(
    pd.DataFrame({"fpr": [f1, f2], "tpr": [t1, t2]}), on=["fpr", "tpr"]
)
cost = (
    alt.Chart(outside).mark_rect(color="#eeeeee").encode(x=x, x2="pc2:Q")
    + alt.Chart(extended)
    .mark_line(color=GREY, strokeWidth=0.8, clip=True)
    .encode(x=x, y=y, detail="vertex:N")
    + alt.Chart(component_lines)
    .mark_line(color=COMPONENT, strokeWidth=1.5, clip=True)
    .encode(x=x, y=y, detail="vertex:N")
    + alt.Chart(pd.DataFrame({"pc": [virtual_pc]}))
    .mark_rule(color=LINE, strokeDash=[6, 3], strokeWidth=1.5)
    .encode(x=x)
    + alt.Chart(cc.lower_envelope(points)[["pc", "cost"]])
    .mark_line(color="#222222", strokeWidth=2.5)
    .encode(x=x, y=y)
    + alt.Chart(chosen).mark_line(color=HIGHLIGHT, strokeWidth=3).encode(x=x, y=y)
    + alt.Chart(crossing)
    .mark_point(shape="diamond", filled=True, size=90, color="#222222")
    .encode(x=x, y=y)
    + alt.Chart(pd.DataFrame({"pc": [virtual_pc], "cost": [virtual_cost]}))
    .mark_point(size=160, strokeWidth=2.5, color=LINE)
    .encode(x=x, y=y)
    + layers.key(
        [
            ("ROC curve", "line", ROC),
            ("ROC convex hull", "dashed line"),
            (
                f"workforce line: {capacity} predicted positive (a) / its pc (b)",
                "dashed line",
                LINE,
            ),
            ("the workforce line as a cost-space point", "ring", LINE),
            ("the two classifiers nearest the point: ROC points / cost lines", "line", COMPONENT),
            ("where their cost lines cross", "dot", "#222222"),
            ("the optimal classifier (their mixture) and its cost line", "bold line", HIGHLIGHT),
            ("cost lines of the other hull vertices", "thin line", GREY),
            ("lower envelope", "bold line"),
            ("pc < 0: outside the usual range", "region", "#eeeeee"),
        ]
    )
).properties(
    width=360,
    height=300,
    title=alt.Title(
        "(b) Cost space: the line becomes a point",
        subtitle=f"at pc = {virtual_pc:.2f}, cost = {virtual_cost:.2f}, left of the usual range",
    ),
)
chart = (roc | cost).properties(title="Workforce utilization on German credit (bad loans +)")
chart
