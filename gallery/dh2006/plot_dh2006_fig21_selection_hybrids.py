"""
Hybrids from performance-independent and cost-minimizing selection (dh2006, Fig. 21)
====================================================================================

Given several classifiers, each trained for some operating condition, which one should
be used at a given ``pc``? A performance-independent rule uses the one trained for the
nearest condition; a cost-minimizing rule uses the one whose cost line is lowest there,
that is, the lower envelope. Drummond and Holte drew the hybrid cost curves of both rules
for naive Bayes on the sonar data trained at several class ratios: the
performance-independent hybrid lies well above the envelope in places, a cost that
choosing by measured performance avoids.

Here scikit-learn's Gaussian naive Bayes is trained on the UCI sonar data (mines positive)
at seven class ratios with :func:`costchart.resample_classes` (oversampling), five-fold
cross-validated; each ratio's training condition is its ``pc``. (The paper's Fig. 21 is a
schematic with unnamed classifiers; real classifiers stand in for them here.)

What the paper shows
--------------------

(a) In cost space, the gray lines are the classifiers to choose from; the bold part of
each is where the performance-independent rule uses it, and together those parts make
that rule's hybrid cost curve (solid). The cost-minimizing rule's hybrid is the lower
envelope (dashed). The solid hybrid lies well above the envelope at most operating
points: here it is never below it, and more than 0.01 above it over about three
quarters of the ``pc`` range, touching it only where the classifier it picks is the
envelope's own. (b) In ROC space the same rule is drawn as two segments through each
classifier's point, whose slopes are those of the ends of the ``pc`` range where it is
used. The segments would make up the ROC convex hull (dashed) only if the rule chose
cost-minimizing classifiers. Here three of the seven classifiers are on the hull (two
are its vertices, the third lies exactly on the edge between them) and four lie below it,
by 0.002 to 0.032 in true positive rate: the chart marks the three and labels each of the
four with its gap, as at this zoom some are too close to the hull to tell by eye.
"""

from importlib.resources import files

import altair as alt
import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB

import costchart as cc
from costchart import layers

# %%
# Naive Bayes trained at each ratio; its test-fold counts, summed over the folds.
# The UCI data ships with the gallery (costchart.gallery), so this runs from anywhere.
with (files("costchart.gallery") / "data" / "sonar.csv").open(encoding="utf-8") as handle:
    sonar = pd.read_csv(handle)
features = [c for c in sonar.columns if c != "Class"]
y = (sonar["Class"] == "M").astype(int).to_numpy()
p_pos = y.mean()
ratios = [1 / 8, 1 / 4, 1 / 2, 1, 2, 4, 8]
rows = []
for fold, (train, test) in enumerate(
    StratifiedKFold(n_splits=5, shuffle=True, random_state=0).split(sonar[features], y)
):
    sets = cc.resample_classes(
        sonar.iloc[train].assign(label=y[train]), label="label", ratios=ratios, rng=fold
    )
    for ratio, part in sets.groupby("ratio", sort=False):
        predicted = (
            GaussianNB().fit(part[features], part["label"]).predict(sonar.iloc[test][features])
        )
        truth = y[test]
        rows.append(
            {
                # Weighting positives by r trains for the condition pc = r p / (r p + 1 - p).
                "trained": ratio * p_pos / (ratio * p_pos + 1 - p_pos),
                "TP": int(((predicted == 1) & (truth == 1)).sum()),
                "FN": int(((predicted == 0) & (truth == 1)).sum()),
                "FP": int(((predicted == 1) & (truth == 0)).sum()),
                "TN": int(((predicted == 0) & (truth == 0)).sum()),
            }
        )
counts = pd.DataFrame(rows).groupby("trained", as_index=False).sum()
points = cc.from_confusion(counts, tp="TP", fn="FN", fp="FP", tn="TN", by="trained")
classifiers = points[points["threshold"] == 1][["trained", "fpr", "tpr"]]
print(classifiers.round(3))

# %%
# The performance-independent hybrid, the envelope of the same classifiers, and the
# expected extra cost of choosing by training condition.
result = cc.performance_independent(classifiers, trained_pc="trained", by=[])
print(result.extra_cost.round(4))

