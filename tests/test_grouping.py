"""Explicit grouping: a column the user adds is never silently a grouping.

Tables costchart writes carry their grouping. After any pandas operation a later call
either groups exactly as before or refuses, naming the columns and the fix (``by=``).
"""

import numpy as np
import pandas as pd
import polars as pl
import pytest

import costchart as cc
from costchart._io.groups import split_groups

DATA = pd.DataFrame(
    {
        "classifier": ["a"] * 8 + ["b"] * 8,
        "s": [8, 7, 6, 5, 4, 3, 2, 1] * 2,
        "y": [1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0],
    }
)
POINTS = cc.roc_points(DATA, score="s", label="y", by="classifier")
EXPECTED = cc.lower_envelope(POINTS)
REFUSED = r"say which columns tell its curves apart"


def _same(table):
    pd.testing.assert_frame_equal(cc.lower_envelope(table).reset_index(drop=True), EXPECTED)


def test_tables_carry_the_grouping_they_were_made_with():
    assert POINTS.attrs["costchart_by"] == ["classifier"]
    for table in (cc.roc_hull(POINTS), EXPECTED, cc.to_cost_lines(POINTS), cc.auc(POINTS)):
        assert table.attrs["costchart_by"] == ["classifier"]
    assert cc.roc_points(DATA, score="s", label="y", by=()).attrs["costchart_by"] == []


def test_an_added_column_that_cannot_split_a_curve_is_ignored():
    _same(POINTS.assign(note="from the 2026 run"))
    _same(POINTS.assign(family=POINTS["classifier"].map({"a": "tree", "b": "bayes"})))


def test_an_added_column_never_groups_and_a_row_index_is_ignored():
    # The recorded grouping is the grouping, whatever the values of columns added since.
    rows = POINTS.assign(row=np.arange(len(POINTS)))
    pd.testing.assert_frame_equal(cc.lower_envelope(rows).reset_index(drop=True), EXPECTED)
    _same(POINTS.reset_index())  # 'index': one value per row, never a grouping
    _same(POINTS.reset_index().reset_index())  # 'level_0' too


def test_filtering_and_sorting_keep_the_grouping():
    _same(POINTS[POINTS["fpr"] >= 0].sort_values(["classifier", "fpr", "tpr"]))
    one = POINTS[POINTS["classifier"] == "a"].drop(columns="classifier")
    alone = cc.lower_envelope(one)  # the dropped grouping column is simply gone
    assert list(alone.columns) == list(EXPECTED.columns[1:])


def test_concatenated_tables_of_one_grouping_keep_it():
    parts = [POINTS[POINTS.classifier == k] for k in ("a", "b")]
    _same(pd.concat(parts, ignore_index=True))


def test_concatenating_curves_under_a_new_label_is_refused():
    a = cc.roc_points(DATA[DATA.classifier == "a"], score="s", label="y")
    b = cc.roc_points(DATA[DATA.classifier == "b"], score="s", label="y")
    both = pd.concat([a.assign(run="first"), b.assign(run="second")], ignore_index=True)
    with pytest.raises(
        cc.CostchartError, match=r"its column 'run' tells them apart: pass by=\['run'\]"
    ):
        cc.lower_envelope(both)
    assert cc.lower_envelope(both, by="run")["run"].unique().tolist() == ["first", "second"]
    # by= said explicitly pools the two curves into one envelope, each checked on its own.
    pooled = cc.lower_envelope(both, by=[])
    separate = cc.lower_envelope(both, by="run")
    assert pooled["cost"].max() <= separate.groupby("run")["cost"].max().min() + 1e-12


def test_a_merge_drops_the_grouping_and_is_refused_with_the_fix():
    names = pd.DataFrame({"classifier": ["a", "b"], "family": ["tree", "bayes"]})
    merged = POINTS.merge(names, on="classifier")
    with pytest.raises(cc.CostchartError, match=r"carries no grouping .*merge"):
        cc.lower_envelope(merged)
    pd.testing.assert_frame_equal(
        cc.lower_envelope(merged, by="classifier").reset_index(drop=True), EXPECTED
    )


