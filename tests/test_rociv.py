import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costchart as cc


@st.composite
def costed_instances(draw, max_size=40):
    n = draw(st.integers(2, max_size))
    scores = draw(st.lists(st.integers(0, 8), min_size=n, max_size=n))
    labels = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    labels[0], labels[-1] = True, False
    costs = draw(st.lists(st.integers(1, 50), min_size=n, max_size=n))
    return pd.DataFrame({"s": np.array(scores) / 2, "y": labels, "c": np.array(costs, dtype=float)})


def _brute_force_auciv(data):
    pos, neg = data[data.y], data[~data.y]
    outrank = (pos.s.to_numpy()[:, None] > neg.s.to_numpy()[None, :]) + 0.5 * (
        pos.s.to_numpy()[:, None] == neg.s.to_numpy()[None, :]
    )
    weight = pos.c.to_numpy()[:, None] * neg.c.to_numpy()[None, :]
    return (outrank * weight).sum() / weight.sum()


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(costed_instances())
def test_auciv_is_the_cost_weighted_probability_of_outranking(data):
    got = cc.auciv(data, score="s", label="y", amount="c")["auc"].iat[0]
    assert got == pytest.approx(_brute_force_auciv(data), abs=1e-12)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(costed_instances())
def test_equal_costs_give_the_roc_curve(data):
    iv = cc.rociv(data.assign(c=3.0), score="s", label="y", amount="c")
    roc = cc.roc_points(data, score="s", label="y")
    pd.testing.assert_frame_equal(iv[list(roc.columns)], roc)
    assert cc.auc(iv)["auc"].iat[0] == pytest.approx(cc.auc(roc)["auc"].iat[0], abs=1e-15)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(costed_instances(), st.floats(0.01, 100), st.booleans())
def test_scaling_one_class_changes_nothing(data, factor, positives):
    scaled = data.assign(c=np.where(data.y == positives, data.c * factor, data.c))
    a = cc.rociv(data, score="s", label="y", amount="c")
    b = cc.rociv(scaled, score="s", label="y", amount="c")
    np.testing.assert_allclose(a[["fpr", "tpr"]], b[["fpr", "tpr"]], atol=1e-12)


def test_duplicating_an_instance_equals_doubling_its_cost(rng):
    data = pd.DataFrame(
        {
            "s": rng.integers(0, 5, 30).astype(float),
            "y": rng.random(30) < 0.5,
            "c": rng.uniform(1, 9, 30),
        }
    )
    data.loc[0, "y"], data.loc[1, "y"] = True, False
    doubled = data.copy()
    doubled.loc[4, "c"] *= 2
    duplicated = pd.concat([data, data.iloc[[4]]], ignore_index=True)
    a = cc.rociv(doubled, score="s", label="y", amount="c")
    b = cc.rociv(duplicated, score="s", label="y", amount="c")
    np.testing.assert_allclose(
        a[["threshold", "fpr", "tpr", "fp_cost", "tp_benefit"]],
        b[["threshold", "fpr", "tpr", "fp_cost", "tp_benefit"]],
        atol=1e-12,
    )


def test_columns_counts_and_sums():
    data = {"s": [0.9, 0.8, 0.4, 0.3], "y": [1, 0, 1, 0], "amount": [10.0, 1.0, 30.0, 3.0]}
    iv = cc.rociv(data, score="s", label="y", amount="amount")
    assert list(iv.columns) == [
        "threshold",
        "tp",
        "fp",
        "tn",
        "fn",
        "tpr",
        "fpr",
        "fp_cost",
        "tp_benefit",
    ]
    assert iv.tp.tolist() == [0, 1, 1, 2, 2]  # instances, not money
    assert iv.tp_benefit.tolist() == [0, 10, 10, 40, 40]
    np.testing.assert_allclose(iv.fpr, [0, 0, 0.25, 0.25, 1])


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(costed_instances())
def test_rociv_flows_into_hull_and_envelope(data):
    iv = cc.rociv(data, score="s", label="y", amount="c")
    envelope = cc.lower_envelope(iv)
    at = np.linspace(0, 1, 101)
    lines = (
        iv.fpr.to_numpy()[:, None]
        + at[None, :] * (1 - iv.tpr.to_numpy() - iv.fpr.to_numpy())[:, None]
    )
    np.testing.assert_allclose(
        np.interp(at, envelope.pc, envelope.cost), lines.min(axis=0), atol=1e-12
    )
    hull = cc.roc_hull(iv)
    assert np.all(iv.tpr.to_numpy() <= np.interp(iv.fpr, hull.fpr, hull.tpr) + 1e-12)


