"""cheapest_regions (which classifier where) against a brute force, and the owner columns
that roc_hull, lower_envelope, iso_performance and selection_table keep when they pool."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart.datasets import load_predictions

TOL = 1e-12


@pytest.fixture(scope="module")
def points() -> pd.DataFrame:
    data = load_predictions()
    return cc.roc_points(data, score="score", label="label", by=["dataset", "classifier"])


@pytest.fixture(scope="module")
def regions(points) -> pd.DataFrame:
    return cc.cheapest_regions(points, by="dataset")


def _lines(points: pd.DataFrame, dataset: str):
    own = points[points["dataset"] == dataset]
    return (
        own["classifier"].to_numpy(),
        own["threshold"].to_numpy(float),
        own["fpr"].to_numpy(float),
        own["tpr"].to_numpy(float),
    )


def _cheapest(fpr, tpr, pc):
    """Every line's cost at every pc, the least, and which lines reach it (to TOL)."""
    cost = fpr[:, None] + pc[None, :] * (1 - tpr - fpr)[:, None]
    least = cost.min(axis=0)
    return cost, least, cost <= least + TOL


def test_the_table_is_what_its_docstring_says(regions):
    assert list(regions.columns) == [
        "dataset",
        "pc_lo",
        "pc_hi",
        "choice",
        "classifier",
        "threshold",
        "classifier_2",
        "threshold_2",
        "cost_lo",
        "cost_hi",
    ]
    assert regions.attrs["costchart_kind"] == "cheapest_regions"
    assert regions.attrs["costchart_by"] == ["dataset"]
    assert regions.attrs["costchart_owners"] == ["classifier"]
    assert set(regions["choice"]) <= {"threshold", "mixture", "always negative", "always positive"}
    mixture = regions["choice"] == "mixture"
    assert mixture.any()  # the bundled data has hybrids: the test covers them
    assert regions.loc[mixture, "classifier_2"].notna().all()
    assert regions.loc[~mixture, "classifier_2"].isna().all()
    assert regions.loc[~mixture, "threshold_2"].isna().all()
    assert (regions.loc[mixture, "pc_lo"] == regions.loc[mixture, "pc_hi"]).all()
    assert (regions.loc[~mixture, "pc_lo"] < regions.loc[~mixture, "pc_hi"]).all()


