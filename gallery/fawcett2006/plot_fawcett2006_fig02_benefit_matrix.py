"""
Benefit matrices and per-instance costs (fawcett2006, Fig. 2 and 7)
===================================================================

In the credit domain the outcome of a decision depends on the loan: approving a good loan
earns interest on its amount, approving a bad one loses the amount, and refusing either
has a fixed effect. Fawcett wrote this as a benefit matrix whose cells are functions of
each instance's amount x, then transformed it so that refusing is the baseline: what is
left is one number per instance, the benefit of approving a good loan or the cost of
approving a bad one. These per-instance amounts are all an ROCIV curve needs.

What the paper shows
--------------------
Fig. 2 gives Elkan's credit card matrix and Fig. 7 the same form for German credit,
whose benefits the paper uses: (a) refusing a bad loan is worth $20 (loss prevented),
refusing a good one -$20 (an annoyed customer), approving a bad loan -x and approving a
good one 0.05 x (Fig. 2 has 0.02 x). Subtracting the refuse row and negating the
approve-bad cell gives (b): refusing is 0 for both classes, approving costs x + $20 on a
bad loan and brings 0.05 x + $20 on a good one. Every instance's cost or benefit thus
grows linearly with its amount, and a bad loan weighs far more than a good one of the
same size.

Here (a) is the paper's Fig. 7a, applied to every German credit loan with its amount
(in Deutsche Mark rather than dollars); (b) is what :func:`costchart.costs_from_benefits`
makes of it, read back as slope and intercept.
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart.datasets import load_credit

# %%
# The paper's benefit matrix for the credit domain (Fig. 7a): (decision, true class) ->
# benefit, a function of the loan's amount x. Y approves, N refuses; p is a good loan.
matrix = {
    ("Y", "p"): lambda x: 0.05 * x,  # approve a good loan: interest
    ("N", "p"): -20.0,  # refuse a good loan: an annoyed customer
    ("Y", "n"): lambda x: -x,  # approve a bad loan: the amount is lost
    ("N", "n"): 20.0,  # refuse a bad loan: loss prevented
}

# %%
# Fig. 7b, computed: each class's ROCIV amount at x = 0 and x = 1 gives its intercept and
# slope (the cells are linear in x).
probe = pd.DataFrame({"label": [1, 1, 0, 0], "amount": [0.0, 1.0, 0.0, 1.0]})
probe["cost"] = cc.costs_from_benefits(probe, label="label", amount="amount", benefit=matrix)
transformed = pd.DataFrame(
    {
        "truth": ["good (p)", "bad (n)"],
        "intercept": probe["cost"].to_numpy()[[0, 2]],
        "slope": np.diff(probe["cost"].to_numpy())[[0, 2]],
    }
)
print(transformed)


def money(value):
    return f"-${-value:g}" if value < 0 else f"${value:g}"


def linear(slope, intercept=0.0):
    """``slope x + intercept`` as the paper writes it."""
    x = {1: "x", -1: "-x"}.get(slope, f"{slope:g} x")
    return f"{x} + {money(intercept)}" if intercept else x


def cell(value):
    """A cell of the benefit matrix as text: an amount, or a linear function of x."""
    if callable(value):
        return linear(value(1.0) - value(0.0), value(0.0))
    return money(value) if value else "0"


cells = pd.DataFrame(
    [
        {"matrix": "(a) benefit matrix", "decision": d, "truth": t, "text": cell(matrix[(k, c)])}
        for k, d in (("N", "refuse (N)"), ("Y", "approve (Y)"))
        for c, t in (("n", "bad (n)"), ("p", "good (p)"))
    ]
    + [
        {"matrix": "(b) cost-benefit matrix", "decision": "refuse (N)", "truth": t, "text": "0"}
        for t in ("bad (n)", "good (p)")
    ]
    + [
        {
            "matrix": "(b) cost-benefit matrix",
            "decision": "approve (Y)",
            "truth": row.truth,
            "text": linear(row.slope, row.intercept),
        }
        for row in transformed.itertuples()
    ]
)

# %%
# Every German credit loan's ROCIV amount under the matrix.
credit = load_credit().query("classifier == 'logistic'")
credit = credit.assign(
    cost=cc.costs_from_benefits(credit, label="label", amount="amount", benefit=matrix),
    truth=lambda d: d["label"].map(
        {1: "good loan: benefit of approving", 0: "bad loan: cost of approving"}
    ),
)
print(credit.groupby("truth")["cost"].describe().round(1))

# %%
# The two matrices as tables, and every loan's amount against its cost or benefit.
tables = (
    alt.Chart(cells)
    .mark_text(fontSize=14)
    .encode(
        x=alt.X(
            "truth:N",
            title="True class",
            sort=["bad (n)", "good (p)"],
            axis=alt.Axis(orient="top", labelAngle=0),
        ),
        y=alt.Y("decision:N", title=None, sort=["refuse (N)", "approve (Y)"]),
        text="text:N",
    )
    .properties(width=240, height=90)
    .facet(row=alt.Row("matrix:N", title=None, header=alt.Header(labelFontWeight="bold")))
    .properties(title="German credit (Fig. 7)")
)
colours = {"good loan: benefit of approving": "#0072B2", "bad loan: cost of approving": "#D55E00"}
scatter = (
    alt.Chart(credit)
    .mark_point(filled=True, size=18, opacity=0.6)
    .encode(
        x=alt.X("amount:Q", title="Loan amount x (DM)"),
        y=alt.Y("cost:Q", title="ROCIV amount of the loan (DM)"),
        color=alt.Color(
            "truth:N",
            title=None,
            scale=alt.Scale(domain=list(colours), range=list(colours.values())),
            legend=alt.Legend(orient="bottom"),
        ),
    )
    .properties(width=340, height=280, title="Each loan's cost or benefit: (b) applied")
)
chart = alt.hconcat(tables, scatter)
chart
