import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from scipy import integrate, stats
from strategies import arbitrary_points

import costchart as cc

# Each classifier with the trivial ones: the envelopes of one ROC point each.
A = cc.lower_envelope(pd.DataFrame({"fpr": [0.1], "tpr": [0.5]}))
B = cc.lower_envelope(pd.DataFrame({"fpr": [0.4], "tpr": [0.9]}))


def test_crossover_and_ranges():
    result = cc.compare(A, B, names=("A", "B"))
    # 0.1 + 0.4 pc = 0.4 - 0.3 pc  ->  pc = 3/7
    np.testing.assert_allclose(result.crossovers, [3 / 7])
    assert result.better["better"].tolist() == ["tie", "A", "B", "tie"]
    assert result.better["pc_lo"].iat[0] == 0 and result.better["pc_hi"].iat[-1] == 1
    advantage = result.advantage.set_index("name")
    assert advantage.loc["B", "max_advantage"] == pytest.approx(0.15)
    assert advantage.loc["B", "pc"] == pytest.approx(0.642857, abs=1e-6)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(arbitrary_points(max_size=8), arbitrary_points(max_size=8))
def test_difference_is_exact_and_ranges_agree(a, b):
    result = cc.compare(cc.lower_envelope(a), cc.lower_envelope(b))
    at = np.linspace(0, 1, 301)
    ea, eb = cc.lower_envelope(a), cc.lower_envelope(b)
    exact = np.interp(at, ea.pc, ea.cost) - np.interp(at, eb.pc, eb.cost)
    np.testing.assert_allclose(
        np.interp(at, result.difference.pc, result.difference.difference), exact, atol=1e-12
    )
    for row in result.better.itertuples():
        inside = exact[(at > row.pc_lo + 1e-9) & (at < row.pc_hi - 1e-9)]
        if row.better == "a":
            assert (inside <= 1e-12).all()
        elif row.better == "b":
            assert (inside >= -1e-12).all()
    # Both curves are equal at every crossover.
    for pc in result.crossovers:
        assert np.interp(pc, ea.pc, ea.cost) == pytest.approx(
            np.interp(pc, eb.pc, eb.cost), abs=1e-9
        )


def test_expected_difference_uniform_and_weighted():
    result = cc.compare(A, B)
    assert result.expected_difference == pytest.approx(
        cc.expected_cost(A)["expected_cost"].iat[0] - cc.expected_cost(B)["expected_cost"].iat[0]
    )
    density = stats.beta(2, 5)
    weighted = cc.compare(A, B, density=density)
    d = result.difference
    expected = integrate.quad(
        lambda x: np.interp(x, d.pc, d.difference) * density.pdf(x),
        0,
        1,
        points=d.pc.tolist(),
        limit=200,
    )[0]
    assert weighted.expected_difference == pytest.approx(expected, rel=1e-8)


def test_compare_takes_one_curve_each():
    two = pd.concat([A.assign(m="x"), B.assign(m="y")])
    with pytest.raises(
        cc.CostchartError,
        match=r"a holds 2 curves \(grouped by \['m'\]\); compare takes one curve each",
    ):
        cc.compare(two, B)


def test_compare_refuses_a_nan_curve():
    # A NaN curve used to be reported as a tie everywhere.
    envelope = A
    broken = envelope.assign(cost=[0.0, np.nan, 0.0, 0.0][: len(envelope)])
    with pytest.raises(
        cc.CostchartError, match=r"column 'cost' of a must hold normalized costs in \[0, 1\]"
    ):
        cc.compare(broken, B)
    with pytest.raises(cc.CostchartError, match=r"column 'tpr' of b must hold rates in \[0, 1\]"):
        cc.compare(A, pd.DataFrame({"fpr": [0.4], "tpr": [np.nan]}))


def test_compare_refuses_empty_and_partial_curves():
    with pytest.raises(cc.CostchartError, match=r"b is empty; compare takes one cost curve"):
        cc.compare(A, B.iloc[:0])
    half = pd.DataFrame({"pc": [0.0, 0.5], "cost": [0.0, 0.2]})
    with pytest.raises(
        cc.CostchartError, match=r"must span pc from 0 to 1, but one runs from 0\.0 to 0\.5 \(b\)"
    ):
        cc.compare(A, half)


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (("a",), r"names=\('a',\) must be two strings, one per curve"),
        ("ab", r"names='ab' must be two strings, one per curve"),
        (("a", 1), r"names=\('a', 1\) must be two strings"),
        (("a", "b", "c"), r"names=\('a', 'b', 'c'\) must be two strings"),
        ("ab", r"names='ab' must be two strings"),
        (("x", "x"), r"names=\('x', 'x'\) must be two distinct names other than 'tie'"),
        (("tie", "x"), r"names=\('tie', 'x'\) must be two distinct names other than 'tie'"),
    ],
)
def test_compare_names_must_be_two_distinct_strings(names, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.compare(A, B, names=names)


def test_compare_refuses_a_bad_density_before_reading_curves():
    with pytest.raises(cc.CostchartError, match=r"density='flat' must be a scipy.stats frozen"):
        cc.compare(A, B, density="flat")
