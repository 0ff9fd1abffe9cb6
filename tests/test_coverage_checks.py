"""The coverage helpers check their input as every public function does (issue 31 item 6)."""

import numpy as np
import pandas as pd
import polars as pl
import pytest

import costchart as cc

FIXED = {"mu": 3, "n_per_class": 30, "simulations": 8, "rng": 1}
DIFFERENCE = {"shift": 1, "correlation": 0.5}


@pytest.mark.parametrize("experiment", ["band", "difference"])
def test_one_pc_is_a_grid_of_one(experiment):
    run = cc.band_coverage if experiment == "band" else cc.difference_coverage
    extra = {} if experiment == "band" else DIFFERENCE
    one = run(pc=0.5, **FIXED, **extra)
    listed = run(pc=[0.5], **FIXED, **extra)
    pd.testing.assert_frame_equal(one, listed)


@pytest.mark.parametrize("experiment", ["band", "difference"])
def test_unsorted_and_repeated_pc_answer_in_the_given_order(experiment):
    run = cc.band_coverage if experiment == "band" else cc.difference_coverage
    extra = {} if experiment == "band" else DIFFERENCE
    sorted_ = run(pc=[0.2, 0.5, 0.8], **FIXED, **extra)
    given = run(pc=[0.8, 0.2, 0.5, 0.2], **FIXED, **extra)
    expected = sorted_.iloc[[2, 0, 1, 0]].reset_index(drop=True)
    pd.testing.assert_frame_equal(given, expected)
    # the simulations differ at the two ends: the unsorted call used to cover 0.0 at both
    assert given["coverage"].gt(0).all()


@pytest.mark.parametrize("sigma", [0, -1, float("nan"), float("inf")])
@pytest.mark.parametrize("experiment", ["band", "difference"])
def test_sigma_must_be_positive_and_finite(experiment, sigma):
    run = cc.band_coverage if experiment == "band" else cc.difference_coverage
    extra = {} if experiment == "band" else DIFFERENCE
    with pytest.raises(cc.CostchartError, match=r"^sigma=.* must be (greater than 0|a finite)"):
        run(pc=[0.5], sigma=sigma, **FIXED, **extra)


@pytest.mark.parametrize(
    ("pc", "message"),
    [
        (
            {"a": 0.5},
            r"pc=\{'a': 0.5\} must be a number or a list of numbers in \[0, 1\], not a dict",
        ),
        ([], r"pc=\[\] must be a number or a non-empty list"),
        ([[0.2, 0.5]], r"pc=\[\[0.2, 0.5\]\] must be a number or a non-empty list"),
    ],
)
def test_pc_must_be_a_grid(pc, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.band_coverage(pc=pc, **FIXED)


GRID = {"n_per_class": 30, "simulations": 4, "rng": 0}


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"pc": [0.3, 0.5]}, r"settings names 'pc', a column the experiment writes; pass pc="),
        ({"coverage": [1]}, r"settings names 'coverage', a column the experiment writes"),
        ({"bogus": [1]}, r"settings names 'bogus', which band_coverage does not take"),
        ({"sigma": 3}, r"settings\['sigma'\]=3 must be a list of the values to try"),
        ({"interval": "normal"}, r"settings\['interval'\]='normal' must be a list"),
        ({"sigma": []}, r"settings\['sigma'\] is empty; pass at least one value"),
        ({}, r"settings=\{\} must be a non-empty dict"),
    ],
)
def test_coverage_grid_settings(settings, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.coverage_grid(cc.band_coverage, settings=settings, mu=3, pc=[0.5], **GRID)


def test_coverage_grid_setting_also_fixed():
    with pytest.raises(cc.CostchartError, match=r"^mu= is both a setting and a fixed argument"):
        cc.coverage_grid(cc.band_coverage, settings={"mu": [3]}, mu=2, pc=[0.5], **GRID)


def test_coverage_grid_experiment_must_be_callable():
    with pytest.raises(cc.CostchartError, match=r"^experiment=3 must be band_coverage or"):
        cc.coverage_grid(3, settings={"mu": [3]})


@pytest.fixture(scope="module")
def table():
    return cc.coverage_grid(cc.band_coverage, settings={"mu": [1.5, 3.0]}, pc=[0.3, 0.5], **GRID)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"confidence_level": float("nan")}, r"^confidence_level=nan must be a finite number"),
        ({"confidence_level": 5}, r"^confidence_level=5.0 is outside \(0, 1\)"),
        ({"columns": 0}, r"^columns=0 is out of range"),
        ({"color": "missing"}, r"^the coverage table has no column 'missing'"),
        ({"color": 3}, r"^color=3 must be a column name \(a string\) of the coverage table"),
    ],
)
def test_coverage_chart_options(table, kwargs, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.coverage_chart(table, **{"color": "mu", "facet": "mu", **kwargs})


def test_coverage_chart_needs_a_coverage_column(table):
    with pytest.raises(cc.CostchartError, match=r"^the coverage table has no column 'coverage'"):
        cc.coverage_chart(table.drop(columns="coverage"), color="mu", facet="mu")
    with pytest.raises(cc.CostchartError, match=r"^column 'coverage' of the coverage table must"):
        cc.coverage_chart(table.assign(coverage="x"), color="mu", facet="mu")


def test_coverage_chart_draws_only_its_columns(table):
    # A column the chart does not draw may have any name (Altair refuses non-string ones).
    extra = table.assign(**{"note": "x"})
    extra[0] = 1.0
    drawn = cc.coverage_chart(extra, color="mu", facet="mu").to_dict()
    plain = cc.coverage_chart(table, color="mu", facet="mu").to_dict()
    assert drawn["datasets"] == plain["datasets"]
    assert 0 in extra.columns and "note" in extra.columns  # the user's table is unchanged


def test_coverage_chart_reads_polars_and_dicts_alike(table):
    before = table.copy()
    expected = cc.coverage_chart(table, color="mu", facet="mu").to_dict()
    for other in (pl.from_pandas(table), table.to_dict("list")):
        assert cc.coverage_chart(other, color="mu", facet="mu").to_dict() == expected
    pd.testing.assert_frame_equal(table, before)
    assert np.array_equal(table["mu"].unique(), [1.5, 3.0])
