import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costchart as cc

ONE_POINT_FOLDS = pd.DataFrame({"fold": [0, 1], "fpr": [0.04, 0.3], "tpr": [0.4, 0.8]})


def test_middle_segment_of_the_vertical_cost_average_is_the_average_point():
    average = cc.vertical_average(ONE_POINT_FOLDS, over="fold")
    dual = cc.curve_points(average)
    middle = dual[(dual.fpr > 0) & (dual.fpr < 1)]
    assert any(np.isclose(middle.fpr, 0.17) & np.isclose(middle.tpr, 0.6))
    # ... while the ROC vertical average of the same folds is a different curve.
    points = cc.from_confusion(
        pd.DataFrame(
            {"fold": [0, 1], "tp": [40, 80], "fn": [60, 20], "fp": [4, 30], "tn": [96, 70]}
        ),
        tp="tp",
        fn="fn",
        fp="fp",
        tn="tn",
        by="fold",
    )
    roc = cc.roc_average(points, over="fold", averaging="vertical")
    assert not any(np.isclose(roc.fpr, 0.17) & np.isclose(roc.tpr, 0.6))
    assert roc.loc[np.isclose(roc.fpr, 0.04), "tpr"].iat[0] == pytest.approx(
        (0.4 + 0.8 * 0.04 / 0.3) / 2
    )


def test_average_equals_mean_of_curves_everywhere(rng):
    frames = []
    for fold in range(7):
        y = rng.random(300) < 0.4
        frames.append(
            pd.DataFrame({"fold": fold, "s": np.round(rng.normal(size=300) + y, 1), "y": y})
        )
    points = cc.roc_points(pd.concat(frames), score="s", label="y", by="fold")
    average = cc.vertical_average(points, over="fold")
    envelopes = cc.lower_envelope(points)
    at = np.sort(rng.random(500))
    curves = np.array([np.interp(at, e.pc, e.cost) for _, e in envelopes.groupby("fold")])
    np.testing.assert_allclose(
        np.interp(at, average.pc, average.cost), curves.mean(axis=0), atol=1e-12
    )
    # The spread is exact at the vertices (between them the min and max may bend).
    at_vertices = np.array(
        [np.interp(average.pc, e.pc, e.cost) for _, e in envelopes.groupby("fold")]
    )
    np.testing.assert_allclose(average.cost_lo, at_vertices.min(axis=0), atol=1e-12)
    np.testing.assert_allclose(average.cost_hi, at_vertices.max(axis=0), atol=1e-12)
    np.testing.assert_allclose(average.cost_sd, at_vertices.std(axis=0, ddof=1), atol=1e-12)
    assert (average.n_curves == 7).all()


def test_other_grouping_columns_are_kept(demo_points):
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset == 'sonar'")
    points = cc.roc_points(data, score="score", label="label", by=["classifier", "fold"])
    average = cc.vertical_average(points, over="fold")
    assert list(average.columns[:1]) == ["classifier"]
    assert set(average.classifier) == {"logistic", "naive bayes", "tree"}
    assert (average.n_curves == 5).all()


def test_single_fold_gives_the_curve_and_nan_spread():
    one = ONE_POINT_FOLDS.iloc[:1]
    average = cc.vertical_average(one, over="fold")
    envelope = cc.lower_envelope(one.drop(columns="fold"))
    np.testing.assert_allclose(average.cost, envelope.cost)
    assert average.cost_sd.isna().all()


@st.composite
def folds(draw):
    n_folds = draw(st.integers(1, 4))
    frames = []
    for fold in range(n_folds):
        n = draw(st.integers(2, 25))
        scores = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
        labels = draw(st.lists(st.booleans(), min_size=n, max_size=n))
        labels[0], labels[-1] = True, False
        frames.append(pd.DataFrame({"fold": fold, "s": scores, "y": labels}))
    return pd.concat(frames, ignore_index=True)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(folds(), st.sampled_from(["vertical", "horizontal", "by_threshold"]))
def test_envelope_of_any_roc_average_is_above_the_cost_average(data, method):
    points = cc.roc_points(data, score="s", label="y", by="fold")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cc.CostchartWarning)
        roc = cc.roc_average(points, over="fold", averaging=method)
    cost_average = cc.vertical_average(points, over="fold")
    roc_envelope = cc.lower_envelope(roc[["fpr", "tpr"]])
    at = np.linspace(0, 1, 201)
    above = np.interp(at, roc_envelope.pc, roc_envelope.cost)
    below = np.interp(at, cost_average.pc, cost_average.cost)
    assert np.all(above >= below - 1e-12)


