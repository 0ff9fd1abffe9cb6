"""
From score distributions to ROC points to cost lines (dg2008, Fig. 1)
=====================================================================

The exact-bootstrap paper opens with two classifiers of binormal scores, one weak (the
classes' scores overlap a lot) and one strong. Three thresholds are marked on each: on the
score densities, as three ROC points, and as three cost lines. At a given operating
condition the cheapest of the lines gives the threshold to use, and it differs between the
two classifiers: for the weak one the highest threshold wins at ``pc = 0.33``, for the
strong one the middle one. The paper's point is that a cost curve's value at a ``pc`` is
that of the threshold chosen for it, so a band must follow a *fixed* threshold per ``pc``,
chosen before the test set is seen.

Scores are simulated: negatives ``N(-mu, 1)``, positives ``N(mu, 1)`` with ``mu = 0.4``
(weak) and ``1.2`` (strong), 2,000 instances per class.

What the paper shows
--------------------

Two binormal classifiers, one that separates the classes poorly and one that separates them
well, each with three thresholds marked from low (red) to high (blue). Each threshold is one
point on the ROC curve and one straight line in cost space. At the operating condition
``pc = 0.33`` the lowest of the three lines belongs to the high threshold for the weak
classifier but to the middle threshold for the strong one, so which threshold is best at a
given ``pc`` depends on the classifier. The lower threshold always has the higher true and
false positive rates. Here the ``best`` table (``cc.cost_at`` of the three lines at ``pc =
0.33``) holds the costs the chart reads.
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets.binormal import binormal_scores

# %%
# The two classifiers' scores, and their ROC points.
weak = binormal_scores(n_pos=2000, n_neg=2000, mu=0.4, sigma=1.0, rng=1).assign(classifier="weak")
strong = binormal_scores(n_pos=2000, n_neg=2000, mu=1.2, sigma=1.0, rng=2).assign(
    classifier="strong"
)
scores = pd.concat([weak, strong], ignore_index=True)
points = cc.roc_points(scores, score="score", label="label", by="classifier")

# %%
# Three thresholds, low to high, as ROC points and cost lines: the ROC point of threshold
# ``t`` is the row with the smallest threshold at least ``t``.
marked = {"low (-0.8)": -0.8, "middle (0)": 0.0, "high (0.8)": 0.8}
rows = []
for name, t in marked.items():
    at = points[points["threshold"] >= t].groupby("classifier").tail(1)
    rows.append(at.assign(marked=name))
chosen = pd.concat(rows, ignore_index=True)
lines = cc.to_cost_lines(
    chosen[["classifier", "marked", "threshold", "fpr", "tpr"]], by=["classifier", "marked"]
)
best = cc.cost_at(lines.drop(columns="threshold"), [0.33], by=["classifier", "marked"])
print(best.sort_values(["classifier", "cost"]).round(3))

# %%
# Score densities (histograms), ROC points and cost lines, one row per classifier.
colours = alt.Scale(domain=list(marked), range=["#D55E00", "#009E73", "#0072B2"])
order = alt.SortField("order")


def row(name):
    data = scores[scores["classifier"] == name].assign(
        cls=lambda d: np.where(d["label"] == 1, "positives", "negatives")
    )
    densities = (
        alt.Chart(data)
        .transform_bin("bin", "score", bin=alt.Bin(step=0.25))
        .transform_aggregate(count="count()", groupby=["bin", "cls"])
        .mark_line(interpolate="step-after", color="#444444")
        .encode(
            x=alt.X("bin:Q", title="Score"),
            y=alt.Y("count:Q", title="Instances"),
            strokeDash=alt.StrokeDash("cls:N", title="Class"),
        )
    )
    rules = (
        alt.Chart(pd.DataFrame({"t": list(marked.values()), "marked": list(marked)}))
        .mark_rule(strokeWidth=2)
        .encode(x="t:Q", color=alt.Color("marked:N", scale=colours, title="Threshold"))
    )
    own = chosen[chosen["classifier"] == name]
    roc = (
        layers.roc_curve(points[points["classifier"] == name])
        + alt.Chart(own)
        .mark_point(filled=True, size=90)
        .encode(x="fpr:Q", y="tpr:Q", color=alt.Color("marked:N", scale=colours))
        + layers.chance()
    )
    cost = (
        alt.Chart(lines[lines["classifier"] == name])
        .mark_line(strokeWidth=2)
        .encode(
            x=alt.X("pc:Q", title="Probability cost, PC(+)"),
            y=alt.Y("cost:Q", title="Normalized expected cost", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color("marked:N", scale=colours),
            detail="marked:N",
        )
        + layers.trivial(y_max=1)
        + layers.pc_markers({"pc = 0.33": 0.33})
    )
    size = {"width": 220, "height": 180}
    return alt.hconcat(
        (densities + rules).properties(title=f"{name}: score distributions", **size),
        roc.properties(title=f"{name}: ROC curve", **size),
        cost.properties(title=f"{name}: cost lines", **size),
    )


chart = alt.vconcat(row("weak"), row("strong")).resolve_scale(color="shared")
chart
