"""
Two crossing ROC hulls, iso-performance lines and the dual cost graph (dh2000, Fig. 5-6)
========================================================================================

For which costs and class frequencies is one classifier better than another? Drummond and
Holte answer it for two ROC convex hulls that cross: in ROC space one has to roll an
iso-performance line around both hulls and see which it touches first; in the dual cost
graph the two lower envelopes simply cross, and each is better on one side of the crossing.
Each iso-performance line in ROC space is one point in cost space, so the lines drawn on
the left are the dots on the right.

What the paper shows
--------------------

Two hulls, one drawn dotted and one dashed, cross in ROC space. A steep iso-performance line
(A, slope 4) touches the dotted hull first: a line of that slope through the dashed hull's
best vertex lies below and to the right, so it costs more. Rolling the line to shallower
slopes, it reaches a slope (about 0.93) where it touches both hulls at once: there the two
have equal expected cost. Past it (line D, slope 0.4) the dashed hull is better. The
crossing point of the two hulls (near FP 0.27) has nothing to do with that: it is a point
where both hulls are equally good but neither is optimal for any cost. In the dual cost
graph the dotted envelope is lower left of the envelopes' crossing and the dashed one right
of it, and that crossing is the line T touching both hulls.

The two hulls are made up.
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# The two hulls' vertices (each hull adds (0, 0) and (1, 1)).
DOTTED, DASHED = "dotted hull", "dashed hull"
points = pd.DataFrame(
    {
        "hull": [DOTTED] * 3 + [DASHED] * 3,
        "threshold": [3.0, 2.0, 1.0] * 2,
        "fpr": [0.05, 0.15, 0.4, 0.15, 0.3, 0.5],
        "tpr": [0.45, 0.68, 0.84, 0.45, 0.82, 0.95],
    }
)
hulls = cc.roc_hull(points, by="hull")
envelopes = cc.lower_envelope(points, by="hull")

# %%
# Where the cost curves cross: the root of the difference of the two envelopes (found by
# bisection, both being piecewise linear), and the slope of its iso-performance line.


def difference(pc):
    costs = cc.cost_at(envelopes, [pc], by="hull").set_index("hull")["cost"]
    return costs[DOTTED] - costs[DASHED]


lo, hi = 0.3, 0.8
for _ in range(60):
    mid = (lo + hi) / 2
    lo, hi = (mid, hi) if difference(mid) < 0 else (lo, mid)
crossing_pc = (lo + hi) / 2
crossing_slope = cc.slope_from_pc(crossing_pc)
print(f"cost curves cross at pc = {crossing_pc:.4f}, iso-performance slope {crossing_slope:.4f}")

# %%
# Three iso-performance lines: A (slope 3), T (touching both hulls) and D (slope 0.4). At
# each, the vertex it touches on either hull and that vertex's cost; the lower cost wins.
slopes = {"A": 4.0, "T": crossing_slope, "D": 0.4}
touches = pd.concat(
    [
        cc.iso_performance(points, slope=slope, by="hull").assign(line=name, slope=slope)
        for name, slope in slopes.items()
    ],
    ignore_index=True,
)
touches["cost"] = [
    cc.cost_at(pd.DataFrame({"fpr": [f], "tpr": [t]}), [pc])["cost"].iat[0]
    for f, t, pc in zip(touches["fpr"], touches["tpr"], touches["pc_lo"], strict=True)
]
print(touches[["line", "slope", "hull", "fpr", "tpr", "pc_lo", "cost"]].round(4))

# Where the hulls themselves cross in ROC space (the dotted hull above the dashed one left
# of it).
grid = np.linspace(0, 1, 2001)
above = np.interp(grid, *hulls[hulls["hull"] == DOTTED][["fpr", "tpr"]].to_numpy().T) - np.interp(
    grid, *hulls[hulls["hull"] == DASHED][["fpr", "tpr"]].to_numpy().T
)
inside = (grid > 0) & (grid < 1)
roc_crossing = grid[inside][np.flatnonzero(np.diff(np.sign(above[inside])))[0]]
print(f"the hulls cross in ROC space near FP = {roc_crossing:.3f}")

# %%
# Each line's winning vertex, and the line as a point in cost space.
winners = touches.loc[touches.groupby("line", sort=False)["cost"].idxmin()]
duals = pd.DataFrame(
    [
        dict(
            zip(
                ("pc", "cost"),
                cc.roc_line_to_cost_point(row.slope, row.tpr - row.slope * row.fpr),
                strict=True,
            ),
            line=row.line,
        )
        for row in winners.itertuples()
    ]
)
print(duals.round(4))

# %%
# ROC space: the two hulls and the three iso-performance lines, each drawn touching the hull
# it favours (T touches both). Cost space: the two envelopes and the three lines as points.
ORANGE, BLUE, ISO = "#D55E00", "#0072B2", "#222222"
iso = alt.layer(
    *[
        layers.iso_lines(
            hulls[hulls["hull"] == row.hull],
            slope=row.slope,
            mark={"color": ISO, "strokeDash": [1, 0], "strokeWidth": 1.2},
        )
        for row in winners.itertuples()
    ]
)
roc = (
    layers.hull(hulls[hulls["hull"] == DOTTED], mark={"color": ORANGE, "strokeDash": [2, 3]})
    + layers.hull(hulls[hulls["hull"] == DASHED], mark={"color": BLUE})
    + iso
    + alt.Chart(
        touches[np.isclose(touches["cost"], touches.groupby("line")["cost"].transform("min"))]
    )
    .mark_point(filled=True, size=50, color=ISO)
    .encode(x="fpr:Q", y="tpr:Q")
    + alt.Chart(winners)
    .mark_text(dx=-10, dy=-8, fontWeight="bold")
    .encode(x="fpr:Q", y="tpr:Q", text="line:N")
    + alt.Chart(pd.DataFrame({"fpr": [roc_crossing]}))
    .mark_rule(color="#888888", strokeDash=[3, 3])
    .encode(x="fpr:Q")
    + layers.chance()
).properties(width=300, height=300, title="ROC space: two hulls, three iso lines")
cost = (
    layers.trivial(y_max=0.5)
    + layers.envelope(
        envelopes[envelopes["hull"] == DOTTED], mark={"color": ORANGE, "strokeDash": [2, 3]}
    )
    + layers.envelope(
        envelopes[envelopes["hull"] == DASHED], mark={"color": BLUE, "strokeDash": [6, 3]}
    )
    + alt.Chart(duals).mark_point(filled=True, size=60, color=ISO).encode(x="pc:Q", y="cost:Q")
    + alt.Chart(duals)
    .mark_text(dy=-12, fontWeight="bold")
    .encode(x="pc:Q", y="cost:Q", text="line:N")
    + layers.key(
        [
            ("dotted hull / its lower envelope", "dotted line", ORANGE),
            ("dashed hull / its lower envelope", "dashed line", BLUE),
            ("iso-performance line (left) = a point (right)", "line", ISO),
            ("vertex the line touches first / its cost", "dot", ISO),
            ("where the hulls cross in ROC space", "rule", "#888888"),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(width=300, height=300, title="Cost space: the dual cost graph")
chart = roc | cost
chart
