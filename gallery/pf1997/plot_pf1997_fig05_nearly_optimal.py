"""
One classifier nearly optimal everywhere (pf1997, Fig. 5)
=========================================================

Sometimes one classifier's curve runs close to the hull across the whole range. Provost
and Fawcett noted that such a classifier can be used alone, whatever the conditions turn
out to be, at a small loss against the best choice at each condition, which is why it
pays to keep whole ROC curves of the classifiers on the hull. Cost space measures that
loss directly: it is the vertical gap between the classifier's own lower envelope and the
envelope of all the classifiers together, at every operating condition.

What the paper shows
--------------------

Two classifiers, A and C, whose hull has vertices of both: A is optimal for a part of
the range (few false positives) and C for the rest. Unlike in Fig. 3, where neither
classifier comes close to the hull everywhere, here C's curve hugs the hull along its
whole length, so C alone is nearly optimal over the entire range.

Made-up curves: A is Fig. 1's A; this C is made up for this figure (it is not Fig. 1's
C) to run just under A at few false positives and along the hull elsewhere. The cost
panel shows the shortfall of each classifier used alone.
"""

import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import crossing_roc_curves

# %%
# A from Fig. 1, and this figure's own C: just under A at few false positives, on the
# hull everywhere else.
a = crossing_roc_curves().query("classifier == 'A'")[["classifier", "threshold", "fpr", "tpr"]]
c_fpr = [0.0, 0.02, 0.06, 0.12, 0.2, 0.3, 0.45, 0.7, 1.0]
c_tpr = [0.0, 0.36, 0.56, 0.7, 0.8, 0.88, 0.95, 0.985, 1.0]
c = pd.DataFrame(
    {"classifier": "C", "threshold": np.arange(len(c_fpr), 0, -1.0), "fpr": c_fpr, "tpr": c_tpr}
)
points = pd.concat([a, c], ignore_index=True)

# %%
# The hull of the two, each vertex labelled with its classifier: both have vertices, so
# each is optimal over a part of the range.
hull = cc.roc_hull(points[["fpr", "tpr"]], by=[])
inner = points[(points["fpr"] > 0) & (points["fpr"] < 1)]
hull = hull.merge(inner[["classifier", "fpr", "tpr"]], on=["fpr", "tpr"], how="left").fillna(
    {"classifier": "trivial"}
)
print(hull[["classifier", "fpr", "tpr", "pc_lo", "pc_hi"]].round(3).to_string())

# %%
# Each classifier's own lower envelope against the envelope of both, and the largest gap
# (the most that using it alone can cost, in normalized expected cost).
grid = np.linspace(0, 1, 401)
together = cc.lower_envelope(points[["fpr", "tpr"]], by=[])
best_cost = cc.cost_at(together, grid, by=[])["cost"].to_numpy()
alone = {
    name: cc.lower_envelope(curve[["fpr", "tpr"]], by=[])
    for name, curve in points.groupby("classifier")
}
shortfall = pd.DataFrame(
    [
        {
            "classifier": name,
            "largest shortfall": float(
                (cc.cost_at(envelope, grid, by=[])["cost"].to_numpy() - best_cost).max()
            ),
        }
        for name, envelope in alone.items()
    ]
).set_index("classifier")["largest shortfall"]
print(shortfall.round(4))

# %%
# ROC space: A, C and their hull. Cost space: each one's envelope and the envelope of
# both; C's lies on it almost everywhere. One palette for both panels.
best_name = "A and C together"
classifier_colours = cc.palette(["A", "B", "C", "D"])  # the colours of Figs. 1-4
colours = {"A": classifier_colours["A"], "C": classifier_colours["C"], best_name: "#222222"}
roc = (
    layers.roc_curve(points, classifier="classifier", palette=colours, max_points=None)
    + layers.hull(hull.drop(columns="classifier"), mark={"color": colours[best_name]})
    + layers.chance()
).properties(width=300, height=300, title="C runs close to the hull of A and C")
envelopes = pd.concat(
    [envelope.assign(classifier=name) for name, envelope in alone.items()], ignore_index=True
)
cost = (
    layers.trivial_region()
    + layers.envelope(envelopes, classifier="classifier", palette=colours, mark={"strokeWidth": 3})
    + layers.envelope(
        together.assign(classifier=best_name),
        classifier="classifier",
        palette=colours,
        mark={"strokeWidth": 1.5, "strokeDash": [5, 3]},
    )
    + layers.trivial()
    + layers.key(
        [
            ("ROC convex hull of A and C", "dashed line", colours[best_name]),
            ("each one's lower envelope (cost space)", "bold line", colours["C"]),
            ("lower envelope of A and C together", "dashed line", colours[best_name]),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(
    width=300,
    height=300,
    title=f"C alone loses at most {shortfall['C']:.3f}; A alone up to {shortfall['A']:.2f}",
)
chart = roc | cost
chart