def test_workforce_counts_cases_not_money():
    data = {"s": [0.9, 0.8, 0.4, 0.3], "y": [1, 0, 1, 0], "amount": [10.0, 1.0, 30.0, 3.0]}
    iv = cc.rociv(data, score="s", label="y", amount="amount")
    choice = cc.workforce(iv, capacity=1)
    mixture = choice[choice.role == "mixture"].iloc[0]
    assert mixture.tpr == pytest.approx(0.25)  # one case: the first loan, a quarter of the benefit


def test_costs_from_benefits_and_credit_example():
    from costchart.datasets import load_credit

    credit = load_credit().query("classifier == 'logistic'")
    matrix = {("Y", "p"): lambda amount: 0.15 * amount, ("Y", "n"): lambda amount: -0.6 * amount}
    costs = cc.costs_from_benefits(credit, label="label", amount="amount", benefit=matrix)
    expected = np.where(credit.label == 1, 0.15 * credit.amount, 0.6 * credit.amount)
    np.testing.assert_allclose(costs, expected)
    assert costs.index.equals(credit.index)
    iv = cc.rociv(credit.assign(cost=costs), score="score", label="label", amount="cost")
    assert iv.fpr.iat[-1] == 1 and iv.tpr.iat[-1] == 1


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: cc.rociv(
                {"s": [1, 2], "y": [1, 0], "c": [1.0, np.nan]}, score="s", label="y", amount="c"
            ),
            r"column 'c' has 1 NaN values \(first at position 1\); every instance needs a cost",
        ),
        (
            lambda: cc.rociv(
                {"s": [1, 2], "y": [1, 0], "c": [1.0, -2.0]}, score="s", label="y", amount="c"
            ),
            r"column 'c' has 1 costs that are not positive \(first at position 1, -2\.0\); ROCIV needs every cost and benefit > 0",
        ),
        (
            lambda: cc.rociv(
                {"s": [1, 2], "y": [1, 0], "c": [0.0, 2.0]}, score="s", label="y", amount="c"
            ),
            r"column 'c' has 1 costs that are not positive \(first at position 0, 0\.0\)",
        ),
        (
            lambda: cc.rociv({"s": [1, 2], "y": [1, 0]}, score="s", label="y", amount="c"),
            r"data has no column 'c'; available columns: 's', 'y'",
        ),
        (
            lambda: cc.costs_from_benefits(
                {"y": [1, 0], "a": [10.0, 20.0]},
                label="y",
                amount="a",
                benefit={("Y", "p"): 1.0, ("Y", "n"): 5.0},
            ),
            r"the benefit matrix gives 1 instances a cost that is not positive and finite; the first, at position 1, is a negative with a=20 and b\(N,n\) - b\(Y,n\) = -5",
        ),
        (
            lambda: cc.costs_from_benefits(
                {"y": [1, 0], "a": [10.0, 20.0]}, label="y", amount="a", benefit={("yes", "p"): 1.0}
            ),
            r"benefit has cells \[\('yes', 'p'\)\]; use keys",
        ),
    ],
)
def test_rociv_errors(call, message):
    with pytest.raises(cc.CostchartError, match=message):
        call()


@pytest.mark.parametrize("decimals", [0, 2, None])
def test_large_inputs_match_a_groupby_reference(decimals):
    rng = np.random.default_rng(9)
    n = 40_000
    y = rng.random(n) < 0.2
    s = rng.normal(size=n) + y
    if decimals is not None:
        s = np.round(s, decimals)
    c = rng.lognormal(3, 1, size=n)
    iv = cc.rociv({"s": s, "y": y, "c": c}, score="s", label="y", amount="c")
    frame = pd.DataFrame({"s": s, "pos": np.where(y, c, 0.0), "neg": np.where(y, 0.0, c)})
    reference = frame.groupby("s").sum().sort_index(ascending=False).cumsum()
    np.testing.assert_array_equal(iv.threshold.to_numpy()[1:], reference.index.to_numpy())
    np.testing.assert_allclose(iv.tp_benefit.to_numpy()[1:], reference["pos"], rtol=1e-12)
    np.testing.assert_allclose(iv.fp_cost.to_numpy()[1:], reference["neg"], rtol=1e-12)


def test_rociv_condition_uses_average_costs_per_class(rng):
    data = pd.DataFrame(
        {"s": rng.normal(size=200), "y": rng.random(200) < 0.3, "c": rng.uniform(1, 10, 200)}
    )
    iv = cc.rociv(data, score="s", label="y", amount="c")
    condition = cc.rociv_condition(iv)
    negatives, positives = data[~data.y], data[data.y]
    slope = len(negatives) * negatives.c.mean() / (len(positives) * positives.c.mean())
    assert condition.slope.iat[0] == pytest.approx(slope)
    assert condition.pc.iat[0] == pytest.approx(1 / (1 + slope))
    # At that pc the envelope's choice minimizes the data's own total cost.
    best = cc.iso_performance(iv, pc=condition.pc.iat[0]).iloc[0]
    totals = iv.fp_cost.iat[-1] * iv.fpr + iv.tp_benefit.iat[-1] * (1 - iv.tpr)
    assert iv.fp_cost.iat[-1] * best.fpr + iv.tp_benefit.iat[-1] * (1 - best.tpr) == pytest.approx(
        totals.min()
    )
    with pytest.raises(
        cc.CostchartError, match="points has no column 'fp_cost'; pass a table from rociv"
    ):
        cc.rociv_condition(iv.drop(columns=["fp_cost"]))


