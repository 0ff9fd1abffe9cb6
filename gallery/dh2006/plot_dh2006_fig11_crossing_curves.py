"""
Two ROC curves that cross, and their cost curves (dh2006, Fig. 11)
==================================================================

When two ROC curves cross, each classifier is better for some operating conditions. ROC
space shows that they cross, but the crossing point of the curves says little about where
each one wins: that is fixed by an iso-performance line touching both hulls. In cost space
the same information is where the two cost curves cross, read straight off the ``pc`` axis.

What the paper shows
--------------------

The dotted and dashed ROC curves of panel (a) cross. The one iso-performance line tangent
to both (the solid line) has the slope of the operating condition where the two classifiers
perform equally: for steeper slopes the dotted classifier is better, for shallower ones the
dashed. In cost space (panel b) the two cost curves cross once, and the vertical line from
their crossing is at exactly the ``pc`` of that tangent line's slope. The dotted classifier
is cheaper for PC(+) below about 0.5 and the dashed one above.

The bundled tree (dotted) and naive Bayes (dashed) on the ionosphere data stand in for the
paper's two classifiers. The crossing comes from :func:`costchart.compare`, the tangent's
points of contact from :func:`costchart.iso_performance` at that ``pc``.
"""

import json

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import load_predictions

# %%
# The two classifiers' ROC points, hulls and cost curves; where the cost curves cross.
data = load_predictions().query("dataset == 'ionosphere' and classifier in ['naive bayes', 'tree']")
points = cc.roc_points(data, score="score", label="label", by="classifier")
hulls = cc.roc_hull(points, by="classifier")
envelopes = cc.lower_envelope(points, by="classifier")
bayes = points[points["classifier"] == "naive bayes"].drop(columns="classifier")
tree = points[points["classifier"] == "tree"].drop(columns="classifier")
result = cc.compare(
    cc.lower_envelope(tree), cc.lower_envelope(bayes), names=("tree", "naive bayes")
)
crossing = float(result.crossovers[0])
print(f"the cost curves cross at pc = {crossing:.3f}")
print(result.better.round(3))

# %%
# The iso-performance line of that condition touches both hulls: one line, one slope.
slope = cc.slope_from_pc(crossing)
contact = cc.iso_performance(points, pc=crossing, by="classifier")
contact["intercept"] = contact["tpr"] - slope * contact["fpr"]
print(contact[["classifier", "fpr", "tpr", "intercept"]].round(4))
intercept = contact["intercept"].mean()
tangent = pd.DataFrame({"fpr": [0.0, (1 - intercept) / slope]})
tangent["tpr"] = intercept + slope * tangent["fpr"]

# %%
# (a) The crossing ROC curves and the tangent iso-performance line; (b) the cost curves
# and the vertical line at their crossing.
colours = cc.palette(["tree", "naive bayes"])
# The classifiers' legend shows each one's colour and dash (dotted tree, dashed naive
# Bayes): its swatches take their dash from the classifier's name.
dashes = {"tree": [2, 3], "naive bayes": [6, 3]}  # the key's dotted and dashed lines
by_name = " : ".join(f"datum.value === {json.dumps(k)} ? {v}" for k, v in dashes.items())
style = alt.StrokeDash(
    "classifier:N",
    scale=alt.Scale(domain=list(dashes), range=list(dashes.values())),
    legend=None,
)
colour = alt.Color(
    "classifier:N",
    scale=alt.Scale(domain=list(colours), range=list(colours.values())),
    legend=alt.Legend(
        title="classifier",
        orient="right",
        symbolType="stroke",
        symbolStrokeWidth=2.5,
        symbolDash=alt.ExprRef(expr=f"{by_name} : null"),
    ),
)
roc = (
    layers.chance()
    + alt.Chart(points)
    .mark_line(strokeWidth=2)
    .encode(
        x=alt.X("fpr:Q", title="False positive rate", scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("tpr:Q", title="True positive rate", scale=alt.Scale(domain=[0, 1])),
        color=colour,
        strokeDash=style,
        order="fpr:Q",
    )
    + alt.Chart(tangent).mark_line(color="#222222", strokeWidth=1.5).encode(x="fpr:Q", y="tpr:Q")
    + alt.Chart(contact)
    .mark_point(size=90, shape="circle", color="#222222", strokeWidth=2)
    .encode(x="fpr:Q", y="tpr:Q")
).properties(
    width=300,
    height=300,
    title=alt.Title("(a) ROC curves that cross", subtitle=f"tangent slope {slope:.2f}"),
)
marker = {f"crossing, pc = {crossing:.2f}": crossing}
cost = (
    layers.trivial_region()
    + alt.Chart(envelopes)
    .mark_line(strokeWidth=2.5)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("cost:Q", title="Normalized expected cost", scale=alt.Scale(domain=[0, 0.5])),
        color=colour,
        strokeDash=style,
        order="pc:Q",
    )
    + layers.trivial()
    + layers.pc_markers(marker, mark={"color": "#222222"})
    + layers.pc_labels(marker)
    + layers.key(
        [
            ("iso-performance line tangent to both hulls", "line", "#222222"),
            ("the points it touches", "ring", "#222222"),
            ("crossing of the cost curves", "dotted line", "#222222"),
            ("trivial classifiers", "trivial"),
            ("worse than a trivial classifier", "region"),
        ]
    )
).properties(
    width=300,
    height=300,
    title=alt.Title(
        "(b) Their cost curves",
        subtitle=f"pc = 1 / (1 + {slope:.2f}) = {crossing:.2f}",
    ),
)
chart = roc | cost
chart
