"""
A cost-scaled ROCIV graph (fawcett2006, Fig. 4)
===============================================

An ROCIV curve can also be drawn in the domain's own units: the total cost of the
negatives approved on the x axis and the total benefit of the positives approved on the y
axis, each threshold adding its instances' amounts. Fawcett used this cost-scaled form to
read off money directly: a line of slope 1 through a point joins all the points with the
same net benefit, so the best threshold is where the highest such line touches the curve,
and its height above the origin's line is the profit.

German credit stands in for the paper's credit data, with the made-up benefit matrix of
Fig. 2 (15 % interest on a good loan, 60 % of a bad loan lost).
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart.datasets import load_credit

# %%
# ROCIV points with their cumulative cost and benefit, and each classifier's best
# threshold: the largest net benefit (benefit gained minus cost incurred).
credit = load_credit()
matrix = {("Y", "p"): lambda a: 0.15 * a, ("Y", "n"): lambda a: -0.6 * a}
credit["cost"] = cc.costs_from_benefits(credit, label="label", amount="amount", benefit=matrix)
points = cc.rociv(credit, score="score", label="label", amount="cost", by="classifier")
points["net"] = points["tp_benefit"] - points["fp_cost"]
best = points.loc[points.groupby("classifier")["net"].idxmax()]
print(best[["classifier", "threshold", "fp_cost", "tp_benefit", "net", "tp", "fp"]].round(1))

# %%
# The cost-scaled curves, each best point, and its line of equal net benefit (slope 1).
colours = cc.palette(sorted(points["classifier"].unique()))
colour = alt.Color(
    "classifier:N", scale=alt.Scale(domain=list(colours), range=list(colours.values()))
)
ceiling = float(points["tp_benefit"].max())
iso = pd.concat(  # from the y axis up to the largest benefit
    [
        pd.DataFrame(
            {
                "classifier": row.classifier,
                "fp_cost": [0.0, ceiling - row.net],
                "tp_benefit": [row.net, ceiling],
            }
        )
        for row in best.itertuples()
    ],
    ignore_index=True,
)
curves = (
    alt.Chart(points)
    .mark_line(interpolate="step-after", strokeWidth=1.8)
    .encode(
        x=alt.X("fp_cost:Q", title="Cost of the bad loans approved (DM)"),
        y=alt.Y("tp_benefit:Q", title="Benefit of the good loans approved (DM)"),
        color=colour,
    )
)
lines = (
    alt.Chart(iso)
    .mark_line(strokeDash=[4, 3], strokeWidth=1)
    .encode(x="fp_cost:Q", y="tp_benefit:Q", color=colour)
)
dots = (
    alt.Chart(best)
    .mark_point(filled=True, size=80, stroke="#222222")
    .encode(x="fp_cost:Q", y="tp_benefit:Q", color=colour)
)
chart = (curves + lines + dots).properties(
    width=420,
    height=340,
    title=alt.Title(
        "Cost-scaled ROCIV curves (German credit)",
        subtitle="Dots: the most profitable threshold; dashed: its line of equal net benefit",
    ),
)
chart
