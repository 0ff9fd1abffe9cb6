"""
ROC curves of four classifiers (pf1997, Fig. 1)
===============================================

Provost and Fawcett start from four classifiers, A to D, whose ROC curves cross. A curve
that dominates another (lies above it everywhere) is better under every class distribution
and every pair of error costs; when curves cross, which one is best depends on those
conditions, which are usually uncertain or change over time. A single number such as the
area under each curve then hides exactly what a decision maker needs: for which conditions
each classifier is the right one.

What the paper shows
--------------------

Four ROC curves, A to D, of the kind met when building fraud alarms. One pair can be
ranked outright: A lies above D at every false positive rate, so A is better than D
whatever the costs and class proportions. The other curves cross one another, so none of
them is best everywhere and the ROC graph alone cannot say which to use.

The four curves here are made up to tell that story (the paper's come from its fraud
work and are not given as numbers); ``costchart.datasets.crossing_roc_curves`` holds them.
"""

import numpy as np
import pandas as pd

import costchart as cc
from costchart.datasets import crossing_roc_curves

# %%
# Four classifiers, A to D, as made-up ROC curves with the paper's story.
points = crossing_roc_curves()
print(cc.auc(points).round(3))

# %%
# Which curve lies above which: each curve's TPR read at every FPR where any curve bends
# (the curves are straight between their points, so these are enough), and for each pair
# whether the first is never below the second and somewhere above it.
fprs = np.unique(points["fpr"])
heights = pd.DataFrame(
    {
        name: np.interp(fprs, curve["fpr"], curve["tpr"])
        for name, curve in points.groupby("classifier")
    },
    index=pd.Index(fprs, name="fpr"),
)
dominance = pd.DataFrame(
    [
        {
            "upper": upper,
            "lower": lower,
            "dominates": bool(
                (heights[upper] >= heights[lower]).all() and (heights[upper] > heights[lower]).any()
            ),
        }
        for upper in heights
        for lower in heights
        if upper != lower
    ]
)
print(dominance[dominance["dominates"]])

# %%
# The four ROC curves with the chance diagonal and each curve's AUC in the legend.
chart = cc.roc_chart(
    points,
    classifier="classifier",
    show_auc=True,
    size=360,
    title="Four classifiers whose ROC curves cross; A lies above D everywhere",
)
chart
