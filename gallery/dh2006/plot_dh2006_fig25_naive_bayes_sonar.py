"""
Naive Bayes on sonar: the ROC curve and its cost lines (dh2006, Fig. 25)
========================================================================

The last figure of the cost-curve paper shows one scoring classifier both ways: naive
Bayes on the sonar data as an ROC curve, and as the cost lines of its thresholds with
their lower envelope. Every threshold of the ROC curve is one line in cost space; the
envelope is the cost of the best threshold for each operating condition, and the hull
vertices of the ROC curve are exactly the lines that reach the envelope. The cost view
makes plain what the ROC view leaves to the reader: how much each operating condition
costs, and where the classifier beats the trivial ones.

The bundled cross-validated naive Bayes predictions on the UCI sonar data are used (mines
are the positive class).
"""

import costchart as cc
from costchart.datasets import load_predictions

# %%
# The sonar predictions of naive Bayes, pooled over the five folds, and their ROC points.
data = load_predictions().query("dataset == 'sonar' and classifier == 'naive bayes'")
points = cc.roc_points(data, score="score", label="label")
print(f"{len(points)} thresholds, AUC {cc.auc(points)['auc'].iat[0]:.3f}")
print(cc.operating_range(points, of="envelope").round(3))

# %%
# The ROC curve with its hull beside every threshold's cost line and their envelope.
chart = cc.roc_cost_chart(
    points,
    y_max=0.6,
    size=300,
    title="Naive Bayes on sonar",
    subtitle="Each ROC point is one cost line; the hull vertices make up the lower envelope",
)
chart
