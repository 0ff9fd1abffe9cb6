import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import scored_instances

import costchart as cc
from costchart._io import schema

POINTS = pd.DataFrame(
    {"threshold": [3.0, 2.0, 1.0], "fpr": [0.1, 0.4, 0.7], "tpr": [0.5, 0.9, 0.95]}
)


def _brute_force_best(points, feasible, score):
    """Best mixture of two points (or one) by brute force over all pairs and weights."""
    fpr = np.append(points.fpr.to_numpy(float), [0.0, 1.0])
    tpr = np.append(points.tpr.to_numpy(float), [0.0, 1.0])
    best = -np.inf
    weights = np.linspace(0, 1, 2001)
    for i, j in itertools.product(range(len(fpr)), repeat=2):
        f = (1 - weights) * fpr[i] + weights * fpr[j]
        t = (1 - weights) * tpr[i] + weights * tpr[j]
        ok = feasible(f, t)
        if ok.any():
            best = max(best, score(f[ok], t[ok]).max())
    return best


# Hypothesis-heavy (60 examples against brute force); the parametrized brute-force
# tests below keep the quick loop's check.
@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(scored_instances(max_size=30), st.floats(0, 1))
def test_neyman_pearson_equals_brute_force(data, alpha):
    points = cc.roc_points(data, score="score", label="y")
    choice = cc.neyman_pearson(points, max_fpr=alpha)
    mixture = choice[choice.role == "mixture"].iloc[0]
    assert mixture.fpr <= alpha + 1e-12
    best = _brute_force_best(points, lambda f, t: f <= alpha + 1e-12, lambda f, t: t)
    assert mixture.tpr == pytest.approx(best, abs=2e-3)  # brute force is on a weight grid
    assert mixture.tpr >= best - 1e-12
    components = choice[choice.role == "component"]
    assert components.weight.sum() == pytest.approx(1)
    assert (components.weight * components.fpr).sum() == pytest.approx(mixture.fpr)


# Hypothesis-heavy (60 examples against brute force); the parametrized brute-force
# tests below keep the quick loop's check.
@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(scored_instances(max_size=30), st.floats(0, 1))
def test_workforce_equals_brute_force(data, share):
    points = cc.roc_points(data, score="score", label="y")
    total_pos, total_neg = points.tp.iat[-1], points.fp.iat[-1]
    capacity = share * (total_pos + total_neg)
    choice = cc.workforce(points, capacity=capacity)
    mixture = choice[choice.role == "mixture"].iloc[0]
    assert mixture.tpr * total_pos + mixture.fpr * total_neg <= capacity + 1e-9
    best = _brute_force_best(
        points, lambda f, t: t * total_pos + f * total_neg <= capacity + 1e-9, lambda f, t: t
    )
    assert mixture.tpr >= best - 1e-9


def test_iso_performance_single_and_range():
    one = cc.iso_performance(POINTS, pc=0.3)
    assert one.threshold.tolist() == [3.0]
    same = cc.iso_performance(POINTS, slope=(1 - 0.3) / 0.3)
    pd.testing.assert_frame_equal(one, same)
    # On a hull edge both ends are optimal.
    edge_pc = 0.3 / (0.3 + 0.4)
    tie = cc.iso_performance(POINTS, pc=edge_pc)
    assert tie.threshold.tolist() == [3.0, 2.0]
    wide = cc.iso_performance(POINTS, pc_range=(0.0, 1.0))
    assert (
        wide.choice.tolist()[0] == "always negative"
        and wide.choice.tolist()[-1] == "always positive"
    )
    assert wide.pc_lo.iat[0] == 0 and wide.pc_hi.iat[-1] == 1
    np.testing.assert_array_equal(wide.pc_hi.to_numpy()[:-1], wide.pc_lo.to_numpy()[1:])


def test_iso_performance_of_several_conditions_is_each_in_turn():
    several = cc.iso_performance(POINTS, pc=[0.6, 0.3])
    each = pd.concat(
        [cc.iso_performance(POINTS, pc=0.6), cc.iso_performance(POINTS, pc=0.3)],
        ignore_index=True,
    )
    pd.testing.assert_frame_equal(several, each)
    assert several.pc_lo.tolist() == [0.6, 0.3] and several.pc_hi.tolist() == [0.6, 0.3]