def test_a_renamed_grouping_column_is_refused():
    renamed = POINTS.rename(columns={"classifier": "model"})
    with pytest.raises(cc.CostchartError, match=r"\('model'\)"):
        cc.lower_envelope(renamed)


def test_a_polars_round_trip_asks_for_the_grouping():
    back = pl.from_pandas(POINTS).to_pandas()
    with pytest.raises(cc.CostchartError, match=r"carries no grouping.*by=\['classifier'\]"):
        cc.lower_envelope(back)
    with pytest.raises(cc.CostchartError, match=REFUSED):
        cc.lower_envelope(pl.from_pandas(POINTS))
    pd.testing.assert_frame_equal(
        cc.lower_envelope(pl.from_pandas(POINTS), by="classifier"), EXPECTED, check_dtype=False
    )


def test_charts_count_color_and_facet_as_declared():
    back = pl.from_pandas(POINTS).to_pandas()
    spec = cc.cost_chart(back, classifier="classifier").to_dict()  # color declares it
    assert spec["layer"]
    with pytest.raises(
        cc.CostchartError, match=r"\('classifier'\).*by=\['classifier'\] names them in a chart"
    ):
        cc.cost_chart(back)


def test_user_tables_are_not_mutated_by_reading_their_grouping():
    table = pl.from_pandas(POINTS).to_pandas()
    before = dict(table.attrs)
    cc.cost_chart(table, classifier="classifier")
    cc.lower_envelope(table, by="classifier")
    assert table.attrs == before


def test_a_chart_role_on_an_added_column_groups_with_the_carried_grouping():
    family = POINTS.assign(family=POINTS["classifier"].map({"a": "tree", "b": "bayes"}))
    spec = cc.cost_chart(family, classifier="family").to_dict()
    assert spec["layer"]  # grouped by classifier (carried) and family (declared)
    both = pd.concat([POINTS.assign(run="x"), POINTS.assign(run="y")], ignore_index=True)
    assert cc.cost_chart(both, classifier="classifier", facet="run").to_dict()["facet"]
    with pytest.raises(cc.CostchartError, match=r"its column 'run' tells them apart"):
        cc.cost_chart(both, classifier="classifier")


def test_an_unhashable_role_is_refused_not_crashed_on():
    with pytest.raises(cc.CostchartError):
        cc.cost_chart(POINTS, classifier=["classifier"])


def test_charts_take_by_for_a_table_without_its_grouping():
    back = pl.from_pandas(POINTS.assign(fold=1)).to_pandas()
    with pytest.raises(cc.CostchartError, match=r"\('fold'\)"):
        cc.cost_chart(back, classifier="classifier")
    spec = cc.cost_chart(back, classifier="classifier", by=["classifier", "fold"]).to_dict()
    assert spec["layer"]


def test_a_grouping_column_named_like_costcharts_internal_fields_is_refused():
    data = pd.DataFrame({"s": [0.9, 0.1, 0.8, 0.2], "y": [1, 0, 1, 0], "costchart_line": 1})
    with pytest.raises(cc.CostchartError, match="'costchart_line', a column name costchart"):
        cc.roc_points(data, score="s", label="y", by="costchart_line")


def _groups_by_groupby(frame, by):
    """The reference split: pandas' group-by codes, rows group after group."""
    codes = frame.groupby(by, sort=False, dropna=False, observed=True).ngroup().to_numpy()
    return np.argsort(codes, kind="stable"), np.bincount(codes)


