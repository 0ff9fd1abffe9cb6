"""
The Neyman-Pearson criterion in ROC and cost space (dh2006, Fig. 23)
====================================================================

The Neyman-Pearson criterion asks for the highest true positive rate with the false
positive rate held below a limit. In ROC space the answer lies where the vertical line
``FPR = limit`` meets the ROC convex hull: usually between two hull vertices, reached by
randomly mixing their two classifiers. Drummond and Holte drew the same choice in cost
space, where the mixture is one more cost line and the constraint becomes a point the line
must pass through; the cost view shows directly what the constraint costs against the
lower envelope at every operating condition. Without randomising, the best one can do is
the best *existing* classifier within the limit, a point below the hull.

Here: logistic regression on the German credit data (bundled cross-validated
predictions; "good" loans are the positive class), with at most 10 % false positives.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import load_predictions

# %%
# ROC points, hull and the criterion's answers: the two hull vertices mixed, their mixture
# and the best single classifier within the limit.
data = load_predictions().query("dataset == 'credit' and classifier == 'logistic'")
points = cc.roc_points(data, score="score", label="label")
choice = cc.neyman_pearson(points, max_fpr=0.1)
print(choice.round(4))
components = choice[choice["role"] == "component"]
mixture = choice[choice["role"] == "mixture"]
single = choice[choice["role"] == "single"]

# %%
# ROC space: the limit, the hull and the answers. Cost space: the cost lines of the mixture
# and of the single classifier against the envelope.
limit = (
    alt.Chart(pd.DataFrame({"fpr": [0.1]}))
    .mark_rule(strokeDash=[2, 2], color="#444444")
    .encode(x=alt.X("fpr:Q", title="False positive rate"))
)
roc = (
    layers.roc_curve(points)
    + layers.hull(cc.roc_hull(points))
    + limit
    + layers.selected(components, space="roc")
    + layers.selected(mixture, space="roc", mark={"filled": True, "color": "#222222"})
    + layers.selected(single, space="roc", mark={"filled": True, "color": "#D55E00"})
    + layers.chance()
).properties(width=300, height=300, title="ROC space: at most 10 % false positives")
cost = (
    layers.trivial_region()
    + layers.envelope(cc.lower_envelope(points))
    + layers.trivial()
    + layers.selected(mixture, space="cost")
    + layers.selected(single, space="cost", mark={"color": "#D55E00", "strokeDash": [6, 3]})
    + layers.key(
        [
            ("ROC curve", "line"),
            ("ROC convex hull", "dashed line"),
            ("FPR limit (left panel)", "dotted line"),
            ("the two hull vertices mixed", "ring"),
            ("their mixture at FPR = 0.1", "dot"),
            ("cost line of the mixture", "highlight"),
            ("best single classifier within the limit (orange)", "dashed line"),
            ("lower envelope", "bold line"),
            ("trivial classifiers", "trivial"),
            ("worse than a trivial classifier", "region"),
        ]
    )
).properties(width=300, height=300, title="Cost space: the chosen classifiers' cost lines")
chart = (roc | cost).properties(title="Neyman-Pearson on German credit (logistic regression)")
chart
