"""
Standard ROC curves against ROCIV curves (fawcett2006, Fig. 3)
==============================================================

An ROCIV curve plots, in score order, the share of the negatives' total cost incurred
against the share of the positives' total benefit gained, so an instance counts in
proportion to its amount. With equal amounts it is the ROC curve. Fawcett showed the two
can rank classifiers differently: a classifier that ranks large, valuable cases well gains
under ROCIV although its ROC curve, counting cases, looks no better or worse.

German credit stands in for the paper's credit data: three bundled classifiers, each loan
weighted by the benefit matrix of Fig. 2 (15 % interest, 60 % loss, both made up).
"""

import pandas as pd

import costchart as cc
from costchart.datasets import load_credit

# %%
# ROC points and ROCIV points of the same three classifiers.
credit = load_credit()
matrix = {("Y", "p"): lambda a: 0.15 * a, ("Y", "n"): lambda a: -0.6 * a}
credit["cost"] = cc.costs_from_benefits(credit, label="label", amount="amount", benefit=matrix)
plain = cc.roc_points(credit, score="score", label="label", by="classifier")
weighted = cc.rociv(credit, score="score", label="label", amount="cost", by="classifier")
areas = cc.auc(plain).merge(
    cc.auciv(credit, score="score", label="label", amount="cost", by="classifier"),
    on="classifier",
    suffixes=("", "iv"),
)
print(areas.round(3))

# %%
# Both kinds of curve, side by side.
both = pd.concat(
    [
        plain.assign(curve="ROC: every loan alike"),
        weighted.drop(columns=["fp_cost", "tp_benefit"]).assign(curve="ROCIV: loans weighted"),
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
    title="ROC and ROCIV curves of the same classifiers (German credit)",
)
chart