def test_iso_performance_matches_the_envelope(rng):
    y = rng.random(400) < 0.3
    points = cc.roc_points(
        {"s": np.round(rng.normal(size=400) + y, 1), "y": y}, score="s", label="y"
    )
    envelope = cc.lower_envelope(points)
    for pc in rng.random(50):
        best = cc.iso_performance(points, pc=pc).iloc[0]
        cost = best.fpr + pc * (1 - best.tpr - best.fpr)
        assert cost == pytest.approx(np.interp(pc, envelope.pc, envelope.cost), abs=1e-12)


def test_performance_independent_hybrid_is_above_the_envelope():
    classifiers = pd.DataFrame(
        {
            "fpr": [0.02, 0.15, 0.45, 0.7],
            "tpr": [0.3, 0.7, 0.93, 0.99],
            "trained": [0.1, 0.35, 0.6, 0.9],
        }
    )
    result = cc.performance_independent(classifiers, trained_pc="trained")
    curve, envelope = result.curve, result.envelope
    # Switching happens halfway between training conditions.
    np.testing.assert_allclose(curve.pc, [0, 0.225, 0.225, 0.475, 0.475, 0.75, 0.75, 1], atol=1e-15)
    at = np.linspace(0, 1, 2001)
    segment = np.searchsorted([0.225, 0.475, 0.75], at, side="right")
    hybrid = classifiers.fpr.to_numpy()[segment] + at * (
        1 - classifiers.tpr.to_numpy()[segment] - classifiers.fpr.to_numpy()[segment]
    )
    lower = np.interp(at, envelope.pc, envelope.cost)
    assert (hybrid >= lower - 1e-12).all()
    # The extra cost is the area between them (checked by numeric integration).
    assert result.extra_cost.extra_cost.iat[0] == pytest.approx(
        np.trapezoid(hybrid - lower, at), abs=2e-5
    )


def test_apply_selection_evaluates_validation_thresholds_on_test_data(rng):
    def sample(n):
        y = rng.random(n) < 0.4
        return pd.DataFrame({"s": np.round(rng.normal(size=n) + 1.2 * y, 2), "y": y})

    validation, test = sample(500), sample(700)
    selection = cc.selection_table(cc.roc_points(validation, score="s", label="y"))
    curve = cc.apply_selection(test, selection, score="s", label="y")
    assert len(curve) == 2 * len(selection)
    for row in selection.itertuples():
        predicted = test.s >= row.threshold
        fpr = (predicted & ~test.y).sum() / (~test.y).sum()
        tpr = (predicted & test.y).sum() / test.y.sum()
        rows = curve[curve.threshold == row.threshold]
        np.testing.assert_allclose(rows.fpr, fpr)
        np.testing.assert_allclose(rows.tpr, tpr)
    # Never better than the test data's own envelope (which is chosen on the test data).
    own = cc.lower_envelope(cc.roc_points(test, score="s", label="y"))
    assert (curve.cost.to_numpy() >= np.interp(curve.pc, own.pc, own.cost) - 1e-12).all()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: cc.iso_performance(POINTS),
            r"give the operating conditions as exactly one of pc=, slope= \(values\) or "
            r"pc_range=, slope_range= \(a \(low, high\) range\); got none",
        ),
        (lambda: cc.iso_performance(POINTS, pc=1.5), r"pc=1\.5 is outside \[0, 1\]"),
        (lambda: cc.iso_performance(POINTS, slope=-1), r"slope=-1 must be non-negative"),
        (lambda: cc.neyman_pearson(POINTS, max_fpr=-0.1), r"max_fpr=-0\.1 is outside \[0, 1\]"),
        (lambda: cc.workforce(POINTS, capacity=10), r"workforce needs the counts tp, fp, tn, fn"),
        (
            lambda: cc.performance_independent(POINTS, trained_pc="pc_trained"),
            r"classifiers has no column 'pc_trained'",
        ),
        (
            lambda: cc.apply_selection({"s": [1], "y": [1]}, POINTS, score="s", label="y"),
            r"selection has no column 'pc_lo'; pass a table from selection_table",
        ),
    ],
)
def test_selection_errors(call, message):
    with pytest.raises(cc.CostchartError, match=message):
        call()