def test_roc_average_methods_and_columns(demo_points):
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset == 'ionosphere' and classifier == 'logistic'")
    points = cc.roc_points(data, score="score", label="label", by="fold")
    for method in ("vertical", "horizontal", "by_threshold"):
        roc = cc.roc_average(points, over="fold", averaging=method)
        assert list(roc.columns) == [
            "threshold",
            "fpr",
            "tpr",
            "fpr_lo",
            "fpr_hi",
            "fpr_sd",
            "tpr_lo",
            "tpr_hi",
            "tpr_sd",
            "n_curves",
        ]
        assert (roc.fpr_lo <= roc.fpr + 1e-12).all() and (roc.tpr <= roc.tpr_hi + 1e-12).all()
    vertical = cc.roc_average(points, over="fold", averaging="vertical", grid=[0.0, 0.1, 0.5, 1.0])
    assert vertical.fpr.tolist() == [0.0, 0.1, 0.5, 1.0]
    assert (vertical.fpr_sd == 0).all()
    threshold = cc.roc_average(points, over="fold", averaging="by_threshold", grid=[0.5])
    per_fold = [
        ((f.score >= 0.5) & (f.label == 0)).sum() / (f.label == 0).sum()
        for _, f in data.groupby("fold")
    ]
    assert threshold.fpr.iat[0] == pytest.approx(np.mean(per_fold))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: cc.vertical_average(ONE_POINT_FOLDS, over=None),
            r"over= must name the column\(s\) to average across",
        ),
        (
            lambda: cc.vertical_average(ONE_POINT_FOLDS, over="seed"),
            r"over column 'seed' is not in the table",
        ),
        (
            lambda: cc.roc_average(ONE_POINT_FOLDS, over="fold", averaging="median"),
            r"averaging='median' is not an option",
        ),
        (
            lambda: cc.roc_average(ONE_POINT_FOLDS, over="fold", averaging="by_threshold"),
            r"averaging='by_threshold' needs a 'threshold' column",
        ),
    ],
)
def test_average_errors(call, message):
    with pytest.raises(cc.CostchartError, match=message):
        call()


def test_pc_zero_and_one_and_vertical_edges():
    # Hull edges that are vertical (at FPR 0) and horizontal (at TPR 1) give envelope
    # vertices at pc 0 and 1; averaging them divides by nothing.
    points = pd.DataFrame({"fold": [0, 0, 1], "fpr": [0.0, 0.5, 0.2], "tpr": [0.6, 1.0, 1.0]})
    average = cc.vertical_average(points, over="fold")
    assert average.pc.iat[0] == 0 and average.pc.iat[-1] == 1
    assert np.isfinite(average[["cost", "cost_lo", "cost_hi", "cost_sd"]]).all(axis=None)


def test_duplicate_points_and_identical_folds():
    points = pd.DataFrame(
        {"fold": [0, 0, 0, 1, 1, 1], "fpr": [0.2, 0.2, 0.2, 0.2, 0.2, 0.2], "tpr": [0.7] * 6}
    )
    average = cc.vertical_average(points, over="fold")
    alone = cc.lower_envelope(points[points.fold == 0].drop(columns="fold"))
    np.testing.assert_allclose(average.cost, alone.cost, atol=1e-15)
    assert (average.cost_sd == 0).all()


def test_roc_average_of_one_fold_warns_and_has_nan_spread():
    points = cc.roc_points(
        {"s": [3, 2, 1, 0], "y": [1, 0, 1, 0], "fold": 0}, score="s", label="y", by="fold"
    )
    with pytest.warns(
        cc.CostchartWarning,
        match=r"roc_average over \['fold'\] found one curve in a group; spreads are NaN",
    ):
        roc = cc.roc_average(points, over="fold")
    assert roc.tpr_sd.isna().all() and (roc.n_curves == 1).all()


