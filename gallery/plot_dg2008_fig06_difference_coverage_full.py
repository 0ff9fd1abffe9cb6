"""
Coverage of the difference band with full sampling (dg2008, Fig. 6)
====================================================================

Fig. 6 repeats Fig. 4 with *full* sampling: a bootstrap resample draws from all instances,
so the class proportions vary too. The paper found the stratified and full difference bands
equally good. As in Fig. 4, the experiment bands the *difference* of two classifiers' costs
on the same test set. Classifier a scores negatives ``N(-mu, 3)`` and positives ``N(mu,
3)``; classifier b scores the same instances, its positives shifted by 0, 2 or 4, and its
score correlated with a's within each class (0.3, 0.6 or 0.9). Each uses its own optimal
threshold at every ``pc``, and the 90 % band of a's cost minus b's is checked against the
true difference. The paper found coverage near target except near ``pc = 0`` and ``1``, a
wider good range for the larger ``mu``, and almost no effect of the correlation: the paired
band accounts for it.

Here ``cc.difference_band`` (``sampling="full"``, the default ``"auto"``: a normal fit to
the exact moments) is measured with ``difference_coverage``. The documentation build runs
30 simulated test sets of 1,000 instances per class at 21 values of ``pc``;
``COSTCHART_GALLERY_FULL=1`` runs the paper's 1,000 test sets at 51.
"""

import os

import altair as alt
import numpy as np
import pandas as pd

from costchart.datasets.binormal import difference_coverage

FULL = os.environ.get("COSTCHART_GALLERY_FULL") == "1"
SIMULATIONS = 1000 if FULL else 30
SAMPLING = "full"

# %%
# Coverage for every separation, shift and correlation.
pc = np.linspace(0.0, 1.0, 51 if FULL else 21)
tables = []
for mu in (1.0, 3.0):
    for shift in (0.0, 2.0, 4.0):
        for correlation in (0.3, 0.6, 0.9):
            table = difference_coverage(
                mu=mu,
                shift=shift,
                correlation=correlation,
                n_per_class=1000,
                simulations=SIMULATIONS,
                pc=pc,
                sampling=SAMPLING,
                rng=2008,
            )
            tables.append(
                table.assign(
                    panel=f"mu = {mu:g}, shift = {shift:g}",
                    correlation=f"{correlation:g}",
                )
            )
coverage = pd.concat(tables, ignore_index=True)
inner = coverage[(coverage["pc"] >= 0.2) & (coverage["pc"] <= 0.8)]
print(inner.groupby(["panel", "correlation"])["coverage"].mean().unstack().round(3))

# %%
# Coverage against ``pc``: one panel per separation and shift, one line per correlation.
lines = (
    alt.Chart()
    .mark_line(strokeWidth=1.5)
    .encode(
        x=alt.X("pc:Q", title="Probability cost, PC(+)"),
        y=alt.Y("coverage:Q", title="Coverage of the 90 % band", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color(
            "correlation:N",
            title="Correlation of a and b",
            scale=alt.Scale(range=["#E69F00", "#009E73", "#0072B2"]),
        ),
        strokeDash=alt.StrokeDash(
            "correlation:N",
            title="Correlation of a and b",
            scale=alt.Scale(range=[[2, 2], [6, 3], [1, 0]]),
        ),
    )
)
target = alt.Chart().mark_rule(color="#444444", strokeDash=[4, 4]).encode(y=alt.datum(0.9))
chart = (
    alt.layer(lines, target, data=coverage)
    .properties(width=220, height=150)
    .facet(facet=alt.Facet("panel:N", title=None), columns=2)
    .properties(
        title=alt.Title(
            f"Coverage of the 90 % difference band ({SAMPLING} sampling)",
            subtitle=f"{SIMULATIONS} simulated test sets of 1,000 instances per class",
        )
    )
)
chart
