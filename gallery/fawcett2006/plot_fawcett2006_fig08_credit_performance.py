"""
Classifier performance in the credit domain (fawcett2006, Fig. 8)
=================================================================

With every loan weighted by what an error on it costs, Fawcett compared classifiers on the
credit domain by ROCIV curves and the area under them (AUCIV). A model that ranks
valuable cases better can overtake one that ranks more cases correctly. In cost space the
same ROCIV points give cost curves whose operating conditions already include the amounts;
the amount-weighted model holds its own over a wider range of conditions than the ROC
analysis suggests.

German credit stands in for the paper's data: the three bundled classifiers (one trained
with each loan weighted by its amount), with the made-up benefit matrix of Fig. 2.
"""

import pandas as pd

import costchart as cc
from costchart.datasets import load_credit

# %%
# ROC and ROCIV points of the three classifiers; their AUC and AUCIV.
credit = load_credit()
matrix = {("Y", "p"): lambda a: 0.15 * a, ("Y", "n"): lambda a: -0.6 * a}
credit["cost"] = cc.costs_from_benefits(credit, label="label", amount="amount", benefit=matrix)
plain = cc.roc_points(credit, score="score", label="label", by="classifier")
weighted = cc.rociv(credit, score="score", label="label", amount="cost", by="classifier")
print(cc.auciv(credit, score="score", label="label", amount="cost", by="classifier").round(3))
print(cc.rociv_condition(weighted).round(3))

# %%
# Cost curves from the ROC points and from the ROCIV points, side by side.
both = pd.concat(
    [
        plain.assign(curve="from ROC points: every loan alike"),
        weighted.drop(columns=["fp_cost", "tp_benefit"]).assign(
            curve="from ROCIV points: loans weighted by amount"
        ),
    ],
    ignore_index=True,
)
both = both[["curve", *[c for c in both.columns if c != "curve"]]]
chart = cc.cost_chart(
    both,
    color="classifier",
    facet="curve",
    ranges=False,
    cost_lines="hull",
    size=320,
    columns=2,
    title="Cost curves of three credit models (German credit)",
)
chart
