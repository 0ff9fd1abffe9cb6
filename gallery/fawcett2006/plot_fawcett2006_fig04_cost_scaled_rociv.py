"""
A cost-scaled ROCIV plot (fawcett2006, Fig. 4)
==============================================

Before its axes are divided by the totals, an ROCIV curve is a staircase in money: walking
down the ranking, each positive steps the curve up by its benefit and each negative steps
it right by its cost. The area under this staircase, divided by the total benefit times
the total cost, is the area under the ROCIV curve (AUCIV), and reading the area column by
column shows why AUCIV is a probability.

What the paper shows
--------------------
Fawcett's Fig. 4 illustrates the proof that AUCIV is the probability that a positive
outranks a negative when each is drawn in proportion to its cost. The instances are
taken in decreasing score; a positive (empty circle) moves the curve up by its benefit,
a negative (filled circle) moves it right by its cost, so the axes run to cost(N) and
cost(P) instead of 1. The shaded area splits into one column per negative, as wide as
its cost and as high as the summed benefit of the positives ranked above it; the whole
area over cost(P) x cost(N) is the AUCIV.

Twelve made-up instances stand in for the paper's schematic: six positives and six
negatives with different amounts, ranked by a score. The columns are drawn from
costchart's ROCIV table (its cumulative ``fp_cost`` and ``tp_benefit``), and the title
gives the area, the totals and their ratio, which equals :func:`costchart.auciv`.
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc

# %%
# Twelve instances in decreasing score, with their amounts: a positive's benefit or a
# negative's cost.
instances = pd.DataFrame(
    {
        "score": np.arange(12, 0, -1, dtype=float),
        "label": [1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0],
        "amount": [3.0, 1.0, 2.0, 4.0, 1.0, 2.0, 1.0, 3.0, 1.0, 2.0, 2.0, 1.0],
    }
)

# %%
# The ROCIV points, kept in money (fp_cost, tp_benefit), and the area under the
# staircase: each negative's column, its cost times the benefit gained before it.
points = cc.rociv(instances, score="score", label="label", amount="amount")
points = points.sort_values("threshold", ascending=False, ignore_index=True)
steps = points.assign(
    kind=np.where(
        points["tp"].diff() > 0,
        "positive: steps up by its benefit",
        "negative: steps right by its cost",
    )
).iloc[1:]
columns = steps[steps["kind"].str.startswith("negative")].assign(
    left=lambda d: d["fp_cost"] - np.diff(points["fp_cost"])[d.index - 1], bottom=0.0
)
area = float(((columns["fp_cost"] - columns["left"]) * columns["tp_benefit"]).sum())
cost_p = float(instances.loc[instances["label"] == 1, "amount"].sum())
cost_n = float(instances.loc[instances["label"] == 0, "amount"].sum())
auciv = float(cc.auciv(instances, score="score", label="label", amount="amount")["auc"].iloc[0])
print(
    f"area {area:g}, cost(P) {cost_p:g}, cost(N) {cost_n:g}, ratio {area / (cost_p * cost_n):.4f}"
)
print(f"AUCIV {auciv:.4f}")

# %%
# The staircase, the column of each negative (shaded) and the instances' circles.
x = alt.X(
    "fp_cost:Q", title="Cost of the negatives ranked so far", scale=alt.Scale(domain=[0, cost_n])
)
y = alt.Y(
    "tp_benefit:Q",
    title="Benefit of the positives ranked so far",
    scale=alt.Scale(domain=[0, cost_p]),
)
shade = (
    alt.Chart(columns)
    .mark_rect(color="#9ecae1", stroke="white", strokeWidth=1)
    .encode(x=alt.X("left:Q"), x2="fp_cost:Q", y=alt.Y("bottom:Q"), y2="tp_benefit:Q")
)
stairs = alt.Chart(points).mark_line(color="#222222", strokeWidth=2).encode(x=x, y=y, order="tp:Q")
circles = (
    alt.Chart(steps)
    .mark_point(size=90, stroke="#222222", strokeWidth=1.5, opacity=1)
    .encode(
        x=x,
        y=y,
        fill=alt.Fill(
            "kind:N",
            title=None,
            scale=alt.Scale(
                domain=["positive: steps up by its benefit", "negative: steps right by its cost"],
                range=["white", "#222222"],
            ),
            legend=alt.Legend(orient="bottom", symbolStrokeColor="#222222"),
        ),
    )
)
chart = (shade + stairs + circles).properties(
    width=360,
    height=360,
    title=alt.Title(
        "An unscaled ROCIV curve",
        subtitle=(
            f"Shaded area {area:g} / (cost(P) {cost_p:g} x cost(N) {cost_n:g})"
            f" = {area / (cost_p * cost_n):.3f} = AUCIV"
        ),
    ),
)
chart
