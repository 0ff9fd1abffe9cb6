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

import numpy as np

from costchart import band_coverage, coverage_chart, coverage_grid

FULL = os.environ.get("COSTCHART_GALLERY_FULL") == "1"
SIMULATIONS = 1000 if FULL else 100

# %%
# Coverage with full sampling, per separation, for the default and the normal fit.
coverage = coverage_grid(
    band_coverage,
    settings={"mu": [0.75, 1.5, 3.0, 5.0], "distribution": ["auto", "normal"]},
    n_per_class=1000,
    simulations=SIMULATIONS,
    pc=np.linspace(0.0, 1.0, 51),
    sampling="full",
    rng=2008,
)
inner = coverage[(coverage["pc"] > 0.1) & (coverage["pc"] < 0.9)]
error = (inner["coverage"] - 0.9).abs()
print(error.groupby([inner["mu"], inner["distribution"]]).mean().unstack().round(3))

# %%
# Coverage against ``pc``, one panel per separation.
chart = coverage_chart(
    coverage,
    color="distribution",
    facet="mu",
    title="Coverage of 90 % bands with full sampling, 1,000 instances per class",
    subtitle=f"{SIMULATIONS} simulated test sets; dashed grey: the 90 % target",
)
chart