def test_roc_averages_complete_curves_with_the_trivial_classifiers():
    # Each fold is one point; (0, 0) and (1, 1) are always available, so the curves are
    # (0,0)-(0.04,0.4)-(1,1) and (0,0)-(0.3,0.8)-(1,1), never held flat past their ends.
    vertical = cc.roc_average(ONE_POINT_FOLDS, over="fold", grid=[0.17])
    expected = (0.4 + 0.6 * 0.13 / 0.96 + 0.8 * 0.17 / 0.3) / 2
    assert vertical.tpr.iat[0] == pytest.approx(expected, rel=1e-12)
    assert round(vertical.tpr.iat[0], 4) == 0.4673
    default = cc.roc_average(ONE_POINT_FOLDS, over="fold")
    assert default.fpr.tolist() == [0.0, 0.04, 0.3, 1.0]
    np.testing.assert_allclose(
        default.tpr, [0.0, (0.4 + 0.8 * 0.04 / 0.3) / 2, (0.4 + 0.6 * 0.26 / 0.96 + 0.8) / 2, 1.0]
    )
    horizontal = cc.roc_average(
        ONE_POINT_FOLDS, over="fold", averaging="horizontal", grid=[0.6, 0.9]
    )
    np.testing.assert_allclose(
        horizontal.fpr,
        [
            (0.04 + 0.96 * 0.2 / 0.6 + 0.3 * 0.6 / 0.8) / 2,
            (0.04 + 0.96 * 0.5 / 0.6 + 0.3 + 0.7 * 0.5) / 2,
        ],
    )


def test_threshold_average_completes_curves_with_the_trivial_classifiers():
    folds = ONE_POINT_FOLDS.assign(threshold=[0.5, 0.7])
    average = cc.roc_average(folds, over="fold", averaging="by_threshold", grid=[0.9, 0.6, 0.2])
    # Above a curve's thresholds it predicts nothing positive: (0, 0), not its own point.
    assert average.threshold.tolist() == [0.9, 0.6, 0.2]
    np.testing.assert_allclose(average.fpr, [0.0, 0.15, 0.17])
    np.testing.assert_allclose(average.tpr, [0.0, 0.4, 0.6])


def _ten_folds(seed=36):
    rng = np.random.default_rng(seed)
    frames = []
    for fold in range(10):
        y = rng.random(200) < 0.4
        frames.append(pd.DataFrame({"fold": fold, "s": rng.normal(size=200) + y, "y": y}))
    return cc.roc_points(pd.concat(frames), score="s", label="y", by="fold")


def test_dual_points_of_a_ten_fold_average_are_the_mean_roc_points():
    # Two folds' envelopes share a vertex computed along different paths, 5.6e-17 apart;
    # the segment between them had a slope of pure rounding noise (FPR -0.06).
    points = _ten_folds()
    average = cc.vertical_average(points, over="fold")
    assert np.diff(average.pc).min() > 1e-12
    dual = cc.curve_points(average)
    assert dual[["fpr", "tpr"]].to_numpy().min() >= 0
    assert dual[["fpr", "tpr"]].to_numpy().max() <= 1
    # Each segment is the cost line of the mean of the folds' active ROC points.
    middle = (dual.pc_lo.to_numpy() + dual.pc_hi.to_numpy()) / 2
    active = []
    for _, envelope in cc.lower_envelope(points).groupby("fold"):
        row = np.searchsorted(envelope.pc.to_numpy(), middle, side="right") - 1
        active.append(envelope[["fpr", "tpr"]].to_numpy()[row])
    np.testing.assert_allclose(dual[["fpr", "tpr"]], np.mean(active, axis=0), atol=1e-9)


def test_vertices_a_rounding_error_apart_are_one_vertex():
    from costchart._cost.average import distinct_pc

    merged = distinct_pc(np.array([0.0, 1e-17, 0.3, 0.3 + 5.6e-17, 0.5, 1 - 1e-16, 1.0]))
    assert merged.tolist() == [0.0, 0.3, 0.5, 1.0]
    curve = pd.DataFrame({"pc": [0.0, 0.3, 0.3 + 5.6e-17, 1.0], "cost": [0.0, 0.3, 0.3, 0.0]})
    np.testing.assert_allclose(cc.curve_points(curve)[["fpr", "tpr"]], [[0.0, 0.0], [3 / 7, 1.0]])
    assert cc.curve_points(curve).pc_hi.tolist() == [0.3, 1.0]


def test_curve_points_clips_rounding_and_refuses_impossible_rates():
    # A cost a rounding error below 0 at pc 0 is FPR 0, not -1e-17.
    rounded = pd.DataFrame({"pc": [0.0, 0.5, 1.0], "cost": [-1e-17, 0.25, 0.0]})
    dual = cc.curve_points(rounded)
    assert dual.fpr.tolist()[0] == 0.0
    assert dual[["fpr", "tpr"]].to_numpy().min() >= 0
    steep = pd.DataFrame({"g": "a", "pc": [0.0, 0.5, 1.0], "cost": [0.0, 0.7, 0.0]})
    with pytest.raises(
        cc.CostchartError,
        match=r"group \{'g': 'a'\}'s segment from pc=0\.0 to pc=0\.5 is the cost line of a "
        r"point with tpr=-0\.3999\d*, outside \[0, 1\]: the table is not a cost curve",
    ):
        cc.curve_points(steep, by="g")


