"""
Cost-benefit matrices and per-instance costs (fawcett2006, Fig. 2 and 7)
========================================================================

In the credit domain the outcome of a decision depends on the loan: approving a good loan
earns interest on its amount, approving a bad one loses a share of it, and rejecting
either earns nothing. Fawcett wrote this as a benefit matrix whose cells are functions of
each instance's amount, then transformed it into one number per instance: for a positive,
what approving it gains over rejecting it; for a negative, what approving it loses. These
per-instance amounts are all an ROCIV curve needs, and they scale every error by what it
really costs.

German credit stands in for the paper's credit data; the interest (15 %) and loss (60 %)
rates are made up.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart.datasets import load_credit

# %%
# The benefit matrix: (decision, true class) -> benefit as a function of the amount.
matrix = {
    ("Y", "p"): lambda amount: 0.15 * amount,  # approve a good loan: earn interest
    ("Y", "n"): lambda amount: -0.6 * amount,  # approve a bad loan: lose much of it
}
cells = pd.DataFrame(
    {
        "decision": ["approve (Y)", "approve (Y)", "reject (N)", "reject (N)"],
        "truth": ["good (p)", "bad (n)", "good (p)", "bad (n)"],
        "benefit": ["+0.15 x amount", "-0.60 x amount", "0", "0"],
    }
)

# %%
# Each loan's ROCIV amount: a good loan's gain from approving it, a bad loan's loss.
credit = load_credit().query("classifier == 'logistic'")
credit = credit.assign(
    cost=cc.costs_from_benefits(credit, label="label", amount="amount", benefit=matrix),
    truth=lambda d: d["label"].map(
        {1: "good loan: benefit of approving", 0: "bad loan: cost of approving"}
    ),
)
print(credit.groupby("truth")["cost"].describe().round(1))

# %%
# The matrix as a table, and every loan's amount against its per-instance cost.
table = (
    alt.Chart(cells)
    .mark_text(fontSize=14)
    .encode(
        x=alt.X("truth:N", title="True class", axis=alt.Axis(orient="top", labelAngle=0)),
        y=alt.Y("decision:N", title="Decision"),
        text="benefit:N",
    )
    .properties(width=260, height=120, title="Benefit matrix (amount-dependent)")
)
scatter = (
    alt.Chart(credit)
    .mark_point(filled=True, size=18, opacity=0.6)
    .encode(
        x=alt.X("amount:Q", title="Loan amount (DM)"),
        y=alt.Y("cost:Q", title="Per-instance amount for ROCIV (DM)"),
        color=alt.Color(
            "truth:N",
            title=None,
            scale=alt.Scale(range=["#D55E00", "#0072B2"]),
            legend=alt.Legend(orient="bottom"),
        ),
    )
    .properties(width=320, height=260, title="Each loan's cost or benefit")
)
chart = alt.hconcat(table, scatter)
chart
