"""Every bad input named in the design raises CostchartError with a message that names the
column or parameter, the value and the fix."""

import warnings

import numpy as np
import pandas as pd
import pytest

import costchart as cc

GOOD = {"s": [0.1, 0.4, 0.35, 0.8], "y": [0, 0, 1, 1]}


def _data(**changes):
    data = dict(GOOD)
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"data": _data(s=[0.1, np.nan, 0.3, np.nan])},
            r"column 's' has 2 NaN values \(first at position 1\); drop or impute them",
        ),
        (
            {"data": _data(s=[0.1, 0.2, np.inf, 0.3])},
            r"column 's' has 1 infinite values \(first at position 2, inf\); drop or impute them",
        ),
        (
            {"data": _data(s=["a", "b", "c", "d"])},
            r"column 's' must hold numbers, but holds text such as 'a'; convert it to a numeric dtype",
        ),
        (
            {"data": pd.DataFrame(_data(s=[0.1, "x", 0.3, 0.4]))},
            r"column 's' must hold numbers, but holds text such as 'x'; convert it",
        ),
        (
            {"data": _data(y=[0, 1, 2, 1])},
            r"column 'y' must have two classes, but has 3 distinct values \(0, 1, 2\); map it",
        ),
        (
            {"data": _data(y=["a", "b", "a", "b"])},
            r"column 'y' has the values 'a', 'b'; say which one is the positive class with pos_label=",
        ),
        (
            {"data": _data(y=["a", "b", "a", "b"]), "pos_label": "c"},
            r"pos_label='c' is not a value of column 'y'; pass one of 'a', 'b'",
        ),
        (
            {"data": _data(y=[1, 1, 1, 1])},
            r"column 'y' has no negatives; ROC analysis needs both classes. Check pos_label",
        ),
        (
            {"data": _data(y=["a", None, "a", "b"]), "pos_label": "a"},
            r"column 'y' has 1 missing values \(first at position 1\); drop those rows",
        ),
        (
            {"data": {"s": [0.1, 0.2, 0.3], "y": [0, 1]}},
            r"the arrays of data differ in length \('s' has 3, 'y' has 2\); pass arrays of equal length",
        ),
        (
            {"data": GOOD, "score": "scores"},
            r"data has no column 'scores'; available columns: 's', 'y'. Pass the name of an existing column",
        ),
        (  # a file of semicolons read with commas: one column, the whole header
            {"data": pd.DataFrame({"s;y": ["0.1;0", "0.9;1"]}), "score": "s"},
            r"data has no column 's'; available columns: 's;y'\. Pass the name of an existing "
            r"column\. The only column's name holds ';': the file seems to separate its columns "
            r"by it; read it with sep=';' \(e\.g\. pandas\.read_csv\(path, sep=';'\)\)",
        ),
        (
            {"data": pd.DataFrame({"s\ty": ["0.1\t0"]}), "score": "s"},
            r"holds a tab: the file seems to separate its columns by it; read it with sep='\\t'",
        ),
        (
            {"data": pd.DataFrame(GOOD), "label": "label"},
            r"data has no column 'label'; available columns: 's', 'y'",
        ),
        (
            {"data": _data(w=[1.0, -2.0, 1.0, 1.0]), "weight": "w"},
            r"column 'w' has 1 negative values \(first at position 1, -2\.0\); pass non-negative numbers",
        ),
        (
            {"data": _data(w=[1.0, np.nan, 1.0, 1.0]), "weight": "w"},
            r"column 'w' has 1 NaN values \(first at position 1\); pass finite, non-negative numbers",
        ),
        (
            {"data": _data(tpr=[0, 0, 1, 1]), "by": "tpr"},
            r"by=\['tpr'\] includes 'tpr', a column name costchart writes itself; rename that grouping column",
        ),
        (
            {"data": [1, 2, 3]},
            r"data must be a pandas, polars or pyarrow DataFrame or a dict of arrays; got list",
        ),
        (
            {"data": GOOD, "by": [1]},
            r"by=\[1\] must be a column name or a list of column names",
        ),
    ],
)
def test_roc_points_refuses(kwargs, message):
    arguments = {"score": "s", "label": "y", **kwargs}
    data = arguments.pop("data")
    with pytest.raises(cc.CostchartError, match=message):
        cc.roc_points(data, **arguments)


