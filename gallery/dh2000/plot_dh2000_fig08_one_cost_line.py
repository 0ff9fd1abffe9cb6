"""
Reading costs off one classifier's cost line (dh2000, Fig. 8)
=============================================================

A classifier with false positive rate 0.09 and true positive rate 0.36 is a single point in
ROC space and a single straight line in cost space: from ``(0, FPR)`` at ``pc = 0`` (only
negatives matter) to ``(1, FNR) = (1, 0.64)`` at ``pc = 1`` (only positives matter). The
normalized expected cost at any operating condition is read straight off the line, with no
geometry: Drummond and Holte's point was that cost space turns the iso-performance
construction of ROC space into a vertical reading. The line crosses the trivial classifiers
(always negative, cost ``pc``; always positive, cost ``1 - pc``) at the ends of the range of
``pc`` where the classifier is worth using at all.
"""

import pandas as pd

import costchart as cc
from costchart import layers

# %%
# The classifier as confusion counts (100 positives, 100 negatives), its ROC points and its
# cost line. ``from_confusion`` adds the two trivial classifiers as the extreme thresholds.
counts = pd.DataFrame({"classifier": ["B"], "TP": [36], "FN": [64], "FP": [9], "TN": [91]})
points = cc.from_confusion(counts, tp="TP", fn="FN", fp="FP", tn="TN", by="classifier")
lines = cc.to_cost_lines(points)
line = lines[lines["threshold"] == 1.0]

# %%
# Costs read off the line at three operating conditions, and the operating range: where the
# line lies below both trivial classifiers.
readings = {f"pc = {pc}": pc for pc in (0.35, 0.5, 0.8)}
print(cc.cost_at(line, list(readings.values())))
print(cc.operating_range(points))

# %%
# The chart: the classifier's cost line, the trivial classifiers and the three readings.
chart = (
    layers.trivial(y_max=1)
    + layers.envelope(line[["classifier", "pc", "cost"]], y_max=1)
    + layers.operating_ranges(cc.operating_range(points), y_max=1)
    + layers.pc_markers(readings)
    + layers.pc_labels(readings, y_max=1)
    + layers.key(
        [
            ("cost line of B (FPR 0.09, TPR 0.36)", "bold line"),
            ("trivial classifiers", "trivial"),
            ("operating range", "rule"),
        ]
    )
).properties(width=380, height=300, title="One classifier as a cost line")
chart