# %%
# The ROC view of the same rule: through each classifier's point, two segments whose slopes
# are those of the ends of its ``pc`` range (slope (1 - pc) / pc: direction (pc, 1 - pc)).
ranges = result.curve.groupby("segment").agg(
    fpr=("fpr", "first"), tpr=("tpr", "first"), pc_lo=("pc", "min"), pc_hi=("pc", "max")
)
half = 0.015  # half the length of each drawn segment
segments = pd.concat(
    [
        ranges.assign(
            end=end,
            slope=(1 - ranges[end]) / ranges[end],
            dx=ranges[end] / np.hypot(ranges[end], 1 - ranges[end]) * half,
            dy=(1 - ranges[end]) / np.hypot(ranges[end], 1 - ranges[end]) * half,
        )
        for end in ("pc_lo", "pc_hi")
    ]
).reset_index()
segments = pd.concat(
    [
        segments.assign(fpr=segments.fpr - segments.dx, tpr=segments.tpr - segments.dy, at=0),
        segments.assign(fpr=segments.fpr + segments.dx, tpr=segments.tpr + segments.dy, at=1),
    ]
)[["segment", "end", "slope", "fpr", "tpr", "at"]]
hull = cc.roc_hull(classifiers[["fpr", "tpr"]])
on_hull = classifiers.merge(hull[["fpr", "tpr"]], on=["fpr", "tpr"])
print(f"{len(on_hull)} of {len(classifiers)} classifiers are on the ROC convex hull")
# How far below the hull each classifier is (its TPR against the hull's at its FPR): the
# chart marks the two hull vertices and labels each of the others with its gap, since at
# this zoom some are too close to the hull to tell apart by eye.
classifiers = classifiers.assign(
    below=np.interp(classifiers["fpr"], hull["fpr"], hull["tpr"]) - classifiers["tpr"]
)
classifiers["on_hull"] = classifiers["below"] <= 1e-12
classifiers["gap"] = [
    "" if on else f"{gap:.3f} below"
    for on, gap in zip(classifiers.on_hull, classifiers.below, strict=True)
]
print(classifiers.round(3))

# %%
# Both hybrids in cost space (left); in ROC space, each classifier's selection segments and
# the ROC convex hull (right).
HYBRID, GREY = "#D55E00", "#8c8c8c"
FPR_ZOOM, TPR_ZOOM = [0.1, 0.35], [0.45, 0.7]  # the classifiers lie close together: zoom in
cost = (
    layers.trivial_region()
    + layers.cost_lines(cc.to_cost_lines(classifiers[["fpr", "tpr"]]), mark={"color": GREY})
    + layers.hybrid(result.curve, mark={"color": HYBRID, "strokeDash": [1, 0], "strokeWidth": 3})
    + layers.envelope(result.envelope, mark={"strokeDash": [6, 3], "strokeWidth": 2})
    + layers.trivial()
).properties(width=320, height=320, title="(a) Hybrid cost curves")
# Each gap label goes below right of its point, or above right where the point just to its
# left is at the same height (its label would run into this one).
off = classifiers[~classifiers["on_hull"]].sort_values("fpr")
off["above"] = (off["fpr"].diff() < 0.03) & (off["tpr"].diff().abs() < 0.01)
x_zoom = alt.X("fpr:Q", title="False positive rate", scale=alt.Scale(domain=FPR_ZOOM))
y_zoom = alt.Y("tpr:Q", title="True positive rate", scale=alt.Scale(domain=TPR_ZOOM))
roc = (
    alt.Chart(hull[["fpr", "tpr"]].reset_index())
    .mark_line(color="#222222", strokeDash=[6, 3], strokeWidth=2, clip=True)
    .encode(x=x_zoom, y=y_zoom, order="index:Q")
    + alt.Chart(segments)
    .mark_line(color=HYBRID, strokeWidth=2, clip=True)
    .encode(
        x=x_zoom,
        y=y_zoom,
        detail=alt.Detail(["segment:N", "end:N"]),
        order="at:Q",
    )
    + alt.Chart(classifiers[~classifiers["on_hull"]])
    .mark_point(filled=False, size=60, color=GREY, strokeWidth=1.5)
    .encode(x="fpr:Q", y="tpr:Q")
    + alt.Chart(off[~off["above"]])
    .mark_text(align="left", dx=7, dy=9, fontSize=10, color="#555555")
    .encode(x="fpr:Q", y="tpr:Q", text="gap:N")
    + alt.Chart(off[off["above"]])
    .mark_text(align="left", dx=7, dy=-9, fontSize=10, color="#555555")
    .encode(x="fpr:Q", y="tpr:Q", text="gap:N")
    + alt.Chart(classifiers[classifiers["on_hull"]])
    .mark_point(filled=True, size=90, color="#222222")
    .encode(x="fpr:Q", y="tpr:Q")
    + layers.key(
        [
            ("one naive Bayes classifier: cost line", "thin line", GREY),
            (f"on the ROC convex hull ({int(classifiers.on_hull.sum())} of 7)", "dot", "#222222"),
            ("below the hull (TPR gap labelled)", "ring", GREY),
            ("performance-independent hybrid / its selection segments", "bold line", HYBRID),
            ("cost-minimizing hybrid: lower envelope / ROC convex hull", "dashed line"),
            ("trivial classifiers", "trivial"),
            ("worse than a trivial classifier", "region"),
        ]
    )
).properties(width=320, height=320, title="(b) The same selections in ROC space (zoomed)")
chart = (cost | roc).properties(
    title="Naive Bayes on sonar trained at seven class ratios: two selection rules"
)
chart
