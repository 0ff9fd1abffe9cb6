"""
A simulated instance-varying domain (fawcett2006, Fig. 5 and 10)
================================================================

Fawcett's other examples -- charitable donations and phone fraud -- use data that is not
public. Their story is the same: the amount at stake differs a lot between instances, and
two classifiers that look alike by ROC can differ a lot once each instance counts by its
amount. This simulation of a charity's mailing stands in for both: two models score the
prospects, one by the chance of giving alone, the other also by the size of the gift to
expect. Their ROC curves nearly coincide; their ROCIV curves do not.

What the paper shows
--------------------
On the donation data (Fig. 5), mailing a prospect who does not give costs $1 and mailing
a donor brings the gift minus $1; gifts range from $1 to $1500 (mean $24, sd $49). By
ROC, PRIE and logistic regression are nearly indistinguishable (a). By ROCIV (b),
logistic regression falls clearly below PRIE over most of the false positive range, and
its curve shows marked concavities: the valuable donors are not where its ranking puts
its most likely donors. On phone fraud (Fig. 10) the change is smaller but of the same
kind: naive Bayes loses ground under ROCIV and no longer dominates JRip.

Simulated data: about 15 % of the prospects give, with log-normal net gifts of mean 24
and sd 49; every non-donor costs 1. The "chance-of-giving model" scores a prospect by a
noisy view of the propensity to give (the role of logistic regression); the
"expected-gift model" (the role of PRIE) has a sharper view of the propensity but also
adds the prospect's wealth, which sets the gift and says nothing about giving. The two
then have nearly the same AUC, while the second has a much larger AUCIV. The docs build
simulates 4,000 prospects (about 600 donors): over seeds the AUC difference varies by
about ±0.008 and the AUCIV difference by about ±0.02, against an AUCIV gap near 0.15;
``COSTCHART_GALLERY_FULL=1`` simulates 40,000 (noise about a third as large).
"""

import os

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc

FULL = os.environ.get("COSTCHART_GALLERY_FULL") == "1"
rng = np.random.default_rng(2006)
n = 40_000 if FULL else 4_000

# %%
# Prospects: a propensity to give and a wealth that sets the gift. A donor's amount is
# the net gift (the benefit of mailing them), a non-donor's the $1 of the mailing.
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
# ROC and ROCIV points; the areas: alike by ROC, far apart by ROCIV.
plain = cc.roc_points(data, score="score", label="label", by="classifier")
weighted = cc.rociv(data, score="score", label="label", amount="amount", by="classifier")
areas = cc.auc(plain).merge(
    cc.auciv(data, score="score", label="label", amount="amount", by="classifier"),
    on="classifier",
    suffixes=("", "iv"),
)
print(areas.round(3))

# %%
# (a) ROC curves, every prospect alike; (b) ROCIV curves, each by the amount at stake.
colours = cc.palette(sorted(data["classifier"].unique()))
panel = {"classifier": "classifier", "show_auc": True, "palette": colours, "size": 300}
chart = (
    alt.hconcat(
        cc.roc_chart(plain, title="(a) ROC curves", **panel),
        cc.roc_chart(weighted, title="(b) ROCIV curves", **panel),
    )
    .resolve_legend(color="independent")
    .properties(title=f"Simulated mailing ({n:,} prospects): alike by ROC, apart by ROCIV")
)
chart
