"""
ROC points of one learner and its cost curves (dh2006, Fig. 6 and 8)
====================================================================

A learner trained on differently balanced training sets gives a set of classifiers: ROC
points in ROC space, cost lines in cost space. Drummond and Holte drew C4.5 trees on the
sonar data, each trained on a training set undersampled to a different class ratio, both
ways, to show what ROC analysis can tell about such a set and what cost curves add.

What the paper shows
--------------------

In ROC space (Fig. 6, panel a) some points are plainly dominated by others, and every
point lies well above the chance diagonal, so the trees are good overall; no number about
cost can be read off. In cost space (Fig. 8, panel b) every conclusion of the ROC plot can
still be drawn, and more: the lower envelope stands out, and it shows that with a suitable
amount of undersampling the tree's normalized expected cost never rises above about 0.25;
near PC(+) = 0.5 many of the trees are close to the best; and the envelope's operating
range, read where it meets the bold trivial diagonals, is 0.17 < PC(+) < 0.84.

scikit-learn's depth-4 decision tree stands in for C4.5, on the bundled UCI sonar data
(mines are the positive class): 21 undersampling ratios from 1:8 to 8:1
(:func:`costchart.resample_classes`), each tree's errors counted over ten-fold
cross-validation. Here the envelope peaks at about 0.26 and its operating range is about
0.19 < PC(+) < 0.84.
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
# One tree per undersampling ratio and fold; each tree's errors on its test fold.
ratios = list(np.geomspace(1 / 8, 8, 21))
folds = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
counts = []
for fold, (train, test) in enumerate(folds.split(sonar[features], y)):
    training = sonar.iloc[train].assign(label=y[train])
    sets = cc.resample_classes(training, label="label", ratios=ratios, resampling="under", rng=fold)
    for ratio, part in sets.groupby("ratio", sort=False):
        tree = DecisionTreeClassifier(max_depth=4, min_samples_leaf=2, random_state=0)
        predicted = tree.fit(part[features], part["label"]).predict(sonar.iloc[test][features])
        truth = y[test]
        counts.append(
            {
                "ratio": ratio,
                "TP": int(((predicted == 1) & (truth == 1)).sum()),
                "FN": int(((predicted == 0) & (truth == 1)).sum()),
                "FP": int(((predicted == 1) & (truth == 0)).sum()),
                "TN": int(((predicted == 0) & (truth == 0)).sum()),
            }
        )
counts = pd.DataFrame(counts).groupby("ratio", as_index=False).sum()

# %%
# One ROC point per ratio (the training ratio plays the threshold's part), its cost line,
# the hull, the lower envelope and its operating range.
confusion = cc.from_confusion(counts, tp="TP", fn="FN", fp="FP", tn="TN", by="ratio")
points = (
    confusion[confusion["threshold"] == 1]
    .drop(columns="threshold")
    .rename(columns={"ratio": "threshold"})[["threshold", "tp", "fp", "tn", "fn", "tpr", "fpr"]]
    .reset_index(drop=True)
)
hull = cc.roc_hull(points)
lines = cc.to_cost_lines(points)
envelope = cc.lower_envelope(points)
envelope_range = cc.operating_range(points, of="envelope")
at_half = cc.cost_at(lines, [0.5])
best_at_half = float(cc.cost_at(envelope, [0.5])["cost"].iat[0])
near_best = int((at_half["cost"] <= best_at_half + 0.03).sum())
print(f"{len(points)} trees, {int(np.isfinite(hull['threshold']).sum())} on the hull")
print(f"envelope at most {envelope['cost'].max():.3f}; range {envelope_range.round(3).values}")
print(f"{near_best} trees within 0.03 of the best at pc = 0.5")

# %%
# (a) ROC space: the trees' points and their hull. (b) Cost space: their cost lines, the
# lower envelope, the trivial classifiers in bold and the envelope's operating range.
POINT, RANGE = "#0072B2", "#D55E00"
roc = (
    layers.chance()
    + layers.hull(hull, mark={"color": "#222222"})
    + layers.roc_markers(points, mark={"size": 60, "filled": True, "color": POINT, "opacity": 1})
).properties(width=300, height=300, title="(a) ROC points of 21 undersampled trees")
cost = (
    layers.trivial_region()
    + layers.cost_lines(lines)
    + layers.envelope(envelope)
    + layers.trivial(mark={"strokeWidth": 3})
    + layers.operating_ranges(envelope_range, mark={"color": RANGE, "strokeWidth": 2})
    + layers.key(
        [
            ("one tree: ROC point / cost line", "dot", POINT),
            ("cost line of one tree", "thin line"),
            ("ROC convex hull", "dashed line"),
            ("lower envelope", "bold line"),
            ("trivial classifiers", "trivial"),
            ("chance diagonal", "chance"),
            ("operating range of the envelope", "rule", RANGE),
            ("worse than a trivial classifier", "region"),
        ]
    )
).properties(
    width=300,
    height=300,
    title=alt.Title(
        "(b) Their cost lines and lower envelope",
        subtitle=(
            f"operating range {envelope_range['pc_lo'].item():.2f} < PC(+) < "
            f"{envelope_range['pc_hi'].item():.2f}; envelope at most "
            f"{envelope['cost'].max():.2f}"
        ),
    ),
)
chart = roc | cost
chart
