"""
ROC curves of four classifiers (pf1997, Fig. 1)
===============================================

Provost and Fawcett start from four classifiers, A to D, whose ROC curves cross: none is
better than the others everywhere. A curve that dominates another (lies above it
everywhere) is better under every class distribution and every pair of error costs; when
curves cross, which one is best depends on those conditions, which are usually uncertain
or change over time. Comparing single numbers such as accuracy then hides exactly what a
decision maker needs: for which conditions each classifier is the right one.

The four curves here are made up to tell the same story.
"""

import costchart as cc
from costchart.datasets import crossing_roc_curves

# %%
# Four classifiers, A to D, as made-up ROC curves with the paper's story (its curves come
# from unnamed domains): A is best at few false positives, D at many, B in between, and C
# is never the best.
points = crossing_roc_curves()
print(cc.auc(points).round(3))

# %%
# The four ROC curves with the chance diagonal and each curve's AUC in the legend.
chart = cc.roc_chart(
    points, color="classifier", auc=True, size=360, title="Four classifiers whose ROC curves cross"
)
chart
