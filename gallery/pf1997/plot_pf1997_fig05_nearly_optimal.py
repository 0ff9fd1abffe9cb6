"""
One classifier nearly optimal everywhere (pf1997, Fig. 5)
=========================================================

Sometimes one classifier's curve runs close to the hull of all of them across the whole
range. Provost and Fawcett noted that such a classifier can be used alone, whatever the
conditions turn out to be, at a small loss against the best choice at each condition. Cost
space measures that loss directly: it is the vertical gap between the classifier's lower
envelope and the envelope of all the classifiers together, at every operating condition.

Made-up curves: a fifth classifier E hugs the hull of A to D; the chart shows the hull in
ROC space and the gap in cost space.
"""

import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import crossing_roc_curves

# %%
# Four classifiers, A to D, as made-up ROC curves with the paper's story (its curves come
# from unnamed domains): A is best at few false positives, D at many, B in between, and C
# is never the best.
points = crossing_roc_curves()
curves = sorted(points["classifier"].unique())

# %%
# E: just under the hull of A to D everywhere.
hull = cc.roc_hull(points[["fpr", "tpr"]], by=[])
grid = [0.02, 0.06, 0.12, 0.2, 0.3, 0.45, 0.6, 0.8]
near = [0.28, 0.5, 0.6, 0.72, 0.8, 0.9, 0.95, 0.98]
e = pd.DataFrame({"classifier": "E", "fpr": [0.0, *grid, 1.0], "tpr": [0.0, *near, 1.0]})
e["threshold"] = range(len(e), 0, -1)
every = pd.concat([points, e], ignore_index=True)

# %%
# The envelopes of E alone and of all five; the largest gap between them.
best = cc.lower_envelope(every[["fpr", "tpr"]], by=[])
alone = cc.lower_envelope(e[["fpr", "tpr"]], by=[])
pc = [i / 100 for i in range(101)]
gap = cc.cost_at(alone, pc, by=[])["cost"] - cc.cost_at(best, pc, by=[])["cost"]
print(f"largest gap: {gap.max():.3f} at pc = {pc[int(gap.idxmax())]:.2f}")
print(f"mean gap over pc: {gap.mean():.4f}")

# %%
# ROC space: E and the hull of all. Cost space: E's envelope and the best envelope.
colours = cc.palette([*curves, "E"])
roc = (
    layers.roc_curve(every, color="classifier", palette=colours, max_points=None)
    + layers.hull(cc.roc_hull(every[["fpr", "tpr"]], by=[]), mark={"color": "#222222"})
    + layers.chance()
).properties(width=300, height=300, title="E runs close to the hull")
envelopes = pd.concat(
    [alone.assign(curve="E alone"), best.assign(curve="best of all five")], ignore_index=True
)
cost = (
    layers.trivial_region()
    + layers.envelope(
        envelopes,
        color="curve",
        palette=cc.palette(
            ["E alone", "best of all five"],
            colors={"E alone": colours["E"], "best of all five": "#222222"},
        ),
    )
    + layers.trivial()
    + layers.key(
        [
            ("ROC convex hull of all five", "dashed line"),
            ("lower envelope", "bold line"),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(width=300, height=300, title="Cost space: the gap is E's loss")
chart = (roc | cost).resolve_scale(color="independent")
chart
