"""One meaning of ``weight=`` everywhere: a column of non-negative instance weights.

Whole-number weights must give exactly the result of repeating each row ``weight`` times
(weight 0: the row dropped); functions that resample instances refuse fractional weights;
the weight column is never modified.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._io.errors import CostchartError


def _data(seed: int = 0, n: int = 40, grouped: bool = False) -> pd.DataFrame:
    """Small random data with tied scores, both classes in every group, whole weights."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        {
            "g": np.repeat(["u", "v"], n // 2) if grouped else "u",
            "s": rng.integers(1, 10, n) / 10,  # probabilities with many ties
            "y": np.tile([1, 0], n // 2),
            "w": rng.integers(0, 4, n).astype(float),
            "amount": rng.integers(1, 20, n).astype(float),
        }
    )
    frame.loc[frame.index[:4], "w"] = [1.0, 2.0, 1.0, 3.0]  # keep both classes weighted
    frame.loc[frame.index[n // 2 : n // 2 + 4], "w"] = [2.0, 1.0, 1.0, 2.0]
    return frame


def _repeated(frame: pd.DataFrame) -> pd.DataFrame:
    """Each row repeated ``w`` times (weight 0: dropped)."""
    return frame.loc[frame.index.repeat(frame["w"].astype(int))].reset_index(drop=True)


def _fractional(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.copy()
    frame.loc[frame.index[5], "w"] = 0.5
    return frame


def _same(weighted: pd.DataFrame, repeated: pd.DataFrame, exact: bool = False) -> None:
    weighted, repeated = weighted.reset_index(drop=True), repeated.reset_index(drop=True)
    assert list(weighted.columns) == list(repeated.columns)
    assert len(weighted) == len(repeated)
    for column in weighted.columns:
        a, b = weighted[column].to_numpy(), repeated[column].to_numpy()
        if a.dtype.kind in "iuf" and b.dtype.kind in "iuf":
            if exact:
                np.testing.assert_array_equal(a, b, err_msg=column)
            else:
                np.testing.assert_allclose(a, b, rtol=0, atol=1e-12, err_msg=column)
        else:
            assert (a == b).all(), column


GROUPINGS = [False, True]


def _by(grouped: bool):
    return "g" if grouped else None


def _check_untouched(frame: pd.DataFrame, call) -> None:
    before = frame["w"].copy()
    call(frame)
    pd.testing.assert_series_equal(frame["w"], before)


# bootstrap_band ---------------------------------------------------------------------------

BAND_OPTIONS = [
    {"inference": "exact_bootstrap"},
    {"inference": "exact_bootstrap", "sampling": "full", "interval": "discrete"},
    {"inference": "exact_bootstrap", "threshold": 0.5},
    {"inference": "bootstrap", "n_resamples": 200},
    {"inference": "bootstrap", "n_resamples": 200, "sampling": "full", "threshold": 0.3},
    {"inference": "bootstrap", "n_resamples": 200, "simultaneous": True},
]


@pytest.mark.parametrize("grouped", GROUPINGS)
@pytest.mark.parametrize("options", BAND_OPTIONS)
def test_bootstrap_band_whole_weights_repeat_rows(grouped, options):
    frame = _data(1, grouped=grouped)
    common = {"score": "s", "label": "y", "by": _by(grouped), "pc": np.linspace(0, 1, 21)}
    weighted = cc.bootstrap_band(frame, weight="w", rng=7, **common, **options)
    repeated = cc.bootstrap_band(_repeated(frame), rng=7, **common, **options)
    _same(weighted, repeated)


def test_bootstrap_band_refuses_fractional_weights():
    frame = _fractional(_data(2))
    with pytest.raises(CostchartError, match=r"weight= column 'w'.*row 5: 0\.5.*resamples"):
        cc.bootstrap_band(frame, score="s", label="y", weight="w")
    with pytest.raises(CostchartError, match="Round the weights, or pass frequency weights"):
        cc.bootstrap_band(frame, score="s", label="y", weight="w")
    _check_untouched(_data(2), lambda f: cc.bootstrap_band(f, score="s", label="y", weight="w"))


def test_bootstrap_band_refuses_bad_weights_as_roc_points_does():
    frame = _data(3)
    for bad, match in ((-1.0, "negative values"), (np.nan, "NaN values")):
        broken = frame.copy()
        broken.loc[3, "w"] = bad
        with pytest.raises(CostchartError, match=match):
            cc.bootstrap_band(broken, score="s", label="y", weight="w")
        with pytest.raises(CostchartError, match=match):
            cc.roc_points(broken, score="s", label="y", weight="w")
    with pytest.raises(CostchartError, match="nope"):
        cc.bootstrap_band(frame, score="s", label="y", weight="nope")
    texts = frame.assign(w=frame["w"].astype(str))
    with pytest.raises(CostchartError, match="must hold numbers"):
        cc.bootstrap_band(texts, score="s", label="y", weight="w")


# point estimates and closed-form variances ------------------------------------------------


@pytest.mark.parametrize("grouped", GROUPINGS)
def test_brier_curve_and_pr_points_whole_weights_repeat_rows(grouped):
    frame = _data(4, grouped=grouped)
    common = {"score": "s", "label": "y", "by": _by(grouped)}
    _same(cc.brier_curve(frame, weight="w", **common), cc.brier_curve(_repeated(frame), **common))
    # pr_points takes ROC points, so its weights are those of roc_points(weight=).
    weighted = cc.pr_points(cc.roc_points(frame, weight="w", **common), by=_by(grouped))
    repeated = cc.pr_points(cc.roc_points(_repeated(frame), **common), by=_by(grouped))
    _same(weighted, repeated.astype({c: float for c in ("tp", "fp", "tn", "fn")}, errors="ignore"))


@pytest.mark.parametrize("grouped", GROUPINGS)
def test_brier_curve_accepts_fractional_weights(grouped):
    frame = _data(5, grouped=grouped)
    frame["w"] = frame["w"] / 3  # fractional; a common factor leaves the rates unchanged
    common = {"score": "s", "label": "y", "by": _by(grouped)}
    scaled = frame.assign(w=frame["w"] * 3)
    _same(cc.brier_curve(frame, weight="w", **common), cc.brier_curve(scaled, weight="w", **common))
    _check_untouched(frame, lambda f: cc.brier_curve(f, weight="w", **common))


@pytest.mark.parametrize("grouped", GROUPINGS)
@pytest.mark.parametrize("inference", ["delong", "exact_bootstrap"])
def test_auc_ci_whole_weights_repeat_rows(grouped, inference):
    frame = _data(6, grouped=grouped)
    common = {"score": "s", "label": "y", "by": _by(grouped), "inference": inference}
    weighted = cc.auc_ci(frame, weight="w", **common)
    _same(weighted, cc.auc_ci(_repeated(frame), **common))
    _check_untouched(frame, lambda f: cc.auc_ci(f, weight="w", **common))


def test_auc_ci_refuses_fractional_weights():
    frame = _fractional(_data(7))
    with pytest.raises(CostchartError, match=r"auc_ci's DeLong variance resamples whole"):
        cc.auc_ci(frame, score="s", label="y", weight="w")
    with pytest.raises(CostchartError, match=r"row 5: 0\.5.*auc_ci's bootstrap"):
        cc.auc_ci(frame, score="s", label="y", weight="w", inference="exact_bootstrap")


@pytest.mark.parametrize("grouped", GROUPINGS)
def test_net_benefit_whole_weights_repeat_rows(grouped):
    frame = _data(8, grouped=grouped)
    common = {"score": "s", "label": "y", "by": _by(grouped), "thresholds": [0.15, 0.5, 0.75]}
    _same(cc.net_benefit(frame, weight="w", **common), cc.net_benefit(_repeated(frame), **common))
    _check_untouched(frame, lambda f: cc.net_benefit(f, weight="w", **common))


def test_net_benefit_refuses_fractional_weights():
    with pytest.raises(CostchartError, match=r"weight= column 'w'.*net_benefit's band"):
        cc.net_benefit(_fractional(_data(9)), score="s", label="y", weight="w")


def test_weight_zero_is_a_dropped_row():
    frame = _data(10).assign(w=1.0)
    frame.loc[[6, 7, 11], "w"] = 0.0
    kept = frame[frame["w"] > 0]
    common = {"score": "s", "label": "y"}
    for function in (cc.brier_curve, cc.auc_ci, cc.net_benefit):
        _same(function(frame, weight="w", **common), function(kept, **common))
    band = {"pc": [0.2, 0.5], "inference": "bootstrap", "n_resamples": 200, "rng": 3}
    _same(
        cc.bootstrap_band(frame, weight="w", **common, **band),
        cc.bootstrap_band(kept, **common, **band),
    )


# rociv and auciv ----------------------------------------------------------------------------


@pytest.mark.parametrize("grouped", GROUPINGS)
def test_rociv_whole_weights_repeat_rows(grouped):
    frame = _data(11, grouped=grouped)
    common = {"score": "s", "label": "y", "amount": "amount", "by": _by(grouped)}
    weighted = cc.rociv(frame, weight="w", **common)
    repeated = cc.rociv(_repeated(frame), **common)
    _same(weighted, repeated.astype({c: float for c in ("tp", "fp", "tn", "fn")}))
    _same(cc.auciv(frame, weight="w", **common), cc.auciv(_repeated(frame), **common))
    _check_untouched(frame, lambda f: cc.rociv(f, weight="w", **common))


def test_rociv_accepts_fractional_weights_and_refuses_bad_ones():
    frame = _data(12)
    common = {"score": "s", "label": "y", "amount": "amount"}
    halves = cc.rociv(frame.assign(w=frame["w"] / 2), weight="w", **common)
    whole = cc.rociv(frame, weight="w", **common)
    _same(halves[["threshold", "fpr", "tpr"]], whole[["threshold", "fpr", "tpr"]])
    broken = frame.copy()
    broken.loc[2, "w"] = -1.0
    with pytest.raises(CostchartError, match=r"column 'w' has 1 negative values"):
        cc.rociv(broken, weight="w", **common)
    with pytest.raises(CostchartError, match="nope"):
        cc.rociv(frame, weight="nope", **common)


# difference_band --------------------------------------------------------------------------


def _paired(seed: int, grouped: bool) -> pd.DataFrame:
    """Two classifiers' scores on the same instances; one whole weight per instance."""
    frame = _data(seed, grouped=grouped).assign(instance=lambda d: np.arange(len(d)))
    rng = np.random.default_rng(seed + 1)
    other = frame.assign(s=rng.integers(1, 10, len(frame)) / 10)
    return pd.concat([frame.assign(m="a"), other.assign(m="b")], ignore_index=True)


def _paired_repeated(frame: pd.DataFrame) -> pd.DataFrame:
    """Each instance repeated ``w`` times, every copy a new instance, in both classifiers."""
    copies = frame.loc[frame.index.repeat(frame["w"].astype(int))].copy()
    copies["instance"] = (
        copies["instance"].astype(str)
        + "_"
        + copies.groupby(["m", "instance"]).cumcount().astype(str)
    )
    return copies.reset_index(drop=True)


@pytest.mark.parametrize("grouped", GROUPINGS)
@pytest.mark.parametrize(
    "options",
    [
        {"inference": "exact_bootstrap"},
        {"inference": "exact_bootstrap", "interval": "discrete", "sampling": "full"},
        {"inference": "exact_bootstrap", "threshold": (0.5, 0.4)},
    ],
)
def test_difference_band_whole_weights_repeat_rows(grouped, options):
    frame = _paired(3, grouped)
    common = {
        "score": "s",
        "label": "y",
        "classifier": "m",
        "instance": "instance",
        "by": _by(grouped),
        "pc": np.linspace(0.05, 0.95, 19),
        **options,
    }
    weighted = cc.difference_band(frame, weight="w", **common)
    repeated = cc.difference_band(_paired_repeated(frame), **common)
    _same(weighted, repeated)
    _check_untouched(frame, lambda f: cc.difference_band(f, weight="w", **common))


def test_difference_band_refuses_fractional_and_unequal_weights():
    frame = _paired(4, False)
    common = {"score": "s", "label": "y", "classifier": "m", "instance": "instance"}
    fractional = frame.copy()
    fractional.loc[fractional.index[5], "w"] = 0.5
    with pytest.raises(CostchartError, match=r"not whole numbers .*difference_band's bootstrap"):
        cc.difference_band(fractional, weight="w", **common)
    unequal = frame.copy()
    unequal.loc[len(frame) // 2, "w"] = 7.0  # instance 0 of classifier b
    with pytest.raises(
        CostchartError, match=r"instance 0 the weight 1 in one classifier's row and 7"
    ):
        cc.difference_band(unequal, weight="w", **common)


def test_all_zero_weights_are_refused_with_the_reason():
    frame = _paired(5, False).assign(w=0.0)
    common = {"score": "s", "label": "y", "classifier": "m", "instance": "instance"}
    with pytest.raises(CostchartError, match=r"all weights in column 'w' are 0"):
        cc.difference_band(frame, weight="w", **common)
    with pytest.raises(CostchartError, match=r"all weights are 0; ROC analysis needs"):
        cc.rociv(frame, score="s", label="y", amount="amount", weight="w")


@pytest.mark.parametrize(
    ("weights", "missing"), [([0, 1, 0, 1], "positives"), ([1, 0, 1, 0], "negatives")]
)
@pytest.mark.parametrize(
    "call",
    [
        lambda d: cc.roc_points(d, score="s", label="y", weight="w"),
        lambda d: cc.roc_points(d, score="s", label="y", weight="w", bins=2),
        lambda d: cc.pr_points(d, score="s", label="y", weight="w"),
        lambda d: cc.bootstrap_band(d, score="s", label="y", weight="w", pc=[0.5]),
    ],
)
def test_a_class_of_weight_zero_is_named_as_such(weights, missing, call):
    # The label column has both classes: "no positives, check pos_label" would mislead.
    data = {"s": [0.9, 0.1, 0.8, 0.3], "y": [1, 0, 1, 0], "w": weights}
    with pytest.raises(
        CostchartError,
        match=rf"^the {missing} of column 'y' all have weight 0 in column 'w'; ROC analysis "
        r"needs both classes with weight above 0; check the weights$",
    ):
        call(data)


def test_a_group_whose_class_has_weight_zero_is_left_out_with_the_reason():
    data = {"s": [0.9, 0.1, 0.8, 0.3], "y": [1, 0, 1, 0], "w": [0, 1, 1, 1], "g": [1, 1, 2, 2]}
    with pytest.warns(
        cc.CostchartWarning,
        match=r"group \{'g': 1\}: the positives of column 'y' all have weight 0 in column 'w'",
    ):
        points = cc.roc_points(data, score="s", label="y", weight="w", by="g")
    assert set(points["g"]) == {2}


def test_auc_test_whole_weights_repeat_instances():
    frame = _paired(6, False)
    common = {"score": "s", "label": "y", "classifier": "m", "instance": "instance"}
    weighted = cc.auc_test(frame, weight="w", **common)
    repeated = cc.auc_test(_paired_repeated(frame), **common)
    _same(weighted, repeated)
    fractional = frame.copy()
    fractional.loc[fractional.index[5], "w"] = 0.5
    with pytest.raises(CostchartError, match=r"not whole numbers .*auc_test's paired test"):
        cc.auc_test(fractional, weight="w", **common)
