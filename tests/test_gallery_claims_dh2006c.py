"""DH2006 Figs. 18-20 tell the paper's story: the paired difference's significance by correlation.

The claims are checked on the script's own tables (``band``, ``regions``, ``matrix``,
``data``) and on the data the chart draws. The script's test sets hold the expected count
of each cell of the 3-D confusion matrix, not a random draw, so there is no seed to vary:
the pattern is a property of the chosen error rates, correlations and sizes (the script's
docstring says how far a random draw would move it). The tolerances below allow for the
whole-number counts and for reading 0.7 off the paper's plot, not for sampling noise.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from gallery_scripts import run_figure

# Gallery tests: each runs a gallery script (the quick loop leaves them out).
pytestmark = pytest.mark.slow

HIGH = "high correlation, 0.9 (Fig. 19a)"
LOW = "low correlation, 0.1 (Fig. 19b)"
MEDIUM = "medium correlation, 0.6 (Fig. 20)"


@pytest.fixture(scope="module")
def fig18():
    return run_figure("dh2006", "fig18")


def setting(table: pd.DataFrame, name: str) -> pd.DataFrame:
    return table[table["correlation"] == name]


def test_the_difference_table_names_the_three_correlations(fig18):
    band = fig18["band"]
    assert set(band["correlation"]) == {HIGH, LOW, MEDIUM}
    # One band per setting on the same pc grid, covering all of [0, 1].
    for name in (HIGH, LOW, MEDIUM):
        pc = setting(band, name)["pc"].to_numpy()
        assert pc.min() == 0 and pc.max() == 1 and len(pc) > 100


def test_fig19a_high_correlation_is_significant_everywhere(fig18):
    band, regions = setting(fig18["band"], HIGH), setting(fig18["regions"], HIGH)
    # "Everywhere": at least 99 % of the grid (a grid point at an end may fall to rounding).
    assert band["significant"].mean() >= 0.99
    assert (band["difference"] < 0).all()  # A is the cheaper one throughout
    assert len(regions) == 1
    region = regions.iloc[0]
    assert region["pc_lo"] <= 0.01 and region["pc_hi"] >= 0.99 and region["cheaper"] == "A"


def test_fig19b_low_correlation_is_significant_nowhere(fig18):
    band = setting(fig18["band"], LOW)
    assert not band["significant"].any()
    assert setting(fig18["regions"], LOW).empty
    # The band contains zero at every pc, though A is cheaper on these instances.
    assert ((band["lower"] < 0) & (band["upper"] > 0)).all()
    assert (band["difference"] < 0).all()


def test_fig19_high_and_low_are_the_same_two_classifiers(fig18):
    # Less correlated, not different: each classifier's errors per class are the same in
    # both settings; only how often they err on the same instances changes.
    matrix = fig18["matrix"]
    errors = {}
    for name in (HIGH, LOW):
        part = setting(matrix, name)
        wrong_a = part["cell"].isin(["only B right", "both wrong"])
        wrong_b = part["cell"].isin(["only A right", "both wrong"])
        errors[name] = (
            part[wrong_a].groupby("truth")["count"].sum().to_dict(),
            part[wrong_b].groupby("truth")["count"].sum().to_dict(),
        )
        discordant = part[part["cell"].isin(["only A right", "only B right"])]["count"].sum()
        errors[name + " discordant"] = discordant
    assert errors[HIGH] == errors[LOW]
    assert errors[HIGH + " discordant"] * 4 < errors[LOW + " discordant"]
    high_se = setting(fig18["band"], HIGH)["se"].mean()
    assert high_se * 2 < setting(fig18["band"], LOW)["se"].mean()


def test_fig20_medium_correlation_is_significant_only_above_pc_07(fig18):
    band, regions = setting(fig18["band"], MEDIUM), setting(fig18["regions"], MEDIUM)
    # One region, from about 0.7 (the paper reads it off a plot; whole-number counts move
    # the edge by about 0.01: tolerance 0.05) up to pc = 1, where A is cheaper.
    assert len(regions) == 1
    region = regions.iloc[0]
    assert 0.65 <= region["pc_lo"] <= 0.75
    assert region["pc_hi"] >= 0.99 and region["cheaper"] == "A"
    assert not band.loc[band["pc"] < 0.65, "significant"].any()
    assert band.loc[band["pc"] > 0.75, "significant"].all()


def test_the_drawn_3d_matrix_counts_every_instance_once(fig18):
    data, matrix = fig18["data"], fig18["matrix"]
    instances = data.groupby("correlation")["instance"].nunique()
    assert matrix.groupby("correlation")["count"].sum().to_dict() == instances.to_dict()
    for name, options in fig18["SETTINGS"].items():
        assert instances[name] == options["n_pos"] + options["n_neg"]
    # The matrix the chart draws: the data set of the bottom view holds these counts.
    spec = fig18["chart"].to_dict()
    drawn = [
        pd.DataFrame(rows)
        for rows in spec["datasets"].values()
        if rows and "cell" in rows[0] and "count" in rows[0]
    ]
    assert len(drawn) == 1
    assert drawn[0].groupby("correlation")["count"].sum().to_dict() == instances.to_dict()
    # Summing out one classifier gives the other's ordinary confusion matrix.
    for name in (HIGH, LOW, MEDIUM):
        part = setting(data, name)
        for classifier in ("A", "B"):
            rows = part[part["classifier"] == classifier]
            predicted = setting(matrix, name).groupby(["truth", classifier])["count"].sum()
            false_negatives = int(((rows["label"] == 1) & (rows["prediction"] == 0)).sum())
            assert predicted[("positive instances", "negative")] == false_negatives
            false_positives = int(((rows["label"] == 0) & (rows["prediction"] == 1)).sum())
            assert predicted[("negative instances", "positive")] == false_positives


def test_the_shading_is_where_the_band_excludes_zero(fig18):
    band = fig18["band"]
    significant = band[band["significant"]]
    assert (significant["upper"] < 0).all()  # only A is ever significantly cheaper
    outside = band[~band["significant"]]
    assert np.all((outside["lower"] <= 0) & (outside["upper"] >= 0))