def _bundled_points():
    from costchart.datasets import load_predictions

    data = load_predictions()
    data = data[data.dataset == data.dataset.iat[0]].drop(columns="dataset")
    return data, cc.roc_points(data, score="score", label="label", by="classifier")


def test_iso_performance_column_does_not_clash_with_a_classifier_grouping():
    # The bundled data groups by "classifier"; iso_performance used to write a second
    # column of that name, and layers.selected then failed.
    _, points = _bundled_points()
    chosen = cc.iso_performance(points, pc_range=(0.2, 0.6))
    assert list(chosen.columns) == ["classifier", *schema.ISO_TABLE]
    assert chosen.columns.is_unique
    assert set(chosen["choice"]) <= {"threshold", "always negative", "always positive"}
    assert set(chosen["classifier"]) == set(points["classifier"])
    for space in ("roc", "cost"):
        spec = cc.layers.selected(chosen, space=space).to_dict()
        assert spec["mark"]["type"] in {"point", "line"}


@pytest.mark.parametrize(
    "choose",
    [
        lambda p: cc.neyman_pearson(p, max_fpr=0.2),
        lambda p: cc.workforce(p, capacity=40),
        lambda p: cc.iso_performance(p, pc=0.4),
    ],
)
def test_selection_columns_are_not_taken_for_grouping_columns(choose):
    _, points = _bundled_points()
    chosen = choose(points)
    # role, weight and choice are costchart's columns: passed on, the table is grouped
    # by the user's column only (it used to be split by role and weight too).
    hull = cc.roc_hull(chosen)
    assert list(hull.columns[:2]) == ["classifier", "threshold"]
    assert hull["classifier"].nunique() == points["classifier"].nunique()


def test_apply_selection_takes_the_grouping_of_the_selection(rng):
    data, points = _bundled_points()
    selection = cc.selection_table(points)
    # Without by= every classifier used to be pooled into one curve.
    curve = cc.apply_selection(data, selection, score="score", label="label")
    assert list(curve.columns) == ["classifier", *schema.ENVELOPE_COLUMNS]
    for name, part in data.groupby("classifier"):
        alone = cc.apply_selection(
            part.drop(columns="classifier"),
            selection[selection.classifier == name].drop(columns="classifier"),
            score="score",
            label="label",
        )
        np.testing.assert_array_equal(
            curve[curve.classifier == name].drop(columns="classifier").to_numpy(),
            alone.to_numpy(),
        )
    explicit = cc.apply_selection(data, selection, score="score", label="label", by="classifier")
    pd.testing.assert_frame_equal(curve, explicit)


def test_apply_selection_refuses_data_without_the_selection_groups():
    data, points = _bundled_points()
    selection = cc.selection_table(points)
    with pytest.raises(cc.CostchartError, match=r"data has no column 'classifier'"):
        cc.apply_selection(data.drop(columns="classifier"), selection, score="score", label="label")
    other = data.assign(classifier=data.classifier + "!")
    first = selection.classifier.iat[0]
    with pytest.raises(
        cc.CostchartError,
        match=rf"data has no rows for the selection's group \{{'classifier': '{first}'\}}",
    ):
        cc.apply_selection(other, selection, score="score", label="label")


