"""
Bands of two classifiers: union and intersection (dh2006, Fig. 17)
==================================================================

With a confidence band on each of two classifiers' cost curves, Drummond and Holte looked
at where the bands overlap. Where they do not overlap, one classifier is clearly cheaper;
where they do, the bands alone cannot separate them (overlap does not prove equality, and
a paired test on the difference, Fig. 18-20, is sharper). They drew the upper cost curve's
band, and the union and intersection of the two bands, to show the region of doubt.

The bundled logistic regression and tree on the ionosphere data, with 90 % exact-bootstrap
bands on each lower envelope.
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import load_predictions

# %%
# A band on each classifier's envelope cost, at the same pc values.
data = load_predictions().query("dataset == 'ionosphere' and classifier in ['logistic', 'tree']")
pc = np.linspace(0, 1, 201)
band = cc.bootstrap_band(data, score="score", label="label", by="classifier", pc=pc)
wide = band.pivot(index="pc", columns="classifier", values=["lower", "upper", "cost"])
overlap = pd.DataFrame(
    {
        "pc": pc,
        "lower": wide["lower"].max(axis=1).to_numpy(),
        "upper": wide["upper"].min(axis=1).to_numpy(),
    }
)
union = pd.DataFrame(
    {
        "pc": pc,
        "lower": wide["lower"].min(axis=1).to_numpy(),
        "upper": wide["upper"].max(axis=1).to_numpy(),
    }
)
overlap = overlap[overlap["lower"] <= overlap["upper"]]
separate = pc[~np.isin(pc, overlap["pc"])]
print(f"the bands overlap at {len(overlap)} of {len(pc)} pc values")
print("apart at pc:", separate.round(3))

# %%
# The union of the bands (light), their intersection (dark) and each classifier's cost.
colours = cc.palette(["logistic", "tree"])
area = (
    alt.Chart()
    .mark_area()
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("lower:Q", title="Normalized expected cost", scale=alt.Scale(domain=[0, 0.3])),
        y2="upper:Q",
    )
)
chart = (
    layers.band(union, y_max=0.3)
    + area.properties(data=overlap).mark_area(color="#666666", opacity=0.6)
    + layers.envelope(
        band[["classifier", "pc", "cost"]], color="classifier", palette=colours, y_max=0.3
    )
    + layers.key(
        [
            ("union of the two 90 % bands", "band"),
            ("intersection: the region of doubt", "region"),
            ("cost of each classifier", "bold line"),
        ]
    )
).properties(width=420, height=300, title="Two classifiers' bands: union and intersection")
chart