@pytest.mark.slow
def test_owners_thresholds_intervals_and_costs_equal_a_brute_force(points, regions):
    """The argmin of every classifier's cost lines over a pc grid, mixtures included."""
    for dataset, table in regions.groupby("dataset", sort=False):
        owner, threshold, fpr, tpr = _lines(points, dataset)
        table = table.reset_index(drop=True)
        single = table[table["choice"] != "mixture"].reset_index(drop=True)
        # The intervals tile [0, 1].
        assert single["pc_lo"].iloc[0] == 0 and single["pc_hi"].iloc[-1] == 1
        assert (single["pc_lo"].to_numpy()[1:] == single["pc_hi"].to_numpy()[:-1]).all()
        # 1. A uniform grid, blind to the table: where one ROC point is cheapest, it is the
        #    point of the interval holding that pc, and the interval's owner and threshold
        #    name a line reaching the least cost there.
        grid = np.linspace(0, 1, 20_001)
        _, least, reached = _cheapest(fpr, tpr, grid)
        which = np.minimum(
            np.searchsorted(single["pc_hi"].to_numpy(), grid, side="left"), len(single) - 1
        )
        assert (single["pc_lo"].to_numpy()[which] <= grid).all()
        assert (grid <= single["pc_hi"].to_numpy()[which]).all()
        unique, place = _one_place(fpr, tpr, reached)
        want = np.array(_rates(single, points, dataset)).T[which]
        np.testing.assert_array_equal(place[unique], want[unique])
        for k in np.flatnonzero(unique)[::50]:  # the owners, on a subsample of the grid
            at = np.flatnonzero(reached[:, k])
            _check_owner(single.iloc[which[k]], owner[at], threshold[at], fpr[at], tpr[at])
        line = fpr[reached.argmax(0)] + grid * (1 - tpr - fpr)[reached.argmax(0)]
        np.testing.assert_allclose(line, least, rtol=0, atol=TOL)
        # 2. The runs of the brute-force argmin are the table's intervals, in order: each
        #    interval's middle has one cheapest point, and no run is missed (the grid holds
        #    every interval's middle, the brute force says what is cheapest there).
        middles = (single["pc_lo"].to_numpy() + single["pc_hi"].to_numpy()) / 2
        fine = np.union1d(grid, middles)
        _, _, reached = _cheapest(fpr, tpr, fine)
        unique, place = _one_place(fpr, tpr, reached)
        place = place[unique]
        new_run = np.r_[True, (np.diff(place, axis=0) != 0).any(axis=1)]
        runs = [tuple(p) for p in place[new_run]]
        expected = list(zip(*_rates(single, points, dataset), strict=True))
        assert runs == expected
        # 3. Costs: the least and greatest of the brute-force envelope over each interval.
        every = np.union1d(grid, np.r_[table["pc_lo"], table["pc_hi"]])
        _, least, _ = _cheapest(fpr, tpr, every)
        for row in table.itertuples(index=False):
            inside = least[(every >= row.pc_lo) & (every <= row.pc_hi)]
            assert abs(inside.min() - row.cost_lo) <= TOL
            assert abs(inside.max() - row.cost_hi) <= TOL
        # 4. Mixtures: where the cheapest classifier changes, both components are cheapest
        #    at the mixture's pc, and nowhere else is a change of classifier.
        for i in range(1, len(single)):
            left, right = single.iloc[i - 1], single.iloc[i]
            at_pc = table[(table["choice"] == "mixture") & (table["pc_lo"] == right["pc_lo"])]
            trivial = left["choice"] != "threshold" or right["choice"] != "threshold"
            if trivial or left["classifier"] == right["classifier"]:
                assert at_pc.empty
                continue
            (mixture,) = at_pc.itertuples(index=False)
            assert (mixture.classifier, mixture.threshold) == (
                left["classifier"],
                left["threshold"],
            )
            assert (mixture.classifier_2, mixture.threshold_2) == (
                right["classifier"],
                right["threshold"],
            )
            _, least, reached = _cheapest(fpr, tpr, np.array([mixture.pc_lo]))
            at = np.flatnonzero(reached[:, 0])
            both = set(zip(owner[at], threshold[at], strict=True))
            assert (mixture.classifier, mixture.threshold) in both
            assert (mixture.classifier_2, mixture.threshold_2) in both
            assert abs(least[0] - mixture.cost_lo) <= TOL
            assert mixture.cost_lo == mixture.cost_hi


def _one_place(fpr, tpr, reached):
    """Per pc (a column of ``reached``): whether one ROC point is cheapest, and which."""
    low_f = np.where(reached, fpr[:, None], np.inf).min(0)
    high_f = np.where(reached, fpr[:, None], -1).max(0)
    low_t = np.where(reached, tpr[:, None], np.inf).min(0)
    high_t = np.where(reached, tpr[:, None], -1).max(0)
    unique = (low_f == high_f) & (low_t == high_t)
    return unique, np.column_stack([low_f, low_t])


def _rates(single: pd.DataFrame, points: pd.DataFrame, dataset: str):
    """The ROC point of each interval's classifier and threshold, looked up in the points."""
    fprs, tprs = [], []
    own = points[points["dataset"] == dataset]
    for _, row in single.iterrows():
        if row["choice"] == "always negative":
            fprs.append(0.0)
            tprs.append(0.0)
        elif row["choice"] == "always positive":
            fprs.append(1.0)
            tprs.append(1.0)
        else:
            (match,) = own[
                (own["classifier"] == row["classifier"]) & (own["threshold"] == row["threshold"])
            ].itertuples()
            fprs.append(match.fpr)
            tprs.append(match.tpr)
    return fprs, tprs


