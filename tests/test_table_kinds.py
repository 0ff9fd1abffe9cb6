"""Tables that say what they are: kind and grouping recorded, one curve per group checked.

For every function that reads a points table: two runs concatenated, a point cloud,
``reset_index()``, ``merge`` and a polars round trip each give the right curves or a
:class:`CostchartError` whose fix is right (see :mod:`costchart._io.kinds` and
:mod:`costchart._io.curves`).
"""

import warnings

import numpy as np
import pandas as pd
import polars as pl
import pytest

import costchart as cc
from costchart._io.kinds import FAMILIES, KIND

RNG = np.random.default_rng(7)
# Two runs of one classifier on fresh test sets, and two models on one.
RUNS = {
    run: cc.roc_points({"s": RNG.normal(size=40) + y, "y": y}, score="s", label="y", by=())
    for run, y in (("first", np.arange(40) % 2), ("second", np.arange(40) % 3 == 0))
}
POINTS = cc.roc_points(
    {
        "model": ["a"] * 40 + ["b"] * 40,
        "s": np.concatenate([RNG.normal(size=40) + (np.arange(40) % 2)] * 2)
        + np.repeat([0.0, 0.3], 40) * RNG.normal(size=80),
        "y": np.tile(np.arange(40) % 2, 2),
    },
    score="s",
    label="y",
    by="model",
)

# Every public function that reads a points table, by what it does with it: a statistic
# read off each curve (its rows must be one curve per group), or a set operation.
CURVE_READERS = {
    "auc": cc.auc,
    "pr_auc": cc.pr_auc,
    "pr_curve": cc.pr_curve,
    "rate_driven_curve": cc.rate_driven_curve,
    "expected_loss": cc.expected_loss,
}
SET_READERS = {
    "roc_hull": cc.roc_hull,
    "to_cost_lines": cc.to_cost_lines,
    "thin_points": lambda t, **k: cc.thin_points(t, max_points=5, **k),
    "pr_points": cc.pr_points,
    "lower_envelope": cc.lower_envelope,
    "envelope_gap": cc.envelope_gap,
    "selection_table": cc.selection_table,
    "operating_range": cc.operating_range,
    "cost_at": lambda t, **k: cc.cost_at(t, [0.2, 0.7], **k),
    "expected_cost": cc.expected_cost,
    "iso_performance": lambda t, **k: cc.iso_performance(t, pc_range=(0.2, 0.6), **k),
    "neyman_pearson": lambda t, **k: cc.neyman_pearson(t, max_fpr=0.3, **k),
    "workforce": lambda t, **k: cc.workforce(t, capacity=10, **k),
}
READERS = {**CURVE_READERS, **SET_READERS}


def _same(result, expected):
    pd.testing.assert_frame_equal(
        result.reset_index(drop=True), expected.reset_index(drop=True), check_dtype=False
    )


@pytest.mark.parametrize("name", READERS)
def test_two_runs_concatenated_are_refused_with_the_fix(name):
    both = pd.concat([RUNS["first"], RUNS["second"]], ignore_index=True)
    assert both.attrs["costchart_by"] == []  # pandas kept the record: same on both
    with pytest.raises(cc.CostchartError, match=r"not one ROC curve.*keys=\['a', 'b'\]"):
        READERS[name](both)


@pytest.mark.parametrize("name", READERS)
def test_two_runs_under_a_label_are_refused_naming_it_and_split_by_it(name):
    both = pd.concat(
        [RUNS["first"].assign(run="first"), RUNS["second"].assign(run="second")],
        ignore_index=True,
    )
    with pytest.raises(
        cc.CostchartError, match=r"its column 'run' tells them apart: pass by=\['run'\]"
    ):
        READERS[name](both)
    split = READERS[name](both, by="run")
    for run in ("first", "second"):
        alone = READERS[name](RUNS[run])
        _same(split[split["run"] == run].drop(columns="run"), alone)


@pytest.mark.parametrize("name", CURVE_READERS)
def test_a_cloud_of_points_is_not_a_curve(name):
    cloud = pd.DataFrame({"fpr": [0.0, 0.1, 0.3, 0.2, 1.0], "tpr": [0.0, 0.6, 0.5, 0.9, 1.0]})
    with pytest.raises(cc.CostchartError, match=r"tpr falls from 0\.9 to 0\.5"):
        CURVE_READERS[name](cloud)


@pytest.mark.parametrize("name", ["roc_hull", "lower_envelope", "to_cost_lines"])
def test_set_operations_take_a_cloud_and_pool_curves_only_when_told(name):
    cloud = pd.DataFrame({"fpr": [0.0, 0.1, 0.3, 0.2, 1.0], "tpr": [0.0, 0.6, 0.5, 0.9, 1.0]})
    assert len(SET_READERS[name](cloud))  # a set of classifiers' points
    # Pooling the two models' curves into one hull or envelope: by= says so explicitly.
    pooled = SET_READERS[name](POINTS, by=[])
    if name == "to_cost_lines":
        assert "model" not in pooled.columns
    else:  # the merged-away grouping says whose point each row is (an owner, not a grouping)
        assert pooled.columns[0] == "model"
        assert pooled.attrs["costchart_owners"] == ["model"]
        assert pooled.attrs["costchart_by"] == []
    with pytest.raises(cc.CostchartError, match=r"threshold inf has two rows"):
        SET_READERS[name](POINTS.drop(columns="model"))


