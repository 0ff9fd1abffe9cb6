"""
Three ways to set a threshold, and what each costs (threshold-choice methods)
=============================================================================

Three classifiers on the diabetes data (the bundled cross-validated predictions: logistic
regression, naive Bayes and a decision tree; 768 instances, diabetic is the positive
class), each drawn as the ROC curve and as three cost curves, one for each way of choosing
the threshold at an operating point ``pc``:

- the **lower envelope** (solid): the threshold that was cheapest at ``pc``;
- the **Brier curve** (dashed): the score read as a probability, positive when
  ``score >= 1 - pc``;
- the **rate-driven curve** (dotted): the threshold that calls a share ``pc`` of the
  instances positive, the two classes weighted equally (``(TPR + FPR) / 2 = pc``).

What the papers show
--------------------

How the threshold is chosen is part of a classifier's cost. The optimal choice is a lower
bound: the envelope lies under the other two curves at every ``pc``. Each curve's area is
a known metric: the envelope's is the expected cost with the best thresholds, the Brier
curve's is the Brier score with the classes weighted equally, and the rate-driven curve's
is ``1/3 + (1 - 2 AUC) / 4``, so choosing by rate ranks classifiers exactly as the AUC
does. A classifier whose scores rank well but are not calibrated loses most when its
scores are trusted as probabilities: here naive Bayes, second by AUC, whose Brier curve
rises furthest above its envelope and whose Brier loss exceeds its rate-driven loss by the
most. And the rate-driven curve of the ROC convex hull, the hull's counterpart
in cost space, lies between the envelope and the classifier's own rate-driven curve.
"""

import numpy as np

import costchart as cc
from costchart.datasets import load_predictions

# %%
# The diabetes predictions, pooled over the folds, and each classifier's ROC points.
data = load_predictions().query("dataset == 'diabetes'")
points = cc.roc_points(data, score="score", label="label", by="classifier")
auc = cc.auc(points)
print(auc.round(3))

# %%
# Each classifier's expected loss under the three methods (and a fixed threshold of 0.5),
# exact, with ``pc`` uniform.
losses = cc.expected_loss(
    data,
    score="score",
    label="label",
    by="classifier",
    threshold_choice=["optimal", "score_driven", "rate_driven", "fixed"],
    threshold=0.5,
)
table = losses.pivot(index="classifier", columns="threshold_choice", values="expected_loss")
table["1/3 + (1 - 2 AUC)/4"] = 1 / 3 + (1 - 2 * auc.set_index("classifier")["auc"]) / 4
print(table.round(4))

# %%
# The curves themselves, on one grid of ``pc``: the envelope, the Brier curve and the
# rate-driven curves of each classifier and of its ROC convex hull.
grid = np.linspace(0, 1, 501)
curves = {
    "envelope": cc.lower_envelope(points),
    "brier": cc.brier_curve(data, score="score", label="label", by="classifier"),
    "rate": cc.rate_driven_curve(points),
    "hull_rate": cc.rate_driven_curve(cc.roc_hull(points)),
}
costs = cc.cost_at(curves["envelope"], grid).rename(columns={"cost": "envelope"})
for name in ["brier", "rate", "hull_rate"]:
    at = cc.cost_at(curves[name], grid).rename(columns={"cost": name})
    costs = costs.merge(at, on=["classifier", "pc"], validate="one_to_one")
gaps = costs[["classifier", "pc"]].assign(
    brier_above=costs["brier"] - costs["envelope"],
    rate_above=costs["rate"] - costs["envelope"],
    hull_rate_above=costs["hull_rate"] - costs["envelope"],
)
print(gaps.groupby("classifier")[["brier_above", "rate_above", "hull_rate_above"]].max().round(3))

# %%
# The chart: one row per classifier (nine curves in one panel would be unreadable), its
# ROC curve beside its three cost curves, with its three losses in the panel's corner.
# The cost axis stops at 0.35 (given, not the default), above every curve here.
chart = cc.threshold_choice_chart(
    data.assign(panel=data["classifier"]),
    score="score",
    label="label",
    classifier="classifier",
    facet="panel",
    y_max=0.35,
    size=230,
    title="Three ways to set the threshold (diabetes), one classifier per row",
    subtitle="solid: optimal; dashed: score-driven (Brier); dotted: rate-driven",
)
chart
