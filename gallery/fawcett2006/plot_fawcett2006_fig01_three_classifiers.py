"""
ROC graph of three scoring classifiers (fawcett2006, Fig. 1)
============================================================

Fawcett's paper on instance-varying costs starts from an ordinary ROC graph of three
scoring classifiers on a credit domain. Each threshold on a classifier's score gives one
point; the curve shows the trade-off between approving good applicants and approving bad
ones, every applicant counted alike. The point of the paper is what this picture leaves
out: loans differ in size, so an error on a large loan matters more than on a small one,
and the ranking the ROC graph shows may not be the one that matters.

German credit stands in for the paper's credit data: the bundled cross-validated scores of
logistic regression, the same model trained with each loan weighted by its amount, and a
depth-4 tree ("good" loans are the positive class).
"""

import costchart as cc
from costchart.datasets import load_credit

# %%
# The three classifiers' ROC points and AUC.
credit = load_credit()
points = cc.roc_points(credit, score="score", label="label", by="classifier")
print(cc.auc(points).round(3))

# %%
# Their ROC curves, with the AUC in the legend.
chart = cc.roc_chart(
    points,
    color="classifier",
    auc=True,
    size=360,
    title="Three classifiers on German credit",
    subtitle="Every applicant counts alike",
)
chart
