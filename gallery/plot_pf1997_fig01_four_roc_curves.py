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

import pandas as pd

import costchart as cc

# %%
# Four classifiers, A to D, as made-up ROC curves with the paper's story (its curves come
# from unnamed domains): A is best at few false positives, D at many, B in between, and C
# is never the best.
curves = {
    "A": [(0.03, 0.35), (0.08, 0.55), (0.2, 0.66), (0.4, 0.76), (0.7, 0.87)],
    "B": [(0.05, 0.22), (0.15, 0.6), (0.25, 0.78), (0.4, 0.86), (0.7, 0.93)],
    "C": [(0.1, 0.3), (0.2, 0.52), (0.35, 0.7), (0.5, 0.8), (0.8, 0.92)],
    "D": [(0.1, 0.14), (0.3, 0.5), (0.45, 0.88), (0.6, 0.97), (0.8, 0.99)],
}
points = pd.DataFrame(
    [
        {"classifier": name, "threshold": float(len(curve) - k), "fpr": fpr, "tpr": tpr}
        for name, curve in curves.items()
        for k, (fpr, tpr) in enumerate([(0.0, 0.0), *curve, (1.0, 1.0)])
    ]
)
print(cc.auc(points).round(3))

# %%
# The four ROC curves with the chance diagonal and each curve's AUC in the legend.
chart = cc.roc_chart(
    points, color="classifier", auc=True, size=360, title="Four classifiers whose ROC curves cross"
)
chart
