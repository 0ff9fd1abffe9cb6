"""
Bands of two classifiers: the upper one's band, their union and intersection (dh2006, Fig. 17)
==============================================================================================

Is one classifier's lower cost line significantly lower than another's? Drummond and Holte
first put a 90 % band around the upper classifier's cost line and looked where it
contains the lower line; then they drew both classifiers' bands, their union and their
intersection. The intersection shows where the bands overlap, but overlapping bands do
not settle the question: the difference of two correlated classifiers has a band of its
own (Figs. 18-20).

What the paper shows
--------------------

Two classifiers as cost lines (thick dashed); the lower one dominates the upper one at
every ``pc``. (a) The 90 % band of the upper line contains the lower line for ``pc``
below 0.5, so there the difference is not significant by this test; above 0.5 the lower
line leaves the band. (b) The union of the two bands (light) and their intersection
(dark): the bands overlap at every ``pc``, which tempts one to call the classifiers
equal everywhere, a conclusion the paper warns is unsound.

The confusion matrices are made up to tell that story: 50 positives and 50 negatives;
the upper classifier has a false positive rate of 0.12 and a false negative rate of 0.2,
the lower one 0.1 and 0.1. The bands are costchart's exact-bootstrap bands.
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# Two crisp classifiers as confusion counts, and the 90 % band of each one's cost line.
counts = pd.DataFrame(
    {"classifier": ["upper", "lower"], "TP": [40, 45], "FN": [10, 5], "FP": [6, 5], "TN": [44, 45]}
)
pc = np.linspace(0, 1, 201)
band = cc.confusion_band(counts, tp="TP", fn="FN", fp="FP", tn="TN", by="classifier", pc=pc)
wide = band.pivot(index="pc", columns="classifier", values=["lower", "upper", "cost"])

# %%
# (a) Where the upper classifier's band contains the lower classifier's line.
upper_band = band[band["classifier"] == "upper"]
inside = wide["cost"]["lower"].to_numpy() >= wide["lower"]["upper"].to_numpy()
print(f"lower line inside the upper band for pc <= {pc[inside].max():.3f}")
print(f"outside from pc = {pc[~inside].min():.3f}")

# %%
# (b) The union and the intersection of the two bands, at the same pc values.
union = pd.DataFrame(
    {"pc": pc, "lower": wide["lower"].min(axis=1).to_numpy(), "upper": wide["upper"].max(axis=1)}
)
intersection = pd.DataFrame(
    {"pc": pc, "lower": wide["lower"].max(axis=1).to_numpy(), "upper": wide["upper"].min(axis=1)}
)
print(
    "the bands overlap at",
    int((intersection["lower"] <= intersection["upper"]).sum()),
    "of",
    len(pc),
    "pc values",
)

# %%
# Both panels: the bands as areas, the two cost lines thick and dashed.
LIGHT, DARK = "#c6dbef", "#6b9ac4"
colours = {"upper": "#D55E00", "lower": "#222222"}
y_max = 0.4
x = alt.X("pc:Q", title="Probability cost, PC(+)")
y = alt.Y("lower:Q", title="Normalized expected cost", scale=alt.Scale(domain=[0, y_max]))


def area(table, colour):
    """A band drawn as one opaque area between ``lower`` and ``upper``."""
    return alt.Chart(table).mark_area(color=colour).encode(x=x, y=y, y2="upper:Q")


lines = layers.envelope(
    band[["classifier", "pc", "cost"]],
    by="classifier",
    y_max=y_max,
    mark={"strokeDash": [8, 4], "strokeWidth": 3},
).encode(
    color=alt.Color(
        "classifier:N",
        scale=alt.Scale(domain=list(colours), range=list(colours.values())),
        legend=None,
    )
)
panel_a = (area(upper_band, LIGHT) + lines + layers.trivial(y_max=y_max)).properties(
    width=300, height=300, title="(a) 90 % band of the upper cost line"
)
panel_b = (
    area(union, LIGHT)
    + area(intersection, DARK)
    + lines
    + layers.trivial(y_max=y_max)
    + layers.key(
        [
            ("upper classifier (FP 0.12, FN 0.2)", "dashed line", colours["upper"]),
            ("lower classifier (FP 0.1, FN 0.1)", "dashed line", colours["lower"]),
            ("(a) band of the upper line; (b) union of both bands", "band", LIGHT),
            ("(b) intersection of the two bands", "band", DARK),
            ("trivial classifiers", "trivial"),
        ]
    )
).properties(width=300, height=300, title="(b) Union and intersection of both bands")
chart = (panel_a | panel_b).properties(
    title=alt.Title(
        "Two classifiers' 90 % bands",
        subtitle="The lower line leaves the upper band only above pc = 0.5; the bands overlap "
        "everywhere",
    )
)
chart
