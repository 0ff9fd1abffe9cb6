"""
Sensitivity analysis with iso-performance lines (pf1997, Fig. 6)
================================================================

When the operating conditions are only known to lie in a range, the hull tells which
classifiers can be optimal: each hull vertex is best for the iso-performance slopes
between those of its two adjacent hull edges. Provost and Fawcett used this for
sensitivity analysis: with the slope known to lie between two values, only the vertices
touched by iso-performance lines in that range matter, and if there is just one, the
choice does not depend on the exact conditions.

What the paper shows
--------------------

The hull of A to D with the crisp classifier E of Fig. 4, under three scenarios given
as ranges of iso-performance slopes. (a) Ten negatives per positive, a false alarm
costing 5 to 10 dollars and a missed positive 500 to 1000: slopes 1/20 to 1/5. The lines at
both ends touch the hull at the same point of C, so the choice is insensitive to where
in the range the conditions lie. (b) Slopes 1/5 to 2: the range spans several vertices,
and A, C and E are each optimal for part of it, so the choice is very sensitive to the
conditions. (c) When is doing nothing, the point (0, 0), best? Only when the best line
through the hull passes through the origin (line alpha), that is for slopes at least as
steep as the hull's first edge: a small range of conditions, set by that slope.

The bottom panel gives the slope range over which each hull vertex is optimal (its
``slope_lo`` to ``slope_hi`` from ``cc.roc_hull``) with the three scenarios' ranges
shaded. The curves and E are the made-up ones of Figs. 1-4.
"""

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import crossing_roc_curves

# %%
# The four curves of Fig. 1 and the crisp classifier E of Fig. 4 (76 of 100 positives
# and 16 of 100 negatives classified positive), which extends their hull.
curves = crossing_roc_curves()
e = cc.from_confusion(
    pd.DataFrame({"classifier": ["E"], "TP": [76], "FN": [24], "FP": [16], "TN": [84]}),
    tp="TP",
    fn="FN",
    fp="FP",
    tn="TN",
    by="classifier",
)
e = e[e["threshold"] == 1][["classifier", "threshold", "fpr", "tpr"]]
points = pd.concat([curves, e], ignore_index=True)

# %%
# One hull over all the points, each vertex named by its classifier, with the slope
# range over which it is optimal.
hull = cc.roc_hull(points[["fpr", "tpr"]], by=[])
inner = points[(points["fpr"] > 0) & (points["fpr"] < 1)]
owners = inner[["classifier", "fpr", "tpr"]].drop_duplicates(["fpr", "tpr"])
hull = hull.merge(owners, on=["fpr", "tpr"], how="left").fillna({"classifier": "trivial"})
print(hull[["classifier", "fpr", "tpr", "slope_lo", "slope_hi"]].round(3).to_string())

# %%
# The three scenarios as ranges of slopes. (a) from the paper's priors and costs:
# ``slope = p(-) C(+|-) / (p(+) C(-|+))`` with ten negatives per positive, a false
# positive costing 5 to 10 dollars and a false negative 500 to 1000; (b) as the paper
# gives it; (c) every slope at least as steep as the hull's first edge, where the line
# through (0, 0) is the best one.
first_edge = float(hull.loc[hull["fpr"] == 0, "slope_lo"].iloc[0])
scenarios = {
    "(a) low sensitivity": (10 * 5 / 1000, 10 * 10 / 500),
    "(b) high sensitivity": (1 / 5, 2.0),
    "(c) doing nothing is best": (first_edge, np.inf),
}
optimal = pd.concat(
    [
        cc.iso_performance(points[["fpr", "tpr"]], slope_range=bounds, by=[]).assign(
            scenario=name, slope_from=bounds[0], slope_to=bounds[1]
        )
        for name, bounds in scenarios.items()
    ],
    ignore_index=True,
).merge(hull[["fpr", "tpr", "classifier"]], on=["fpr", "tpr"], how="left")
print(optimal[["scenario", "slope_from", "slope_to", "classifier", "fpr", "tpr"]].round(3))

# %%
# One palette for every view: the hull's classifiers in their Figs. 1-4 colours, the
# trivial corners in grey.
named = sorted(set(hull["classifier"]) - {"trivial"})
every_colour = cc.palette(["A", "B", "C", "D", "E"])
colours = {**{name: every_colour[name] for name in named}, "trivial": "#777777"}
scale = alt.Scale(domain=list(colours), range=list(colours.values()))
hull_colour, iso_colour, shade_colour = "#222222", "#444444", "#bbbbbb"


def vertex_name(row) -> str:
    """A hull vertex as its classifier and point, e.g. ``A (0.02, 0.40)``."""
    names = {(0.0, 0.0): "doing nothing", (1.0, 1.0): "always positive"}
    owner = names.get((row.fpr, row.tpr), row.classifier)
    return f"{owner} ({row.fpr:.2f}, {row.tpr:.2f})"


hull["vertex"] = [vertex_name(row) for row in hull.itertuples()]


