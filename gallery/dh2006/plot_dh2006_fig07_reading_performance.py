"""
Two ways to read performance off an ROC point (dh2006, Fig. 7)
==============================================================

How good is a classifier at a given operating condition? In ROC space the answer takes a
construction: draw the iso-performance line of the condition's slope through the point;
its position (where it meets the diagonal, or the y axis) encodes the expected cost, which
the reader must then work out. In cost space the same answer is a vertical reading: the
height of the point's cost line at that ``pc``. Drummond and Holte argued this directness
is the main reason to use cost curves.

A made-up classifier at ROC point (0.2, 0.7), read at ``pc = 0.4``.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# The point, its cost at pc = 0.4, and the iso-performance line of that condition.
point = pd.DataFrame({"threshold": [1.0], "fpr": [0.2], "tpr": [0.7]})
pc = 0.4
cost = float(cc.cost_at(cc.to_cost_lines(point), [pc])["cost"].iat[0])
slope = cc.slope_from_pc(pc)
print(f"cost at pc = {pc}: {cost:.3f}; iso-performance slope {slope:.3f}")
# Its ends inside the ROC square: where it meets the y axis and the top edge.
fpr0, tpr0 = point["fpr"].iat[0], point["tpr"].iat[0]
iso = pd.DataFrame({"fpr": [0.0, fpr0 + (1 - tpr0) / slope]})
iso["tpr"] = tpr0 + slope * (iso["fpr"] - fpr0)

# %%
# ROC space: the point and the iso-performance line through it. Cost space: the point's
# cost line and the reading at pc = 0.4.
roc = (
    alt.Chart(iso)
    .mark_line(strokeDash=[4, 3], color="#D55E00")
    .encode(
        x=alt.X("fpr:Q", title="False positive rate", scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("tpr:Q", title="True positive rate", scale=alt.Scale(domain=[0, 1])),
    )
    + layers.roc_markers(point, mark={"size": 110, "filled": True, "color": "#0072B2"})
    + layers.chance()
).properties(width=300, height=300, title=f"ROC space: iso-performance line, pc = {pc}")
reading = pd.DataFrame({"pc": [pc, pc, 0.0], "cost": [0.0, cost, cost], "step": [0, 1, 2]})
cost_view = (
    layers.trivial(y_max=1)
    + alt.Chart(cc.to_cost_lines(point))
    .mark_line(color="#0072B2", strokeWidth=2.5)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("cost:Q", title="Normalized expected cost", scale=alt.Scale(domain=[0, 1])),
    )
    + alt.Chart(reading)
    .mark_line(strokeDash=[4, 3], color="#D55E00")
    .encode(x="pc:Q", y="cost:Q", order="step:Q")
    + alt.Chart(pd.DataFrame({"pc": [0.02], "cost": [cost], "t": [f"cost {cost:.2f}"]}))
    .mark_text(align="left", dy=-8, fontWeight="bold")
    .encode(x="pc:Q", y="cost:Q", text="t:N")
    + layers.key(
        [
            ("the classifier (0.2, 0.7) / its cost line", "bold line"),
            ("iso-performance line / vertical reading", "dashed line"),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(width=300, height=300, title=f"Cost space: read the line at pc = {pc}")
chart = roc | cost_view
chart
