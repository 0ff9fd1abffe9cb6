"""
A classifier and the trivial classifiers, in ROC and cost space (dh2000, Fig. 3-4)
==================================================================================

Drummond and Holte begin with one classifier, B, and the two trivial classifiers that are
always available: always negative, at ROC point (0, 0), and always positive, at (1, 1).
Joined, the three make an ROC curve (solid). Beside it is a better ROC convex hull
(dashed) with its own vertices, among them A and the trivial classifier C at the origin. In
cost space each classifier is a line and each curve a lower envelope, so how much better
the dashed curve is, and where, is read off as a vertical distance.

What the paper shows
--------------------

B lies on the line ``FP = 1 - TP``, so its cost line is horizontal; the paper puts its
operating range at ``0.3 < pc < 0.7``, which makes B the ROC point (FP 0.3, TP 0.7) at cost
0.3. (The review asked for FP 0.09, TP 0.36 here: that is the paper's Fig. 8 classifier,
whose line is not horizontal and whose range is 0.2-0.59, so it cannot be this B.) Outside
0.3-0.7 the solid cost curve follows the trivial classifiers. The slopes of the ROC segments
from B to (0, 0) and to (1, 1), 7/3 and 3/7, are the ends of that range. The dashed curve is
never worse than the solid one; the gap is largest, about 0.05 (0.25 against 0.3), near
``pc = 0.3`` and ``0.7``, small near 0.5, and nil below 0.2 and above 0.8. To compare the
curves at an iso-performance slope one compares the vertices that slope picks on each: at
slope 2.1 that is A on the dashed curve and B on the solid one. For steep slopes (``pc``
below 0.2) the dashed curve picks C, the always-negative classifier at the origin.

The dashed hull is made up to match those numbers. The paper also says slope 2.3 picks C
on the dashed curve; no hull that is 0.05 below B near ``pc = 0.3`` can do that (its first
vertex would need an operating range starting above 0.3), so the chart follows the paper's
cost-space numbers.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# B (solid curve) and the dashed hull's non-trivial vertices. The hull adds the trivial
# classifiers (0, 0) and (1, 1) to each curve.
SOLID, DASHED = "solid curve (B)", "dashed curve (A, C, ...)"
points = pd.DataFrame(
    {
        "curve": [SOLID, DASHED, DASHED, DASHED],
        "name": ["B", "A", "", ""],
        "threshold": [1.0, 3.0, 2.0, 1.0],
        "fpr": [0.3, 0.1, 0.28, 0.6],
        "tpr": [0.7, 0.4, 0.72, 0.9],
    }
)
b = points[points["name"] == "B"]
hulls = cc.roc_hull(points.drop(columns="name"), by="curve")
envelopes = cc.lower_envelope(points.drop(columns="name"), by="curve")
b_range = cc.operating_range(b.drop(columns="name"), by="curve")
print(hulls[["curve", "fpr", "tpr", "slope_lo", "slope_hi", "pc_lo", "pc_hi"]].round(3))
print(b_range)

# %%
# The vertices an iso-performance line of slope 2.1 picks on each curve, and the gap
# between the two cost curves.
SLOPE = 2.1
picked = cc.iso_performance(points.drop(columns="name"), slope=SLOPE, by="curve")
print(picked[["curve", "fpr", "tpr", "pc_lo"]])
grid = [i / 100 for i in range(101)]
costs = cc.cost_at(envelopes, grid, by="curve").pivot(index="pc", columns="curve", values="cost")
gap = costs[SOLID] - costs[DASHED]
print(f"largest gap {gap.max():.3f} at pc = {gap.idxmax():.2f}")

# %%
# ROC space: the solid curve through B, the dashed hull, and the iso-performance lines of
# slope 2.1 touching A and B. Cost space: B's horizontal line, the two cost curves and B's
# operating range.
BLUE, ORANGE, ISO = "#0072B2", "#D55E00", "#444444"
names = pd.concat(
    [points[points["name"] != ""], pd.DataFrame({"name": ["C"], "fpr": [0.0], "tpr": [0.0]})]
)
roc = (
    layers.roc_curve(
        hulls[hulls["curve"] == SOLID], max_points=None, mark={"color": BLUE, "strokeWidth": 2}
    )
    + layers.hull(hulls[hulls["curve"] == DASHED], mark={"color": ORANGE})
    + layers.iso_lines(hulls, slope=SLOPE, mark={"color": ISO})
    + alt.Chart(names)
    .mark_point(filled=True, size=60, color="#222222")
    .encode(x="fpr:Q", y="tpr:Q")
    + alt.Chart(names[names["name"] == "B"])
    .mark_text(dx=10, dy=8, fontWeight="bold")
    .encode(x="fpr:Q", y="tpr:Q", text="name:N")
    + alt.Chart(names[names["name"] != "B"])
    .mark_text(dx=-9, dy=-9, fontWeight="bold")
    .encode(x="fpr:Q", y="tpr:Q", text="name:N")
    + layers.chance()
).properties(width=300, height=300, title="ROC space: B, the dashed hull, slope 2.1")
b_line = cc.to_cost_lines(b.drop(columns="name"), by="curve")
cost = (
    layers.trivial(y_max=1)
    + alt.Chart(b_line)
    .mark_line(color=BLUE, strokeWidth=1, strokeDash=[2, 2])
    .encode(x="pc:Q", y=alt.Y("cost:Q", scale=alt.Scale(domain=[0, 1])))
    + layers.envelope(envelopes[envelopes["curve"] == SOLID], y_max=1, mark={"color": BLUE})
    + layers.envelope(
        envelopes[envelopes["curve"] == DASHED],
        y_max=1,
        mark={"color": ORANGE, "strokeDash": [6, 3]},
    )
    + layers.operating_ranges(b_range, y_max=1)
    + layers.key(
        [
            ("solid curve through B: ROC curve / cost curve", "bold line", BLUE),
            ("dashed curve: ROC hull / cost curve", "dashed line", ORANGE),
            ("B's whole cost line", "dotted line", BLUE),
            ("iso-performance lines, slope 2.1", "dotted line", ISO),
            ("trivial classifiers", "trivial"),
            ("B's operating range, 0.3-0.7", "rule"),
        ]
    )
).properties(width=300, height=300, title="Cost space: the two cost curves")
chart = roc | cost
chart
