"""
Two classifiers as ROC points and cost lines (dh2006, Fig. 3 and 5)
===================================================================

Drummond and Holte's first comparison is of two crisp classifiers, 1R and C4.5, on
Japanese credit: two ROC points. In ROC space one can see that neither dominates, but not
by how much either is better, nor for which operating conditions. In cost space each
classifier is a line, and the answers can be read off: where each line is lower, how
much lower, where they cross, and where either is worse than a trivial classifier.

What the paper shows
--------------------

Neither ROC point dominates the other: one classifier has both the higher true positive
rate and the higher false positive rate. As lines (error rate against p(+) in Fig. 3a,
normalized expected cost against PC(+) in Fig. 5, the same picture) the two cross once,
at 0.445 on Japanese credit: above it 1R's line is the lower, below it C4.5's. The
vertical gap between the lines is the difference in cost at each operating point, and
the same facts are hard to get from the ROC plot.

German credit stands in for Japanese credit, and two bundled classifiers stand in for 1R
and C4.5: the depth-4 tree and naive Bayes, each made crisp at the threshold 0.5. Their
lines cross once too (at a different ``pc``), naive Bayes being the cheaper below the
crossing and the tree above it.
"""

import altair as alt

import costchart as cc
from costchart import layers
from costchart.datasets import load_predictions

# %%
# Each classifier at the threshold 0.5: one ROC point, one cost line.
data = load_predictions().query("dataset == 'credit' and classifier in ['tree', 'naive bayes']")
points = cc.roc_points(data, score="score", label="label", by="classifier")
crisp = points[points["threshold"] >= 0.5].groupby("classifier").tail(1)
crisp = crisp[["classifier", "threshold", "tp", "fp", "tn", "fn", "tpr", "fpr"]]
lines = cc.to_cost_lines(crisp)
print(crisp.round(3))
print(cc.operating_range(crisp).round(3))

# %%
# Where the two lines cross: equal cost.
a, b = (crisp.iloc[i] for i in range(2))
slope_a, slope_b = (1 - a.tpr) - a.fpr, (1 - b.tpr) - b.fpr
crossing = (b.fpr - a.fpr) / (slope_a - slope_b)
print(f"the lines cross at pc = {crossing:.3f}")

# %%
# ROC space: two points. Cost space: two lines, the trivial classifiers, the crossing.
colours = cc.palette(sorted(crisp["classifier"]))
roc = (
    layers.roc_markers(
        crisp, classifier="classifier", palette=colours, mark={"size": 110, "filled": True}
    )
    + layers.chance()
).properties(width=300, height=300, title="ROC space: two points")
cost = (
    layers.trivial_region(y_max=1)
    + alt.Chart(lines)
    .mark_line(strokeWidth=2.5)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("cost:Q", title="Normalized expected cost", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color(
            "classifier:N", scale=alt.Scale(domain=list(colours), range=list(colours.values()))
        ),
    )
    + layers.trivial(y_max=1)
    + layers.pc_markers({f"crossing, pc = {crossing:.2f}": crossing})
    + layers.pc_labels({f"crossing, pc = {crossing:.2f}": crossing}, y_max=1)
    + layers.key(
        [
            ("trivial classifiers", "trivial"),
            ("worse than a trivial classifier", "region"),
            ("the lines' crossing", "dotted line"),
        ]
    )
).properties(width=300, height=300, title="Cost space: two lines")
chart = roc | cost
chart
