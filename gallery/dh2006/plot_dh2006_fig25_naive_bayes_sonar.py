"""
Naive Bayes on sonar: the ROC curve and its cost lines (dh2006, Fig. 25)
========================================================================

One scoring classifier drawn both ways: naive Bayes on the sonar data as an ROC curve,
and as the cost lines of all its thresholds. Drummond and Holte use this figure in their
section on the limitations of cost curves, to show a case where ROC space reads more
easily than cost space. The bundled cross-validated naive Bayes predictions on the UCI
sonar data are used (mines are the positive class, 208 instances).

What the paper shows
--------------------

Naive Bayes has many distinct thresholds, so there are many ROC points and as many cost
lines (96 here). In ROC space each point stays easy to see however many others are
drawn; in cost space the lines cross one another so often that following one line over
the whole ``pc`` range is hard: this is a weakness of cost curves. The paper's remedy is
to highlight the classifiers of interest. Here one is highlighted in both panels, the
threshold that is optimal at ``pc`` = 0.5: its ROC point is ringed, and its cost line
is drawn bold, the only way to pick it out of the crowd of lines around it.
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import load_predictions

# %%
# The sonar predictions of naive Bayes, pooled over the five folds, and their ROC points.
data = load_predictions().query("dataset == 'sonar' and classifier == 'naive bayes'")
points = cc.roc_points(data, score="score", label="label")
print(f"{len(points)} thresholds, AUC {cc.auc(points)['auc'].iat[0]:.3f}")

# %%
# Every threshold's cost line, and the classifier to highlight: the one optimal at pc 0.5.
lines = cc.to_cost_lines(points)
highlighted = cc.iso_performance(points, pc=[0.5])
print(highlighted.round(3))

# %%
# How crowded the cost view is: at each pc, the number of other cost lines within 0.02 of
# the highlighted one's cost.
grid = np.linspace(0, 1, 101)


def cost_of(fpr, tpr):
    """Cost lines at ``grid``: one row per classifier."""
    return np.outer(1 - grid, fpr).T + np.outer(grid, 1 - tpr).T


every = cost_of(points.fpr.to_numpy(), points.tpr.to_numpy())
mine = cost_of(highlighted.fpr.to_numpy(), highlighted.tpr.to_numpy())[0]
crowd = pd.DataFrame({"pc": grid, "near": (np.abs(every - mine) < 0.02).sum(axis=0) - 1})
print(crowd.iloc[::10].to_string())

# %%
# (a) ROC space: the curve, every point, the hull and the highlighted point. (b) Cost
# space: every cost line, the envelope and the highlighted line.
ROC = "#0072B2"
roc = (
    layers.chance()
    + layers.roc_curve(points, max_points=None)
    + alt.Chart(points[["fpr", "tpr"]])
    .mark_point(filled=True, size=14, color=ROC)
    .encode(x="fpr:Q", y="tpr:Q")
    + layers.selected(highlighted, space="roc")
).properties(width=300, height=300, title="(a) ROC curve: every point is easy to see")
cost = (
    layers.cost_lines(points, y_max=1, max_points=None, mark={"strokeOpacity": 0.6})
    + layers.trivial(y_max=1)
    + layers.envelope(cc.lower_envelope(points), y_max=1)
    + layers.selected(highlighted, space="cost", y_max=1)
    + layers.key(
        [
            ("ROC curve and its points", "line", ROC),
            ("cost line of one threshold", "thin line"),
            ("lower envelope", "bold line"),
            ("trivial classifiers", "trivial"),
            ("the threshold optimal at pc = 0.5: ROC point", "ring"),
            ("... and its cost line", "highlight"),
        ]
    )
).properties(width=300, height=300, title="(b) Cost lines: one is hard to follow")
chart = (roc | cost).properties(
    title=alt.Title(
        f"Naive Bayes on sonar: {len(points)} thresholds",
        subtitle="Highlighting a classifier is what makes its cost line readable",
    )
)
chart
