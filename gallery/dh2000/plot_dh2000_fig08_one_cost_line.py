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

What the paper shows
--------------------

The paper's example classifier has FP = 0.09 and TP = 0.36. Its cost line starts at the
false positive rate on the left axis (0.09) and ends at the false negative rate on the right
axis (1 - 0.36 = 0.64); in between, its height is ``(1 - TP) * pc + FP * (1 - pc)``, the
classifier's normalized expected cost at every operating point. Here three costs are read off
the line itself: 0.2825 at ``pc = 0.35``, 0.365 at 0.5 and 0.53 at 0.8. At 0.8 the line lies
above the always-positive classifier (cost 0.2): the reading is the classifier's own cost,
and it shows the classifier should not be used there. It beats both trivial classifiers only
for ``0.2 < pc < 0.587``.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# The classifier as confusion counts (100 positives, 100 negatives), its ROC points and its
# cost line. ``from_confusion`` adds the two trivial classifiers as the extreme thresholds.
counts = pd.DataFrame({"classifier": ["B"], "TP": [36], "FN": [64], "FP": [9], "TN": [91]})
points = cc.from_confusion(counts, tp="TP", fn="FN", fp="FP", tn="TN", by="classifier")
classifier = points[points["threshold"] == 1.0]
line = cc.to_cost_lines(classifier)

# %%
# Costs read off the classifier's own line (not the envelope) at three operating conditions,
# and its operating range: where the line lies below both trivial classifiers.
readings = {f"pc = {pc}": pc for pc in (0.35, 0.5, 0.8)}
read_off = cc.cost_at(classifier, list(readings.values()))
operating = cc.operating_range(classifier)
print(read_off[["pc", "cost"]])
print(operating)

# %%
# The chart: the classifier's cost line, the trivial classifiers and the three readings,
# each a dot on the line labelled with the cost read off it.
LINE = "#0072B2"
labels = read_off.assign(text=[f"{c:.4g}" for c in read_off["cost"]])
dots = alt.Chart(labels).encode(x="pc:Q", y="cost:Q")
chart = (
    layers.trivial(y_max=1)
    + layers.envelope(line[["classifier", "pc", "cost"]], y_max=1, mark={"color": LINE})
    + layers.operating_ranges(operating, y_max=1)
    + layers.pc_markers(readings)
    + layers.pc_labels(readings, y_max=1)
    + dots.mark_point(filled=True, size=70, color=LINE)
    + dots.mark_text(align="right", dx=-7, dy=-9, fontWeight="bold", color=LINE).encode(
        text="text:N"
    )
    + layers.key(
        [
            ("cost line of B (FPR 0.09, TPR 0.36)", "bold line", LINE),
            ("cost read off B's line", "dot", LINE),
            ("trivial classifiers", "trivial"),
            ("operating range", "rule"),
        ]
    )
).properties(width=380, height=300, title="One classifier as a cost line")
chart
