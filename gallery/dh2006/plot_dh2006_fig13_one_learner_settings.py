"""
Several curves of one learner in cost space (dh2006, Fig. 13)
=============================================================

One learner gives different classifiers under different settings or training sets. Drawn
as ROC curves, a handful of them soon tangle; as cost curves, their spread at each
operating condition is a vertical band one can read, and the lowest and highest curves
bracket what the learner achieves. Drummond and Holte used this to show how variable a
learner's cost is, and where the variation matters.

The bundled tree on the Pima diabetes data, one curve per cross-validation fold (each fold's
test set gives one curve).
"""

import costchart as cc
from costchart.datasets import load_predictions

# %%
# One cost curve per fold; their expected costs.
data = load_predictions().query("dataset == 'diabetes' and classifier == 'tree'")
points = cc.roc_points(data, score="score", label="label", by="fold")
points["fold"] = "fold " + points["fold"].astype(str)
print(cc.expected_cost(cc.lower_envelope(points, by="fold"), by="fold").round(4))

# %%
# Five lower envelopes, one per fold, with their operating ranges.
chart = cc.cost_chart(
    points,
    color="fold",
    cost_lines="none",
    size=380,
    title="One learner, five test folds: the tree on diabetes",
)
chart
