"""Integer scores past 2**53 are exact everywhere (issue 31, item 4).

float64 rounds 2**53 + 1 to 2**53: every place that compares scores and thresholds, or
writes thresholds, must keep them exact. The brute-force reference is the same data with
each score replaced by its rank among the distinct scores: it must give the same rates,
costs and AUC, and its thresholds, mapped back to the scores they rank, must be the
exact thresholds (as Python integers, not rounded floats).
"""

from __future__ import annotations

import bisect
import csv
import io

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._cli import main
from costchart._io.exact import exact_number, order_keys
from costchart._io.validation import threshold_number

B = 2**53

#: Scores whose distinct values float64 would merge: int64, uint64, and Python integers
#: beyond 64 bits (object columns), negative ones and ones mixed with fractions too.
KINDS = {
    "int64 past 2**53": lambda offsets: (B + offsets).astype(np.int64),
    "int64 past 2**60": lambda offsets: (2**60 + offsets).astype(np.int64),
    "uint64 past 2**63": lambda offsets: np.uint64(2**63) + offsets.astype(np.uint64),
    "python ints past 2**64": lambda offsets: np.array(
        [2**64 + int(k) for k in offsets], dtype=object
    ),
    "python ints past float64's range": lambda offsets: np.array(
        [10**400 + int(k) for k in offsets], dtype=object
    ),
    "negative python ints": lambda offsets: np.array(
        [-(2**70) + int(k) for k in offsets], dtype=object
    ),
    "python ints and fractions": lambda offsets: np.array(
        [2**70 + int(k) if k % 3 else k / 7 for k in offsets], dtype=object
    ),
}


