"""
Resampling a confusion matrix: the cost confidence band (dh2006, Fig. 16)
=========================================================================

How sure is a classifier's cost? Drummond and Holte resampled the test set's confusion
matrix row by row: the positives' row as a binomial draw with the observed true positive
rate, the negatives' row likewise. Each resampled matrix is one cost line; at every ``pc``
the spread of the lines gives a confidence interval, and joined over ``pc`` they make a
band around the classifier's cost line. costchart computes the same band exactly, without
resampling (the exact bootstrap); the resampled lines are drawn here to show where it comes
from.

The confusion matrix is made up: 20 positives (16 caught) and 10 negatives (4 false alarms).
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# The classifier's confusion counts, and 60 resampled matrices: each row a binomial draw.
counts = pd.DataFrame({"TP": [16], "FN": [4], "FP": [4], "TN": [6]})
rng = np.random.default_rng(16)
tp = rng.binomial(20, 16 / 20, size=60)
fp = rng.binomial(10, 4 / 10, size=60)
resampled = pd.DataFrame({"draw": range(60), "fpr": fp / 10, "tpr": tp / 20})
lines = cc.to_cost_lines(resampled, by="draw")

# %%
# The exact-bootstrap band of its cost line (no resampling), at 101 values of pc.
band = cc.confusion_band(counts, tp="TP", fn="FN", fp="FP", tn="TN", pc=np.linspace(0, 1, 101))
print(band.iloc[::25].round(3))
print(cc.band_label(band))

# %%
# The resampled cost lines (thin), the classifier's own line and its band.
own = cc.to_cost_lines(pd.DataFrame({"fpr": [0.4], "tpr": [0.8]}))
chart = (
    layers.band(band, y_max=1)
    + alt.Chart(lines)
    .mark_line(strokeWidth=0.7, opacity=0.35, color="#666666")
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("cost:Q", title="Normalized expected cost", scale=alt.Scale(domain=[0, 1])),
        detail="draw:N",
    )
    + layers.envelope(own, y_max=1)
    + layers.trivial(y_max=1)
    + layers.key(
        [
            ("cost line of the classifier", "bold line"),
            ("cost lines of 60 resampled confusion matrices", "thin line"),
            (cc.band_label(band), "band"),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(width=400, height=320, title="A confusion matrix's cost band")
chart