def _check_owner(row, owners, thresholds, fpr, tpr):
    """The interval's owner is among the lines cheapest there (trivial: no owner)."""
    if row["choice"] == "always negative":
        assert (fpr == 0).all() and (tpr == 0).all()
        assert pd.isna(row["classifier"])
    elif row["choice"] == "always positive":
        assert (fpr == 1).all() and (tpr == 1).all()
        assert pd.isna(row["classifier"])
    else:
        assert row["choice"] == "threshold"
        assert (row["classifier"], row["threshold"]) in set(zip(owners, thresholds, strict=True))


def test_a_swapped_owner_fails_the_brute_force(points, regions):
    """The check above can fail: an interval given to another classifier is caught."""
    row = regions[(regions["choice"] == "threshold")].iloc[3].copy()
    owner, threshold, fpr, tpr = _lines(points, row["dataset"])
    pc = np.array([(row["pc_lo"] + row["pc_hi"]) / 2])
    _, _, reached = _cheapest(fpr, tpr, pc)
    at = np.flatnonzero(reached[:, 0])
    _check_owner(row, owner[at], threshold[at], fpr[at], tpr[at])
    others = sorted(set(points["classifier"]) - {row["classifier"]})
    row["classifier"] = others[0]
    with pytest.raises(AssertionError):
        _check_owner(row, owner[at], threshold[at], fpr[at], tpr[at])


def test_mixture_rows_name_both_ends_of_a_hull_edge():
    data = {
        "s": [5, 4, 3, 2, 1] * 2,
        "y": [0, 1, 1, 1, 0, 1, 0, 1, 0, 1],
        "model": ["a"] * 5 + ["b"] * 5,
    }
    points = cc.roc_points(data, score="s", label="y", by="model")
    table = cc.cheapest_regions(points, by=[])
    assert table["choice"].tolist() == ["threshold", "mixture", "threshold"]
    assert table["model"].tolist() == ["b", "b", "a"]
    assert table["model_2"].isna().tolist() == [True, False, True]
    assert table["model_2"].iloc[1] == "a"
    hull = cc.roc_hull(points, by=[])
    # The mixture's pc is where the hull edge between b's and a's vertices is optimal.
    edge = hull[(hull["model"] == "a")].iloc[0]
    assert table["pc_lo"].iloc[1] == edge["pc_lo"]


def test_without_pooling_the_table_is_each_classifiers_own_thresholds(points):
    own = cc.cheapest_regions(points)
    assert list(own.columns[:2]) == ["dataset", "classifier"]
    assert "classifier_2" not in own.columns
    assert (own["choice"] != "mixture").all()  # no other classifier to mix with
    selection = cc.selection_table(points)
    pd.testing.assert_frame_equal(
        own[["dataset", "classifier", "pc_lo", "pc_hi"]],
        selection[["dataset", "classifier", "pc_lo", "pc_hi"]],
    )


def test_cost_lines_give_the_same_table(points, regions):
    from_lines = cc.cheapest_regions(cc.to_cost_lines(points), by="dataset")
    pd.testing.assert_frame_equal(
        from_lines.drop(columns=["cost_lo", "cost_hi"]),
        regions.drop(columns=["cost_lo", "cost_hi"]),
    )
    np.testing.assert_allclose(from_lines["cost_lo"], regions["cost_lo"], atol=TOL)


def test_empty_points_give_an_empty_table(points):
    empty = cc.cheapest_regions(points.iloc[:0], by="dataset")
    assert len(empty) == 0
    assert "classifier_2" in empty.columns


def test_a_column_named_as_a_second_owner_is_refused(points):
    clash = points.rename(columns={"dataset": "classifier_2"})
    with pytest.raises(cc.CostchartError, match=r"'classifier' would be written again"):
        cc.cheapest_regions(clash, by="classifier_2")


# --- the owner columns of the pooled set operations ----------------------------------