def panel(name: str, slopes: list[float]) -> alt.LayerChart:
    """One scenario in ROC space: the hull, its lines at the range's ends, its optimal vertices."""
    chosen = optimal[optimal["scenario"] == name].merge(hull[["fpr", "tpr", "vertex"]])
    dots = (
        alt.Chart(hull)
        .mark_point(filled=True, size=45, opacity=1)
        .encode(
            x=alt.X("fpr:Q", title="False positive rate"),
            y=alt.Y("tpr:Q", title="True positive rate"),
            color=alt.Color("classifier:N", scale=scale, title="hull vertex of"),
        )
    )
    rings = (
        alt.Chart(chosen)
        .mark_point(size=230, strokeWidth=2, color=iso_colour)
        .encode(x="fpr:Q", y="tpr:Q")
    )
    names = (
        alt.Chart(hull[hull["classifier"] != "trivial"])
        .mark_text(align="left", dx=8, dy=10, fontSize=11)
        .encode(x="fpr:Q", y="tpr:Q", text="classifier:N")
    )
    # in (c) the line along the hull's first edge is the paper's line alpha
    text = f"\N{GREEK SMALL LETTER ALPHA}: slope {slopes[0]:g}"
    alpha = pd.DataFrame({"fpr": [0.96 / slopes[0]], "tpr": [0.96], "text": [text]})
    alpha_name = (
        alt.Chart(alpha[: int(name.startswith("(c)"))])
        .mark_text(align="left", dx=6, fontSize=12, fontWeight="bold", color=iso_colour)
        .encode(x="fpr:Q", y="tpr:Q", text="text:N")
    )
    return (
        layers.hull(hull[["fpr", "tpr", "slope_lo", "slope_hi", "pc_lo", "pc_hi"]])
        + layers.iso_lines(
            hull[["fpr", "tpr", "slope_lo", "slope_hi", "pc_lo", "pc_hi"]],
            slope=slopes,
            mark={"color": iso_colour, "strokeWidth": 1.5},
        )
        + dots
        + rings
        + names
        + alpha_name
        + layers.chance()
    ).properties(width=230, height=230, title=name)


def slope_text(value: float) -> str:
    return "∞" if np.isinf(value) else f"{value:.3g}"


panels = [
    panel(name, [lo, hi] if np.isfinite(hi) else [lo, 5 * lo])
    for name, (lo, hi) in scenarios.items()
]

# %%
# The slope range of each hull vertex on a log axis (cut to 1/100 .. 100), with the
# scenarios' ranges shaded behind.
low, high = 0.01, 100.0
ranges = hull.assign(
    bar_lo=hull["slope_lo"].clip(low, high),
    bar_hi=hull["slope_hi"].clip(low, high),
    text=[
        f"{slope_text(lo)} ≤ m ≤ {slope_text(hi)}"
        for lo, hi in zip(hull["slope_lo"], hull["slope_hi"], strict=True)
    ],
)
order = ranges.sort_values("fpr")["vertex"].tolist()
shaded = pd.DataFrame(
    [
        {"scenario": name[:3], "lo": max(lo, low), "hi": min(hi, high)}
        for name, (lo, hi) in scenarios.items()
    ]
)
slope_axis = alt.X(
    "bar_lo:Q",
    scale=alt.Scale(type="log", domain=[low, high]),
    title="iso-performance slope m (log scale)",
)
bars = (
    alt.Chart(ranges)
    .mark_bar(height=12)
    .encode(
        x=slope_axis,
        x2="bar_hi:Q",
        y=alt.Y("vertex:N", sort=order, title=None),
        color=alt.Color("classifier:N", scale=scale, title="hull vertex of"),
    )
)
bar_text = (
    alt.Chart(ranges)
    .mark_text(align="left", dx=4, fontSize=10)
    .encode(x="bar_hi:Q", y=alt.Y("vertex:N", sort=order), text="text:N")
)
shade = (
    alt.Chart(shaded)
    .mark_rect(color=shade_colour, opacity=0.35, stroke="white", strokeWidth=3)
    .encode(x=alt.X("lo:Q").scale(type="log", domain=[low, high]), x2="hi:Q")
)
shade_names = (
    alt.Chart(shaded.assign(middle=np.sqrt(shaded["lo"] * shaded["hi"])))
    .mark_text(baseline="bottom", dy=-2, fontSize=11, fontWeight="bold")
    .encode(x="middle:Q", y=alt.value(0), text="scenario:N")
)
strip = (shade + bars + bar_text + shade_names).properties(
    width=760, height=170, title="Slope range over which each hull vertex is optimal"
)
key = layers.key(
    [
        ("ROC convex hull", "dashed line", hull_colour),
        ("iso-performance lines at the range's ends", "dotted line", iso_colour),
        ("vertices optimal in the range", "ring", iso_colour),
        ("slope range of a scenario", "region", shade_colour),
    ]
)
chart = alt.vconcat(alt.hconcat(*panels), strip + key).properties(
    title="Sensitivity analysis: which hull vertices a range of slopes can pick"
)
chart
