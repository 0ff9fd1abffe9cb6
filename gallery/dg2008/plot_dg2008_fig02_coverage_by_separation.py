"""
Coverage of the bands as the classes separate (dg2008, Fig. 2)
==============================================================

Dugas and Gadoury judged their bands by *coverage*: over many simulated test sets, how often
the 90 % band at a ``pc`` contains the true cost of the classifier used there. The scores
are binormal -- negatives ``N(-mu, 3)``, positives ``N(mu, 3)`` -- with 1,000 instances per
class, stratified resampling, and at each ``pc`` the threshold that is optimal under the
true distributions. Each ``mu`` is run with the paper's band, a normal fit to the exact
bootstrap moments (``interval="normal"``, which costchart's default ``"auto"`` takes
here), and with the exact bootstrap quantiles (``"discrete"``).

The documentation build runs 200 simulated test sets per panel, so a coverage near 0.9 has a
binomial standard error of ``sqrt(0.9 * 0.1 / 200) = 0.021``; ``COSTCHART_GALLERY_FULL=1``
runs the paper's 1,000 (0.009).

What the paper shows
--------------------

Coverage is close to the 90 % target over the middle of the ``pc`` range for every
separation, and breaks near ``pc = 0`` and ``1``, where the optimal threshold lies beyond
the observed scores. The further apart the classes, the better: the stretch of ``pc`` on
target widens with ``mu``. With ``mu = 0.75`` coverage falls to 0 below ``pc`` of about 0.1
and above 0.9 (the threshold is beyond every score and the band has no width); with ``mu =
1.5`` the breaks are confined to within about 0.1 of the ends; with ``mu = 3`` and ``5``
coverage is near target almost everywhere (the two are alike here: ``mu = 3`` falls a little
short within 0.04 of the ends, and at ``mu = 5`` any break lies closer to the ends than this
grid's steps of 0.02 reach). Each panel's title gives the range of ``pc`` around 0.5 whose
coverage (normal fit) is within three standard errors (0.064) of 0.9 with bands of some
width in most test sets (the ``good_range`` table).
"""

import os

import numpy as np
import pandas as pd

from costchart import band_coverage, coverage_chart, coverage_grid

FULL = os.environ.get("COSTCHART_GALLERY_FULL") == "1"
SIMULATIONS = 1000 if FULL else 200
# On target: within three binomial standard errors of 0.9.
TOLERANCE = 3 * np.sqrt(0.9 * 0.1 / SIMULATIONS)

# %%
# One coverage table per separation and interval; each run bands all its simulated
# test sets at once (``bootstrap_band(by="simulation")``), the same test sets every time.
coverage = coverage_grid(
    band_coverage,
    settings={"mu": [0.75, 1.5, 3.0, 5.0], "interval": ["normal", "discrete"]},
    n_per_class=1000,
    simulations=SIMULATIONS,
    pc=np.linspace(0.0, 1.0, 51),
    rng=2008,
)


# %%
# The range of ``pc`` around 0.5 on target, per separation (the paper's normal fit); a band
# that is a single point in most test sets is no interval, whatever it covers.
def on_target_range(table):
    good = (((table["coverage"] - 0.9).abs() <= TOLERANCE) & (table["degenerate"] < 0.5)).to_numpy()
    middle = int(np.argmin(np.abs(table["pc"].to_numpy() - 0.5)))
    lo = hi = middle
    while lo > 0 and good[lo - 1]:
        lo -= 1
    while hi < len(good) - 1 and good[hi + 1]:
        hi += 1
    return pd.Series({"lo": table["pc"].iat[lo], "hi": table["pc"].iat[hi]})


normal = coverage[coverage["interval"] == "normal"]
good_range = (
    normal.groupby("mu")[["pc", "coverage", "degenerate"]].apply(on_target_range).reset_index()
)
good_range["width"] = good_range["hi"] - good_range["lo"]
print(good_range)

# %%
# Coverage against ``pc``, one panel per separation (titled with its on-target range).
good_range["separation"] = (
    "mu = "
    + good_range["mu"].map("{:g}".format)
    + ": on target "
    + good_range["lo"].map("{:g}".format)
    + " to "
    + good_range["hi"].map("{:g}".format)
)
chart = coverage_chart(
    coverage.merge(good_range[["mu", "separation"]], on="mu"),
    color="interval",
    facet="separation",
    title="Coverage of 90 % bands, 1,000 instances per class (stratified sampling)",
    subtitle=f"{SIMULATIONS} simulated test sets; dashed grey: the 90 % target",
)
chart
