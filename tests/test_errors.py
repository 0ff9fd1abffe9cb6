"""Warnings point at the user's line, whatever the depth of costchart's own calls.

``warn`` takes the first frame outside the costchart package as the warning's origin;
a fixed ``stacklevel`` would land in costchart itself for calls nested deeper or less
deep. Each test calls a public function from a known line of this file and checks
the warning is attributed to that line.
"""

import inspect
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._io.errors import warn

# Classifier "b" has positives only: a one-class group, left out with a warning.
ONE_CLASS = pd.DataFrame(
    {
        "clf": ["a"] * 6 + ["b"] * 3,
        "score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2, 0.5, 0.6, 0.9],
        "label": [0, 0, 1, 1, 1, 0, 1, 1, 1],
        "cost": [1.0] * 9,
    }
)
ONE_CLASS_MESSAGE = r"group \{'clf': 'b'\} has no negatives; it is left out"


def _line() -> int:
    """The line number of the caller's next line."""
    frame = inspect.currentframe()
    assert frame is not None and frame.f_back is not None
    return frame.f_back.f_lineno + 1


def _assert_attributed(record, line: int) -> None:
    warned = [w for w in record if issubclass(w.category, cc.CostchartWarning)]
    assert len(warned) == 1
    assert Path(warned[0].filename) == Path(__file__)
    assert warned[0].lineno == line


def test_roc_points_one_class_group():
    with pytest.warns(cc.CostchartWarning, match=ONE_CLASS_MESSAGE) as record:
        line = _line()
        cc.roc_points(ONE_CLASS, score="score", label="label", by="clf")
    _assert_attributed(record, line)


def test_roc_points_of_a_lazy_frame():
    polars = pytest.importorskip("polars")
    lazy = polars.from_pandas(ONE_CLASS).lazy()
    with pytest.warns(cc.CostchartWarning, match=ONE_CLASS_MESSAGE) as record:
        line = _line()
        cc.roc_points(lazy, score="score", label="label", by="clf")
    _assert_attributed(record, line)


def test_from_confusion_one_class_group():
    counts = pd.DataFrame(
        {"clf": ["a", "b"], "tp": [3, 0], "fn": [1, 0], "fp": [1, 2], "tn": [4, 5]}
    )
    with pytest.warns(
        cc.CostchartWarning, match=r"group \{'clf': 'b'\} has no positives"
    ) as record:
        line = _line()
        cc.from_confusion(counts, tp="tp", fn="fn", fp="fp", tn="tn", by="clf")
    _assert_attributed(record, line)


def test_rociv_one_class_group():
    with pytest.warns(cc.CostchartWarning, match=ONE_CLASS_MESSAGE) as record:
        line = _line()
        cc.rociv(ONE_CLASS, score="score", label="label", amount="cost", by="clf")
    _assert_attributed(record, line)


def test_bootstrap_band_one_class_group():
    # bootstrap_band -> roc_points -> _points_or_nothing -> warn: one level deeper.
    with pytest.warns(cc.CostchartWarning, match=ONE_CLASS_MESSAGE) as record:
        line = _line()
        cc.bootstrap_band(ONE_CLASS, score="score", label="label", by="clf", pc=[0.5])
    _assert_attributed(record, line)


def test_confusion_band_one_class_group():
    counts = pd.DataFrame(
        {"clf": ["a", "b"], "tp": [3, 0], "fn": [1, 0], "fp": [1, 2], "tn": [4, 5]}
    )
    with pytest.warns(
        cc.CostchartWarning, match=r"group \{'clf': 'b'\} has no positives"
    ) as record:
        line = _line()
        cc.confusion_band(counts, tp="tp", fn="fn", fp="fp", tn="tn", by="clf", pc=[0.5])
    _assert_attributed(record, line)


def test_apply_selection_one_class_group():
    good = ONE_CLASS[ONE_CLASS.clf == "a"]
    selection = cc.selection_table(cc.roc_points(good, score="score", label="label", by="clf"))
    with pytest.warns(cc.CostchartWarning, match=ONE_CLASS_MESSAGE) as record:
        line = _line()
        cc.apply_selection(ONE_CLASS, selection, score="score", label="label", by="clf")
    _assert_attributed(record, line)


def test_roc_average_of_one_curve():
    # roc_average warns itself: one level less deep than roc_points.
    points = cc.roc_points(ONE_CLASS[ONE_CLASS.clf == "a"], score="score", label="label", by="clf")
    with pytest.warns(cc.CostchartWarning, match=r"found one curve in a group") as record:
        line = _line()
        cc.roc_average(points, over="clf")
    _assert_attributed(record, line)


def _user_helper():
    """A user's own function between the test and costchart: the warning points here."""
    return cc.roc_points(ONE_CLASS, score="score", label="label", by="clf")


HELPER_LINE = inspect.getsourcelines(_user_helper)[1] + 2


def test_the_first_frame_outside_costchart_is_the_users_helper():
    with pytest.warns(cc.CostchartWarning, match=ONE_CLASS_MESSAGE) as record:
        _user_helper()
    _assert_attributed(record, HELPER_LINE)


def test_warn_called_from_outside_costchart_points_at_its_caller():
    with pytest.warns(cc.CostchartWarning, match="direct") as record:
        line = _line()
        warn("direct")
    _assert_attributed(record, line)


def test_a_filter_on_the_users_module_applies():
    # Attribution matters for filters: "ignore" for this module silences the warning.
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=cc.CostchartWarning, module=__name__)
        points = cc.roc_points(ONE_CLASS, score="score", label="label", by="clf")
    assert record == []
    assert set(points.clf) == {"a"}
    assert np.isfinite(points.tpr).all()


def test_pipe_from_pandas_points_at_the_users_line():
    points = cc.roc_points(ONE_CLASS[ONE_CLASS.clf == "a"], score="score", label="label", by="clf")
    with pytest.warns(cc.CostchartWarning, match=r"found one curve in a group") as record:
        line = _line()
        points.pipe(cc.roc_average, over="clf")
    _assert_attributed(record, line)


def test_pipe_from_polars_points_at_the_users_line():
    polars = pytest.importorskip("polars")
    data = polars.from_pandas(ONE_CLASS)
    with pytest.warns(cc.CostchartWarning, match=ONE_CLASS_MESSAGE) as record:
        line = _line()
        data.pipe(cc.roc_points, score="score", label="label", by="clf")
    _assert_attributed(record, line)


def test_a_user_callback_inside_pandas_is_the_users_line():
    # costchart is called from a function pandas calls: the user's function is the origin.
    frames = {"x": ONE_CLASS}
    with pytest.warns(cc.CostchartWarning, match=ONE_CLASS_MESSAGE) as record:
        pd.Series(["x"]).map(lambda key: len(_points_of(frames[key])))
    _assert_attributed(record, POINTS_OF_LINE)


def _points_of(data):
    return cc.roc_points(data, score="score", label="label", by="clf")


POINTS_OF_LINE = inspect.getsourcelines(_points_of)[1] + 1