def _check_rows_are_their_owners(table: pd.DataFrame, points: pd.DataFrame, owners: list[str]):
    """Each row's owner and threshold name a ROC point with the row's rates."""
    keys = ["dataset", *owners, "threshold"]
    real = table[~(((table.fpr == 0) & (table.tpr == 0)) | ((table.fpr == 1) & (table.tpr == 1)))]
    assert table.loc[~table.index.isin(real.index), owners].isna().all().all()
    merged = real.merge(points, on=keys, how="left", suffixes=("", "_point"))
    assert len(merged) == len(real)
    np.testing.assert_array_equal(merged["fpr"], merged["fpr_point"])
    np.testing.assert_array_equal(merged["tpr"], merged["tpr_point"])


@pytest.mark.parametrize(
    "name", ["roc_hull", "lower_envelope", "iso_performance", "selection_table"]
)
def test_pooled_tables_keep_the_classifier_after_the_grouping(points, name):
    call = {
        "roc_hull": lambda p, **k: cc.roc_hull(p, **k),
        "lower_envelope": lambda p, **k: cc.lower_envelope(p, **k),
        "iso_performance": lambda p, **k: cc.iso_performance(p, pc=[0.1, 0.5, 0.9], **k),
        "selection_table": lambda p, **k: cc.selection_table(p, **k),
    }[name]
    table = call(points, by="dataset")
    assert list(table.columns[:2]) == ["dataset", "classifier"]
    assert table.attrs["costchart_by"] == ["dataset"]
    assert table.attrs["costchart_owners"] == ["classifier"]
    assert table["classifier"].notna().any()
    _check_rows_are_their_owners(table, points, ["classifier"])
    swapped = table.copy()
    swapped["classifier"] = swapped["classifier"].map(
        {"logistic": "tree", "tree": "logistic", "naive bayes": "naive bayes"}
    )
    with pytest.raises(AssertionError):
        _check_rows_are_their_owners(swapped, points, ["classifier"])
    # Without pooling, nothing is merged away: no owner column.
    assert "costchart_owners" not in call(points).attrs


def test_several_merged_away_columns_are_all_kept_in_recorded_order():
    data = load_predictions()
    points = cc.roc_points(data, score="score", label="label", by=["dataset", "classifier", "fold"])
    envelope = cc.lower_envelope(points, by="dataset")
    assert list(envelope.columns[:3]) == ["dataset", "classifier", "fold"]
    assert envelope.attrs["costchart_owners"] == ["classifier", "fold"]
    _check_rows_are_their_owners(envelope, points, ["classifier", "fold"])
    regions = cc.cheapest_regions(points, by="dataset")
    assert {"classifier_2", "fold_2"} <= set(regions.columns)


def test_a_table_without_recorded_grouping_keeps_the_columns_that_vary_within_a_group(points):
    raw = pd.DataFrame({c: points[c].to_numpy() for c in points.columns})
    raw["source"] = raw["dataset"] + ".csv"  # one value per data set: not an owner
    assert not raw.attrs
    envelope = cc.lower_envelope(raw, by="dataset")
    assert list(envelope.columns[:2]) == ["dataset", "classifier"]
    assert "source" not in envelope.columns
    pd.testing.assert_frame_equal(envelope, cc.lower_envelope(points, by="dataset"))


def test_recorded_owners_pass_through_the_next_call(points):
    hull = cc.roc_hull(points, by="dataset")
    envelope = cc.lower_envelope(points, by="dataset")
    pd.testing.assert_frame_equal(cc.lower_envelope(hull), envelope)
    pd.testing.assert_frame_equal(
        cc.selection_table(envelope), cc.selection_table(points, by="dataset")
    )
    pd.testing.assert_frame_equal(
        cc.cheapest_regions(hull), cc.cheapest_regions(points, by="dataset")
    )
    # Cost lines of several classifiers, pooled: told apart by the owner column.
    lines = cc.lower_envelope(cc.to_cost_lines(points), by="dataset")
    assert list(lines.columns[:2]) == ["dataset", "classifier"]


