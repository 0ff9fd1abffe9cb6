"""
The operating range, estimated in ROC space and exact in cost space (dh2006, Fig. 9)
====================================================================================

Where is a classifier worth using at all? Its operating range is the set of operating
conditions where it beats both trivial classifiers. In ROC space the range is fixed by the
slopes of the hull's two end edges, the ones that leave (0, 0) and reach (1, 1), and slopes
are hard to judge by eye, so a reader can only estimate it. In cost space it is the ``pc``
interval where the cost curve lies below both diagonals of the trivial classifiers: it can
be read off exactly.

What the paper shows
--------------------

Drummond and Holte's rough reading in ROC space takes the smallest false positive rate and
the largest true positive rate among the non-trivial classifiers on the hull (the dotted
lines of panel a) as the ends of the range: 0.05 < PC(+) < 0.94. The exact range, where the
cost curve lies below both trivial classifiers (panel b), is narrower: 0.14 < PC(+) < 0.85.
The rough estimate overstates the range at both ends.

The ROC points are made up so that the hull reproduces the paper's numbers: its first
non-trivial vertex is (0.05, 0.31) and its last (0.66, 0.94), with three vertices between
and three points below the hull. The rough range is read off :func:`costchart.roc_hull`,
the exact one is :func:`costchart.operating_range` of the lower envelope.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers

# %%
# Eight made-up classifiers: five on the hull, three below it.
points = pd.DataFrame(
    {
        "threshold": [8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0],
        "fpr": [0.05, 0.08, 0.12, 0.2, 0.25, 0.42, 0.5, 0.66],
        "tpr": [0.31, 0.35, 0.55, 0.62, 0.75, 0.87, 0.86, 0.94],
    }
)
hull = cc.roc_hull(points)
inner = hull[(hull["fpr"] > 0) & (hull["fpr"] < 1)]

# %%
# The rough estimate: the smallest FP and the largest TP on the hull, read as pc values.
rough = pd.DataFrame({"pc_lo": [inner["fpr"].min()], "pc_hi": [inner["tpr"].max()]})
# The exact range: where the lower envelope is below both trivial classifiers.
envelope = cc.lower_envelope(points)
exact = cc.operating_range(points, of="envelope")
print(f"rough, read in ROC space: {rough['pc_lo'].item():.2f} < pc < {rough['pc_hi'].item():.2f}")
print(f"exact, from cost space:   {exact['pc_lo'].item():.2f} < pc < {exact['pc_hi'].item():.2f}")

# %%
# ROC space: the hull, the dotted lines of the rough reading and, in orange, the hull's end
# edges whose slopes give the exact range. Cost space: the envelope, both ranges.
ROUGH, EDGE, RANGE = "#009E73", "#D55E00", "#0072B2"
first, last = hull.iloc[[0, 1]], hull.iloc[[-2, -1]]
edges = pd.concat([first.assign(edge="first"), last.assign(edge="last")])
guides = pd.DataFrame(
    {
        "fpr": [rough["pc_lo"].item(), rough["pc_lo"].item(), 0.0, 1.0],
        "tpr": [0.0, 1.0, rough["pc_hi"].item(), rough["pc_hi"].item()],
        "guide": ["min FP", "min FP", "max TP", "max TP"],
    }
)
roc = (
    layers.chance()
    + layers.hull(hull, mark={"color": "#222222"})
    + alt.Chart(edges)
    .mark_line(color=EDGE, strokeWidth=3)
    .encode(x="fpr:Q", y="tpr:Q", detail="edge:N")
    + alt.Chart(guides)
    .mark_line(color=ROUGH, strokeDash=[2, 3], strokeWidth=1.5)
    .encode(
        x=alt.X("fpr:Q", title="False positive rate", scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("tpr:Q", title="True positive rate", scale=alt.Scale(domain=[0, 1])),
        detail="guide:N",
    )
    + layers.roc_markers(points, mark={"size": 50, "filled": True, "color": "#222222"})
).properties(
    width=300,
    height=300,
    title=alt.Title(
        "(a) ROC space: a rough estimate",
        subtitle=f"{rough['pc_lo'].item():.2f} < PC(+) < {rough['pc_hi'].item():.2f}",
    ),
)
rough_marks = {"": rough["pc_lo"].item(), " ": rough["pc_hi"].item()}
cost = (
    layers.trivial_region(y_max=0.5)
    + layers.cost_lines(cc.to_cost_lines(points))
    + layers.envelope(envelope)
    + layers.trivial()
    + layers.pc_markers(rough_marks, mark={"color": ROUGH, "strokeWidth": 1.5})
    + layers.operating_ranges(exact, mark={"color": RANGE, "strokeWidth": 2})
    + layers.key(
        [
            ("ROC points / their cost lines", "thin line"),
            ("ROC convex hull / lower envelope", "bold line"),
            ("hull edges to the trivial classifiers", "bold line", EDGE),
            ("rough range: min FP and max TP on the hull", "dotted line", ROUGH),
            ("exact operating range", "rule", RANGE),
            ("trivial classifiers", "trivial"),
            ("worse than a trivial classifier", "region"),
        ]
    )
).properties(
    width=300,
    height=300,
    title=alt.Title(
        "(b) Cost space: the exact range",
        subtitle=f"{exact['pc_lo'].item():.2f} < PC(+) < {exact['pc_hi'].item():.2f}",
    ),
)
chart = roc | cost
chart