def test_all_groups_one_class():
    data = {"g": ["a", "b"], "s": [1.0, 2.0], "y": [1, 1]}
    with (
        pytest.warns(cc.CostchartWarning),
        pytest.raises(
            cc.CostchartError, match=r"no group of \['g'\] has both classes in column 'y'"
        ),
    ):
        cc.roc_points(data, score="s", label="y", by="g")


def test_error_is_a_value_error():
    with pytest.raises(ValueError, match="NaN"):
        cc.roc_points(_data(s=[np.nan] * 4), score="s", label="y")


@pytest.mark.parametrize(
    ("data", "by", "message"),
    [
        (
            {"tp": [1, 2], "fn": [1, 1], "fp": [1, 1], "tn": [1, 1]},
            None,
            r"data has 2 rows, but from_confusion takes one row per classifier; pass by=",
        ),
        (
            {"tp": [-1], "fn": [1], "fp": [1], "tn": [1]},
            None,
            r"column 'tp' has 1 negative values \(first at position 0, -1\.0\)",
        ),
        (  # no pos_label to check: the count columns are named
            {"tp": [0], "fn": [0], "fp": [1], "tn": [1]},
            None,
            r"^the counts 'tp' \+ 'fn' are 0, so there are no positives; ROC analysis needs "
            r"both classes\. Pass counts whose 'tp' \+ 'fn' is above 0$",
        ),
        (
            {"tp": [1], "fn": [1], "fp": [0], "tn": [0]},
            None,
            r"^the counts 'fp' \+ 'tn' are 0, so there are no negatives",
        ),
        (
            {"n": ["a", "b"], "tp": [0, 0], "fn": [0, 0], "fp": [1, 2], "tn": [3, 4]},
            "n",
            r"no group of \['n'\] has both classes in the counts \('tp' \+ 'fn' positives, "
            r"'fp' \+ 'tn' negatives\)",
        ),
        (
            {"tp": [True], "fn": [1], "fp": [1], "tn": [1]},
            None,
            r"column 'tp' \(tp=\) holds booleans, not counts; pass a column of counts",
        ),
        (
            {"tp": [1], "fn": [1], "fp": [1], "tn": pd.array([True], dtype="boolean")},
            None,
            r"column 'tn' \(tn=\) holds booleans",
        ),
        (
            {"tp": [1], "fn": [1], "fp": [1], "tn": np.array([False], dtype=object)},
            None,
            r"column 'tn' \(tn=\) holds booleans",
        ),
        (  # one boolean among numbers: True would count as 1
            {"tp": np.array([True, 3], dtype=object), "fn": [1, 2], "fp": [1, 1], "tn": [3, 3]},
            None,
            r"column 'tp' \(tp=\) holds booleans",
        ),
    ],
)
def test_from_confusion_refuses(data, by, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cc.CostchartWarning)  # groups left out, then refused
        with pytest.raises(cc.CostchartError, match=message):
            cc.from_confusion(data, tp="tp", fn="fn", fp="fp", tn="tn", by=by)
    if by is None:  # confusion_band reads its counts through from_confusion
        with pytest.raises(cc.CostchartError, match=message):
            cc.confusion_band(data, tp="tp", fn="fn", fp="fp", tn="tn", pc=[0.5])


