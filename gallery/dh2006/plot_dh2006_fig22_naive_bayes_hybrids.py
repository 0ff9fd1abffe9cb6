"""
Naive Bayes on sonar: choosing its threshold by the conditions or by cost (dh2006, Fig. 22)
===========================================================================================

Varying naive Bayes's probability threshold gives a family of classifiers. The
performance-independent hybrid sets the threshold from the operating condition alone, as
if the probabilities were calibrated; the cost-minimizing hybrid uses, at each ``pc``, the
threshold that was cheapest on validation data. Drummond and Holte found the first far
from optimal except in a narrow range near the data's class distribution, and much worse
than the trivial classifiers at both ends: naive Bayes's probabilities are extreme, so no
threshold between 0 and 1 ever turns it into "always negative" or "always positive". Both
hybrids are scored on test folds the thresholds were not chosen on (cross-validated
predictions bundled with costchart; folds 0-2 choose, folds 3-4 test); the test set's own
lower envelope, chosen with hindsight, is shown for reference. As in the paper, the
performance-independent hybrid is worse than a trivial classifier below ``pc`` 0.13 and
above 0.73; the cost-minimizing one, chosen on only 126 instances, is noisy in the middle
but cheaper overall (expected cost 0.183 against 0.206).
"""

import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import load_predictions

# %%
# Cross-validated naive Bayes scores on sonar, split by fold into validation and test.
data = load_predictions().query("dataset == 'sonar' and classifier == 'naive bayes'")
validation, test = data[data.fold < 3], data[data.fold >= 3]
prior = data.label.mean()  # the class distribution the probabilities assume
print(f"{len(validation)} validation and {len(test)} test instances; {prior:.2f} positive")

# %%
# Performance-independent: 99 thresholds ``t``, each used at the ``pc`` for which it is the
# Bayes-optimal threshold on calibrated probabilities, measured on the test folds.
test_points = cc.roc_points(test, score="score", label="label")
t = np.round(np.linspace(0.01, 0.99, 99), 2)
rows = [test_points[test_points.threshold >= x].iloc[-1] for x in t]  # "score >= t"
family = pd.DataFrame(
    {
        "trained_pc": prior * (1 - t) / (prior * (1 - t) + t * (1 - prior)),
        "fpr": [row.fpr for row in rows],
        "tpr": [row.tpr for row in rows],
    }
)
independent = cc.performance_independent(family, trained_pc="trained_pc").curve

# %%
# Cost-minimizing: the thresholds of the validation folds' lower envelope, each over its
# ``pc`` interval, applied to the test folds.
selection = cc.selection_table(cc.roc_points(validation, score="score", label="label"))
print(selection.round(3))
minimizing = cc.apply_selection(test, selection, score="score", label="label")
hindsight = cc.lower_envelope(test_points)

# %%
# Expected cost over uniform ``pc`` (``by=[]``: each table is one curve, although it has
# extra columns), and where the performance-independent hybrid beats both trivial ones.
curves = {
    "performance-independent": independent,
    "cost-minimizing (chosen on validation)": minimizing,
    "test-set lower envelope (hindsight)": hindsight,
}
print(
    pd.Series(
        {
            name: float(cc.expected_cost(c, by=[]).expected_cost.iloc[0])
            for name, c in curves.items()
        }
    ).round(4)
)
grid = np.linspace(0, 1, 1001)
worse = grid[np.interp(grid, independent.pc, independent.cost) > np.minimum(grid, 1 - grid)]
low, high = worse[worse < 0.5].max(), worse[worse > 0.5].min()
print(
    f"performance-independent beats both trivial classifiers only for {low:.2f} < pc < {high:.2f}"
)

# %%
# The chart: each hybrid as one line, with a vertical step wherever it switches threshold.
y_max = 0.5
chart = (
    layers.trivial_region(y_max=y_max)
    + layers.trivial(y_max=y_max)
    + layers.envelope(
        hindsight, y_max=y_max, mark={"color": "#888888", "strokeDash": [2, 2], "strokeWidth": 1.5}
    )
    + layers.envelope(
        minimizing[["pc", "cost"]],
        y_max=y_max,
        mark={"color": "#D55E00", "strokeDash": [7, 4], "strokeWidth": 2.5},
    )
    + layers.envelope(independent[["pc", "cost"]], y_max=y_max, mark={"strokeWidth": 2.5})
    + layers.key(
        [
            ("performance-independent hybrid (threshold from pc)", "bold line"),
            ("cost-minimizing hybrid (thresholds chosen on folds 0-2)", "dashed line"),
            ("lower envelope of the test folds (hindsight)", "dotted line"),
            ("trivial classifiers", "trivial"),
            ("worse than a trivial classifier", "region"),
        ]
    )
).properties(
    width=520, height=340, title="Naive Bayes on sonar: two hybrids scored on test folds 3-4"
)
chart
