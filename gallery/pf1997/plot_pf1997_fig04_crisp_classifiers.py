"""
Crisp classifiers added to the hull (pf1997, Fig. 4)
====================================================

A classifier that outputs only a class, not a score, is a single point in ROC space.
Provost and Fawcett added three such classifiers, E, F and G, to the four curves: a crisp
point joins the hull if it lies above it, and then displaces the hull vertices it covers.
Here E lies above the hull and becomes optimal for a range of conditions, while F and G
fall beneath it and are never the best choice, whatever the costs and class distribution.
The hull needs no retraining of anything: it simply takes in whatever classifiers exist.

The curves and the crisp classifiers are made up (E, F, G as confusion counts of 100
positives and 100 negatives).
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import crossing_roc_curves

# %%
# Four classifiers, A to D, as made-up ROC curves with the paper's story (its curves come
# from unnamed domains): A is best at few false positives, D at many, B in between, and C
# is never the best.
points = crossing_roc_curves()
curves = sorted(points["classifier"].unique())

# %%
# The crisp classifiers as confusion counts; from_confusion gives their ROC points.
crisp_counts = pd.DataFrame(
    {
        "classifier": ["E", "F", "G"],
        "TP": [70, 55, 92],
        "FN": [30, 45, 8],
        "FP": [12, 30, 70],
        "TN": [88, 70, 30],
    }
)
crisp = cc.from_confusion(crisp_counts, tp="TP", fn="FN", fp="FP", tn="TN", by="classifier")
crisp = crisp[crisp["threshold"] == 1][["classifier", "fpr", "tpr"]]
print(crisp)

# %%
# The hull before and after the crisp points join it.
every = pd.concat([points, crisp.assign(threshold=1.0)], ignore_index=True)
before = cc.roc_hull(points[["fpr", "tpr"]], by=[])
after = cc.roc_hull(every[["fpr", "tpr"]], by=[])
on_hull = crisp.merge(after[["fpr", "tpr"]], on=["fpr", "tpr"])
print("crisp classifiers on the new hull:", on_hull["classifier"].tolist())

# %%
# The curves, the old hull (thin dashes), the new hull (bold) and the crisp points.
colours = cc.palette(curves)
labels = (
    alt.Chart(crisp)
    .mark_text(align="left", dx=7, dy=-7, fontSize=13, fontWeight="bold")
    .encode(x="fpr:Q", y="tpr:Q", text="classifier:N")
)
dots = (
    alt.Chart(crisp).mark_point(filled=True, size=90, color="#222222").encode(x="fpr:Q", y="tpr:Q")
)
chart = (
    layers.roc_curve(points, color="classifier", palette=colours, max_points=None)
    + layers.hull(before, mark={"color": "#888888", "strokeWidth": 1})
    + layers.hull(after, mark={"color": "#222222", "strokeWidth": 2.5})
    + dots
    + labels
    + layers.chance()
    + layers.key(
        [
            ("hull of the four curves", "thin line"),
            ("hull with the crisp classifiers E, F, G", "dashed line"),
            ("crisp classifier (one ROC point)", "dot"),
        ]
    )
).properties(width=380, height=380, title="Crisp classifiers E, F and G join the hull")
chart
