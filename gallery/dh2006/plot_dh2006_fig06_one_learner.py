"""
ROC points of one learner and its cost curves (dh2006, Fig. 6 and 8)
====================================================================

A learner's thresholds, drawn as ROC points, become a fan of cost lines whose lower
envelope is the learner's cost curve. Drummond and Holte used such a picture to show what
cost space adds: the envelope's height is the expected cost at each operating condition,
its operating range is where it beats both trivial classifiers (drawn bold), and a reader
can compare it at a glance with another learner's envelope.

The bundled naive Bayes predictions on the ionosphere data.
"""

import costchart as cc
from costchart.datasets import load_predictions

# %%
# One learner's ROC points; its envelope's operating range and expected cost.
data = load_predictions().query("dataset == 'ionosphere' and classifier == 'naive bayes'")
points = cc.roc_points(data, score="score", label="label")
envelope = cc.lower_envelope(points)
print(cc.operating_range(points, of="envelope").round(3))
print(cc.expected_cost(envelope).round(4))

# %%
# The cost chart: every threshold's line, the envelope and its operating range.
chart = cc.cost_chart(
    points,
    y_max=0.5,
    size=380,
    title="Naive Bayes on ionosphere: cost lines and their envelope",
)
chart
