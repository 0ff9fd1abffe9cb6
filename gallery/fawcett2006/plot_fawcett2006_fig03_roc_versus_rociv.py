"""
Standard ROC curves against ROCIV curves (fawcett2006, Fig. 3)
==============================================================

Two classifiers, A and B, order the good and the bad cases identically, so their ROC
curves are one and the same. But they put the valuable good cases in different places of
their ranking, and an ROCIV curve, which counts each case by its amount, tells them
apart: each is better over part of the graph, and the areas under the ROCIV curves
differ where the areas under the ROC curves tie.

What the paper shows
--------------------
Fawcett's Fig. 3 takes two classifiers whose ROC curves coincide (a). Once each
instance's own cost or benefit is counted (b), their ROCIV curves separate: A is ahead
over one range of the graph and B over another, so neither dominates, and the single
ROC curve describes neither of them well. Choosing a classifier by the ROC curve would
not tell A and B apart, although their costs differ.

Made-up scores stand in (no randomness): 200 good and 200 bad cases whose scores sit at
the quantiles of two unit-variance normal distributions 1.2 apart, the same scores for A
and B. Every bad case costs 1. A good case at standardized position z among the good
cases is worth exp(0.25 z^2) under A (A puts the valuable cases at both ends of its
ranking: the surest and the ones it misses) and exp(-0.25 z^2) under B (B ranks them in
its middle). A is then ahead at few false positives, B over the rest.
"""

import altair as alt
import numpy as np
import pandas as pd
from scipy.stats import norm

import costchart as cc

# %%
# The same scores and labels for A and B; only the good cases' amounts differ.
n, separation, curvature = 200, 1.2, 0.5
z = norm.ppf((np.arange(n) + 0.5) / n)  # positions within each class
cases = pd.concat(
    [
        pd.DataFrame(
            {
                "classifier": name,
                "score": np.r_[separation + z, z],
                "label": np.r_[np.ones(n, int), np.zeros(n, int)],
                "amount": np.r_[np.exp(sign * curvature * z**2 / 2), np.ones(n)],
            }
        )
        for name, sign in (("A", 1), ("B", -1))
    ],
    ignore_index=True,
)

# %%
# ROC and ROCIV points, and the areas under both.
plain = cc.roc_points(cases, score="score", label="label", by="classifier")
weighted = cc.rociv(cases, score="score", label="label", amount="amount", by="classifier")
areas = cc.auc(plain).merge(
    cc.auciv(cases, score="score", label="label", amount="amount", by="classifier"),
    on="classifier",
    suffixes=("", "iv"),
)
print(areas.round(3))

# %%
# (a) The one ROC curve A and B share; (b) their ROCIV curves, AUCIV in the legend.
shared = "A and B (identical)"
colours = cc.palette(["A", "B", shared])
roc = cc.roc_chart(
    plain[plain["classifier"] == "A"].assign(classifier=shared),
    classifier="classifier",
    show_auc=True,
    palette={shared: colours[shared]},
    size=300,
    title="(a) ROC curves of A and B",
)
rociv = cc.roc_chart(
    weighted,
    classifier="classifier",
    show_auc=True,
    palette={k: colours[k] for k in ("A", "B")},
    size=300,
    title="(b) ROCIV curves of A and B",
)
chart = (
    alt.hconcat(roc, rociv)
    .resolve_scale(color="independent")
    .properties(title="Standard ROC curves against ROCIV curves (made-up data)")
)
chart
