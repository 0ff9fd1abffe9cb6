"""
Coverage of the bands as the test set grows (dg2008, Fig. 3)
============================================================

The second experiment of the exact-bootstrap paper holds the separation at ``mu = 3``
(negatives' scores ``N(-3, 3)``, positives' ``N(3, 3)``) and varies the test set: 25, 250,
2,500 and 10,000 instances per class, stratified resampling, 90 % bands at the thresholds
that are optimal under the true distributions. The paper found that the range of ``pc``
with coverage on target widens as the test set grows: at 25 instances per class only a
narrow middle stretch is on target, because at other ``pc`` the optimal threshold soon lies
beyond every observed score and the band collapses to no width.

costchart's default band (``distribution="auto"``) is shown, with the share of simulated
test sets whose band had no width at each ``pc`` (``degenerate``), which is where the
coverage breaks. The documentation build runs 100 simulated test sets per size;
``COSTCHART_GALLERY_FULL=1`` runs the paper's 1,000.
"""

import os

import altair as alt
import numpy as np

from costchart import band_coverage, coverage_grid

FULL = os.environ.get("COSTCHART_GALLERY_FULL") == "1"
SIMULATIONS = 1000 if FULL else 100

# %%
# One coverage table per test-set size, every simulated test set banded at once.
pc = np.linspace(0.0, 1.0, 51)
coverage = coverage_grid(
    band_coverage,
    settings={"n_per_class": [25, 250, 2500, 10000]},
    mu=3.0,
    simulations=SIMULATIONS,
    pc=pc,
    rng=2008,
)
coverage["size"] = coverage["n_per_class"].map("{:,} per class".format)
coverage["order"] = coverage["n_per_class"]
on_target = coverage.assign(on=(coverage["coverage"] - 0.9).abs() <= 0.05)
print(on_target.groupby("order")["on"].mean().rename("share of pc within 0.05 of 90 %"))

# %%
# Coverage and the share of degenerate bands against ``pc``, one panel per size.
long = coverage.melt(
    id_vars=["pc", "size", "order"],
    value_vars=["coverage", "degenerate"],
    var_name="measure",
    value_name="share",
)
long["measure"] = long["measure"].map(
    {"coverage": "coverage of the 90 % band", "degenerate": "bands of no width"}
)
lines = (
    alt.Chart()
    .mark_line(strokeWidth=1.6)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("share:Q", title="Share of simulated test sets", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color(
            "measure:N",
            title=None,
            scale=alt.Scale(range=["#0072B2", "#D55E00"]),
            legend=alt.Legend(orient="bottom"),
        ),
    )
)
target = alt.Chart().mark_rule(color="#444444", strokeDash=[4, 4]).encode(y=alt.datum(0.9))
chart = (
    alt.layer(lines, target, data=long)
    .properties(width=260, height=180)
    .facet(
        facet=alt.Facet("size:N", title=None, sort=alt.SortField("order")),
        columns=2,
    )
    .properties(
        title=alt.Title(
            "Coverage of 90 % bands by test-set size (mu = 3)",
            subtitle=f"{SIMULATIONS} simulated test sets; dashed grey: the 90 % target",
        )
    )
)
chart