def test_costs_whose_total_overflows_are_refused_not_nan():
    data = {"s": [0.9, 0.8, 0.3, 0.2], "y": [1, 0, 1, 0], "c": [1e308, 1.0, 1e308, 1.0]}
    with pytest.raises(
        cc.CostchartError,
        match=r"the costs in column 'c' of the positives sum to more than the largest float64",
    ):
        cc.rociv(data, score="s", label="y", amount="c")


def test_rociv_of_an_empty_frame_says_it_has_no_rows():
    empty = pd.DataFrame({"g": [], "s": [], "y": [], "c": []})
    for by in (None, "g"):
        with pytest.raises(cc.CostchartError, match=r"^data has no rows; ROC analysis needs"):
            cc.rociv(empty, score="s", label="y", amount="c", by=by)


DATA = pd.DataFrame({"s": [0.9, 0.8, 0.3, 0.2], "y": [1, 0, 1, 0], "c": [1.0, 2.0, 3.0, 4.0]})


@pytest.mark.parametrize(
    ("cost", "message"),
    [
        (None, r"amount=None must be a column name \(a string\)"),
        (DATA["c"], r"amount= takes a column name, but got a Series"),
    ],
)
def test_rociv_cost_must_be_a_column_name(cost, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.rociv(DATA, score="s", label="y", amount=cost)


def test_rociv_condition_reads_pyarrow_and_refuses_empty_tables():
    import polars as pl

    points = cc.rociv(DATA, score="s", label="y", amount="c")
    arrow = pl.from_pandas(points).to_arrow()
    pd.testing.assert_frame_equal(cc.rociv_condition(arrow), cc.rociv_condition(points))
    with pytest.raises(cc.CostchartError, match=r"points has no rows; pass a table from rociv"):
        cc.rociv_condition(points.iloc[:0])
    zero = points.assign(tp_benefit=0.0)
    with pytest.raises(cc.CostchartError, match=r"both must be finite and above 0"):
        cc.rociv_condition(zero)


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ("x", r"benefit\[\('Y', 'p'\)\] is 'x' \(ValueError: could not convert"),
        (
            lambda a: np.ones(3),
            r"benefit\[\('Y', 'p'\)\] is a function of the amount that fails \(ValueError: .*\); "
            r"each cell must be a number or a function returning one number per instance "
            r"\(4 here\)",
        ),
        (lambda a: a.nope, r"fails \(AttributeError: 'numpy\.ndarray' object has no attribute"),
        (float("inf"), r"gives 2 instances a cost that is not positive and finite"),
        (float("nan"), r"gives 2 instances a cost that is not positive and finite"),
    ],
)
def test_costs_from_benefits_reports_bad_cells(cell, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.costs_from_benefits(
            DATA, label="y", amount="c", benefit={("Y", "p"): cell, ("N", "n"): 1.0}
        )


def test_costs_from_benefits_does_not_let_a_cell_modify_the_amounts():
    def greedy(amounts):
        amounts *= 2  # a cell function that writes into its argument
        return amounts

    data = DATA.copy()
    costs = cc.costs_from_benefits(
        data, label="y", amount="c", benefit={("Y", "p"): greedy, ("N", "n"): 1.0}
    )
    assert costs.tolist() == [2.0, 1.0, 6.0, 1.0]
    pd.testing.assert_frame_equal(data, DATA)


def test_roc_chart_of_rociv_points_titles_its_axes_by_amounts():
    data = {"s": [4.0, 3.0, 2.0, 1.0], "y": [1, 0, 1, 0], "a": [10.0, 1.0, 2.0, 5.0]}
    titles = {}
    for kind, points in (
        ("iv", cc.rociv(data, score="s", label="y", amount="a")),
        ("roc", cc.roc_points(data, score="s", label="y")),
    ):
        spec = cc.roc_chart(points, show_auc=True).to_dict()
        titles[kind] = {
            (layer["encoding"]["x"].get("title"), layer["encoding"]["y"].get("title"))
            for layer in spec["layer"]
            if "x" in layer.get("encoding", {})
        }
        titles[kind + " text"] = str(spec)
    assert titles["iv"] == {
        ("Share of the negatives' cost incurred", "Share of the positives' benefit gained")
    }
    assert titles["roc"] == {("False positive rate", "True positive rate")}
    assert "AUCIV 0." in titles["iv text"]
    assert "AUCIV" not in titles["roc text"]