@pytest.mark.parametrize(
    ("columns", "message"),
    [
        ({"tp": "TP", "fn": "TP", "fp": "FP", "tn": "TN"}, r"^tp= and fn= are both column 'TP'"),
        ({"tp": "TP", "fn": "FN", "fp": "FP", "tn": "FP"}, r"^fp= and tn= are both column 'FP'"),
        ({"tp": "TP", "fn": "FN", "fp": "TP", "tn": "TN"}, r"^tp= and fp= are both column 'TP'"),
    ],
)
@pytest.mark.parametrize("function", ["from_confusion", "confusion_band"])
def test_one_column_for_two_counts_is_refused(columns, message, function):
    data = {"TP": [3], "FN": [1], "FP": [2], "TN": [6]}
    extra = {"pc": [0.5]} if function == "confusion_band" else {}
    with pytest.raises(cc.CostchartError, match=message + r"; each count needs its own column"):
        getattr(cc, function)(data, **columns, **extra)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: cc.roc_hull(pd.DataFrame({"fpr": [0.5, 1.2], "tpr": [0.5, 0.5]})),
            r"column 'fpr' of points must hold rates in \[0, 1\], but has 1\.2 at position 1",
        ),
        (
            lambda: cc.roc_hull(pd.DataFrame({"x": [0.5]})),
            r"the table has none of the column sets costchart reads: 'fpr' and 'tpr'.*it has 'x'",
        ),
        (
            lambda: cc.lower_envelope(pd.DataFrame({"pc": [0.0, 1.0], "cost": [0.0, 0.0]})),
            r"points must be a ROC points table \('fpr', 'tpr'\) or a cost-lines table",
        ),
        (
            lambda: cc.lower_envelope(pd.DataFrame({"line": [0], "pc": [0.0], "cost": [0.1]})),
            r"a cost-lines table needs exactly two rows per line, at pc=0 and pc=1",
        ),
        (
            lambda: cc.operating_range(pd.DataFrame({"fpr": [0.1], "tpr": [0.5]}), of="curve"),
            r"of='curve' is not an option; pass one of 'lines', 'envelope'",
        ),
        (
            lambda: cc.cost_at(pd.DataFrame({"fpr": [0.1], "tpr": [0.5]}), [0.5, 1.5]),
            r"pc=1\.5 is outside \[0, 1\]; pass a value in \[0, 1\]",
        ),
        (
            lambda: cc.roc_hull(pd.DataFrame({"fpr": [0.5], "tpr": [0.5]}), by="model"),
            r"by column 'model' is not in points; available: \['fpr', 'tpr'\]",
        ),
    ],
)
def test_table_functions_refuse(call, message):
    with pytest.raises(cc.CostchartError, match=message):
        call()


def test_auc_refuses_curves_that_do_not_run_from_fpr_0_to_1():
    # One point without the corners once gave an area of 0.0.
    with pytest.raises(
        cc.CostchartError,
        match=r"the ROC curve of points runs from fpr=0\.1 to fpr=0\.1, so its area is not "
        r"defined; auc needs a curve from fpr 0 to 1",
    ):
        cc.auc(pd.DataFrame({"fpr": [0.1], "tpr": [0.5]}))
    two = pd.DataFrame({"m": ["a", "a", "b"], "fpr": [0.0, 1.0, 0.3], "tpr": [0.0, 1.0, 0.6]})
    with pytest.raises(cc.CostchartError, match=r"the ROC curve of group \{'m': 'b'\} runs"):
        cc.auc(two, by="m")
    hull = cc.roc_hull(pd.DataFrame({"fpr": [0.1], "tpr": [0.5]}))
    assert cc.auc(hull)["auc"].iat[0] == pytest.approx(0.7)


def test_auc_of_an_empty_table_is_an_empty_table():
    empty = cc.auc(pd.DataFrame({"fpr": [], "tpr": []}))
    assert list(empty.columns) == ["auc"]
    assert len(empty) == 0


def test_from_confusion_with_huge_counts():
    kw = {"tp": "TP", "fn": "FN", "fp": "FP", "tn": "TN"}
    # 2**62 + 2**62 wrapped in int64 and was reported as "no negatives".
    big = {"TP": [2**62], "FN": [2**62], "FP": [2**61], "TN": [3 * 2**61]}
    points = cc.from_confusion(big, **kw)
    np.testing.assert_array_equal(points["tpr"], [0.0, 0.5, 1.0])
    np.testing.assert_array_equal(points["fpr"], [0.0, 0.25, 1.0])
    # Float totals past the float64 range gave NaN rates.
    with pytest.raises(
        cc.CostchartError,
        match=r"the class totals \(tp \+ fn, fp \+ tn\) of data exceed what float64 holds",
    ):
        cc.from_confusion({"TP": [1e308], "FN": [1e308], "FP": [1.0], "TN": [1.0]}, **kw)
    with pytest.raises(cc.CostchartError, match=r"data is empty; from_confusion takes one row"):
        cc.from_confusion({"TP": [], "FN": [], "FP": [], "TN": []}, **kw)


def test_real_numbers_keeps_numbers_and_refuses_text_and_bools():
    from costchart._io.validation import real_numbers

    np.testing.assert_array_equal(real_numbers([1, 2.5], "x"), [1.0, 2.5])
    assert real_numbers(np.int64(3), "x").shape == ()
    np.testing.assert_array_equal(real_numbers(np.array([0.5], dtype=object), "x"), [0.5])
    for bad in ("1", b"1", False, [1, True], [1, [2]], None, {"a": 1}):
        with pytest.raises(cc.CostchartError, match=r"x(=.*)? must be a number or numbers"):
            real_numbers(bad, "x")


