"""
Hybrids from performance-independent and cost-minimizing selection (dh2006, Fig. 21-22)
========================================================================================

Given several classifiers, each trained for some operating condition, which one should
be used at a given ``pc``? A performance-independent rule uses the one trained for the
nearest condition; a cost-minimizing rule uses the one whose cost line is lowest there,
that is, the lower envelope. Drummond and Holte drew the hybrid cost curves of both rules
for naive Bayes on the sonar data trained at several class ratios: the
performance-independent hybrid lies well above the envelope in places, a cost that
choosing by measured performance avoids.

Here scikit-learn's Gaussian naive Bayes is trained on the UCI sonar data (mines positive)
at seven class ratios with :func:`costchart.resample_classes` (oversampling), five-fold
cross-validated; each ratio's training condition is its ``pc``.
"""

from importlib.resources import files

import pandas as pd
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB

import costchart as cc
from costchart import layers

# %%
# Naive Bayes trained at each ratio; its test-fold counts, summed over the folds.
# The UCI data ships with the gallery (costchart.gallery), so this runs from anywhere.
with (files("costchart.gallery") / "data" / "sonar.csv").open(encoding="utf-8") as handle:
    sonar = pd.read_csv(handle)
features = [c for c in sonar.columns if c != "Class"]
y = (sonar["Class"] == "M").astype(int).to_numpy()
p_pos = y.mean()
ratios = [1 / 8, 1 / 4, 1 / 2, 1, 2, 4, 8]
rows = []
for fold, (train, test) in enumerate(
    StratifiedKFold(n_splits=5, shuffle=True, random_state=0).split(sonar[features], y)
):
    sets = cc.resample_classes(
        sonar.iloc[train].assign(label=y[train]), label="label", ratios=ratios, rng=fold
    )
    for ratio, part in sets.groupby("ratio", sort=False):
        predicted = (
            GaussianNB().fit(part[features], part["label"]).predict(sonar.iloc[test][features])
        )
        truth = y[test]
        rows.append(
            {
                # Weighting positives by r trains for the condition pc = r p / (r p + 1 - p).
                "trained": ratio * p_pos / (ratio * p_pos + 1 - p_pos),
                "TP": int(((predicted == 1) & (truth == 1)).sum()),
                "FN": int(((predicted == 0) & (truth == 1)).sum()),
                "FP": int(((predicted == 1) & (truth == 0)).sum()),
                "TN": int(((predicted == 0) & (truth == 0)).sum()),
            }
        )
counts = pd.DataFrame(rows).groupby("trained", as_index=False).sum()
points = cc.from_confusion(counts, tp="TP", fn="FN", fp="FP", tn="TN", by="trained")
classifiers = points[points["threshold"] == 1][["trained", "fpr", "tpr"]]
print(classifiers.round(3))

# %%
# The performance-independent hybrid, the envelope of the same classifiers, and the
# expected extra cost of choosing by training condition.
result = cc.performance_independent(classifiers, trained_pc="trained", by=[])
print(result.extra_cost.round(4))

# %%
# Both hybrids: the performance-independent one and the lower envelope.
chart = (
    layers.trivial_region()
    + layers.cost_lines(cc.to_cost_lines(classifiers[["fpr", "tpr"]]))
    + layers.hybrid(result.curve)
    + layers.envelope(result.envelope)
    + layers.trivial()
    + layers.key(
        [
            ("cost line of one naive Bayes classifier", "thin line"),
            ("performance-independent hybrid", "dashed line"),
            ("cost-minimizing hybrid (lower envelope)", "bold line"),
            ("trivial classifiers", "trivial"),
            ("worse than a trivial classifier", "region"),
        ]
    )
).properties(width=420, height=320, title="Naive Bayes on sonar: two selection rules")
chart
