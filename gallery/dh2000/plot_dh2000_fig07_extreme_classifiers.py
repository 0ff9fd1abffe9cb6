"""
The four extreme classifiers as cost lines (dh2000, Fig. 7)
===========================================================

The corners of ROC space are four extreme classifiers: always negative (0, 0), always
positive (1, 1), the perfect classifier (0, 1) and the one that is always wrong (1, 0). In
cost space they are the four edges of the picture that bound every other classifier: the
perfect one is the line ``cost = 0``, the always-wrong one ``cost = 1``, and the two trivial
ones are the diagonals ``cost = pc`` and ``cost = 1 - pc``, which cross at 0.5. Every real
classifier's cost line runs between ``cost = 0`` and ``cost = 1``; the triangle under the
diagonals is where it beats doing nothing.

What the paper shows
--------------------

The always-wrong classifier is the top edge (normalized expected cost 1 everywhere) and the
perfect one the bottom edge (cost 0). Always negative costs nothing at ``pc = 0`` and 1 at
``pc = 1``; always positive the reverse. Their minimum, the majority classifier that picks
one or the other by ``pc``, bounds the useful region: a classifier whose line lies above
``min(pc, 1 - pc)`` at some ``pc`` should not be used there, since a trivial classifier is
cheaper (the shaded area here is that excluded region; the paper shades its complement).
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# The four corners of ROC space, as ROC points and cost lines.
corners = pd.DataFrame(
    {
        "classifier": ["always negative", "always positive", "perfect", "always wrong"],
        "fpr": [0.0, 1.0, 0.0, 1.0],
        "tpr": [0.0, 1.0, 1.0, 0.0],
    }
)
lines = cc.to_cost_lines(corners, by="classifier")
print(lines[["classifier", "pc", "cost"]])

# %%
# The four lines, each labelled; the triangle under the diagonals is where a classifier
# beats both trivial ones.
colours = cc.palette(corners["classifier"].tolist())
labels = pd.DataFrame(
    {
        "classifier": ["always negative", "always positive", "perfect", "always wrong"],
        "pc": [0.8, 0.2, 0.5, 0.5],
        "cost": [0.8, 0.8, 0.0, 1.0],
        "dy": [14, 14, -8, 14],
    }
)
chart = (
    layers.trivial_region(y_max=1)
    + alt.Chart(lines)
    .mark_line(strokeWidth=3)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("cost:Q", title="Normalized expected cost", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color(
            "classifier:N",
            scale=alt.Scale(domain=list(colours), range=list(colours.values())),
            title="Extreme classifier (ROC corner)",
        ),
    )
    + alt.Chart(labels)
    .mark_text(fontWeight="bold", dy=-10)
    .encode(x="pc:Q", y="cost:Q", text="classifier:N")
    + layers.key([("worse than a trivial classifier", "region")])
).properties(width=380, height=320, title="The four corners of ROC space in cost space")
chart
