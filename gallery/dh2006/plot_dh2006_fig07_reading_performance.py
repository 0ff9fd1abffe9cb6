"""
Two ways to read performance off an ROC point (dh2006, Fig. 7)
==============================================================

How good is a classifier at one given operating condition? In ROC space the answer needs
a construction drawn for that condition; in cost space it is the height of the
classifier's cost line there. Drummond and Holte showed two such ROC-space constructions
and set them against the direct reading that cost curves give.

What the paper shows
--------------------

Both ROC-space constructions start from the iso-performance line through the classifier's
point, with the slope of the operating condition. The first (panel a) drops a segment from
the perfect classifier at (0, 1) perpendicular to that line: its length is proportional
to the normalized expected cost. The second, due to Peter Flach (panel b), draws a
horizontal segment from the y axis to where the iso-performance line meets the diagonal
TP = 1 - FP: its length is exactly the normalized expected cost. Neither the line nor the
segments belong to the ROC curve, they are hard to draw by eye, and they must be redrawn for
every new condition. In cost space (panel c) the same number is read vertically off the
classifier's cost line.

A made-up classifier at ROC point (0.2, 0.7), read at ``pc = 0.4`` (iso-performance slope
1.5). The cost comes from :func:`costchart.cost_at`; the constructions are drawn from the
point and :func:`costchart.slope_from_pc`.
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# The point, its cost at pc = 0.4, and the iso-performance line of that condition.
point = pd.DataFrame({"threshold": [1.0], "fpr": [0.2], "tpr": [0.7]})
pc = 0.4
lines = cc.to_cost_lines(point)
reading = cc.cost_at(lines, [pc])
cost = float(reading["cost"].iat[0])
slope = cc.slope_from_pc(pc)
fpr0, tpr0 = point["fpr"].iat[0], point["tpr"].iat[0]
# The iso-performance line inside the ROC square: from the y axis to the top edge.
iso = pd.DataFrame({"fpr": [0.0, fpr0 + (1 - tpr0) / slope]})
iso["tpr"] = tpr0 + slope * (iso["fpr"] - fpr0)
print(f"cost at pc = {pc}: {cost:.3f}; iso-performance slope {slope:.3f}")

# %%
# The two constructions, each a segment with its length.
# (a) From (0, 1), perpendicular to the iso-performance line: the foot of the perpendicular.
direction = np.array([1.0, slope]) / np.hypot(1.0, slope)
along = np.dot(np.array([0.0, 1.0]) - np.array([fpr0, tpr0]), direction)
foot = np.array([fpr0, tpr0]) + along * direction
# (b) Flach's: where the iso-performance line meets TP = 1 - FP, joined to the y axis.
meet = (1 - tpr0 + slope * fpr0) / (1 + slope)
constructions = pd.DataFrame(
    {
        "construction": ["perpendicular", "horizontal"],
        "fpr_start": [0.0, 0.0],
        "tpr_start": [1.0, 1 - meet],
        "fpr_end": [foot[0], meet],
        "tpr_end": [foot[1], 1 - meet],
    }
)
constructions["length"] = np.hypot(
    constructions["fpr_end"] - constructions["fpr_start"],
    constructions["tpr_end"] - constructions["tpr_start"],
)
print(constructions.round(4))

# %%
# Three panels: the two ROC-space constructions and the cost-space reading.
POINT, ISO, SEGMENT, DIAGONAL = "#0072B2", "#D55E00", "#009E73", "#9e9e9e"
x = alt.X("fpr:Q", title="False positive rate", scale=alt.Scale(domain=[0, 1]))
y = alt.Y("tpr:Q", title="True positive rate", scale=alt.Scale(domain=[0, 1]))


def roc_panel(which, title):
    segment = constructions[constructions["construction"] == which]
    label = segment.assign(
        fpr=segment["fpr_end"],
        tpr=segment["tpr_end"],
        text=segment["length"].map(lambda v: f"length {v:.2f}"),
    )
    chart = (
        alt.Chart(iso).mark_line(strokeDash=[6, 3], color=ISO, strokeWidth=1.8).encode(x=x, y=y)
        + alt.Chart(segment)
        .mark_rule(color=SEGMENT, strokeWidth=3)
        .encode(x="fpr_start:Q", y="tpr_start:Q", x2="fpr_end:Q", y2="tpr_end:Q")
        + alt.Chart(label)
        .mark_text(color=SEGMENT, fontWeight="bold", dx=8, align="left")
        .encode(x="fpr:Q", y="tpr:Q", text="text:N")
        + layers.roc_markers(point, mark={"size": 110, "filled": True, "color": POINT})
    )
    if which == "horizontal":
        diagonal = pd.DataFrame({"fpr": [0.0, 1.0], "tpr": [1.0, 0.0]})
        chart = (
            alt.Chart(diagonal)
            .mark_line(strokeDash=[2, 3], color=DIAGONAL, strokeWidth=1.5)
            .encode(x=x, y=y)
            + chart
        )
    return chart.properties(width=250, height=250, title=title)


perpendicular = roc_panel("perpendicular", "(a) Perpendicular from (0, 1)")
horizontal = roc_panel("horizontal", "(b) Flach: horizontal to TP = 1 - FP")
vertical = pd.DataFrame({"pc": [pc, pc, 0.0], "cost": [0.0, cost, cost], "step": [0, 1, 2]})
cost_view = (
    layers.trivial(y_max=1)
    + alt.Chart(lines)
    .mark_line(color=POINT, strokeWidth=2.5)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("cost:Q", title="Normalized expected cost", scale=alt.Scale(domain=[0, 1])),
    )
    + alt.Chart(vertical)
    .mark_line(color=SEGMENT, strokeWidth=3)
    .encode(x="pc:Q", y="cost:Q", order="step:Q")
    + alt.Chart(pd.DataFrame({"pc": [0.02], "cost": [cost], "t": [f"cost {cost:.2f}"]}))
    .mark_text(align="left", dy=-10, fontWeight="bold", color=SEGMENT)
    .encode(x="pc:Q", y="cost:Q", text="t:N")
    + layers.key(
        [
            ("the classifier (0.2, 0.7) / its cost line", "bold line", POINT),
            (f"iso-performance line, slope {slope:.1f}", "dashed line", ISO),
            ("the construction / the vertical reading", "bold line", SEGMENT),
            ("the diagonal TP = 1 - FP", "dotted line", DIAGONAL),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(width=250, height=250, title=f"(c) Cost space: read the line at pc = {pc}")
chart = perpendicular | horizontal | cost_view
chart
