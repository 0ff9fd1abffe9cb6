"""
Sonar: choosing a tree by its training cost ratio, or by the hull (dh2000, Fig. 17-18)
======================================================================================

A common way to get classifiers for different costs is to train one per cost ratio and,
at application time, use the one trained for the ratio at hand. Drummond and Holte show on
the sonar data that this parameter-based choice is not the best one: the classifier that is
optimal at a given operating point is the one the ROC convex hull (or the lower envelope)
picks, and that is often a tree trained for a different ratio, or a trivial classifier.

What the paper shows
--------------------

Trees trained with probability-cost ratios from 1:11 to 11:1 give ROC points that zigzag:
the point trained for a ratio is not always on the hull, and is not always the hull's
choice at that ratio (Fig. 17). Converting each ratio ``R`` to ``PC(+) = 1 / (1 + R)`` and
using, at each ``pc``, the tree trained nearest to it (switching half way between two
training ratios) gives the solid cost curve of Fig. 18; choosing by the hull gives the lower
envelope (dashed). The parameter-based curve is never below the envelope, and the area
between them is the extra cost of choosing by training ratio. The gap is largest at the
left and right ends, where the envelope uses a trivial classifier and the parameter-based
choice uses a tree outside its operating range. Classifier A (trained at 11:1) is chosen
at ``pc = 1/12``, classifier B (5.1:1) at ``pc = 1/6.1``.

Here scikit-learn's decision tree (information gain, depth at most 3, at least 10
instances per leaf) stands in for C4.5, with the ratio applied as class weights (positives
: negatives = 1 : R) and five-fold cross-validation on the UCI sonar data (mines are the
positive class); each tree's ROC point sums its five test folds (208 instances). The result
is one run, not an average: with 111 mines and 97 rocks each rate moves by about 0.01 per
instance, so single points may shift between runs, but the pattern does not hinge on one.
"""

from importlib.resources import files

import altair as alt
import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

import costchart as cc
from costchart import layers

# %%
# The sonar data; the positive class is "M" (a mine).
with (files("costchart.gallery") / "data" / "sonar.csv").open(encoding="utf-8") as handle:
    sonar = pd.read_csv(handle)
features = [c for c in sonar.columns if c != "Class"]
y = (sonar["Class"] == "M").astype(int).to_numpy()

# %%
# One tree per probability-cost ratio ``R = p(-)C(+|-) / (p(+)C(-|+))``: the training set's
# class weights make positives : negatives = 1 : R, as a prior would.
RATIOS = [11.0, 5.1, 2.3, 1.0, 1 / 2.3, 1 / 5.1, 1 / 11]
folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
counts = []
for ratio in RATIOS:
    tp = fn = fp = tn = 0
    for train, test in folds.split(sonar[features], y):
        positives, negatives = y[train].sum(), (1 - y[train]).sum()
        weight = np.where(y[train] == 1, 1 / positives, ratio / negatives)
        tree = DecisionTreeClassifier(
            criterion="entropy", max_depth=3, min_samples_leaf=10, random_state=0
        )
        tree.fit(sonar.iloc[train][features], y[train], sample_weight=weight)
        predicted, truth = tree.predict(sonar.iloc[test][features]), y[test]
        tp += int(((predicted == 1) & (truth == 1)).sum())
        fn += int(((predicted == 0) & (truth == 1)).sum())
        fp += int(((predicted == 1) & (truth == 0)).sum())
        tn += int(((predicted == 0) & (truth == 0)).sum())
    label = f"{ratio:g}:1" if ratio >= 1 else f"1:{1 / ratio:g}"
    counts.append({"ratio": label, "R": ratio, "TP": tp, "FN": fn, "FP": fp, "TN": tn})
counts = pd.DataFrame(counts)
counts["train_pc"] = 1 / (1 + counts["R"])

# %%
# The trees' ROC points, the hull and the lower envelope (choosing by the hull).
points = cc.from_confusion(counts, tp="TP", fn="FN", fp="FP", tn="TN", by="ratio")
trees = points[points["threshold"] == 1].merge(counts[["ratio", "R", "train_pc"]], on="ratio")
trees = trees.sort_values("train_pc").reset_index(drop=True)
rates = trees[["fpr", "tpr"]]
hull = cc.roc_hull(rates, by=[])
envelope = cc.lower_envelope(rates, by=[])
on_hull = trees.merge(hull[["fpr", "tpr"]], on=["fpr", "tpr"])["ratio"].tolist()
hull_choice = cc.iso_performance(rates, pc=trees["train_pc"].tolist(), by=[])
print(trees[["ratio", "train_pc", "fpr", "tpr"]].round(3))
print("trees on the hull:", on_hull)