def test_identical_curves_have_a_spread_of_exactly_zero(rng):
    # sum(x**2) - n * mean**2 gave sd 3.5e-9 for ten copies of one curve.
    y = rng.random(300) < 0.4
    one = pd.DataFrame({"s": rng.normal(size=300) + y, "y": y})
    copies = pd.concat([one.assign(fold=k) for k in range(10)])
    points = cc.roc_points(copies, score="s", label="y", by="fold")
    average = cc.vertical_average(points, over="fold")
    assert (average.cost_sd == 0).all()
    assert (average.cost_lo == average.cost_hi).all()
    alone = cc.lower_envelope(cc.roc_points(one, score="s", label="y"))
    np.testing.assert_allclose(
        average.cost, np.interp(average.pc, alone.pc, alone.cost), atol=1e-15
    )


def test_spread_of_curves_far_from_zero_is_accurate():
    # Costs near 0.5 that differ by 1e-9: the shortcut formula cancels catastrophically.
    pc = np.array([0.0, 1.0])
    curves = pd.DataFrame(
        {
            "fold": np.repeat([0, 1, 2], 2),
            "pc": np.tile(pc, 3),
            "cost": [0.5, 0.5, 0.5 + 1e-9, 0.5 + 1e-9, 0.5 + 2e-9, 0.5 + 2e-9],
        }
    )
    average = cc.vertical_average(curves, over="fold")
    np.testing.assert_allclose(average.cost_sd, 1e-9, rtol=1e-6)


CURVES = pd.DataFrame(
    {"fold": [0, 0, 0, 1, 1], "pc": [0.0, 0.4, 1.0, 0.0, 1.0], "cost": [0.0, 0.2, 0.0, 0.0, 0.0]}
)


@pytest.mark.parametrize(
    ("curves", "over", "message"),
    [
        (
            CURVES.iloc[1:],  # fold 0 from pc 0.4: it used to be held flat to pc 0
            "fold",
            r"the curve \{'fold': 0\} spans pc 0\.4 to 1\.0, not \[0, 1\]: it cannot be "
            r"averaged without extrapolating it",
        ),
        (
            CURVES.assign(model="m").iloc[:4],
            "fold",
            r"the curve \{'fold': 1\} of group \{'model': 'm'\} spans pc 0\.0 to 0\.0",
        ),
        (CURVES, "pc", r"over='pc' names a column costchart writes itself; pass the column"),
        (CURVES, ["fold", "cost_sd"], r"over='cost_sd' names a column costchart writes"),
        (
            CURVES.assign(fold=[0, 0, np.nan, 1, 1]),
            "fold",
            r"over column 'fold' of curves has 1 missing values \(first at row 2\); every row "
            r"must say which curve it belongs to",
        ),
        (CURVES.iloc[:0], "fold", r"curves has no rows; pass at least one curve"),
        (
            CURVES.assign(cost=[0.0, np.nan, 0.0, 0.0, 0.0]),
            "fold",
            r"column 'cost' of curves must hold normalized costs in \[0, 1\], but has nan at position 1",
        ),
        (
            CURVES.assign(cost=[0.0, -0.2, 0.0, 0.0, 0.0]),
            "fold",
            r"column 'cost' of curves must hold normalized costs in \[0, 1\], but has -0\.2 at position 1",
        ),
        (
            CURVES.assign(pc=[0.0, 1.4, 1.0, 0.0, 1.0]),
            "fold",
            r"column 'pc' of curves must hold operating points in \[0, 1\], but has 1\.4 at position 1",
        ),
    ],
)
def test_vertical_average_refuses_what_it_cannot_average(curves, over, message):
    by = ["model"] if "model" in curves.columns else None
    with pytest.raises(cc.CostchartError, match=message):
        cc.vertical_average(curves, over=over, by=by)