@pytest.mark.parametrize("bad", [[1], (1, 0), np.array([1])])
def test_pos_label_must_be_one_value(bad):
    from costchart._io.data_checks import binary_labels

    with pytest.raises(cc.CostchartError, match=r"pos_label=.* must be one value"):
        binary_labels(np.array([0, 1, 1]), "column 'y'", bad)


def test_costs_from_benefits_needs_a_benefit_mapping_and_column_names():
    data = {"y": [1, 0], "amount": [10.0, 5.0]}
    with pytest.raises(cc.CostchartError, match=r"benefit=-1 must be a dict from"):
        cc.costs_from_benefits(data, label="y", amount="amount", benefit=-1)
    with pytest.raises(cc.CostchartError, match=r"label= takes a column name, but got a dict"):
        cc.costs_from_benefits(data, label={"y": 1}, amount="amount", benefit={})


@pytest.mark.parametrize("bad", ["0.5", True, ["0.2", "0.4"]])
def test_probabilities_refuse_text_and_booleans(bad):
    from costchart._io.validation import probabilities

    with pytest.raises(cc.CostchartError, match=r"pc.* must be a number or numbers, not"):
        probabilities(bad, "pc")


@pytest.mark.parametrize(
    ("check", "value", "message"),
    [
        ("unit_top", 0, r"y_max=0\.0 is outside \(0, 1\]; pass a value in \(0, 1\]"),
        ("unit_top", "a", r"y_max='a' must be a number"),
        ("panel_size", 49, r"size=49 must be a whole number of pixels, at least 50 and at most"),
        ("panel_size", 280.0, r"size=280\.0 must be a whole number of pixels"),
        ("text", 3, r"title=3 must be a string \(or None for no title\)"),
        ("label_value", [1], r"pos_label=\[1\] must be one label value \(e\.g\. 1 or 'spam'\)"),
        ("label_value", (1, 0), r"pos_label=\(1, 0\) must be one label value"),
        ("operating_points", "0.3", r"pc='0\.3' must be a number or numbers, not str; pass"),
        ("operating_points", np.nan, r"pc=nan must be a finite number; pass a value in \[0, 1\]"),
        ("operating_points", [0.2, np.nan], r"pc=nan is outside \[0, 1\]"),
        ("operating_points", {"a": 1.5}, r"pc=1\.5 is outside \[0, 1\]"),
        ("operating_points", True, r"pc=True must be a number or numbers, not bool"),
    ],
)
def test_the_word_checks_refuse_naming_the_parameter(check, value, message):
    from costchart._io import validation

    name = {"unit_top": "y_max", "panel_size": "size", "text": "title"}.get(check)
    function = getattr(validation, check)
    with pytest.raises(cc.CostchartError, match=message):
        function(value, name) if name else function(value)


@pytest.mark.parametrize(
    ("check", "value", "expected"),
    [
        ("unit_top", 1, 1.0),
        ("panel_size", np.int64(280), 280),
        ("label_value", "spam", "spam"),
        ("label_value", np.int64(1), np.int64(1)),  # returned as given
        ("operating_points", 0.0, 0.0),
        ("operating_points", [0.0, 1.0], [0.0, 1.0]),
        ("operating_points", {"3:1": 0.75}, {"3:1": 0.75}),
    ],
)
def test_the_word_checks_accept_values_inside(check, value, expected):
    from costchart._io import validation

    result = getattr(validation, check)(value)
    assert result == expected and type(result) is type(expected)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"bins": np.int64(0)}, r"^bins=0 is out of range"),
        (
            {"pos_label": np.int64(5)},
            r"^pos_label=5 is not a value of column 'y'; pass one of 0, 1$",
        ),
        ({"pos_label": np.str_("x")}, r"^pos_label='x' is not a value of column 'y'"),
    ],
)
def test_numpy_values_are_shown_as_typed(options, message):
    # numpy 2 prints np.int64(5); a message shows the value as a user writes it
    with pytest.raises(cc.CostchartError, match=message):
        cc.roc_points({"s": [0.1, 0.9], "y": [0, 1]}, score="s", label="y", **options)
