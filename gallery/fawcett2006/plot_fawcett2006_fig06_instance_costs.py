"""
Each instance's cost, in score order (fawcett2006, Fig. 6)
==========================================================

An ROCIV curve walks down a classifier's ranking and adds up each instance's amount: the
benefits of the positives on one axis, the costs of the negatives on the other. So what
decides the curve is where the amounts sit along the ranking. Plotting every instance's
amount against its rank shows it directly, and explains why two classifiers with nearly
the same ROC curve can have very different ROCIV curves.

What the paper shows
--------------------
For the donation data of Fig. 5, Fawcett plotted each instance's amount in the order
each classifier ranks them, PRIE above and logistic regression below: donors' benefits
above the zero line, the many non-donors at -$1 just below it. An ideal ranking would
put every donor first, the largest gifts leftmost. PRIE's mass of benefit lies somewhat
further left than logistic regression's, and that is why PRIE's ROCIV curve climbs
faster.

The data are Fig. 5's simulated mailing (same parameters and seed): the expected-gift
model stands in for PRIE, the chance-of-giving model for logistic regression. The
vertical rule marks each ranking's centre of benefit mass, the benefit-weighted mean
rank of the donors; it lies well to the left for the expected-gift model.
"""

import os

import altair as alt
import numpy as np
import pandas as pd

FULL = os.environ.get("COSTCHART_GALLERY_FULL") == "1"
rng = np.random.default_rng(2006)
n = 40_000 if FULL else 4_000

# %%
# Fig. 5's simulated prospects and the two models' scores.
propensity = rng.normal(size=n)
donor = rng.random(n) < 1 / (1 + np.exp(-(1.2 * propensity - 2.2)))
wealth = rng.normal(size=n)
net_gift = np.exp(2.36 + 1.28 * wealth)  # log-normal: mean 24, sd 49
data = pd.DataFrame(
    {
        "label": donor.astype(int),
        "amount": np.where(donor, net_gift, 1.0),
        "chance-of-giving model": propensity + rng.normal(scale=0.8, size=n),
        "expected-gift model": propensity + rng.normal(scale=0.4, size=n) + 0.7 * wealth,
    }
).melt(id_vars=["label", "amount"], var_name="classifier", value_name="score")

# %%
# Each model's ranking: rank 1 is the highest score; a donor's benefit counts up, a
# non-donor's cost down. The centre of benefit mass is the benefit-weighted mean rank.
ranked = (
    data.sort_values(["classifier", "score"], ascending=[True, False], kind="stable")
    .assign(
        rank=lambda d: d.groupby("classifier").cumcount() + 1,
        signed=lambda d: np.where(d["label"] == 1, d["amount"], -d["amount"]),
    )
    .reset_index(drop=True)
)
donors = ranked[ranked["label"] == 1]
centre = (
    (donors["rank"] * donors["amount"]).groupby(donors["classifier"]).sum()
    / donors.groupby("classifier")["amount"].sum()
).rename("centre")
print(centre.round(0))


# %%
# One panel per model: bars for the instances, a rule at the centre of benefit mass.
def panel(name):
    rows = ranked[ranked["classifier"] == name]
    bars = (
        alt.Chart(rows)
        .mark_bar(size=1, color="#0072B2")
        .encode(
            x=alt.X(
                "rank:Q",
                title="Rank by score (1 = most likely to give)",
                scale=alt.Scale(domain=[0, n], nice=False),
            ),
            y=alt.Y("signed:Q", title="Benefit (+) or cost (-) ($)"),
        )
    )
    rule = (
        alt.Chart(pd.DataFrame({"rank": [centre[name]]}))
        .mark_rule(color="#D55E00", strokeWidth=2, strokeDash=[5, 3])
        .encode(x="rank:Q")
    )
    label = (
        alt.Chart(pd.DataFrame({"rank": [centre[name]], "signed": [rows["signed"].max()]}))
        .mark_text(align="left", dx=4, baseline="top", color="#D55E00")
        .encode(x="rank:Q", y="signed:Q", text=alt.value("centre of benefit mass"))
    )
    return (bars + rule + label).properties(width=560, height=170, title=name)


chart = alt.vconcat(panel("expected-gift model"), panel("chance-of-giving model")).properties(
    title="Each prospect's amount in the order the model ranks it (simulated mailing)"
)
chart
