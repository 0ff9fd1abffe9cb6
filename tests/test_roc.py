import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from conftest import scored_data
from sklearn.metrics import roc_auc_score, roc_curve

import costchart as cc


@pytest.mark.parametrize("seed", range(5))
def test_points_equal_sklearn_with_ties(seed):
    rng = np.random.default_rng(seed)
    n = 1000
    y = rng.random(n) < 0.3
    s = rng.integers(0, 40, n).astype(float)  # many ties
    points = cc.roc_points({"s": s, "y": y}, score="s", label="y")
    fpr, tpr, thresholds = roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_array_equal(points["fpr"], fpr)
    np.testing.assert_array_equal(points["tpr"], tpr)
    np.testing.assert_array_equal(points["threshold"], thresholds)
    assert cc.auc(points)["auc"].iat[0] == pytest.approx(roc_auc_score(y, s), abs=1e-14)


@pytest.mark.parametrize("seed", range(5))
def test_weighted_points_equal_sklearn(seed):
    rng = np.random.default_rng(seed)
    n = 800
    y = rng.random(n) < 0.4
    s = rng.integers(0, 30, n) / 7
    w = rng.exponential(size=n) * (rng.random(n) < 0.9)  # some zero weights
    points = cc.roc_points({"s": s, "y": y, "w": w}, score="s", label="y", weight="w")
    fpr, tpr, thresholds = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_allclose(points["fpr"], fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(points["tpr"], tpr, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(points["threshold"], thresholds)
    expected_auc = roc_auc_score(y, s, sample_weight=w)
    assert cc.auc(points)["auc"].iat[0] == pytest.approx(expected_auc, abs=1e-12)


def test_counts_and_columns():
    data = {"s": [0.9, 0.8, 0.8, 0.3, 0.3], "y": ["p", "p", "n", "n", "p"]}
    points = cc.roc_points(data, score="s", label="y", pos_label="p")
    assert list(points.columns) == ["threshold", "tp", "fp", "tn", "fn", "tpr", "fpr"]
    assert points["tp"].tolist() == [0, 1, 2, 3]
    assert points["fp"].tolist() == [0, 0, 1, 2]
    assert points["tn"].tolist() == [2, 2, 1, 0]
    assert points["fn"].tolist() == [3, 2, 1, 0]
    assert points["tp"].dtype == np.int64


def test_ties_do_not_depend_on_row_order(rng):
    data = scored_data(rng, classifiers=("a",))
    shuffled = data.sample(frac=1, random_state=3)
    a = cc.roc_points(data, score="score", label="y")
    b = cc.roc_points(shuffled, score="score", label="y")
    pd.testing.assert_frame_equal(a, b)


def test_weights_equal_repeated_rows():
    s = np.array([3.0, 2, 2, 1])
    y = np.array([1, 0, 1, 0])
    w = np.array([2, 1, 3, 1])
    weighted = cc.roc_points({"s": s, "y": y, "w": w}, score="s", label="y", weight="w")
    repeated = cc.roc_points({"s": np.repeat(s, w), "y": np.repeat(y, w)}, score="s", label="y")
    np.testing.assert_allclose(
        weighted[["tp", "fp", "tpr", "fpr"]], repeated[["tp", "fp", "tpr", "fpr"]]
    )


def test_groups_lead_and_match_separate_runs(rng):
    data = scored_data(rng, classifiers=("a", "b"), folds=2)
    grouped = cc.roc_points(data, score="score", label="y", by=["model", "fold"])
    assert list(grouped.columns[:2]) == ["model", "fold"]
    for (model, fold), part in grouped.groupby(["model", "fold"], sort=False):
        alone = cc.roc_points(
            data[(data.model == model) & (data.fold == fold)], score="score", label="y"
        )
        np.testing.assert_array_equal(
            part[["fpr", "tpr", "threshold"]], alone[["fpr", "tpr", "threshold"]]
        )
    assert grouped["model"].unique().tolist() == ["a", "b"]  # order of first appearance


def test_polars_pyarrow_and_dict_inputs_agree(rng):
    data = scored_data(rng, classifiers=("a",))
    expected = cc.roc_points(data, score="score", label="y")
    for other in (pl.from_pandas(data), pa.Table.from_pandas(data), data.to_dict("list")):
        pd.testing.assert_frame_equal(cc.roc_points(other, score="score", label="y"), expected)


def test_input_is_not_mutated(rng):
    data = scored_data(rng)
    before = data.copy()
    cc.roc_points(data, score="score", label="y", by="model")
    pd.testing.assert_frame_equal(data, before)


def test_one_class_group_warns_and_is_left_out():
    data = pd.DataFrame({"g": ["a", "a", "b", "b"], "s": [1.0, 2.0, 1.0, 2.0], "y": [0, 1, 1, 1]})
    with pytest.warns(cc.CostchartWarning, match=r"group \{'g': 'b'\} has no negatives"):
        points = cc.roc_points(data, score="s", label="y", by="g")
    assert points["g"].unique().tolist() == ["a"]


def test_from_confusion_equals_roc_points_of_crisp_predictions():
    y = np.array([1] * 20 + [0] * 10)
    pred = np.array([1] * 16 + [0] * 4 + [1] * 4 + [0] * 6)
    crisp = cc.roc_points({"p": pred, "y": y}, score="p", label="y")
    counts = cc.from_confusion(
        {"TP": [16], "FN": [4], "FP": [4], "TN": [6]}, tp="TP", fn="FN", fp="FP", tn="TN"
    )
    pd.testing.assert_frame_equal(counts, crisp)


def test_from_confusion_several_classifiers():
    table = pd.DataFrame(
        {"name": ["x", "y"], "tp": [8, 3], "fn": [2, 7], "fp": [1.5, 0], "tn": [8.5, 10]}
    )
    points = cc.from_confusion(table, tp="tp", fn="fn", fp="fp", tn="tn", by="name")
    assert len(points) == 6
    x = points[points.name == "x"]
    assert x["tpr"].tolist() == [0, 0.8, 1]
    assert x["fpr"].tolist() == [0, 0.15, 1]
    assert points["tp"].dtype == np.float64  # one count column is fractional


def test_auc_per_group(rng):
    data = scored_data(rng, classifiers=("a", "b"))
    points = cc.roc_points(data, score="score", label="y", by="model")
    areas = cc.auc(points)
    assert list(areas.columns) == ["model", "auc"]
    for model in ("a", "b"):
        part = data[data.model == model]
        got = areas.loc[areas.model == model, "auc"].iat[0]
        assert got == pytest.approx(roc_auc_score(part.y, part.score), abs=1e-14)


@pytest.mark.parametrize("kind", ["rounded", "tied", "distinct"])
def test_weighted_sum_paths_agree_with_sklearn(kind):
    # Large enough for each summing path: integer codes for rounded scores, hashing for
    # other tied scores, an argsort for distinct ones.
    rng = np.random.default_rng(42)
    n = 30_000
    y = rng.random(n) < 0.3
    if kind == "rounded":
        s = np.round(rng.normal(size=n) + y, 2)
    elif kind == "tied":
        s = rng.choice(rng.normal(size=40) * np.pi, size=n) + y * 0.1
    else:
        s = rng.normal(size=n) + y
    w = rng.exponential(size=n)
    points = cc.roc_points({"s": s, "y": y, "w": w}, score="s", label="y", weight="w")
    fpr, tpr, thresholds = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(points["threshold"], thresholds)
    np.testing.assert_allclose(points["fpr"], fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(points["tpr"], tpr, rtol=0, atol=1e-12)


def test_rounded_scores_that_are_not_on_a_lattice_everywhere():
    rng = np.random.default_rng(1)
    y = rng.random(30_000) < 0.5
    s = np.round(rng.normal(size=30_000), 2)
    s[12_345] = 0.123456789  # off the lattice, and not in the sample that detects it
    points = cc.roc_points({"s": s, "y": y, "w": np.ones(30_000)}, score="s", label="y", weight="w")
    assert 0.123456789 in set(points["threshold"])
    fpr, tpr, thresholds = roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_array_equal(points["threshold"], thresholds)
    np.testing.assert_allclose(points[["fpr", "tpr"]], np.column_stack([fpr, tpr]), atol=1e-12)


def _ranked(scores):
    """Dense ranks of integer scores: small integers with the same order and ties."""
    return np.unique(scores, return_inverse=True)[1].astype(np.int64)


BEYOND_FLOAT = {
    "int64": np.array([2**53, 2**53 + 1, 2**53 + 2, 2**62 + 1, 2**62, -(2**63), 3], np.int64),
    "uint64": np.array([2**64 - 1, 2**64 - 2, 2**63 + 1, 2**63, 2**53 + 1, 2**53, 0], np.uint64),
}


@pytest.mark.parametrize("dtype", ["int64", "uint64"])
@pytest.mark.parametrize("n", [7, 700, 30_000])  # sorted, hashed and (narrow) coded kernels
@pytest.mark.parametrize("weighted", [False, True])
def test_integer_scores_beyond_two_to_the_53_keep_their_ties_exact(rng, dtype, n, weighted):
    distinct = BEYOND_FLOAT[dtype]
    if n == 30_000:  # a narrow range of huge integers: the integer-code kernel
        distinct = distinct.max() - np.arange(7, dtype=distinct.dtype)
    scores = distinct[np.arange(n) % 7] if n > 7 else distinct
    frame = pd.DataFrame(
        {"s": rng.permutation(scores), "y": np.arange(n) % 3 == 0, "w": rng.uniform(1, 2, n)}
    )
    weight = "w" if weighted else None
    points = cc.roc_points(frame, score="s", label="y", weight=weight)
    reference = cc.roc_points(frame.assign(s=_ranked(frame.s)), score="s", label="y", weight=weight)
    assert len(points) == 8  # 7 distinct scores, none merged
    pd.testing.assert_frame_equal(
        points.drop(columns="threshold"), reference.drop(columns="threshold")
    )
    assert points.threshold.dtype == object
    assert points.threshold.tolist() == [np.inf, *sorted(map(int, distinct), reverse=True)]


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
@pytest.mark.parametrize("dtype", ["int64", "uint64"])
def test_lazy_integer_scores_beyond_two_to_the_53(engine, dtype):
    import duckdb
    import polars as pl

    frame = pd.DataFrame({"s": BEYOND_FLOAT[dtype], "y": [1, 0, 1, 0, 0, 1, 0], "c": 1.0})
    lazy = pl.from_pandas(frame).lazy() if engine == "polars" else duckdb.from_df(frame)
    for bins in (None, 100):
        pd.testing.assert_frame_equal(
            cc.roc_points(lazy, score="s", label="y", bins=bins),
            cc.roc_points(frame, score="s", label="y", bins=bins),
        )
    expected = cc.rociv(frame, score="s", label="y", amount="c")
    assert len(expected) == 8
    pd.testing.assert_frame_equal(cc.rociv(lazy, score="s", label="y", amount="c"), expected)


def test_small_integer_scores_keep_a_float_threshold_column():
    points = cc.roc_points({"s": np.array([2**53, 5, 3]), "y": [1, 0, 1]}, score="s", label="y")
    assert points.threshold.dtype == np.float64
    assert points.threshold.tolist() == [np.inf, 2.0**53, 5.0, 3.0]


def test_weights_whose_total_overflows_are_refused_not_nan():
    data = {"s": [0.9, 0.8, 0.3, 0.2], "y": [1, 0, 1, 0], "w": [1e308] * 4}
    with pytest.raises(
        cc.CostchartError,
        match=r"the weights in column 'w' of the positives sum to more than the largest "
        r"float64 \(about 1\.8e\+308\); divide them by a constant \(the rates do not change\)",
    ):
        cc.roc_points(data, score="s", label="y", weight="w")
    # Large weights whose totals fit give the rates of any scaled copy.
    fits = cc.roc_points({**data, "w": [4e307] * 4}, score="s", label="y", weight="w")
    ones = cc.roc_points({**data, "w": [1.0] * 4}, score="s", label="y", weight="w")
    pd.testing.assert_frame_equal(fits[["tpr", "fpr"]], ones[["tpr", "fpr"]])


def test_counts_near_two_to_the_62_do_not_wrap_around():
    # int64 totals of 2**63 wrapped to negative numbers: "column 'TP/FN' has no negatives".
    counts = pd.DataFrame({"tp": [2**62], "fn": [2**62], "fp": [2**62], "tn": [3 * 2**61]})
    points = cc.from_confusion(counts, tp="tp", fn="fn", fp="fp", tn="tn")
    assert points.tpr.tolist() == [0.0, 0.5, 1.0]
    assert points.fpr.tolist() == [0.0, 0.4, 1.0]
    assert points.tn.tolist() == [5 * 2.0**61, 3 * 2.0**61, 0.0]


def test_all_zero_weights_and_empty_frames_say_so():
    with pytest.raises(
        cc.CostchartError,
        match=r"^all weights in column 'w' are 0; ROC analysis needs positive weights$",
    ):
        cc.roc_points(
            {"s": [1.0, 2.0], "y": [0, 1], "w": [0.0, 0.0]}, score="s", label="y", weight="w"
        )
    with pytest.warns(
        cc.CostchartWarning, match=r"group \{'g': 'b'\}: all weights in column 'w' are 0"
    ):
        points = cc.roc_points(
            {"g": list("aabb"), "s": [1.0, 2.0] * 2, "y": [0, 1] * 2, "w": [1.0, 1.0, 0.0, 0.0]},
            score="s",
            label="y",
            weight="w",
            by="g",
        )
    assert set(points.g) == {"a"}
    empty = pd.DataFrame({"g": [], "s": [], "y": [], "w": []})
    for by in (None, "g"):
        for weight in (None, "w"):
            with pytest.raises(
                cc.CostchartError,
                match=r"^data has no rows; ROC analysis needs scored instances of both classes$",
            ):
                cc.roc_points(empty, score="s", label="y", by=by, weight=weight)


DATA = pd.DataFrame({"s": [0.9, 0.8, 0.3, 0.2], "y": [1, 0, 1, 0], "w": [1.0, 2.0, 3.0, 4.0]})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"score": DATA["s"]},
            r"score= takes a column name, but got a Series; add the values to the data as a "
            r"column and pass its name, e.g\. score='my_column'",
        ),
        ({"label": DATA["y"].to_numpy()}, r"label= takes a column name, but got a ndarray"),
        ({"weight": DATA["w"]}, r"weight= takes a column name, but got a Series"),
        ({"score": None}, r"score=None must be a column name \(a string\)"),
        ({"weight": 1.0}, r"weight=1\.0 must be a column name \(a string\)"),
        ({"pos_label": [1]}, r"pos_label=\[1\] must be one label value \(e\.g\. 1 or 'spam'\)"),
    ],
)
def test_column_arguments_must_be_names(kwargs, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.roc_points(DATA, **{"score": "s", "label": "y", **kwargs})


def test_text_scores_are_refused_not_converted():
    data = pd.DataFrame({"s": ["0.9", "0.4", "0.7", "0.1"], "y": [1, 0, 1, 0]})
    with pytest.raises(cc.CostchartError, match=r"column 's' must hold numbers, but holds text"):
        cc.roc_points(data, score="s", label="y")


def test_a_missing_group_key_is_shown_as_none_in_warnings():
    data = pd.DataFrame({"g": ["a", "a", None, None], "s": [0.9, 0.1, 0.8, 0.7], "y": [1, 0, 1, 1]})
    with pytest.warns(cc.CostchartWarning, match=r"group \{'g': None\} has no negatives"):
        cc.roc_points(data, score="s", label="y", by="g")


def test_points_are_built_column_by_column():
    # pd.DataFrame(dict) would copy the numeric columns into one 2-D block (a full copy).
    rng = np.random.default_rng(3)
    data = {"s": rng.random(1000), "y": rng.random(1000) < 0.5}
    points = cc.roc_points(data, score="s", label="y")
    assert len(points._mgr.blocks) == len(points.columns)
    assert points["tp"].dtype == np.int64 and points["tpr"].dtype == np.float64
    assert points["tp"].iloc[0] == 0 and points["fp"].iloc[-1] == (~data["y"]).sum()


def test_points_and_columns_give_the_arrays_of_the_points_frame():
    from costchart._roc.points import points_and_columns

    data = {"s": [0.9, 0.8, 0.8, 0.3, 0.1], "y": [1, 1, 0, 0, 1], "w": [1, 2, 0, 1, 3]}
    for weight in (None, "w"):
        points, columns = points_and_columns(data, score="s", label="y", weight=weight)
        pd.testing.assert_frame_equal(
            points, cc.roc_points(data, score="s", label="y", weight=weight)
        )
        assert list(columns) == list(points.columns)
        for column, values in columns.items():
            assert values.dtype == points[column].dtype
            np.testing.assert_array_equal(values, points[column].to_numpy())
    grouped = points_and_columns({**data, "g": [0, 0, 0, 1, 1]}, score="s", label="y", by="g")
    assert grouped[1] is None  # grouped points: read the frame


@pytest.mark.parametrize("weighted", [False, True])
def test_points_of_a_dict_of_numbers_equal_the_points_of_its_frame(weighted):
    # Ungrouped dicts of numeric arrays are read without a frame; a pandas frame of the
    # same arrays takes the general way.
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 300).astype(np.int8)
    data = {"s": np.round(rng.normal(size=300), 1).astype(np.float32), "y": y}
    data["w"] = rng.integers(0, 3, 300).astype(np.uint16)
    copies = {key: value.copy() for key, value in data.items()}
    weight = "w" if weighted else None
    fast = cc.roc_points(data, score="s", label="y", weight=weight)
    general = cc.roc_points(pd.DataFrame(data), score="s", label="y", weight=weight)
    pd.testing.assert_frame_equal(fast, general)
    assert fast.attrs == general.attrs
    band = cc.bootstrap_band(data, score="s", label="y", weight=weight, rng=0)
    pd.testing.assert_frame_equal(
        band, cc.bootstrap_band(pd.DataFrame(data), score="s", label="y", weight=weight, rng=0)
    )
    for key, value in copies.items():
        np.testing.assert_array_equal(data[key], value)  # the caller's arrays unchanged
