"""
Coverage with full sampling as the classes separate (dg2008, Fig. 5)
====================================================================

Fig. 5 of the exact-bootstrap paper repeats Fig. 2 with *full* sampling: each bootstrap
resample draws from all instances, so its class proportions vary too and the band also
carries the uncertainty of the class balance. The scores are binormal (negatives
``N(-mu, 3)``, positives ``N(mu, 3)``, 1,000 instances per class), the threshold at each
``pc`` is the one optimal under the true distributions, and coverage is the share of
simulated test sets whose 90 % band holds the true cost. The paper found full sampling
covering better than stratified sampling where the classes overlap most (``mu = 0.75``),
with the same breaks near ``pc = 0`` and ``1``.

costchart's default (``"auto"``) and the normal fit are shown; the exact quantiles of the
full-sampling distribution are slow to compute at this size for a build, and Fig. 2 shows
how close they are. The documentation build runs 100 simulated test sets per panel;
``COSTCHART_GALLERY_FULL=1`` runs the paper's 1,000.
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
    for distribution in ("auto", "normal"):
        table = band_coverage(
            mu=mu,
            n_per_class=1000,
            simulations=SIMULATIONS,
            pc=pc,
            distribution=distribution,
            sampling="full",
            rng=2008,  # the same test sets for both
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
            scale=alt.Scale(domain=["auto", "normal"], range=["#0072B2", "#E69F00"]),
        ),
        strokeDash=alt.StrokeDash(
            "distribution:N",
            title="Band quantiles",
            scale=alt.Scale(domain=["auto", "normal"], range=[[1, 0], [5, 3]]),
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
            "Coverage of 90 % bands with full sampling, 1,000 instances per class",
            subtitle=f"{SIMULATIONS} simulated test sets; dashed grey: the 90 % target",
        )
    )
)
chart
