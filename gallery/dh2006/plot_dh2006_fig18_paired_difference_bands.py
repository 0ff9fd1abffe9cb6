"""
The band of a paired difference at three correlations (dh2006, Figs. 18-20)
===========================================================================

Two crisp classifiers, A and B, tested on the same instances: the 90 % bootstrap band on
the difference of their costs, cost(A) - cost(B), at high, low and medium correlation of
their errors, and, below each, the 3-D confusion matrix that the bootstrap resamples.
Where the band excludes zero (shaded), A is significantly cheaper; the more the two
classifiers err on the same instances, the narrower the band.

What the paper shows
--------------------

To compare two classifiers tested on the same instances, Drummond and Holte count the
instances in a 3-D confusion matrix (Fig. 18): one 2x2 layer per true class, A's label
along the columns and B's along the rows; summing out one classifier gives the other's
ordinary confusion matrix. Each layer is resampled as a four-valued multinomial with its
class total fixed, both cost lines are recomputed from each resample, and their
difference gives a band on the difference. Checking whether two separate bands overlap
assumes the worst (perfectly negative) correlation; the paired band uses the real one.
Fig. 19 (a): at high correlation the band of the difference stays away from zero, so the
difference is significant at every operating point, PC(+) from 0 to 1. Fig. 19 (b): the
same two classifiers with less correlated errors give a much wider band that contains
zero everywhere: significant nowhere. Fig. 20: at medium correlation the difference is
significant only for PC(+) above 0.7.

The data here
-------------

The paper's classifiers are not given, so made-up ones stand in. For Fig. 19 one pair,
300 positives and 300 negatives: A errs on 20 % of each class, B on 23 %; the correlation
of their errors (the phi coefficient within each class) is 0.9 (high) or 0.1 (low). For
Fig. 20, a separate example in the paper, another pair at correlation 0.6: A errs on 10 %
of the positives and 20 % of the negatives, B on 14 % and 18 % (B is a little better on
the negatives, A clearly better on the positives; the Fig. 19 pair errs alike in both
classes, so its band is symmetric about PC(+) = 0.5 and no correlation makes only the
upper end significant). Each test set holds the expected count of every cell of its 3-D
matrix (rounded), not a random draw, and the band is the exact bootstrap (a normal fit to
its exact moments): no simulation runs, and no random seed decides the pattern. A random
test set of the same size would move each difference line by about one standard error
(the band's half-width over 1.645), so a single test set shows the pattern only roughly.
In 200 random test sets per setting (run once, outside this script), the high panel was
significant over at least 90 % of PC(+) in 95 % of them, the low panel had some
significant stretch in about half of them, and in the medium panel A was significantly
cheaper somewhere in three quarters of them, from a PC(+) between 0.4 and 0.84 in 80 % of
those, while B was significantly cheaper somewhere in a quarter.
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# The three settings: sizes, each classifier's error rate in each class (A, B), and the
# correlation of their errors within each class.
SETTINGS = {
    "high correlation, 0.9 (Fig. 19a)": dict(
        n_pos=300, n_neg=300, fnr=(0.20, 0.23), fpr=(0.20, 0.23), correlation=0.9
    ),
    "low correlation, 0.1 (Fig. 19b)": dict(
        n_pos=300, n_neg=300, fnr=(0.20, 0.23), fpr=(0.20, 0.23), correlation=0.1
    ),
    "medium correlation, 0.6 (Fig. 20)": dict(
        n_pos=300, n_neg=300, fnr=(0.10, 0.14), fpr=(0.20, 0.18), correlation=0.6
    ),
}
ORDER = list(SETTINGS)
CELLS = ["both right", "only A right", "only B right", "both wrong"]


def layer_counts(size, error_a, error_b, correlation):
    """The expected counts of one class's 2x2 layer, rounded to whole instances."""
    spread = np.sqrt(error_a * (1 - error_a) * error_b * (1 - error_b))
    both_wrong = round(size * (error_a * error_b + correlation * spread))
    wrong_a, wrong_b = round(size * error_a), round(size * error_b)
    return {
        "both right": size - wrong_a - wrong_b + both_wrong,
        "only A right": wrong_b - both_wrong,
        "only B right": wrong_a - both_wrong,
        "both wrong": both_wrong,
    }


def paired_predictions(setting, *, n_pos, n_neg, fnr, fpr, correlation):
    """Long table: one row per classifier and instance, with its 0/1 prediction."""
    label, right_a, right_b = [], [], []
    for positive, size, (error_a, error_b) in ((1, n_pos, fnr), (0, n_neg, fpr)):
        for cell, count in layer_counts(size, error_a, error_b, correlation).items():
            label += [positive] * count
            right_a += [cell in ("both right", "only A right")] * count
            right_b += [cell in ("both right", "only B right")] * count
    label = np.array(label)
    rows = []
    for name, right in (("A", np.array(right_a)), ("B", np.array(right_b))):
        predicted = np.where(right, label, 1 - label)
        rows.append(
            pd.DataFrame(
                {
                    "correlation": setting,
                    "classifier": name,
                    "instance": np.arange(len(label)),
                    "label": label,
                    "prediction": predicted,
                }
            )
        )
    return pd.concat(rows, ignore_index=True)