def test_apply_selection_refuses_selections_that_do_not_tile():
    data = {"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}
    selection = cc.selection_table(cc.roc_points(data, score="s", label="y"))
    with pytest.raises(cc.CostchartError, match=r"selection has a gap between pc=0\.4 and"):
        cc.apply_selection(data, selection.assign(pc_hi=[0.4, 1.0]), score="s", label="y")
    with pytest.raises(cc.CostchartError, match=r"'threshold' of selection must hold thresh"):
        cc.apply_selection(data, selection.assign(threshold=np.nan), score="s", label="y")
    as_dict = selection.to_dict("list")  # a dict of lists is a table too
    pd.testing.assert_frame_equal(
        cc.apply_selection(data, as_dict, score="s", label="y"),
        cc.apply_selection(data, selection, score="s", label="y"),
    )


COUNTED = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: cc.iso_performance(POINTS, slope="x"), r"slope='x' must be a number or numbers"),
        (lambda: cc.iso_performance(POINTS, slope=np.nan), r"slope=nan must be non-negative"),
        (lambda: cc.iso_performance(POINTS, slope=-2.0), r"slope=-2\.0 must be non-negative"),
        (
            lambda: cc.iso_performance(POINTS, slope=[[1.0, 2.0]]),
            r"slope=\[\[1\.0, 2\.0\]\] must be a number or a flat list of numbers",
        ),
        (
            lambda: cc.iso_performance(POINTS, pc=(0.1, 0.2)),
            r"pc=\(0\.1, 0\.2\) is a tuple: pass a list of conditions \(pc=\[0\.1, 0\.2\]\), "
            r"or a range as pc_range=\(0\.1, 0\.2\)",
        ),
        (
            lambda: cc.iso_performance(POINTS, pc_range=[0.1, 0.2, 0.3]),
            r"pc_range=\[0\.1, 0\.2, 0\.3\] must be a \(low, high\) pair",
        ),
        (lambda: cc.neyman_pearson(POINTS, max_fpr=[0.1, 0.2]), r"max_fpr=\[0\.1, 0\.2\] must be"),
        (lambda: cc.neyman_pearson(POINTS, max_fpr=np.nan), r"max_fpr=nan must be a finite"),
        (lambda: cc.neyman_pearson(POINTS, max_fpr="0.1"), r"max_fpr='0\.1' must be a number"),
        (lambda: cc.neyman_pearson(POINTS, max_fpr=1.5), r"max_fpr=1\.5 is outside \[0, 1\]"),
        (lambda: cc.workforce(COUNTED, capacity="3"), r"capacity='3' must be a number"),
        (lambda: cc.workforce(COUNTED, capacity=-1), r"capacity=-1 must be at least 0"),
        (lambda: cc.workforce(COUNTED, capacity=np.inf), r"capacity=inf must be a finite"),
        (lambda: cc.workforce(COUNTED, capacity=[2]), r"capacity=\[2\] must be a number"),
        (lambda: cc.workforce(COUNTED, capacity=None), r"capacity=None must be a number"),
        (
            lambda: cc.performance_independent(POINTS.assign(pc=[0.2, 0.5, 0.8]), trained_pc="pc"),
            r"trained_pc='pc' must name a column of classifiers that is not one of costchart",
        ),
        (
            lambda: cc.performance_independent(
                POINTS.assign(trained=[0.2, 0.5, 0.8], fpr=[0.1, np.nan, 0.7]),
                trained_pc="trained",
            ),
            r"column 'fpr' of classifiers must hold rates in \[0, 1\], but has nan",
        ),
    ],
)
def test_selection_options_are_checked(call, message):
    with pytest.raises(cc.CostchartError, match=message):
        call()


def test_performance_independent_reads_polars():
    import polars as pl

    classifiers = POINTS.assign(trained=[0.2, 0.5, 0.8])
    expected = cc.performance_independent(classifiers, trained_pc="trained")
    result = cc.performance_independent(pl.from_pandas(classifiers), trained_pc="trained")
    pd.testing.assert_frame_equal(result.curve, expected.curve)
    assert list(result.extra_cost.columns) == ["extra_cost"]


def test_apply_selection_matches_missing_group_keys():
    # A NaN key of a float column is never equal to the NaN of another table's key.
    data = pd.DataFrame(
        {"g": [1.0] * 4 + [np.nan] * 4, "s": [4, 3, 2, 1] * 2, "y": [1, 0, 1, 0] * 2}
    )
    selection = cc.selection_table(cc.roc_points(data, score="s", label="y", by="g"))
    curve = cc.apply_selection(data.copy(), selection, score="s", label="y")
    assert len(curve) == 8
    np.testing.assert_array_equal(curve["g"].isna(), [False] * 4 + [True] * 4)