@pytest.mark.parametrize("name", READERS)
def test_reset_index_keeps_the_curves(name):
    expected = READERS[name](POINTS)
    for table in (POINTS.reset_index(), POINTS.reset_index().reset_index()):
        result = READERS[name](table)  # thin_points passes the index columns on
        _same(result.drop(columns=["index", "level_0"], errors="ignore"), expected)


@pytest.mark.parametrize("name", READERS)
def test_a_merge_asks_for_the_grouping_without_proposing_an_index(name):
    notes = pd.DataFrame({"model": ["a", "b"], "note": ["tree", "bayes"]})
    merged = POINTS.reset_index().merge(notes, on="model")
    with pytest.raises(
        cc.CostchartError, match=r"by=\['model', 'note'\] groups by all of them.*drop \['index'\]"
    ) as refused:
        READERS[name](merged)
    assert "by=['index'" not in str(refused.value)
    _same(READERS[name](merged.drop(columns=["index", "note"]), by="model"), READERS[name](POINTS))


@pytest.mark.parametrize("name", READERS)
def test_a_polars_round_trip_asks_for_the_grouping_and_then_reads_the_same(name):
    back = pl.from_pandas(POINTS).to_pandas()
    with pytest.raises(cc.CostchartError, match=r"carries no grouping.*by=\['model'\]"):
        READERS[name](back)
    _same(READERS[name](back, by="model"), READERS[name](POINTS))


def test_auc_of_two_runs_is_refused_not_averaged():
    # Two runs with very different AUCs: the sorted cloud gave an AUC between them.
    both = pd.concat([RUNS["first"], RUNS["second"]], ignore_index=True)
    with pytest.raises(cc.CostchartError, match="several curves"):
        cc.auc(both)
    by_hand = pd.DataFrame(both[["fpr", "tpr"]].to_dict("list"))  # no thresholds, no record
    with pytest.raises(cc.CostchartError, match="tpr falls"):
        cc.auc(by_hand)


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (lambda: POINTS, "points"),
        (lambda: cc.roc_hull(POINTS), "hull"),
        (lambda: cc.to_cost_lines(POINTS), "lines"),
        (lambda: cc.lower_envelope(POINTS), "envelope"),
        (lambda: cc.rate_driven_curve(POINTS), "rate_driven_curve"),
        (lambda: cc.vertical_average(cc.lower_envelope(POINTS), over="model"), "vertical_average"),
        (lambda: cc.selection_table(POINTS), "selection"),
        (lambda: cc.auc(POINTS), "auc"),
        (lambda: cc.expected_cost(cc.lower_envelope(POINTS)), "expected_cost"),
    ],
)
def test_every_table_records_its_kind_and_grouping(make, kind):
    table = make()
    assert table.attrs[KIND] == kind
    assert isinstance(table.attrs["costchart_by"], list)


def test_the_recorded_kind_is_read_not_the_columns():
    envelope = cc.lower_envelope(POINTS)
    assert FAMILIES[envelope.attrs[KIND]] == "curve"
    # An envelope's rates alone are not ROC points: it used to give one row per vertex.
    with pytest.raises(cc.CostchartError, match=r"'envelope' table .* lost its 'pc' column"):
        cc.cost_at(envelope[["model", "fpr", "tpr"]], [0.5])
    assert len(cc.cost_at(envelope, [0.5])) == 2  # one per model


def _pooled_warnings(**kwargs):
    from costchart.datasets import load_predictions

    data = load_predictions()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        points = cc.roc_points(data, score="score", label="label", **kwargs)
    return points, [w for w in caught if issubclass(w.category, cc.CostchartWarning)]


def test_raw_data_pooled_without_by_warns_naming_its_text_columns():
    points, caught = _pooled_warnings()
    assert len(caught) == 1
    assert "('dataset', 'classifier')" in str(caught[0].message)
    assert "by=() to pool on purpose" in str(caught[0].message)
    assert caught[0].filename == __file__  # points at the user's call
    assert points.attrs["costchart_by"] == []  # it still pools, as asked


@pytest.mark.parametrize("by", [(), []])
def test_pooling_on_purpose_does_not_warn(by):
    points, caught = _pooled_warnings(by=by)
    assert caught == []
    assert len(points) > 2


def test_grouped_raw_data_does_not_warn():
    points, caught = _pooled_warnings(by=["dataset", "classifier", "fold"])
    assert caught == []
    assert points.groupby(["dataset", "classifier", "fold"]).ngroups == 60