data = pd.concat(
    [paired_predictions(setting, **options) for setting, options in SETTINGS.items()],
    ignore_index=True,
)

# %%
# The 3-D confusion matrix of each setting, counted from the instances: true class, A's
# label, B's label.
wide = data.pivot_table(
    index=["correlation", "instance", "label"], columns="classifier", values="prediction"
).reset_index()
said = {1: "positive", 0: "negative"}
matrix = (
    wide.assign(
        truth=wide["label"].map({1: "positive instances", 0: "negative instances"}),
        A=wide["A"].astype(int).map(said),
        B=wide["B"].astype(int).map(said),
        cell=np.select(
            [
                (wide["A"] == wide["label"]) & (wide["B"] == wide["label"]),
                wide["A"] == wide["label"],
                wide["B"] == wide["label"],
            ],
            CELLS[:3],
            CELLS[3],
        ),
    )
    .groupby(["correlation", "truth", "A", "B", "cell"], as_index=False)
    .size()
    .rename(columns={"size": "count"})
)
print(matrix.pivot_table(index=["correlation", "truth", "B"], columns="A", values="count"))

# %%
# The 90 % band of cost(A) - cost(B): each layer resampled with its class total fixed
# (the exact bootstrap), both classifiers crisp ("positive when prediction >= 1").
band = cc.difference_band(
    data,
    score="prediction",
    label="label",
    classifier="classifier",
    instance="instance",
    a="A",
    b="B",
    by="correlation",
    threshold=(1, 1),
)
regions = cc.significant_regions(band)
print(regions)

# %%
# Top: the difference and its band per setting, shaded where it excludes zero. Bottom:
# the 3-D confusion matrices (A's label along the columns, B's along the rows).
colours = cc.palette(["A", "B"])
panels = pd.DataFrame({"correlation": ORDER})
BAND_GREY = "#8c8c8c"
difference_axis = "Cost of A minus cost of B"
band_area = (
    alt.Chart(band)
    .mark_area(color=BAND_GREY, fillOpacity=0.35)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)", scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("lower:Q", title=difference_axis, scale=alt.Scale(domain=[-0.09, 0.06])),
        y2="upper:Q",
    )
)
bands_view = (
    layers.shared_layer(
        layers.significance(regions, palette={n: colours[n] for n in regions["cheaper"]}),
        band_area,
        layers.difference_curve(band, a="A", b="B").encode(
            y=alt.Y("difference:Q", title=difference_axis)
        ),
        layers.zero_rule(facet=panels),
        layers.key(
            [
                ("difference, cost(A) - cost(B) (below 0: A cheaper)", "bold line"),
                ("90 % bootstrap band of the difference", "spread", BAND_GREY),
                ("no difference", "rule"),
            ],
            facet=panels,
        ),
    )
    .properties(width=230, height=210)
    .facet(column=alt.Column("correlation:N", sort=ORDER, title=None))
)
cell_colours = {
    "both right": "#e4e4e4",
    "only A right": colours["A"],
    "only B right": colours["B"],
    "both wrong": "#b0b0b0",
}
sides = ["positive", "negative"]
matrix_view = (
    alt.layer(
        alt.Chart()
        .mark_rect(opacity=0.55, stroke="white")
        .encode(
            x=alt.X("A:N", sort=sides, title="A labels it", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("B:N", sort=sides, title="B labels it"),
            color=alt.Color(
                "cell:N",
                scale=alt.Scale(domain=list(cell_colours), range=list(cell_colours.values())),
                legend=alt.Legend(title="3-D matrix cell", orient="bottom"),
            ),
        ),
        alt.Chart()
        .mark_text(fontSize=13)
        .encode(x=alt.X("A:N", sort=sides), y=alt.Y("B:N", sort=sides), text="count:Q"),
        data=matrix,
    )
    .properties(width=230, height=70)
    .facet(
        column=alt.Column("correlation:N", sort=ORDER, title=None, header=alt.Header(labels=False)),
        row=alt.Row(
            "truth:N", sort=["positive instances", "negative instances"], title="3-D matrix"
        ),
    )
)
chart = (
    alt.vconcat(bands_view, matrix_view)
    .resolve_scale(color="independent")
    .properties(
        title=alt.Title(
            "A paired difference is significant where its band excludes zero",
            subtitle="Everywhere at high correlation, nowhere at low, only above PC(+) = 0.7 "
            "at medium",
        )
    )
)
chart