@pytest.mark.parametrize(("order", "owner"), [(["a", "b"], "b"), (["b", "a"], "a")])
def test_a_shared_point_goes_to_the_classifier_listed_last(order, owner):
    """a and b both reach (0.5, 1): the hull keeps the copy listed last in the points."""
    labels = {"a": [1, 0, 1, 0], "b": [0, 1, 1, 0]}
    data = pd.DataFrame(
        {
            "s": [4, 3, 2, 1] * 2,
            "y": labels[order[0]] + labels[order[1]],
            "model": [order[0]] * 4 + [order[1]] * 4,
        }
    )
    points = cc.roc_points(data, score="s", label="y", by="model")
    shared = points[(points.fpr == 0.5) & (points.tpr == 1.0)]
    assert sorted(shared["model"]) == ["a", "b"]
    hull = cc.roc_hull(points, by=[])
    assert hull.loc[(hull.fpr == 0.5) & (hull.tpr == 1.0), "model"].tolist() == [owner]
    regions = cc.cheapest_regions(points, by=[])
    assert regions["model"].iloc[-1] == owner
    # The trivial classifiers are every classifier's: no owner.
    assert hull.loc[(hull.fpr == 0) & (hull.tpr == 0), "model"].isna().all()


@pytest.mark.parametrize("kind", ["int64", "uint64"])
def test_whole_number_names_stay_exact_past_2_53(kind):
    # As floats, 2**60 + 1 and 2**60 + 2 are one value: the owners would merge and the
    # mixtures between them vanish. Nullable integers keep them apart and exact.
    data = load_predictions().query("dataset == 'sonar'")
    names = {"logistic": 2**60 + 1, "naive bayes": 2**60 + 2, "tree": 2**60 + 3}
    numbered = data.assign(classifier=data["classifier"].map(names).astype(kind))
    by = ["dataset", "classifier"]
    as_numbers = cc.cheapest_regions(
        cc.roc_points(numbered, score="score", label="label", by=by), by="dataset"
    )
    as_text = cc.cheapest_regions(
        cc.roc_points(data, score="score", label="label", by=by), by="dataset"
    )
    back = {v: k for k, v in names.items()}
    for column in ("classifier", "classifier_2"):
        assert as_numbers[column].dtype.kind in "iu"  # a nullable integer dtype
        shown = [None if pd.isna(v) else back[int(v)] for v in as_numbers[column]]
        expected = [None if pd.isna(v) else v for v in as_text[column]]
        assert shown == expected
    assert (as_numbers["choice"] == "mixture").sum() == (as_text["choice"] == "mixture").sum() > 0


def test_pooled_trivial_classifiers_have_infinite_thresholds_everywhere():
    # The (0, 0) and (1, 1) vertices of pooled curves are nobody's: inf and -inf, as the
    # selection table writes them, never one classifier's highest or lowest score.
    data = {
        "dataset": ["a"] * 8,
        "model": ["p"] * 4 + ["q"] * 4,
        "y": [0, 1, 0, 1] * 2,
        "s": [0.9, 0.8, 0.7, 0.1, 0.95, 0.6, 0.5, 0.2],
    }
    points = cc.roc_points(data, score="s", label="y", by=["dataset", "model"])
    tables = {
        "cheapest_regions": cc.cheapest_regions(points, by="dataset"),
        "lower_envelope": cc.lower_envelope(points, by="dataset"),
        "roc_hull": cc.roc_hull(points, by="dataset"),
        "selection_table": cc.selection_table(points, by="dataset"),
    }
    for name, table in tables.items():
        at_origin = (table["fpr"] == 0) & (table["tpr"] == 0) if "fpr" in table else None
        if at_origin is None:  # cheapest_regions names its trivial rows
            low = table["choice"] == "always negative"
            high = table["choice"] == "always positive"
        else:
            low, high = at_origin, (table["fpr"] == 1) & (table["tpr"] == 1)
        assert low.any() and high.any(), name
        assert (table.loc[low, "threshold"] == np.inf).all(), name
        assert (table.loc[high, "threshold"] == -np.inf).all(), name
        assert table.loc[low | high, "model"].isna().all(), name
