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
colours = cc.palette(sorted(curves))
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
