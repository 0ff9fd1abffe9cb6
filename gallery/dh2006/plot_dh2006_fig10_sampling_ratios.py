"""
Cost curves of over- and under-sampled training sets (dh2006, Fig. 10)
======================================================================

A common way to make a learner cost-sensitive is to resample its training set: with false
negatives ``r`` times as costly, train on ``r`` copies of each positive (oversampling) or
on ``1/r`` of the negatives (undersampling). Drummond and Holte redrew an experiment of
this kind -- decision trees on the sonar data, trained at several class ratios and tested at
the cost ratios 1:1, 2:1, 5:1 and 10:1 -- as cost curves. Every tree is one cost line; the
lower envelope of the lines is the best any of them achieves, and its operating range says
at which cost ratios any of them is worth testing; a table of error rates per ratio does
not show that.

What the paper shows
--------------------

Each gray line is the cost line of one tree. The lower envelope of the oversampled trees
beats both trivial classifiers only for 0.28 < PC(+) < 0.75, and that of the undersampled
trees for a slightly wider 0.25 < PC(+) < 0.82. Neither range contains the ``pc`` of the
cost ratios 5:1 and 10:1 (arrows in the paper; not at the ratios themselves because
p(+) = 0.5337 on sonar), so at the two most extreme ratios the study used, no tree should
be used at all: a trivial classifier is cheaper. Training at such ratios makes sense;
testing at them does not.

Here scikit-learn's decision tree (depth 4) stands in for C4.5, with five-fold
cross-validation on the UCI sonar data (mines are the positive class); each ratio's
training folds come from :func:`costchart.resample_classes`. The ranges come out a little
wider than the paper's, but in the same order (undersampling wider), and neither contains
5:1 or 10:1.
"""

from importlib.resources import files

import altair as alt
import pandas as pd
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

import costchart as cc
from costchart import layers

# %%
# The sonar data; the positive class is "M" (a mine).
# The UCI data ships with the gallery (costchart.gallery), so this runs from anywhere.
with (files("costchart.gallery") / "data" / "sonar.csv").open(encoding="utf-8") as handle:
    sonar = pd.read_csv(handle)
features = [c for c in sonar.columns if c != "Class"]
y = (sonar["Class"] == "M").astype(int).to_numpy()
p_pos = y.mean()

# %%
# Train a tree per method, ratio and fold on the resampled training folds; count each
# tree's errors on its test fold. A tree predicts 0/1, so it is one ROC point.
ratios = [1 / 10, 1 / 5, 1 / 2, 1, 2, 5, 10]
folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
counts = []
for method in ("over", "under"):
    for fold, (train, test) in enumerate(folds.split(sonar[features], y)):
        training = sonar.iloc[train].assign(label=y[train])
        sets = cc.resample_classes(
            training, label="label", ratios=ratios, resampling=method, rng=fold
        )
        for ratio, part in sets.groupby("ratio", sort=False):
            tree = DecisionTreeClassifier(max_depth=4, random_state=0)
            tree.fit(part[features], part["label"])
            predicted = tree.predict(sonar.iloc[test][features])
            truth = y[test]
            counts.append(
                {
                    "method": f"{method}sampling",
                    "ratio": f"{ratio:g}" if ratio >= 1 else f"1/{1 / ratio:g}",
                    "TP": int(((predicted == 1) & (truth == 1)).sum()),
                    "FN": int(((predicted == 0) & (truth == 1)).sum()),
                    "FP": int(((predicted == 1) & (truth == 0)).sum()),
                    "TN": int(((predicted == 0) & (truth == 0)).sum()),
                }
            )
counts = pd.DataFrame(counts).groupby(["method", "ratio"], as_index=False).sum()

# %%
# One ROC point per tree (summed over the folds), its cost line, the lower envelope of
# each method's trees and its operating range.
points = cc.from_confusion(counts, tp="TP", fn="FN", fp="FP", tn="TN", by=["method", "ratio"])
trees = points[points["threshold"] == 1].drop(columns="threshold")
lines = cc.to_cost_lines(trees[["method", "ratio", "fpr", "tpr"]])
envelope = cc.lower_envelope(trees[["method", "fpr", "tpr"]], by="method")
envelope_range = cc.operating_range(trees[["method", "fpr", "tpr"]], of="envelope", by="method")
tree_ranges = cc.operating_range(trees[["method", "ratio", "fpr", "tpr"]], by=["method", "ratio"])
print(envelope_range.round(3))

# %%
# Where the evaluation's cost ratios (false negative : false positive) fall in ``pc``.
cost_ratios = {f"{r}:1": cc.pc_from_costs(p_pos, cost_fn=r, cost_fp=1) for r in (1, 2, 5, 10)}
print({name: round(pc, 3) for name, pc in cost_ratios.items()})

# %%
# Left: the trees' cost lines, their envelope and its operating range, per method. Right:
# each tree's operating range against the training ratio.
ratio_order = [f"1/{r:g}" for r in (10, 5, 2)] + [f"{r:g}" for r in (1, 2, 5, 10)]


def cost_view(method):
    own = lines[lines["method"] == method]
    chart = (
        layers.trivial_region()
        + layers.cost_lines(own, by="ratio")
        + layers.envelope(envelope[envelope["method"] == method])
        + layers.trivial()
        + layers.operating_ranges(envelope_range[envelope_range["method"] == method])
        + layers.pc_markers(cost_ratios)
        + layers.pc_labels(cost_ratios)
    )
    return chart.properties(width=330, height=260, title=f"Trees trained with {method}")


def range_view(method):
    own = tree_ranges[tree_ranges["method"] == method].dropna(subset=["pc_lo"])
    bars = (
        alt.Chart(own)
        .mark_rule(strokeWidth=5, color="#0072B2")
        .encode(
            x=alt.X("pc_lo:Q", title="Operating range, PC(+)", scale=alt.Scale(domain=[0, 1])),
            x2="pc_hi:Q",
            y=alt.Y("ratio:N", sort=ratio_order, title="Training ratio (positives : negatives)"),
        )
    )
    marks = (
        alt.Chart(pd.DataFrame({"pc": list(cost_ratios.values()), "name": list(cost_ratios)}))
        .mark_rule(strokeDash=[2, 2], color="#444444")
        .encode(x="pc:Q")
    )
    return (bars + marks).properties(width=240, height=260, title="Each tree's operating range")


key = layers.key(
    [
        ("cost line of one tree", "thin line"),
        ("lower envelope of the trees", "bold line"),
        ("trivial classifiers", "trivial"),
        ("worse than a trivial classifier", "region"),
        ("operating range of the envelope", "rule"),
        ("cost ratio 1:1, 2:1, 5:1, 10:1 (FN : FP)", "dotted line"),
    ]
)
chart = alt.vconcat(
    alt.hconcat(cost_view("oversampling"), range_view("oversampling")),
    alt.hconcat(cost_view("undersampling") + key, range_view("undersampling")),
)
chart