def _data(kind: str, n: int = 40, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    offsets = rng.integers(0, 12, n)
    y = (rng.random(n) < 0.3 + 0.05 * offsets).astype(int)
    y[:2] = [0, 1]
    return pd.DataFrame({"s": KINDS[kind](offsets), "y": y})


def _ranked(frame: pd.DataFrame, column: str = "s"):
    """The frame with its scores replaced by their ranks, and the distinct scores (sorted)."""
    values = [v.item() if isinstance(v, np.generic) else v for v in frame[column]]
    distinct = sorted(set(values))
    rank = {v: i for i, v in enumerate(distinct)}
    return frame.assign(**{column: np.array([rank[v] for v in values], np.int64)}), distinct


def _rank_of(threshold, distinct) -> float:
    """A threshold in rank space: ``rank(s) >= k`` exactly when ``s >= threshold``."""
    if threshold in (np.inf, -np.inf):
        return threshold
    return float(bisect.bisect_left(distinct, threshold))


def _back(thresholds, distinct) -> list:
    """Ranked thresholds as the scores they rank (``±inf`` and NaN kept)."""
    out = []
    for t in thresholds:
        t = float(t)
        out.append(t if not np.isfinite(t) else distinct[int(t)])
    return out


def _same_thresholds(exact, ranked, distinct) -> None:
    """Exact thresholds are the ranked ones' scores, as exact Python numbers."""
    expected = _back(ranked, distinct)
    got = [v.item() if isinstance(v, np.generic) else v for v in exact]
    for g, e in zip(got, expected, strict=True):
        if isinstance(e, float) and np.isnan(e):
            assert isinstance(g, float) and np.isnan(g)
        else:  # equal, and a whole number past 2**53 is an int (not a rounded float)
            assert g == e and isinstance(g, int) == isinstance(e, int), (got, expected)


def _same_tables(exact: pd.DataFrame, ranked: pd.DataFrame, distinct) -> None:
    assert list(exact.columns) == list(ranked.columns)
    pd.testing.assert_frame_equal(
        exact.drop(columns="threshold"), ranked.drop(columns="threshold"), check_dtype=False
    )
    _same_thresholds(exact["threshold"], ranked["threshold"], distinct)


KIND_NAMES = list(KINDS)


def test_the_issue_example():
    s = np.array([B + 1, B, B + 3, B + 2], dtype=np.int64)
    data = {"s": s, "y": [1, 0, 1, 0]}
    band = cc.bootstrap_band(data, score="s", label="y", threshold=B + 1, pc=[0.75])
    assert band["cost"].tolist() == [0.125]
    long = pd.DataFrame(
        {"m": ["a"] * 4 + ["b"] * 4, "id": [0, 1, 2, 3] * 2, "s": np.r_[s, s[[1, 0, 3, 2]]]}
    ).assign(y=[1, 0, 1, 0] * 2)
    difference = cc.difference_band(
        long, score="s", label="y", classifier="m", instance="id", pc=[0.5], threshold=(B + 1,) * 2
    )
    assert difference["difference"].tolist() == [-0.5]
    loss = cc.expected_loss(data, score="s", label="y", threshold_choice="fixed", threshold=B + 1)
    assert loss["expected_loss"].tolist() == [0.25]  # (FPR + FNR) / 2 = (0.5 + 0) / 2
    selection = cc.selection_table(cc.roc_points(data, score="s", label="y"))
    assert selection["threshold"].tolist() == [B + 3, B + 1]


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_points_auc_and_rociv_match_the_ranks(kind):
    data = _data(kind)
    ranked, distinct = _ranked(data)
    points = cc.roc_points(data, score="s", label="y")
    reference = cc.roc_points(ranked, score="s", label="y")
    assert len(points) == len(distinct) + 1
    _same_tables(points, reference, distinct)
    assert cc.auc(points)["auc"].item() == cc.auc(reference)["auc"].item()
    assert cc.auc_ci(data, score="s", label="y").equals(cc.auc_ci(ranked, score="s", label="y"))
    costs = data.assign(c=np.arange(len(data)) % 4 + 1.0)
    _same_tables(
        cc.rociv(costs, score="s", label="y", amount="c"),
        cc.rociv(_ranked(costs)[0], score="s", label="y", amount="c"),
        distinct,
    )
    _same_tables(
        cc.roc_points(data, score="s", label="y", bins=4),
        cc.roc_points(ranked, score="s", label="y", bins=4),
        distinct,
    )
    grouped = data.assign(g=np.arange(len(data)) % 2)
    _same_tables(
        cc.roc_points(grouped, score="s", label="y", by="g"),
        cc.roc_points(_ranked(grouped)[0], score="s", label="y", by="g"),
        distinct,
    )


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_tables_keep_the_thresholds_exact(kind):
    data = _data(kind)
    ranked, distinct = _ranked(data)
    points = cc.roc_points(data, score="s", label="y")
    reference = cc.roc_points(ranked, score="s", label="y")
    for function in (
        cc.roc_hull,
        cc.to_cost_lines,
        cc.lower_envelope,
        cc.selection_table,
        cc.operating_range,
        cc.rate_driven_curve,
        lambda p: cc.neyman_pearson(p, max_fpr=0.3),
        lambda p: cc.workforce(p, capacity=0.4),
        lambda p: cc.cost_at(p, [0.3, 0.6]),
        cc.expected_cost,
        cc.pr_points,
        lambda p: cc.thin_points(p, max_points=4),
    ):
        _same_tables(function(points), function(reference), distinct)
    # A selection made on the exact data, applied to it and to the ranks.
    selection = cc.selection_table(points)
    ranked_selection = cc.selection_table(reference)
    _same_tables(
        cc.apply_selection(data, selection, score="s", label="y"),
        cc.apply_selection(ranked, ranked_selection, score="s", label="y"),
        distinct,
    )


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_fixed_thresholds_are_compared_exactly(kind):
    data = _data(kind)
    ranked, distinct = _ranked(data)
    between = [v + 1 for v in distinct if isinstance(v, int)][:3]  # no score equals these
    pc = [0.2, 0.5, 0.75]
    for threshold in [*distinct, *between, np.inf, -np.inf]:
        in_ranks = _rank_of(threshold, distinct)
        band = cc.bootstrap_band(data, score="s", label="y", threshold=threshold, pc=pc)
        reference = cc.bootstrap_band(ranked, score="s", label="y", threshold=in_ranks, pc=pc)
        pd.testing.assert_frame_equal(band, reference)
        kwargs = {"threshold_choice": "fixed", "threshold": threshold}
        loss = cc.expected_loss(data, score="s", label="y", **kwargs)
        expected = cc.expected_loss(
            ranked, score="s", label="y", threshold_choice="fixed", threshold=in_ranks
        )
        pd.testing.assert_frame_equal(loss, expected)


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_bands_with_selections_and_envelopes_match_the_ranks(kind):
    data = _data(kind)
    ranked, distinct = _ranked(data)
    validation, ranked_validation = _data(kind, seed=1), None
    # The validation data ranked on the test data's distinct scores (and its own).
    both = sorted(set(distinct) | set(_ranked(validation)[1]))
    rank = {v: i for i, v in enumerate(both)}

    def in_ranks(frame):
        values = [v.item() if isinstance(v, np.generic) else v for v in frame["s"]]
        return frame.assign(s=np.array([rank[v] for v in values], np.int64))

    ranked, ranked_validation = in_ranks(data), in_ranks(validation)
    selection = cc.selection_table(cc.roc_points(validation, score="s", label="y"))
    ranked_selection = cc.selection_table(cc.roc_points(ranked_validation, score="s", label="y"))
    _same_thresholds(selection["threshold"], ranked_selection["threshold"], both)
    pc = np.linspace(0, 1, 21)
    for given, reference in (
        ({"selection": selection}, {"selection": ranked_selection}),
        ({"rng": 0}, {"rng": 0}),  # the envelope's choice resampled: only order matters
        ({"inference": "exact_bootstrap"}, {"inference": "exact_bootstrap"}),
    ):
        pd.testing.assert_frame_equal(
            cc.bootstrap_band(data, score="s", label="y", pc=pc, **given),
            cc.bootstrap_band(ranked, score="s", label="y", pc=pc, **reference),
        )


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_difference_band_and_auc_test_match_the_ranks(kind):
    a, b = _data(kind, seed=2), _data(kind, seed=3)
    b["y"] = a["y"]
    long = pd.concat([a.assign(m="a"), b.assign(m="b")], ignore_index=True)
    long["id"] = list(range(len(a))) * 2
    ranked, distinct = _ranked(long)
    common = {"score": "s", "label": "y", "classifier": "m", "instance": "id"}
    pc = np.linspace(0, 1, 11)
    t = distinct[len(distinct) // 2]
    thresholds = (t, distinct[1])
    in_ranks = tuple(_rank_of(v, distinct) for v in thresholds)
    selections = tuple(
        cc.selection_table(cc.roc_points(part, score="s", label="y")) for part in (b, a)
    )
    ranked_selections = tuple(
        cc.selection_table(cc.roc_points(ranked[ranked.m == m], score="s", label="y")) for m in "ba"
    )
    for given, reference in (
        ({}, {}),
        ({"threshold": thresholds}, {"threshold": in_ranks}),
        ({"selection": selections}, {"selection": ranked_selections}),
    ):
        pd.testing.assert_frame_equal(
            cc.difference_band(long, pc=pc, **common, **given),
            cc.difference_band(ranked, pc=pc, **common, **reference),
        )
    pd.testing.assert_frame_equal(cc.auc_test(long, **common), cc.auc_test(ranked, **common))


def score_is_the_feature():
    """A scikit-learn classifier whose decision function is its one feature (also the sweep's)."""
    from sklearn.base import BaseEstimator, ClassifierMixin

    class ScoreIsTheFeature(ClassifierMixin, BaseEstimator):
        def fit(self, X, y):
            self.classes_ = np.array([0, 1])
            return self

        def decision_function(self, X):
            return np.asarray(X)[:, 0]

    return ScoreIsTheFeature


@pytest.mark.parametrize("kind", ["int64 past 2**60", "python ints past 2**64"])
def test_threshold_classifier_deploys_the_exact_threshold(kind):
    data = _data(kind)
    X = data[["s"]].to_numpy()
    model = score_is_the_feature()().fit(X, data["y"])
    points = cc.roc_points(data, score="s", label="y")
    selection = cc.selection_table(points)
    for pc in (0.1, 0.4, 0.6, 0.9):
        deployed = cc.threshold_classifier(
            model, selection, pc=pc, response_method="decision_function"
        ).fit(X, data["y"])
        row = selection[(selection.pc_lo <= pc) & (pc < selection.pc_hi)].iloc[0]
        assert deployed.threshold == row["threshold"] and type(deployed.threshold) is int
        predicted = deployed.predict(X).astype(bool)
        positive = data["y"].to_numpy() == 1
        assert predicted[positive].mean() == row["tpr"]
        assert predicted[~positive].mean() == row["fpr"]


@pytest.mark.parametrize(
    "kind", ["int64 past 2**53", "uint64 past 2**63", "python ints past 2**64"]
)
@pytest.mark.parametrize("table", ["points", "lines", "hull", "envelope", "selection"])
def test_the_cli_writes_thresholds_exactly(tmp_path, capsys, kind, table):
    data = _data(kind)
    source = tmp_path / "scores.csv"
    data.to_csv(source, index=False)
    assert main(["table", str(source), "--score", "s", "--label", "y", "--kind", table]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    made = {
        "points": cc.roc_points,
        "lines": lambda d, **k: cc.to_cost_lines(cc.roc_points(d, **k)),
        "hull": lambda d, **k: cc.roc_hull(cc.roc_points(d, **k)),
        "envelope": lambda d, **k: cc.lower_envelope(cc.roc_points(d, **k)),
        "selection": lambda d, **k: cc.selection_table(cc.roc_points(d, **k)),
    }[table](data, score="s", label="y")
    written = [row["threshold"] for row in rows]
    expected = [str(int(v)) if isinstance(v, int) else repr(float(v)) for v in made["threshold"]]
    assert written == expected
    assert len({w for w in written if w not in ("inf", "-inf")}) == len(
        {v for v in made["threshold"] if isinstance(v, int)}
    )


def test_threshold_words_keep_whole_numbers_past_2_53():
    assert threshold_number(2**53 + 1) == 2**53 + 1 and type(threshold_number(2**53 + 1)) is int
    assert threshold_number(np.int64(-(2**60) - 1)) == -(2**60) - 1
    assert threshold_number(np.uint64(2**64 - 1)) == 2**64 - 1
    assert type(threshold_number(5)) is float and threshold_number(0.5) == 0.5
    assert threshold_number(10**400) == 10**400  # no OverflowError from float()
    assert exact_number(np.inf) == np.inf
    with pytest.raises(cc.CostchartError, match="threshold=nan is not a threshold"):
        threshold_number(float("nan"))


def test_order_keys_agree_with_python_comparisons():
    rng = np.random.default_rng(5)
    pool = [2**53, 2**53 + 1, 2**64 + 7, -(2**70), 0.5, 1e300, np.inf, -np.inf, 3, 2.0**53]
    a = np.array([pool[i] for i in rng.integers(0, len(pool), 30)], dtype=object)
    b = np.array([pool[i] for i in rng.integers(0, len(pool), 20)], dtype=object)
    c = np.array([2**53 + 2, 2**53 - 1], dtype=np.int64)
    keys_a, keys_b, keys_c = order_keys(a, b, c)
    for x, kx in zip([*a, *c], [*keys_a, *keys_c], strict=True):
        for y, ky in zip(b, keys_b, strict=True):
            assert (x >= y) == (kx >= ky) and (x == y) == (kx == ky), (x, y)
    nan = order_keys(np.array([np.nan, 2**60], dtype=object), np.array([1.0]))
    assert np.isnan(nan[0][0]) and nan[0][1] > nan[1][0]


def test_python_integers_with_a_nan_or_text_are_refused_naming_the_column():
    with pytest.raises(cc.CostchartError, match=r"column 's' has 1 NaN values"):
        cc.roc_points(
            {"s": np.array([2**70, np.nan, 2**70 + 1], dtype=object), "y": [1, 0, 1]},
            score="s",
            label="y",
        )
    with pytest.raises(cc.CostchartError, match=r"column 's' must hold numbers"):
        cc.roc_points(
            {"s": np.array([2**70, "x", 2**70 + 1], dtype=object), "y": [1, 0, 1]},
            score="s",
            label="y",
        )


@pytest.mark.parametrize("kind", ["int64 past 2**53", "python ints past 2**64"])
def test_threshold_averaging_matches_the_ranks(kind):
    folds = [_data(kind, seed=k).assign(f=k) for k in range(3)]
    data = pd.concat(folds, ignore_index=True)
    ranked, distinct = _ranked(data)
    average = cc.roc_average(
        cc.roc_points(data, score="s", label="y", by="f"), over="f", averaging="by_threshold"
    )
    reference = cc.roc_average(
        cc.roc_points(ranked, score="s", label="y", by="f"), over="f", averaging="by_threshold"
    )
    assert len(average) == len(distinct) + 1
    _same_tables(average, reference, distinct)
    grid = [distinct[-1] + 5, distinct[3], distinct[2], -np.inf]  # a list of Python ints
    ranked_grid = [_rank_of(v, distinct) for v in grid]
    ranked_grid[0] = len(distinct)  # above every score, as distinct[-1] + 5 is
    on_grid = cc.roc_average(
        cc.roc_points(data, score="s", label="y", by="f"),
        over="f",
        averaging="by_threshold",
        grid=grid,
    )
    reference = cc.roc_average(
        cc.roc_points(ranked, score="s", label="y", by="f"),
        over="f",
        averaging="by_threshold",
        grid=ranked_grid,
    )
    pd.testing.assert_frame_equal(
        on_grid.drop(columns="threshold"), reference.drop(columns="threshold")
    )
    assert sorted(on_grid["threshold"].tolist()) == sorted(grid)


def test_points_tables_with_int64_thresholds_keep_them_exact():
    # A points table whose thresholds are int64 past 2**53 (no +inf row): the trivial
    # classifiers added by the hull must not round them to float64.
    data = _data("int64 past 2**53")
    ranked, distinct = _ranked(data)
    points = cc.roc_points(data, score="s", label="y").iloc[1:]
    points = points.assign(threshold=points["threshold"].astype(np.int64))
    reference = cc.roc_points(ranked, score="s", label="y").iloc[1:]
    for function in (cc.roc_hull, cc.lower_envelope, cc.selection_table, cc.to_cost_lines):
        made, expected = function(points), function(reference)
        _same_tables(made, expected, distinct)
    lines = cc.to_cost_lines(points)
    _same_tables(cc.lower_envelope(lines), cc.lower_envelope(cc.to_cost_lines(reference)), distinct)
