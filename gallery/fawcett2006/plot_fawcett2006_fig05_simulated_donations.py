"""
A simulated instance-varying domain (fawcett2006, Fig. 5 and 10)
================================================================

Fawcett's other examples -- charitable donations and phone fraud -- use data that is not
public. Their story is the same: the amount at stake differs a lot between instances, and
a classifier that ranks by the probability of the class alone can look best by ROC while
one that also weighs the amount wins where it matters. This simulation stands in for both:
donors give amounts drawn from a skewed distribution, and two models score them, one by the
probability of giving and one by the expected gift. ROC curves favour the first; ROCIV
curves, which count each donor by the gift at stake, favour the second.

Simulated data: 4,000 prospects, about 15 % donors, log-normal gifts, a mailing cost of 1
per prospect mailed.
"""

import os

import numpy as np
import pandas as pd

import costchart as cc

FULL = os.environ.get("COSTCHART_GALLERY_FULL") == "1"
rng = np.random.default_rng(2006)
n = 40_000 if FULL else 4_000

# %%
# Prospects: a propensity to give, and a gift that is larger for some prospects; the
# gift of a donor is the benefit of mailing them, the cost of mailing a non-donor is 1.
propensity = rng.normal(size=n)
donor = rng.random(n) < 1 / (1 + np.exp(-(propensity * 1.2 - 2.2)))
wealth = rng.normal(size=n)
gift = np.exp(2.0 + 0.9 * wealth)
amount = np.where(donor, gift, 1.0)
noise = rng.normal(scale=0.6, size=n)
data = pd.DataFrame(
    {
        "label": donor.astype(int),
        "amount": amount,
        "probability model": propensity + noise,
        "expected-gift model": propensity + noise + 0.9 * wealth,
    }
).melt(id_vars=["label", "amount"], var_name="classifier", value_name="score")

# %%
# ROC and ROCIV: the areas rank the two models differently.
plain = cc.roc_points(data, score="score", label="label", by="classifier")
weighted = cc.rociv(data, score="score", label="label", amount="amount", by="classifier")
areas = cc.auc(plain).merge(
    cc.auciv(data, score="score", label="label", amount="amount", by="classifier"),
    on="classifier",
    suffixes=("", "iv"),
)
print(areas.round(3))

# %%
# ROC curves (every prospect alike) beside ROCIV curves (each by the amount at stake).
both = pd.concat(
    [
        plain.assign(curve="ROC: every prospect alike"),
        weighted.drop(columns=["fp_cost", "tp_benefit"]).assign(
            curve="ROCIV: weighted by the amount at stake"
        ),
    ],
    ignore_index=True,
)
both = both[["curve", *[c for c in both.columns if c != "curve"]]]
chart = cc.roc_chart(
    both,
    color="classifier",
    facet="curve",
    columns=2,
    size=300,
    title="Simulated donations: ROC and ROCIV rank the models differently",
)
chart
