"""
Which classifier is better, and by how much? The motivating ROC plots (dh2000, Fig. 1-2)
========================================================================================

Drummond and Holte open with two ROC plots that are easy to draw and hard to read. In the
first, one curve is plainly above the other, but the plot does not say by how much it is
better, for which costs and class frequencies the difference matters, or what either
classifier's expected cost is. In the second, the curves cross, and which one is better
for which costs is not given by where they cross. The top row shows the two ROC plots; the
bottom row shows the same curves as cost curves, where the answers are read off directly.

What the paper shows
--------------------

Fig. 1: curve A lies above curve B everywhere, so A is better for every cost and class
distribution, but the size of the advantage, and where it is large or negligible, is only
implicit in the ROC plot. As cost curves, A's is never above B's, and the vertical gap
(largest near the middle here, nil at the extremes) is the difference in normalized
expected cost. Fig. 2: curves C and D cross (here near FP 0.31). One is better for some
conditions and the other for the rest, but the boundary is not the crossing point: it is
where an iso-performance line touches both hulls, at ``pc`` about 0.66 (slope about 0.53).
D is better for ``pc`` below it and C above. The crossing point itself is optimal for no
condition: it lies below that common tangent.

The curves are made up, from binormal score distributions: A and B with equal variances
(separation 2 and 1.2), C with separation 1.3, D with separation 2.5 and a positive-class
standard deviation of 2.5 (33 thresholds each).
"""

import altair as alt
import numpy as np
import pandas as pd
from scipy.stats import norm

import costchart as cc
from costchart import layers

# %%
# Four binormal ROC curves (33 thresholds each): A and B for Fig. 1, C and D for Fig. 2.
THRESHOLDS = np.linspace(-3, 5, 33)


def binormal(name, separation, sd):
    return pd.DataFrame(
        {
            "curve": name,
            "threshold": THRESHOLDS,
            "fpr": norm.sf(THRESHOLDS),
            "tpr": norm.sf((THRESHOLDS - separation) / sd),
        }
    )


fig1 = pd.concat([binormal("A", 2.0, 1.0), binormal("B", 1.2, 1.0)], ignore_index=True)
fig2 = pd.concat([binormal("C", 1.3, 1.0), binormal("D", 2.5, 2.5)], ignore_index=True)
envelopes = cc.lower_envelope(pd.concat([fig1, fig2], ignore_index=True), by="curve")

# %%
# Fig. 1 in cost space: how much A is better than B, at each pc.
grid = np.linspace(0, 1, 501)
costs = cc.cost_at(envelopes, grid, by="curve").pivot(index="pc", columns="curve", values="cost")
advantage = costs["B"] - costs["A"]
print(f"A's advantage over B: at most {advantage.max():.3f}, at pc = {advantage.idxmax():.2f}")

# %%
# Fig. 2: where the cost curves cross (bisection; both are piecewise linear), and where the
# ROC curves cross.


def difference(pc):
    at = cc.cost_at(envelopes, [pc], by="curve").set_index("curve")["cost"]
    return at["C"] - at["D"]


lo, hi = 0.3, 0.9
for _ in range(60):
    mid = (lo + hi) / 2
    lo, hi = (mid, hi) if difference(mid) > 0 else (lo, mid)
crossing_pc = (lo + hi) / 2
tangent = cc.iso_performance(fig2, pc=[crossing_pc], by="curve")
fpr_grid = np.linspace(0.001, 0.999, 999)


def tpr_of(table):
    table = table.sort_values(["fpr", "tpr"])
    return np.interp(fpr_grid, table["fpr"], table["tpr"])


above = tpr_of(fig2[fig2["curve"] == "C"]) - tpr_of(fig2[fig2["curve"] == "D"])
at = np.flatnonzero(np.diff(np.sign(above)))[0]
roc_crossing = pd.DataFrame(
    {"fpr": [fpr_grid[at]], "tpr": [tpr_of(fig2[fig2["curve"] == "C"])[at]]}
)
print(f"cost curves cross at pc = {crossing_pc:.3f} (slope {cc.slope_from_pc(crossing_pc):.2f})")
print(f"ROC curves cross at FP = {roc_crossing['fpr'].iat[0]:.3f}")
print(tangent[["curve", "fpr", "tpr"]].round(3))

# %%
# Top: the two ROC plots. Bottom: the same curves in cost space, with Fig. 2's crossing.
BLUE, ORANGE = "#0072B2", "#D55E00"
colours = alt.Scale(domain=["A", "B", "C", "D"], range=[BLUE, ORANGE, BLUE, ORANGE])
colour = alt.Color("curve:N", scale=colours, legend=None)


def roc_view(points, title):
    ends = points.sort_values("fpr").groupby("curve").nth(len(THRESHOLDS) // 2)
    return (
        alt.Chart(points)
        .mark_line(strokeWidth=2)
        .encode(
            x=alt.X("fpr:Q", title="False positive rate", scale=alt.Scale(domain=[0, 1])),
            y=alt.Y("tpr:Q", title="True positive rate", scale=alt.Scale(domain=[0, 1])),
            color=colour,
            order="fpr:Q",
        )
        + alt.Chart(ends)
        .mark_text(dx=10, dy=-10, fontWeight="bold", fontSize=13)
        .encode(x="fpr:Q", y="tpr:Q", text="curve:N", color=colour)
        + layers.chance()
    ).properties(width=260, height=260, title=title)


def cost_view(names, title):
    own = envelopes[envelopes["curve"].isin(names)]
    return (
        layers.trivial()
        + alt.Chart(own)
        .mark_line(strokeWidth=2)
        .encode(
            x=alt.X("pc:Q", title="Probability cost, PC(+)"),
            y=alt.Y("cost:Q", title="Normalized expected cost", scale=alt.Scale(domain=[0, 0.5])),
            color=colour,
        )
    ).properties(width=260, height=200, title=title)


tangent_points = tangent.assign(slope=cc.slope_from_pc(crossing_pc))
fig2_roc = (
    roc_view(fig2, "Fig. 2: C and D cross")
    + layers.iso_lines(cc.roc_hull(fig2, by="curve"), iso=[crossing_pc], mark={"color": "#222222"})
    + alt.Chart(roc_crossing)
    .mark_point(size=140, color="#222222", strokeWidth=2)
    .encode(x="fpr:Q", y="tpr:Q")
)
fig2_cost = (
    cost_view(["C", "D"], "Fig. 2 as cost curves")
    + alt.Chart(pd.DataFrame({"pc": [crossing_pc]}))
    .mark_rule(color="#222222", strokeDash=[2, 3])
    .encode(x="pc:Q")
    + layers.key(
        [
            ("A (Fig. 1), C (Fig. 2)", "line", BLUE),
            ("B (Fig. 1), D (Fig. 2)", "line", ORANGE),
            ("iso line touching both / its pc", "dotted line", "#222222"),
            ("where C and D cross in ROC space", "ring", "#222222"),
            ("trivial classifiers", "trivial"),
        ]
    )
)
chart = alt.vconcat(
    alt.hconcat(roc_view(fig1, "Fig. 1: A above B"), fig2_roc),
    alt.hconcat(cost_view(["A", "B"], "Fig. 1 as cost curves"), fig2_cost),
)
chart
