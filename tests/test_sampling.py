"""resample_classes: class counts and rows against a direct count, inputs, refusals."""

import numpy as np
import pandas as pd
import polars as pl
import pytest

import costchart as cc


def _data(n_pos=37, n_neg=52, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.permutation(np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)])
    return pd.DataFrame({"x": rng.normal(size=n_pos + n_neg), "y": y, "id": np.arange(len(y))})


@pytest.mark.parametrize("ratio", [1, 2, 2.5, 5, 10, 0.5, 0.4, 0.1])
def test_oversampling_counts_and_copies(ratio):
    data = _data()
    out = cc.resample_classes(data, label="y", ratios=[ratio], rng=1)
    heavy, light = (1, 0) if ratio >= 1 else (0, 1)
    weight = ratio if ratio >= 1 else 1 / ratio
    count = {c: int((data["y"] == c).sum()) for c in (0, 1)}
    copies = out.groupby("id").size().reindex(data["id"], fill_value=0)
    is_heavy = (data.set_index("id")["y"] == heavy).reindex(copies.index)
    # every instance of the weighted class floor(w) or floor(w) + 1 times; the rest once
    whole = int(np.floor(weight))
    assert copies[is_heavy].isin([whole, whole + 1]).all()
    assert (copies[~is_heavy] == 1).all()
    expected = whole * count[heavy] + round((weight - whole) * count[heavy])
    assert (out["y"] == heavy).sum() == expected
    assert (out["y"] == light).sum() == count[light]
    # rows copy the data exactly
    pd.testing.assert_frame_equal(
        out[["x", "y", "id"]].reset_index(drop=True),
        data.iloc[out["source_row"]].reset_index(drop=True),
    )


@pytest.mark.parametrize("ratio", [1, 2, 3.3, 0.5, 0.25])
def test_undersampling_keeps_the_weighted_class_and_a_share_of_the_other(ratio):
    data = _data()
    out = cc.resample_classes(data, label="y", ratios=[ratio], resampling="under", rng=2)
    heavy = 1 if ratio >= 1 else 0
    weight = ratio if ratio >= 1 else 1 / ratio
    light_count = int((data["y"] != heavy).sum())
    assert (out["y"] == heavy).sum() == (data["y"] == heavy).sum()
    assert (out["y"] != heavy).sum() == max(1, round(light_count / weight))
    assert out["id"].is_unique  # without replacement


def test_many_ratios_are_stacked_in_order_and_the_data_is_not_modified():
    data = _data()
    before = data.copy()
    out = cc.resample_classes(data, label="y", ratios=[5, 1, 0.2], rng=3)
    assert list(out["ratio"].unique()) == [5.0, 1.0, 0.2]
    assert list(out.columns) == ["ratio", "source_row", "x", "y", "id"]
    pd.testing.assert_frame_equal(data, before)
    one = out[out["ratio"] == 1].drop(columns=["ratio", "source_row"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(one, data)


def test_polars_input_and_pos_label():
    data = _data().assign(y=lambda d: np.where(d["y"] == 1, "M", "R"))
    out = cc.resample_classes(pl.from_pandas(data), label="y", ratios=[2], pos_label="M", rng=4)
    assert (out["y"] == "M").sum() == 2 * (data["y"] == "M").sum()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"ratios": []}, r"ratios=\[\] must be a non-empty list"),
        ({"ratios": [2, 0]}, r"ratios\[1\]=0 must be greater than 0"),
        ({"ratios": [np.inf]}, r"ratios\[0\]=inf must be a finite number"),
        ({"ratios": 2}, r"ratios=2 must be a non-empty list"),
        ({"ratios": [2], "resampling": "smote"}, r"resampling='smote' is not an option"),
        ({"ratios": [2], "label": "z"}, r"'z'"),
    ],
)
def test_refusals(kwargs, message):
    kwargs = {"label": "y", **kwargs}
    with pytest.raises(cc.CostchartError, match=message):
        cc.resample_classes(_data(), **kwargs)


def test_one_class_is_refused():
    data = pd.DataFrame({"x": [1.0, 2.0], "y": [1, 1]})
    with pytest.raises(cc.CostchartError, match="no negative instances"):
        cc.resample_classes(data, label="y", ratios=[2])


@pytest.mark.parametrize("ratio", [1e9, 1e-300])
def test_oversampling_beyond_the_row_limit_is_refused(ratio):
    with pytest.raises(cc.CostchartError, match=r"more than 100,000,000; pass a ratio nearer 1"):
        cc.resample_classes(_data(), label="y", ratios=[ratio])


@pytest.mark.parametrize("resampling", ["over", "under"])
def test_method_is_the_deprecated_name_of_resampling(resampling):
    data = {"x": [0.1, 0.4, 0.35, 0.8, 0.7], "y": [0, 0, 1, 1, 0]}
    expected = cc.resample_classes(data, label="y", ratios=[2.5], resampling=resampling, rng=0)
    with pytest.warns(
        FutureWarning,
        match=rf"resample_classes\(method='{resampling}'\) is deprecated.*"
        rf"pass resampling='{resampling}'",
    ):
        given = cc.resample_classes(data, label="y", ratios=[2.5], method=resampling, rng=0)
    pd.testing.assert_frame_equal(given, expected)
    with pytest.raises(cc.CostchartError, match=r"method= is the deprecated name of resampling="):
        cc.resample_classes(data, label="y", ratios=[2], method="over", resampling="over")
