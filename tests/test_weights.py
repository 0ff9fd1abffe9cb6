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
from costchart._errors import CostchartError


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
    {"method": "exact"},
    {"method": "exact", "sampling": "full", "distribution": "exact"},
    {"method": "exact", "threshold": 0.5},
    {"method": "resample", "n_resamples": 200},
    {"method": "resample", "n_resamples": 200, "sampling": "full", "threshold": 0.3},
    {"method": "resample", "n_resamples": 200, "simultaneous": True},
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
