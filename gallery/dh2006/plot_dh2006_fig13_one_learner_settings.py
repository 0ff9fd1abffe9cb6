"""
Several settings of one learner: tangled ROC curves, separated cost curves (dh2006, Fig. 13)
============================================================================================

Comparative experiments in machine learning often produce ROC curves that lie close
together and cross one another, so that a reader sees neither which setting is best where
nor by how much. Drummond and Holte drew C4.5 trees grown with four splitting criteria on
the sonar data both ways: as ROC curves, then as the lower envelopes of their cost lines.

What the paper shows
--------------------

The four ROC curves are close and tangled; one criterion (DKM) is known to dominate, but
the ROC picture does not say by how much, nor how the others differ. The cost curves of
the same trees come apart: the best criterion is visibly lowest, the runner-up differs
little from it over a broad middle range of PC(+) (0.3 to 0.6), those two are clearly
better than the other two, and of the two weaker criteria one lies below the other over
most of their operating range.

scikit-learn's decision tree stands in for C4.5 (it has no DKM criterion; its ``log_loss``
criterion is ``entropy`` under another name): four settings, the Gini criterion at depths
2, 3 and 4 and the entropy criterion at depth 3, each scored by ten-fold cross-validation
(the leaf's share of mines) on the bundled UCI sonar data, mines being the positive class.
Here the ROC curves cross one another, and in cost space the entropy tree is clearly the
cheapest over most of the range, while the depth-4 Gini tree lies below the depth-3 one
over most of their operating range.
"""

from importlib.resources import files

import altair as alt
import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.tree import DecisionTreeClassifier

import costchart as cc
from costchart import layers

# %%
# The sonar data; the positive class is "M" (a mine).
with (files("costchart.gallery") / "data" / "sonar.csv").open(encoding="utf-8") as handle:
    sonar = pd.read_csv(handle)
features = sonar.drop(columns="Class")
y = (sonar["Class"] == "M").astype(int).to_numpy()

# %%
# Four settings of one learner; each tree's out-of-fold scores give one ROC curve.
settings = {
    "gini, depth 2": {"criterion": "gini", "max_depth": 2},
    "gini, depth 3": {"criterion": "gini", "max_depth": 3},
    "gini, depth 4": {"criterion": "gini", "max_depth": 4},
    "entropy, depth 3": {"criterion": "entropy", "max_depth": 3},
}
folds = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
scores = []
for name, options in settings.items():
    tree = DecisionTreeClassifier(random_state=0, **options)
    score = cross_val_predict(tree, features, y, cv=folds, method="predict_proba")[:, 1]
    scores.append(pd.DataFrame({"setting": name, "score": score, "label": y}))
scores = pd.concat(scores, ignore_index=True)
points = cc.roc_points(scores, score="score", label="label", by="setting")
envelopes = cc.lower_envelope(points, by="setting")
ranges = cc.operating_range(points, of="envelope", by="setting")
print(ranges.round(3))

# %%
# Each envelope's cost on a grid, and the setting that is cheapest at each pc, with its
# margin over the runner-up.
grid = np.round(np.linspace(0, 1, 201), 6)
costs = cc.cost_at(envelopes, grid, by="setting")
wide = costs.pivot(index="pc", columns="setting", values="cost")
ordered = np.sort(wide.to_numpy(), axis=1)
lowest = pd.DataFrame(
    {
        "pc": wide.index,
        "best": wide.idxmin(axis=1).to_numpy(),
        "margin": ordered[:, 1] - ordered[:, 0],
    }
)
# The widest run of pc where the entropy tree is the cheapest by at least 0.015.
clear = ((lowest["best"] == "entropy, depth 3") & (lowest["margin"] >= 0.015)).to_numpy()
run_id = np.cumsum(~clear)
runs = lowest[clear].groupby(run_id[clear])["pc"].agg(["min", "max"])
runs = runs.assign(width=runs["max"] - runs["min"]).sort_values("width", ascending=False)
clearly_lowest = pd.DataFrame({"pc_lo": runs["min"].iloc[:1], "pc_hi": runs["max"].iloc[:1]})
print("entropy tree cheapest by at least 0.015 for", clearly_lowest.round(3).to_dict("records"))

# %%
# ROC space: four tangled curves. Cost space: four envelopes, the entropy tree's lead shaded.
colours = cc.palette(list(settings))
BEST = colours["entropy, depth 3"]
roc = (
    layers.chance()
    + layers.roc_curve(points, classifier="setting", palette=colours, mark={"strokeWidth": 1.8})
).properties(width=320, height=320, title="(a) ROC curves: close and crossing")
lead = (
    alt.Chart(clearly_lowest).mark_rect(color=BEST, opacity=0.15).encode(x="pc_lo:Q", x2="pc_hi:Q")
)
cost = (
    lead
    + layers.envelope(envelopes, classifier="setting", palette=colours, mark={"strokeWidth": 2})
    + layers.trivial()
    + layers.key(
        [
            ("entropy tree cheapest by at least 0.015", "region", BEST),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(width=320, height=320, title="(b) Cost curves: the entropy tree stands apart")
chart = (roc | cost).properties(
    title=alt.Title(
        "Four settings of a decision tree on sonar (ten-fold cross-validation)",
        anchor="middle",
    )
)
chart
