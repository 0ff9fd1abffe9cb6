"""
Resampling a confusion matrix: the cost confidence band (dh2006, Fig. 16)
=========================================================================

How sure is a classifier's cost? Drummond and Holte resampled the test set's confusion
matrix row by row: the positives' row as a binomial draw with the observed true positive
rate, the negatives' row likewise, so every resampled matrix keeps the test set's class
counts. Each resampled matrix is one cost line; at every ``pc`` the spread of the lines
gives a confidence interval, and joined over ``pc`` they make a band around the
classifier's cost line. costchart computes the same band exactly, without resampling (the
exact bootstrap); 100 resampled lines, as many as the paper drew, show where it comes from.

What the paper shows
--------------------

The paper's confusion matrix: 20 positives of which 16 are caught, 10 negatives of which 6
are rejected (4 false alarms). Because there are only 10 negatives and 20 positives, the
resampled lines meet the left axis (their false positive rate) at multiples of 1/10 and
the right axis (their false negative rate) at multiples of 1/20. The 90 % band is wide at
both ends and narrowest near the test set's class distribution, ``pc`` = 20/30 (the
vertical rule): with unequal row proportions (0.8 and 0.6) the narrowest point moves from
2/3 towards the end of the error with the smaller variance, the false negatives' end;
the standard deviation ``sqrt(pc^2 var(FN) + (1 - pc)^2 var(FP))`` is smallest at
``pc`` = 0.75.
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# The classifier's confusion counts, and 100 resampled matrices: each row a binomial draw.
positives, negatives = 20, 10
counts = pd.DataFrame({"TP": [16], "FN": [4], "FP": [4], "TN": [6]})
rng = np.random.default_rng(16)
tp = rng.binomial(positives, 16 / positives, size=100)
fp = rng.binomial(negatives, 4 / negatives, size=100)
resampled = pd.DataFrame({"draw": range(100), "fpr": fp / negatives, "tpr": tp / positives})
lines = cc.to_cost_lines(resampled, by="draw")

# %%
# The exact-bootstrap band of its cost line (no resampling), at 101 values of pc, and where
# it is narrowest, against the test set's class distribution. Its normal fit
# (``interval="normal"``) is the paper's equation 8; with 4 errors of each class the default
# ``"auto"`` would take the score interval instead (``docs/bands.md``).
band = cc.confusion_band(
    counts, tp="TP", fn="FN", fp="FP", tn="TN", pc=np.linspace(0, 1, 101), interval="normal"
)
width = band.assign(width=band["upper"] - band["lower"])[["pc", "width"]]
class_distribution = positives / (positives + negatives)
var_fn, var_fp = 0.8 * 0.2 / positives, 0.6 * 0.4 / negatives
narrowest = var_fp / (var_fn + var_fp)  # the minimum of equation 8
print(width.iloc[::25].round(3))
print(
    f"narrowest at pc = {width.pc[width.width.idxmin()]:.2f} (equation 8: {narrowest:.2f}); "
    f"class distribution {class_distribution:.2f}"
)

# %%
# The resampled cost lines (thin), the classifier's own line, its band with its limits
# (dashed) and the test set's class distribution (vertical rule).
GREY, BAND = "#666666", "#0072B2"
own = cc.to_cost_lines(pd.DataFrame({"fpr": [0.4], "tpr": [0.8]}))
limits = band.melt(id_vars="pc", value_vars=["lower", "upper"], var_name="limit")
distribution_rule = (
    alt.Chart(pd.DataFrame({"pc": [class_distribution]}))
    .mark_rule(color=GREY, strokeWidth=1.5)
    .encode(x="pc:Q")
)
chart = (
    layers.band(band, y_max=1)
    + alt.Chart(lines)
    .mark_line(strokeWidth=0.7, opacity=0.35, color=GREY)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("cost:Q", title="Normalized expected cost", scale=alt.Scale(domain=[0, 1])),
        detail="draw:N",
    )
    + alt.Chart(limits)
    .mark_line(color=BAND, strokeDash=[6, 3], strokeWidth=2)
    .encode(x="pc:Q", y="value:Q", detail="limit:N")
    + distribution_rule
    + layers.envelope(own, y_max=1)
    + layers.trivial(y_max=1)
    + layers.key(
        [
            ("cost line of the classifier (FP 0.4, TP 0.8)", "bold line"),
            ("cost lines of 100 resampled confusion matrices", "thin line", GREY),
            (cc.band_label(band), "band", BAND),
            ("limits of the band", "dashed line", BAND),
            ("test set's class distribution, pc = 2/3", "line", GREY),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(
    width=420,
    height=320,
    title=alt.Title(
        "A confusion matrix's cost band",
        subtitle="Wide at both ends, narrowest at pc = 0.75, near the class distribution",
    ),
)
chart
