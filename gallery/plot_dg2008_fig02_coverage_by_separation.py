"""
Coverage of the bands as the classes separate (dg2008, Fig. 2)
==============================================================

Dugas and Gadoury judged their bands by *coverage*: over many simulated test sets, how
often the 90 % band at a ``pc`` contains the true cost of the classifier used there. The
scores are binormal -- negatives ``N(-mu, 3)``, positives ``N(mu, 3)`` -- with 1,000
instances per class, stratified resampling, and at each ``pc`` the threshold that is optimal
under the true distributions. They found coverage on target over most of the range, better
the further apart the classes are, and breaking down near ``pc = 0`` and ``1``, where the
optimal threshold lies beyond the observed scores and the band has no width.

Here each ``mu`` is run with costchart's three choices of distribution: the normal fit to
the exact moments, the exact bootstrap quantiles, and ``"auto"`` (the default). The
measurements behind ``"auto"``'s rule are in the bands guide. The documentation build runs
100 simulated test sets per panel; ``COSTCHART_GALLERY_FULL=1`` runs the paper's 1,000.
"""

import os

import altair as alt
import numpy as np
import pandas as pd

from costchart.datasets.binormal import band_coverage

FULL = os.environ.get("COSTCHART_GALLERY_FULL") == "1"
SIMULATIONS = 1000 if FULL else 100

# %%
# One coverage table per separation and distribution, all simulated test sets banded at
# once (``band_coverage`` stacks them and calls ``bootstrap_band(by="simulation")``).
pc = np.linspace(0.0, 1.0, 51)
tables = []
for mu in (0.75, 1.5, 3.0, 5.0):
    for distribution in ("auto", "normal", "exact"):
        table = band_coverage(
            mu=mu,
            n_per_class=1000,
            simulations=SIMULATIONS,
            pc=pc,
            distribution=distribution,
            rng=2008,  # the same test sets for every distribution
        )
        tables.append(table.assign(mu=f"mu = {mu}", distribution=distribution))
coverage = pd.concat(tables, ignore_index=True)
inner = coverage[(coverage["pc"] > 0.1) & (coverage["pc"] < 0.9)]
print(
    inner.assign(error=(inner["coverage"] - 0.9).abs())
    .pivot_table(index="mu", columns="distribution", values="error")
    .round(3)
)

# %%
# Coverage against ``pc``, one panel per separation, with the 90 % target.
lines = (
    alt.Chart()
    .mark_line(strokeWidth=1.6)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("coverage:Q", title="Coverage of the 90 % band", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color(
            "distribution:N",
            title="Band quantiles",
            scale=alt.Scale(
                domain=["auto", "normal", "exact"], range=["#0072B2", "#E69F00", "#009E73"]
            ),
        ),
        strokeDash=alt.StrokeDash(
            "distribution:N",
            title="Band quantiles",
            scale=alt.Scale(domain=["auto", "normal", "exact"], range=[[1, 0], [5, 3], [2, 2]]),
        ),
    )
)
target = alt.Chart().mark_rule(color="#444444", strokeDash=[4, 4]).encode(y=alt.datum(0.9))
chart = (
    alt.layer(lines, target, data=coverage)
    .properties(width=260, height=180)
    .facet(facet=alt.Facet("mu:N", title=None), columns=2)
    .properties(
        title=alt.Title(
            "Coverage of 90 % bands, 1,000 instances per class",
            subtitle=f"{SIMULATIONS} simulated test sets; dashed grey: the 90 % target",
        )
    )
)
chart