@pytest.mark.parametrize("seed", range(6))
def test_groups_whose_rows_are_together_split_as_the_group_by_splits_them(seed):
    from costchart._io import groups as _groups

    rng = np.random.default_rng(seed)
    n = 300
    runs = np.sort(rng.integers(0, 12, n))  # contiguous groups
    cases = {
        "text": pd.DataFrame({"a": np.array(["x", "y", "z"])[runs % 3], "b": runs // 3}),
        "one text column": pd.DataFrame({"a": pd.Series([f"g{r}" for r in runs], dtype="string")}),
        "apart": pd.DataFrame({"a": rng.integers(0, 4, n)}),  # groups interleaved
        "a group again later": pd.DataFrame({"a": np.r_[runs[: n // 2], runs[: n - n // 2]]}),
        "missing": pd.DataFrame({"a": np.where(runs == 3, np.nan, runs * 1.0)}),
        "mixed objects": pd.DataFrame({"a": pd.Series([1, 1.0, "True", "1", (1, 2)] * 60)}),
        "zeros": pd.DataFrame({"a": np.r_[np.zeros(150), -np.zeros(150)]}),
        "categories": pd.DataFrame({"a": pd.Categorical(np.array(["u", "v"])[runs % 2])}),
    }
    for name, frame in cases.items():
        split = split_groups(frame, list(frame.columns))
        order, sizes = _groups_by_groupby(frame, list(frame.columns))
        np.testing.assert_array_equal(split.order, order, err_msg=name)
        np.testing.assert_array_equal(split.sizes, sizes, err_msg=name)
    together = _groups._contiguous_runs(cases["text"], ["a", "b"])
    assert together is not None and together.sum() == n  # the run path was taken
    assert _groups._contiguous_runs(cases["apart"], ["a"]) is None
    assert _groups._contiguous_runs(cases["a group again later"], ["a"]) is None
    assert _groups._contiguous_runs(cases["missing"], ["a"]) is None


KEYED = pd.DataFrame({"s": [0.9, 0.2, 0.7, 0.4, 0.8, 0.1, 0.6, 0.3], "y": [1, 0, 1, 0, 1, 0, 1, 0]})
GROUPED_CALLS = {
    "roc_points": lambda d: cc.roc_points(d, score="s", label="y", by="g"),
    "pr_points": lambda d: cc.pr_points(d, score="s", label="y", by="g"),
    "bootstrap_band": lambda d: cc.bootstrap_band(
        d, score="s", label="y", by="g", inference="exact_bootstrap", pc=[0.5]
    ),
    "to_cost_lines": lambda d: cc.to_cost_lines(
        cc.roc_points(d.assign(g=d["g"].astype(str)), score="s", label="y", by="g").assign(
            g=lambda p: p["g"].map(dict(zip(d["g"].astype(str), d["g"], strict=True)))
        )
    ),
}


@pytest.mark.parametrize("function", sorted(GROUPED_CALLS))
@pytest.mark.parametrize(("true", "number"), [(True, 1), (False, 0.0), (np.True_, 1)])
def test_a_bool_and_an_equal_number_as_keys_are_refused_everywhere(function, true, number):
    """True == 1 in Python: pandas would merge the two groups into one, silently."""
    keys = np.array([true] * 4 + [number] * 4, dtype=object)
    with pytest.raises(
        cc.CostchartError, match=r"column 'g' \(a grouping column\) holds .* which pandas takes"
    ):
        GROUPED_CALLS[function](KEYED.assign(g=keys))
    as_text = GROUPED_CALLS[function](KEYED.assign(g=keys.astype(str)))
    assert as_text["g"].nunique() == 2


def test_split_groups_groups_ordinary_keys_and_refuses_a_bool_beside_a_number():
    """Numbers, text and categories group as before; True beside 1 in a column is refused."""
    frame = pd.DataFrame({"n": [1, 1, 2], "t": ["a", "b", "a"], "c": pd.Categorical(list("xyx"))})
    assert len(split_groups(frame, ["n", "t", "c"])) == 3
    mixed = frame.assign(o=np.array([True, 1, "x"], dtype=object))
    with pytest.raises(
        cc.CostchartError, match=r"column 'o' \(a grouping column\) holds True \(row 0\) and 1"
    ):
        split_groups(mixed, ["o"])
