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

What the paper shows
--------------------

(a) In ROC space the criterion is the vertical line at the allowed false positive rate;
the best classifier is where it meets the ROC convex hull, here between two hull
vertices (false positive rates 0.06 and 0.12), so it is their mixture at (0.1, 0.47).
(b) The construction is as easy in cost space: the allowed rate is a point on the left
axis (``pc`` = 0, cost 0.1, marked FP), the two classifiers whose lines start just below
and above it cross on the lower envelope, and the line from FP through that crossing is
the mixture's cost line; where it meets ``pc`` = 1 its cost is 1 - TP (0.53, so TP 0.47).
Without mixing, the best single classifier within the limit lies below the hull (TP
0.45) and its cost line above the mixture's on the right.
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
# Cost space: the criterion is the point (0, limit) on the left axis. The two component
# classifiers' cost lines cross on the lower envelope; the mixture's cost line joins the
# point to that crossing, and at pc = 1 its cost is 1 - TP.
LIMIT = 0.1
(f1, t1), (f2, t2) = components[["fpr", "tpr"]].to_numpy()
cross_pc = (f2 - f1) / ((f2 - f1) + (1 - t1) - (1 - t2))
crossing = pd.DataFrame({"pc": [cross_pc], "cost": [(1 - cross_pc) * f1 + cross_pc * (1 - t1)]})
ends = pd.DataFrame(
    {"pc": [0.0, 1.0], "cost": [LIMIT, 1 - float(mixture.tpr.iloc[0])], "label": ["FP", "1 - TP"]}
)
print(crossing.round(4), ends.round(4), sep="\n")

# %%
# ROC space: the limit, the hull and the answers. Cost space: the criterion's point, the
# components' cost lines, the mixture's line through their crossing, and the single best
# classifier's line against the envelope.
ROC, SINGLE, COMPONENT = "#0072B2", "#D55E00", "#009E73"
HIGHLIGHT = "#c2185b"  # the colour layers.selected draws the chosen classifier in
Y_MAX = 0.6
limit = (
    alt.Chart(pd.DataFrame({"fpr": [LIMIT]}))
    .mark_rule(strokeDash=[2, 2], color="#444444")
    .encode(x=alt.X("fpr:Q", title="False positive rate"))
)
# The chosen points named beside them in ROC space (the mixture and the single best point
# are close: one label above, one below), and the cost lines named at their right ends.
named = pd.concat(
    [
        components.assign(name=["A", "B"], colour=COMPONENT, offset=0.0),
        mixture.assign(name="mixture", colour=HIGHLIGHT, offset=-6.0),
        single.assign(name="best single", colour=SINGLE, offset=8.0),
    ]
)[["fpr", "tpr", "name", "colour", "offset"]]
roc = (
    layers.roc_curve(points)
    + layers.hull(cc.roc_hull(points))
    + limit
    + layers.selected(components, space="roc", mark={"color": COMPONENT, "size": 110})
    + layers.selected(mixture, space="roc", mark={"filled": True, "color": HIGHLIGHT, "size": 45})
    + layers.selected(single, space="roc", mark={"filled": True, "color": SINGLE, "size": 45})
    + alt.Chart(named)
    .mark_text(align="left", dx=9, fontSize=11, fontWeight="bold")
    .encode(
        x="fpr:Q",
        y="tpr:Q",
        text="name:N",
        color=alt.Color("colour:N", scale=None),
        yOffset="offset:Q",
    )
    + layers.chance()
).properties(width=300, height=300, title="(a) ROC space: at most 10 % false positives")
marked = alt.Chart(ends).encode(x="pc:Q", y="cost:Q")
cost = (
    layers.trivial_region(y_max=Y_MAX)
    + layers.envelope(cc.lower_envelope(points), y_max=Y_MAX)
    + layers.trivial(y_max=Y_MAX)
    + layers.cost_lines(
        components[["fpr", "tpr"]],
        y_max=Y_MAX,
        mark={"color": COMPONENT, "strokeWidth": 1.5, "strokeOpacity": 1},
    )
    + layers.selected(mixture, space="cost", y_max=Y_MAX)
    + layers.selected(single, space="cost", y_max=Y_MAX, mark={"color": SINGLE})
    + alt.Chart(crossing)
    .mark_point(shape="diamond", filled=True, size=90, color="#222222")
    .encode(x="pc:Q", y="cost:Q")
    + alt.Chart(crossing)
    .mark_text(text="A and B cross", align="left", dx=6, dy=22, fontSize=11, color="#222222")
    .encode(x="pc:Q", y="cost:Q")
    + marked.mark_point(filled=True, size=70, color=HIGHLIGHT)
    + marked.transform_filter(alt.datum.pc < 0.5)
    .mark_text(dx=16, dy=14, fontSize=12, color=HIGHLIGHT)
    .encode(text="label:N")
    + marked.transform_filter(alt.datum.pc > 0.5)
    .mark_text(dx=-28, dy=-12, fontSize=12, color=HIGHLIGHT)
    .encode(text="label:N")
    + layers.key(
        [
            ("ROC curve", "line", ROC),
            ("ROC convex hull", "dashed line"),
            ("FPR limit", "dotted line"),
            ("A and B, the hull vertices mixed: points / cost lines", "line", COMPONENT),
            ("their mixture at FPR = 0.1: point / cost line (FP to 1 - TP)", "highlight"),
            ("best single classifier within the limit", "highlight", SINGLE),
            ("lower envelope", "bold line"),
            ("trivial classifiers", "trivial"),
            ("worse than a trivial classifier", "region"),
        ]
    )
).properties(width=300, height=300, title="(b) Cost space: from FP through the crossing to 1 - TP")
chart = (roc | cost).properties(title="Neyman-Pearson on German credit (logistic regression)")
chart