@pytest.mark.parametrize("convert", [pl.from_pandas, lambda f: {c: f[c].to_numpy() for c in f}])
def test_the_warning_reads_polars_and_dicts(convert):
    data = pd.DataFrame({"s": [0.9, 0.4, 0.6, 0.2], "y": [1, 0, 1, 0], "m": ["a", "a", "b", "b"]})
    with pytest.warns(cc.CostchartWarning, match=r"\('m'\)"):
        cc.roc_points(convert(data), score="s", label="y")


# The charts read points tables too: the same rules, and the same curves drawn.
CHARTS = {
    "roc_chart": lambda t, **k: cc.roc_chart(t, classifier="model", **k),
    "cost_chart": lambda t, **k: cc.cost_chart(t, classifier="model", **k),
    "roc_cost_chart": lambda t, **k: cc.roc_cost_chart(t, classifier="model", **k),
    "roc_average": lambda t, **k: cc.roc_average(t, over="model", **k),
}


def _drawn(result):
    return (
        result.to_dict()
        if hasattr(result, "to_dict") and not isinstance(result, pd.DataFrame)
        else result
    )


@pytest.mark.parametrize("name", CHARTS)
def test_charts_refuse_runs_concatenated_and_draw_the_same_after_reset_index(name):
    both = pd.concat([RUNS["first"], RUNS["second"]], ignore_index=True).assign(model="a")
    with pytest.raises(cc.CostchartError, match="not one ROC curve per group"):
        CHARTS[name](both)
    expected = _drawn(CHARTS[name](POINTS))
    assert CHARTS[name](POINTS.reset_index()) is not None  # the index never groups
    after = _drawn(CHARTS[name](POINTS.sort_values(["model", "fpr"]).reset_index(drop=True)))
    if isinstance(expected, pd.DataFrame):
        _same(after, expected)
    else:
        assert after == expected


# Every function that reads raw data: by=None beside text columns warns, by=() does not.
RAW_READERS = {
    "roc_points": lambda d, **k: cc.roc_points(d, score="s", label="y", **k),
    "rociv": lambda d, **k: cc.rociv(d.assign(a=1.0), score="s", label="y", amount="a", **k),
    "auc_ci": lambda d, **k: cc.auc_ci(d, score="s", label="y", **k),
    "h_measure": lambda d, **k: cc.h_measure(d, score="s", label="y", **k),
    "brier_curve": lambda d, **k: cc.brier_curve(d, score="s", label="y", **k),
    "net_benefit": lambda d, **k: cc.net_benefit(d, score="s", label="y", **k),
    "expected_loss": lambda d, **k: cc.expected_loss(d, score="s", label="y", **k),
    "bootstrap_band": lambda d, **k: cc.bootstrap_band(
        d, score="s", label="y", pc=[0.5], rng=0, **k
    ),
}


@pytest.mark.parametrize("name", RAW_READERS)
def test_every_raw_reader_warns_when_it_pools_beside_text_columns(name):
    data = pd.DataFrame(
        {"s": [0.9, 0.4, 0.6, 0.2, 0.8, 0.3], "y": [1, 0, 1, 0, 1, 0], "m": list("aabbcc")}
    )
    with pytest.warns(cc.CostchartWarning, match=r"text or categorical columns \('m'\)"):
        warned = RAW_READERS[name](data)
    with warnings.catch_warnings():
        warnings.simplefilter("error", cc.CostchartWarning)
        quiet = RAW_READERS[name](data, by=())
    pd.testing.assert_frame_equal(quiet, warned)  # it pools either way


def test_whole_number_thresholds_past_2_53_are_told_apart():
    # float64 would make 2**53 and 2**53 + 1 one threshold, read as a curve's duplicate.
    scores = np.array([2**53 + 1, 2**53, 2**53 + 3, 2**53 + 2], dtype=np.int64)
    points = cc.roc_points({"s": scores, "y": [1, 0, 1, 0]}, score="s", label="y")
    assert cc.auc(points)["auc"].item() == 0.75
    assert cc.roc_hull(points)["threshold"].tolist()[1:] == [2**53 + 3, 2**53 + 1, 2**53]
    with pytest.raises(cc.CostchartError, match="threshold inf has two rows"):
        cc.auc(pd.concat([points, points], ignore_index=True))


def test_the_threshold_choice_chart_warns_once_when_it_pools_beside_text_columns():
    data = pd.DataFrame(
        {"s": [0.9, 0.4, 0.6, 0.2, 0.8, 0.3], "y": [1, 0, 1, 0, 1, 0], "m": list("aabbcc")}
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cc.threshold_choice_chart(data, score="s", label="y")
    pooled = [w for w in caught if issubclass(w.category, cc.CostchartWarning)]
    assert len(pooled) == 1
    assert "text or categorical columns ('m')" in str(pooled[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error", cc.CostchartWarning)
        cc.threshold_choice_chart(data, score="s", label="y", classifier="m")
