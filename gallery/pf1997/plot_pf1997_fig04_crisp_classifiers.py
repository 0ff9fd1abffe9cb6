"""
Crisp classifiers added to the hull (pf1997, Fig. 4)
====================================================

A classifier that outputs only a class, not a score, is a single point in ROC space.
Provost and Fawcett added three such classifiers, E, F and G, to the four curves: a crisp
point joins the hull if it lies above it, and then replaces the hull edge it rises over;
a point beneath the hull changes nothing and can be forgotten. The hull needs no
retraining of anything: it simply takes in whatever classifiers exist.

What the paper shows
--------------------

The hull of Fig. 2 with three binary classifiers E, F and G added as single points. E
lies above the old hull, so the hull now passes through E and E is optimal for some
conditions. F and G lie beneath the hull and leave it unchanged: they are never optimal,
whatever the costs and class proportions, and need not be kept.

The curves and the crisp classifiers are made up to tell that story (E, F and G as
confusion counts of 100 positives and 100 negatives).
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import crossing_roc_curves

# %%
# Four classifiers, A to D, as made-up ROC curves with the paper's story: only A and C
# are on their hull.
points = crossing_roc_curves()
curves = sorted(points["classifier"].unique())

# %%
# The crisp classifiers as confusion counts; from_confusion gives their ROC points.
crisp_counts = pd.DataFrame(
    {
        "classifier": ["E", "F", "G"],
        "TP": [76, 55, 90],
        "FN": [24, 45, 10],
        "FP": [16, 10, 50],
        "TN": [84, 90, 50],
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
crisp["on_new_hull"] = (
    crisp.merge(after[["fpr", "tpr"]], on=["fpr", "tpr"], how="left", indicator=True)["_merge"]
    .eq("both")
    .to_numpy()
)
print(crisp)

# %%
# The curves, the old hull (thin), the new hull (bold dashes) and the crisp points.
colours = cc.palette(curves)
old_colour = "#888888"
# names beside the points: E's below right, off the hull that now runs through it
labels = alt.layer(
    *(
        alt.Chart(crisp[crisp["on_new_hull"] == on])
        .mark_text(align="left", dx=9, dy=12 if on else -7, fontSize=13, fontWeight="bold")
        .encode(x="fpr:Q", y="tpr:Q", text="classifier:N")
        for on in (True, False)
    )
)
dots = (
    alt.Chart(crisp).mark_point(filled=True, size=90, color="#222222").encode(x="fpr:Q", y="tpr:Q")
)
chart = (
    layers.roc_curve(points, classifier="classifier", palette=colours, max_points=None)
    + layers.hull(before, mark={"color": old_colour, "strokeWidth": 1})
    + layers.hull(after, mark={"color": "#222222", "strokeWidth": 2.5})
    + dots
    + labels
    + layers.chance()
    + layers.key(
        [
            ("hull of the four curves", "thin line", old_colour),
            ("hull with E, F and G: only E extends it", "dashed line", "#222222"),
            ("crisp classifier (one ROC point)", "dot", "#222222"),
        ]
    )
).properties(width=380, height=380, title="E extends the hull; F and G lie beneath it")
chart