def test_performance_independent_of_no_classifiers_is_empty():
    # An empty table used to raise a numpy broadcasting error.
    empty = POINTS.assign(trained=[0.2, 0.5, 0.8]).iloc[:0]
    result = cc.performance_independent(empty, trained_pc="trained")
    assert list(result.curve.columns) == ["pc", "cost", "trained", "fpr", "tpr", "segment"]
    assert list(result.extra_cost.columns) == ["extra_cost"]
    assert len(result.curve) == len(result.envelope) == len(result.extra_cost) == 0


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("alpha", [0.0, 0.05, 0.3, 1.0])
def test_neyman_pearson_best_single_classifier_by_brute_force(seed, alpha):
    rng = np.random.default_rng(seed)
    y = rng.random(60) < 0.4
    points = cc.roc_points(
        {"s": np.round(rng.normal(size=60) + y, 1), "y": y}, score="s", label="y"
    )
    choice = cc.neyman_pearson(points, max_fpr=alpha)
    single = choice[choice.role == "single"]
    assert len(single) == 1
    feasible = points[points.fpr <= alpha]
    assert single.tpr.iat[0] == feasible.tpr.max()  # the best existing point, no mixing
    assert single.fpr.iat[0] == feasible[feasible.tpr == feasible.tpr.max()].fpr.min()
    assert single.threshold.iat[0] in set(points.threshold)
    mixture = choice[choice.role == "mixture"]
    assert single.tpr.iat[0] <= mixture.tpr.iat[0] + 1e-12  # mixing is never worse


def test_the_papers_example_of_mixing_against_a_single_classifier():
    points = pd.DataFrame(
        {
            "threshold": [np.inf, 3.0, 2.0, 1.0, -np.inf],
            "fpr": [0, 0.1, 0.25, 0.4, 1],
            "tpr": [0, 0.5, 0.55, 0.9, 1],
        }
    )
    choice = cc.neyman_pearson(points, max_fpr=0.3).set_index("role")
    assert choice.loc["mixture", "tpr"] == pytest.approx(0.5 + (0.9 - 0.5) * 2 / 3)
    assert choice.loc["single", "tpr"] == 0.55 and choice.loc["single", "threshold"] == 2.0


@pytest.mark.parametrize("capacity", [0, 5, 17.5, 40, 1000])
def test_workforce_best_single_classifier_by_brute_force(capacity):
    rng = np.random.default_rng(7)
    y = rng.random(80) < 0.3
    points = cc.roc_points(
        {"s": np.round(rng.normal(size=80) + y, 1), "y": y}, score="s", label="y"
    )
    choice = cc.workforce(points, capacity=capacity)
    single = choice[choice.role == "single"].iloc[0]
    feasible = points[points.tp + points.fp <= capacity]
    assert single.tpr == feasible.tpr.max()
    assert single.tpr <= choice[choice.role == "mixture"].tpr.iat[0] + 1e-12


def test_workforce_refuses_counts_where_predicting_nothing_is_impossible():
    # A malformed table whose "always negative" point predicts 0.5 positives: a limit of 0
    # gave a mixture with negative weight and negative rates before.
    table = pd.DataFrame(
        {
            "threshold": [np.inf, 2.0, 0.0],
            "tp": [0.5, 0.5, 0.5],
            "fp": [0, 0, 6],
            "tn": [6, 6, 0],
            "fn": [4, 3, 0],
            "tpr": [0, 0.25, 1],
            "fpr": [0, 0, 1],
        }
    )
    with pytest.raises(cc.CostchartError, match=r"the limit 0 is below 0\.5"):
        cc.workforce(table, capacity=0)


def test_performance_independent_envelope_keeps_the_classifiers_own_thresholds():
    classifiers = pd.DataFrame(
        {
            "threshold": [0.9, 0.5, 0.1],
            "trained": [0.1, 0.5, 0.9],
            "fpr": [0.1, 0.3, 0.6],
            "tpr": [0.5, 0.8, 0.95],
        }
    )
    envelope = cc.performance_independent(classifiers, trained_pc="trained").envelope
    vertices = envelope[np.isfinite(envelope["threshold"])]
    merged = vertices.merge(classifiers, on=["fpr", "tpr"], suffixes=("", "_own"))
    assert len(merged) == 3
    assert (merged["threshold"] == merged["threshold_own"]).all()
    # Without a threshold column the trained pc labels each vertex.
    envelope = cc.performance_independent(
        classifiers.drop(columns="threshold"), trained_pc="trained"
    ).envelope
    merged = envelope.merge(classifiers, on=["fpr", "tpr"])
    assert (merged["threshold_x"] == merged["trained"]).all()
