"""
Each instance's cost, in score order (fawcett2006, Fig. 6)
==========================================================

ROCIV curves are built by walking down the instances in order of score and adding each
one's amount, so what matters is how the amounts are spread along the ranking. Fawcett
plotted every instance's cost against its rank: when large amounts concentrate at the top
(or bottom) of the ranking, the ROCIV curve departs from the ROC curve; when they are spread
evenly, the two nearly coincide.

German credit stands in for the paper's credit data: the bundled logistic regression's
ranking, with the made-up benefit matrix of Fig. 2.
"""

import altair as alt

import costchart as cc
from costchart.datasets import load_credit

# %%
# One classifier's instances, ranked by score, with their per-instance amounts.
credit = load_credit().query("classifier == 'logistic'")
matrix = {("Y", "p"): lambda a: 0.15 * a, ("Y", "n"): lambda a: -0.6 * a}
credit = credit.assign(
    cost=cc.costs_from_benefits(credit, label="label", amount="amount", benefit=matrix)
)
credit = credit.sort_values("score", ascending=False, kind="stable").assign(
    rank=range(1, len(credit) + 1),
    truth=lambda d: d["label"].map({1: "good loan (benefit)", 0: "bad loan (cost)"}),
)
halves = credit.assign(half=credit["rank"] <= len(credit) // 2)
print(halves.groupby(["half", "truth"])["cost"].sum().round(0))

# %%
# Amount against rank, one bar per instance; a rolling mean shows the trend.
bars = (
    alt.Chart(credit)
    .mark_bar(size=1.2, opacity=0.7)
    .encode(
        x=alt.X("rank:Q", title="Rank by score (1 = most likely good)"),
        y=alt.Y("cost:Q", title="Per-instance amount (DM)"),
        color=alt.Color(
            "truth:N",
            title=None,
            scale=alt.Scale(range=["#D55E00", "#0072B2"]),
            legend=alt.Legend(orient="bottom"),
        ),
    )
)
trend = (
    alt.Chart(credit)
    .transform_window(mean="mean(cost)", frame=[-50, 50], groupby=["truth"])
    .mark_line(strokeWidth=2.5)
    .encode(x="rank:Q", y="mean:Q", color="truth:N")
)
chart = (bars + trend).properties(
    width=520, height=280, title="Each loan's amount in score order (logistic regression)"
)
chart