def test_roc_average_refuses_costchart_columns_and_missing_curve_keys():
    with pytest.raises(cc.CostchartError, match=r"over='threshold' names a column costchart"):
        cc.roc_average(ONE_POINT_FOLDS.assign(threshold=0.5), over="threshold")
    with pytest.raises(cc.CostchartError, match=r"over column 'fold' of points has 1 missing"):
        cc.roc_average(ONE_POINT_FOLDS.assign(fold=[0, None]), over="fold")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"averaging": 3}, r"averaging=3 is not an option; pass one of 'vertical', 'horizontal'"),
        ({"grid": [0.1, 1.5]}, r"grid \(FPR values\)=1\.5 is outside \[0, 1\]"),
        ({"grid": [np.nan]}, r"grid \(FPR values\)=nan is outside \[0, 1\]"),
        ({"averaging": "horizontal", "grid": [-0.1]}, r"grid \(TPR values\)=-0\.1 is outside"),
        ({"grid": "abc"}, r"grid='abc' must be numbers"),
        ({"grid": []}, r"grid= must be a non-empty 1-D list of numbers, but has shape \(0,\)"),
        ({"grid": [[0.1, 0.2]]}, r"but has shape \(1, 2\)"),
        (
            {"averaging": "by_threshold", "grid": [0.5, np.nan]},
            r"grid= has NaN values; pass thresholds",
        ),
    ],
)
def test_roc_average_options(kwargs, message):
    points = ONE_POINT_FOLDS.assign(threshold=[0.5, 0.7])
    with pytest.raises(cc.CostchartError, match=message):
        cc.roc_average(points, over="fold", **kwargs)


def test_threshold_average_refuses_nan_thresholds():
    points = ONE_POINT_FOLDS.assign(threshold=[0.5, np.nan])
    with pytest.raises(
        cc.CostchartError,
        match=r"column 'threshold' of points has 1 NaN values; averaging='by_threshold' needs",
    ):
        cc.roc_average(points, over="fold", averaging="by_threshold")


@pytest.mark.parametrize(
    ("old", "new"),
    [("vertical", "vertical"), ("horizontal", "horizontal"), ("threshold", "by_threshold")],
)
def test_roc_average_method_is_the_deprecated_name_of_averaging(old, new):
    points = _ten_folds().query("fold < 3")
    expected = cc.roc_average(points, over="fold", averaging=new)
    with pytest.warns(
        FutureWarning,
        match=rf"roc_average\(method='{old}'\) is deprecated.*"
        rf"pass averaging='{new}'",
    ):
        given = cc.roc_average(points, over="fold", method=old)
    pd.testing.assert_frame_equal(given, expected)


def test_roc_average_refuses_method_and_averaging_together():
    with pytest.raises(cc.CostchartError, match=r"method= is the deprecated name of averaging="):
        cc.roc_average(ONE_POINT_FOLDS, over="fold", method="vertical", averaging="vertical")
    with pytest.raises(cc.CostchartError, match=r"method='median' is not an option; pass one of"):
        cc.roc_average(ONE_POINT_FOLDS, over="fold", method="median")


@pytest.mark.parametrize("kind", ["polars", "pyarrow", "dict"])
def test_averages_read_polars_pyarrow_and_dicts(kind):
    import polars as pl

    def native(frame):
        if kind == "dict":
            return {c: frame[c].to_numpy() for c in frame.columns}
        polars = pl.from_pandas(frame)
        return polars if kind == "polars" else polars.to_arrow()

    points = _ten_folds().query("fold < 3")
    average = cc.vertical_average(points, over="fold")
    pd.testing.assert_frame_equal(cc.vertical_average(native(points), over="fold"), average)
    pd.testing.assert_frame_equal(cc.curve_points(native(average)), cc.curve_points(average))
    for method in ("vertical", "by_threshold"):
        pd.testing.assert_frame_equal(
            cc.roc_average(native(points), over="fold", averaging=method),
            cc.roc_average(points, over="fold", averaging=method),
        )


@pytest.mark.parametrize("function", ["vertical_average", "roc_average"])
def test_over_must_name_columns(function):
    with pytest.raises(cc.CostchartError, match=r"over=5 must be a column name or a list"):
        getattr(cc, function)(ONE_POINT_FOLDS, over=5)


@pytest.mark.parametrize(
    ("curve", "message"),
    [
        (pd.DataFrame({"pc": [], "cost": []}), r"curve has no rows; pass a cost curve"),
        (
            pd.DataFrame({"pc": [0.0, 0.5, 3.0], "cost": [0.0, 0.2, 0.0]}),
            r"column 'pc' of curve must hold operating points in \[0, 1\], but has 3\.0 at position 2",
        ),
        (
            pd.DataFrame({"pc": [0.0, 0.5, 1.0], "cost": [0.0, np.nan, 0.0]}),
            r"column 'cost' of curve must hold normalized costs in \[0, 1\], but has nan",
        ),
        (
            pd.DataFrame({"pc": [0.0, 0.5, 1.0], "cost": [0.0, -0.1, 0.0]}),
            r"column 'cost' of curve must hold normalized costs in \[0, 1\], but has -0\.1",
        ),
    ],
)
def test_curve_points_checks_the_curve(curve, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.curve_points(curve)
