"""
Workforce utilization in ROC and cost space (dh2006, Fig. 24)
=============================================================

Under a workforce constraint only so many cases can be acted on: at most ``k`` instances
may be predicted positive, ``TP + FP <= k``. In ROC space this is a line of *negative*
slope, ``-N/P``, and the best classifier is where it cuts the ROC convex hull -- usually a
random mixture of two hull vertices, as for Neyman-Pearson. Drummond and Holte showed that
in cost space the classifiers on such a line have cost lines that all pass through one
point, which lies outside the chart (``pc`` below 0 or above 1): a *virtual* point from
which the admissible cost lines fan out. The best classifier's cost line is the lowest of
that fan that the hull allows.

Here: logistic regression on the German credit data (bundled cross-validated predictions,
700 good loans as positives, 300 bad), with a capacity of 400 loans approved.
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import load_predictions

# %%
# ROC points and the workforce choice at 400 loans.
data = load_predictions().query("dataset == 'credit' and classifier == 'logistic'")
points = cc.roc_points(data, score="score", label="label")
positives, negatives = int(points["tp"].max()), int(points["fp"].max())
capacity = 400
choice = cc.workforce(points, capacity=capacity)
print(choice.round(4))

# %%
# The constraint as a ROC line: ``P * tpr + N * fpr = capacity``, so slope ``-N/P`` and
# intercept ``capacity / P``; its virtual cost point lies outside ``0 <= pc <= 1``.
slope, intercept = -negatives / positives, capacity / positives
virtual_pc, virtual_cost = cc.roc_line_to_cost_point(slope, intercept)
print(f"virtual cost point: pc = {virtual_pc:.3f}, cost = {virtual_cost:.3f}")

# %%
# Classifiers on the constraint line, as cost lines: they all pass through the virtual
# point. Five of them, from the line's ends within the ROC square.
fpr_on_line = np.linspace(max(0, (intercept - 1) / -slope), min(1, intercept / -slope), 5)
on_line = pd.DataFrame({"fpr": fpr_on_line, "tpr": slope * fpr_on_line + intercept})
fan = cc.to_cost_lines(on_line.assign(name=[f"on the line {i}" for i in range(5)]), by="name")
line_in_roc = on_line.iloc[[0, -1]]

mixture = choice[choice["role"] == "mixture"]
components = choice[choice["role"] == "component"]
constraint = (
    alt.Chart(line_in_roc)
    .mark_line(color="#D55E00", strokeDash=[6, 3])
    .encode(x=alt.X("fpr:Q", title="False positive rate"), y="tpr:Q")
)
roc = (
    layers.roc_curve(points)
    + layers.hull(cc.roc_hull(points))
    + constraint
    + layers.selected(components, space="roc")
    + layers.selected(mixture, space="roc", mark={"filled": True, "color": "#222222"})
    + layers.chance()
).properties(width=300, height=300, title=f"ROC space: at most {capacity} approved")
fan_lines = (
    alt.Chart(fan)
    .mark_line(color="#D55E00", strokeWidth=1, opacity=0.7)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("cost:Q", title="Normalized expected cost"),
        detail="name:N",
    )
)
cost = (
    layers.trivial(y_max=1)
    + layers.envelope(cc.lower_envelope(points), y_max=1)
    + fan_lines
    + layers.selected(mixture, space="cost", y_max=1)
    + layers.key(
        [
            ("ROC curve", "line"),
            ("ROC convex hull", "dashed line"),
            (f"workforce line: {capacity} predicted positive", "dashed line"),
            ("the two hull vertices mixed", "ring"),
            ("their mixture on the workforce line", "dot"),
            ("cost lines of classifiers on the workforce line (orange)", "thin line"),
            ("cost line of the mixture", "highlight"),
            ("lower envelope", "bold line"),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(
    width=300,
    height=300,
    title=alt.Title(
        "Cost space: the constraint's cost lines fan out",
        subtitle=f"from the virtual point pc = {virtual_pc:.2f}, cost = {virtual_cost:.2f}",
    ),
)
chart = (roc | cost).properties(title="Workforce utilization on German credit")
chart
