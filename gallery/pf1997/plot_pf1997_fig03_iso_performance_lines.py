"""
Iso-performance lines on the ROC convex hull (pf1997, Fig. 3)
=============================================================

All classifiers on one straight line of slope ``m = p(-) C(+|-) / (p(+) C(-|+))`` in ROC
space have the same expected cost: an iso-performance line. For given operating
conditions the best classifier is where the line of their slope touches the ROC convex
hull, the line pushed as far to the top left as the hull allows. Changing the conditions
only changes the slope, so the hull answers the question for all of them at once.

What the paper shows
--------------------

Two scenarios, both with ten negatives for every positive. In the first, both errors
cost the same, so the lines have slope 10; in the second a missed positive costs 100
times a false alarm, so the slope is 1/10. Line alpha (slope 10) touches the hull at a
point of A, line beta (slope 1/10) at a point of C: A, at a particular threshold, is the
classifier to use in the first scenario and C in the second. Neither A nor C is close to
the best over the whole hull: each is far from it where the other one is optimal.

The four curves are made up to tell that story (``costchart.datasets.crossing_roc_curves``);
the slopes come from the paper's priors and costs.
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import crossing_roc_curves

# %%
# Four classifiers, A to D, as made-up ROC curves with the paper's story.
points = crossing_roc_curves()
curves = sorted(points["classifier"].unique())

# %%
# One hull over all the classifiers' points, each vertex labelled with its classifier
# (the corners (0, 0) and (1, 1) are the trivial classifiers).
hull = cc.roc_hull(points[["fpr", "tpr"]], by=[])
inner = points[(points["fpr"] > 0) & (points["fpr"] < 1)]
owners = inner[["classifier", "fpr", "tpr"]].drop_duplicates(["fpr", "tpr"])
hull = hull.merge(owners, on=["fpr", "tpr"], how="left").fillna({"classifier": "trivial"})

# %%
# The paper's two scenarios: ten negatives per positive; equal error costs (alpha), or a
# false negative 100 times as costly as a false positive (beta). Their slopes, and the
# hull vertex each iso-performance line touches.
scenarios = pd.DataFrame(
    {"line": ["alpha", "beta"], "p_pos": 1 / 11, "cost_fn": [1.0, 100.0], "cost_fp": 1.0}
)
scenarios["pc"] = [
    cc.pc_from_costs(s.p_pos, cost_fn=s.cost_fn, cost_fp=s.cost_fp) for s in scenarios.itertuples()
]
scenarios["slope"] = [cc.slope_from_pc(pc) for pc in scenarios["pc"]]
best = cc.iso_performance(hull[["fpr", "tpr"]], slope=scenarios["slope"].tolist(), by=[])
touched = pd.concat([scenarios, best[["fpr", "tpr"]].reset_index(drop=True)], axis=1).merge(
    hull[["fpr", "tpr", "classifier"]], on=["fpr", "tpr"]
)
print(touched[["line", "pc", "slope", "fpr", "tpr", "classifier"]].round(3).to_string())

# %%
# How far each of A and C alone falls short of the hull: the largest gap, in normalized
# expected cost, between its own lower envelope and the envelope of all four.
grid = np.linspace(0, 1, 401)
best_cost = cc.cost_at(cc.lower_envelope(points[["fpr", "tpr"]], by=[]), grid, by=[])["cost"]
shortfall = pd.Series(
    {
        name: float(
            (
                cc.cost_at(cc.lower_envelope(curve[["fpr", "tpr"]], by=[]), grid, by=[])["cost"]
                - best_cost
            ).max()
        )
        for name, curve in points.groupby("classifier")
        if name in {"A", "C"}
    },
    name="largest shortfall",
)
print(shortfall.round(3))

# %%
# The curves, the hull, the two iso-performance lines and the vertices they touch.
colours = cc.palette(curves)
iso_colour = "#444444"
greek = {"alpha": "\N{GREEK SMALL LETTER ALPHA}", "beta": "\N{GREEK SMALL LETTER BETA}"}
# each line's letter beside it, where it clears the hull and the curves: alpha right of
# its steep line, beta above its shallow one
labels = touched.assign(
    label_fpr=lambda t: np.where(t["slope"] > 1, 0.075, 0.2),
    text=[greek[line] for line in touched["line"]],
)
labels["label_tpr"] = labels["tpr"] + labels["slope"] * (labels["label_fpr"] - labels["fpr"])
labels["label_tpr"] += np.where(labels["slope"] > 1, -0.06, 0.025)
names = (
    alt.Chart(labels)
    .mark_text(align="left", fontSize=15, fontWeight="bold", color=iso_colour)
    .encode(x="label_fpr:Q", y="label_tpr:Q", text="text:N")
)
# what each line picks, written in the empty corner below the diagonal
notes = touched.assign(
    text=[
        f"{greek[t.line]}: slope {t.slope:g}, touches {t.classifier} at ({t.fpr:.2f}, {t.tpr:.2f})"
        for t in touched.itertuples()
    ],
    x=0.97,
    y=[0.12 - 0.06 * k for k in range(len(touched))],
)
picks = (
    alt.Chart(notes)
    .mark_text(align="right", fontSize=12, color=iso_colour)
    .encode(x="x:Q", y="y:Q", text="text:N")
)
rings = (
    alt.Chart(touched)
    .mark_point(size=220, strokeWidth=2, color=iso_colour)
    .encode(x="fpr:Q", y="tpr:Q")
)
chart = (
    layers.roc_curve(points, classifier="classifier", palette=colours, max_points=None)
    + layers.hull(hull.drop(columns="classifier"), mark={"strokeWidth": 2.5, "color": "#222222"})
    + layers.iso_lines(
        hull.drop(columns="classifier"),
        slope=scenarios["slope"].tolist(),
        mark={"color": iso_colour, "strokeWidth": 1.5},
    )
    + rings
    + names
    + picks
    + layers.chance()
    + layers.key(
        [
            ("ROC convex hull", "dashed line", "#222222"),
            ("iso-performance lines: alpha, slope 10; beta, slope 1/10", "dotted line", iso_colour),
            ("vertex the line touches", "ring", iso_colour),
            ("chance diagonal", "chance"),
        ]
    )
).properties(width=420, height=420, title="Line alpha touches the hull at A, line beta at C")
chart
