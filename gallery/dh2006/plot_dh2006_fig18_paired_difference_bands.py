"""
The band of a paired difference at three correlations (dh2006, Fig. 18-20)
==========================================================================

When two classifiers are tested on the same instances, their errors are correlated, and
the right confidence band is on the *difference* of their costs, resampling the instances
jointly. Drummond and Holte counted each class's instances in a 3-D confusion matrix --
both right, only a right, only b right, both wrong -- and resampled that. The band's width
depends on the correlation: highly correlated classifiers disagree on few instances, so
their difference is known precisely even when each cost alone is uncertain. They showed
the band at high, low and medium correlation; only where it excludes zero is one
classifier significantly cheaper.

Simulated paired scores: 300 instances per class, classifier b's positives shifted by 0.5
above a's, within-class correlation 0.9, 0.3 and 0.6.
"""

import numpy as np
import pandas as pd

import costchart as cc
from costchart.datasets.binormal import binormal_scores

# %%
# Paired scores of a and b at three correlations.
tables = []
for k, correlation in enumerate((0.9, 0.3, 0.6)):
    scores = binormal_scores(
        n_pos=300, n_neg=300, mu=1.0, sigma=1.0, shift=0.5, correlation=correlation, rng=k
    )
    tables.append(scores.assign(correlation=f"correlation {correlation}"))
data = pd.concat(tables, ignore_index=True).drop(columns="simulation")

# %%
# The 3-D confusion matrix at the threshold 0 for both: each class's instances by which
# classifier gets them right.
at_zero = data.assign(right=(data["score"] >= 0) == (data["label"] == 1))
wide = at_zero.pivot_table(
    index=["correlation", "instance", "label"], columns="classifier", values="right"
).reset_index()
wide[["a", "b"]] = wide[["a", "b"]].astype(bool)
wide["outcome"] = np.select(
    [wide["a"] & wide["b"], wide["a"] & ~wide["b"], ~wide["a"] & wide["b"]],
    ["both right", "only a right", "only b right"],
    "both wrong",
)
print(
    wide.pivot_table(
        index=["correlation", "label"],
        columns="outcome",
        values="instance",
        aggfunc="count",
        fill_value=0,
    )
)

# %%
# The 90 % band of a's cost minus b's, each classifier at its own envelope's thresholds.
band = cc.difference_band(
    data,
    score="score",
    label="label",
    classifier="classifier",
    instance="instance",
    a="a",
    b="b",
    by="correlation",
)
print(band.groupby("correlation")[["se"]].mean().round(4))
chart = cc.difference_chart(
    band,
    facet="correlation",
    columns=3,
    size=240,
    title="The band of a paired difference narrows as the correlation grows",
)
chart