# %%
# Choosing by training ratio: at each pc the tree trained nearest to it, switching half way
# between two training pcs. Two rows per interval (its ends), as a hybrid cost curve.
edges = np.concatenate(
    [[0.0], (trees["train_pc"][1:].to_numpy() + trees["train_pc"][:-1].to_numpy()) / 2, [1.0]]
)
rows = []
for i, tree in trees.iterrows():
    for pc in (edges[i], edges[i + 1]):
        cost = (1 - tree["tpr"]) * pc + tree["fpr"] * (1 - pc)
        rows.append(
            {"pc": pc, "cost": cost, "ratio": tree["ratio"], "fpr": tree["fpr"], "tpr": tree["tpr"]}
        )
by_ratio = pd.DataFrame(rows)

# The extra cost of choosing by training ratio: the area between the two curves.
grid = np.linspace(0, 1, 1001)
chosen = np.searchsorted(edges, grid, side="right").clip(1, len(trees)) - 1
param_cost = (1 - trees["tpr"].to_numpy()[chosen]) * grid + trees["fpr"].to_numpy()[chosen] * (
    1 - grid
)
hull_cost = cc.cost_at(envelope, grid)["cost"].to_numpy()
comparison = pd.DataFrame({"pc": grid, "by_ratio": param_cost, "by_hull": hull_cost})
extra = np.trapezoid(param_cost - hull_cost, grid)
print(f"extra expected cost of choosing by training ratio (uniform pc): {extra:.4f}")

# %%
# Left (Fig. 17): the trees' ROC points joined in order of training ratio, each labelled
# with it, and the hull (dashed). Right (Fig. 18): the lower envelope (dashed) and the cost
# of choosing by training ratio (solid), with the pc at which A and B are chosen.
BLUE, ORANGE = "#0072B2", "#D55E00"
names = trees.assign(
    name=trees["ratio"].map({"11:1": "A  11:1", "5.1:1": "B  5.1:1"}).fillna(trees["ratio"])
)
roc = (
    layers.hull(hull, mark={"color": ORANGE})
    + alt.Chart(names)
    .mark_line(color=BLUE, strokeWidth=1.5)
    .encode(
        x=alt.X("fpr:Q", title="False positive rate", scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("tpr:Q", title="True positive rate", scale=alt.Scale(domain=[0, 1])),
        order="train_pc:Q",
    )
    + alt.Chart(names).mark_point(size=60, color=BLUE, strokeWidth=2).encode(x="fpr:Q", y="tpr:Q")
    + alt.Chart(names[names["ratio"] != "1:11"])
    .mark_text(align="left", dx=7, dy=8, fontSize=10)
    .encode(x="fpr:Q", y="tpr:Q", text="name:N")
    + alt.Chart(names[names["ratio"] == "1:11"])
    .mark_text(align="right", dx=-8, dy=-6, fontSize=10)
    .encode(x="fpr:Q", y="tpr:Q", text="name:N")
    + layers.chance()
).properties(width=300, height=300, title="Sonar trees in ROC space")
picks = {"A": 1 / 12, "B": 1 / 6.1}
cost = (
    layers.trivial_region()
    + layers.hybrid(by_ratio, mark={"color": BLUE, "strokeDash": [1, 0], "strokeWidth": 2})
    + layers.envelope(envelope, mark={"color": ORANGE, "strokeDash": [6, 3]})
    + layers.trivial()
    + layers.pc_markers(picks)
    + layers.pc_labels(picks)
    + layers.key(
        [
            ("trees by training ratio: ROC points / chosen by ratio", "line", BLUE),
            ("ROC convex hull / lower envelope (chosen by hull)", "dashed line", ORANGE),
            ("pc where A (11:1) and B (5.1:1) are chosen", "dotted line"),
            ("trivial classifiers", "trivial"),
            ("worse than a trivial classifier", "region"),
        ]
    )
).properties(width=300, height=300, title="Cost of the two ways of choosing")
chart = roc | cost
chart
