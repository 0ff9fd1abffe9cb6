import numpy as np
import pandas as pd
import pytest
from scipy import integrate, stats

import costchart as cc

POINTS = pd.DataFrame({"threshold": [2.0, 1.0], "fpr": [0.1, 0.4], "tpr": [0.5, 0.9]})
ENVELOPE = cc.lower_envelope(POINTS)


def _envelope_function(points):
    envelope = cc.lower_envelope(points)
    return lambda pc: np.interp(pc, envelope["pc"], envelope["cost"]), envelope["pc"].to_numpy()


def test_uniform_expected_cost_is_area_under_envelope():
    f, breaks = _envelope_function(POINTS)
    area = sum(integrate.quad(f, a, b)[0] for a, b in zip(breaks[:-1], breaks[1:]))
    assert cc.expected_cost(ENVELOPE)["expected_cost"].iat[0] == pytest.approx(area, rel=1e-12)


def test_trivial_classifiers_cost_one_quarter_on_average():
    trivial = pd.DataFrame({"fpr": [0.0], "tpr": [0.0]})
    assert cc.expected_cost(cc.lower_envelope(trivial))["expected_cost"].iat[0] == pytest.approx(
        0.25
    )


@pytest.mark.parametrize(
    "density",
    [
        stats.beta(2, 5),
        stats.beta(0.5, 0.5),
        stats.uniform(0.2, 0.3),
        stats.truncnorm(-2, 2, 0.5, 0.25),
    ],
)
def test_frozen_distribution_density(density):
    f, breaks = _envelope_function(POINTS)
    expected = sum(
        integrate.quad(lambda x: f(x) * density.pdf(x), a, b, limit=200)[0]
        for a, b in zip(breaks[:-1], breaks[1:])
    )
    got = cc.expected_cost(ENVELOPE, density=density)["expected_cost"].iat[0]
    assert got == pytest.approx(expected, rel=1e-7)


def test_callable_density():
    f, breaks = _envelope_function(POINTS)

    def density(pc):
        return 6 * pc * (1 - pc)

    expected = sum(
        integrate.quad(lambda x: f(x) * density(x), a, b)[0]
        for a, b in zip(breaks[:-1], breaks[1:])
    )
    got = cc.expected_cost(ENVELOPE, density=density)["expected_cost"].iat[0]
    assert got == pytest.approx(expected, rel=1e-12)


def test_density_must_live_on_unit_interval():
    with pytest.raises(
        cc.CostchartError, match=r"density puts mass 0\.68\d* on \[0, 1\].*scipy\.stats\.beta"
    ):
        cc.expected_cost(POINTS, density=stats.norm(0.5, 0.5))
    with pytest.raises(cc.CostchartError, match=r"density puts mass 2 on \[0, 1\].*normalize"):
        cc.expected_cost(POINTS, density=lambda pc: np.full_like(pc, 2.0))
    with pytest.raises(cc.CostchartError, match=r"density='flat' must be a scipy.stats frozen"):
        cc.expected_cost(POINTS, density="flat")


def test_expected_cost_of_given_curve_and_groups():
    points = pd.concat(
        [POINTS.assign(model="a"), pd.DataFrame({"fpr": [0.0], "tpr": [0.0], "model": "b"})]
    )
    envelope = cc.lower_envelope(points, by="model")
    result = cc.expected_cost(envelope)
    assert list(result.columns) == ["model", "expected_cost"]
    assert result["expected_cost"].iat[1] == pytest.approx(0.25)


def test_curve_must_span_unit_interval():
    with pytest.raises(
        cc.CostchartError, match="must span pc from 0 to 1, but one runs from 0.2 to 0.8"
    ):
        cc.expected_cost(pd.DataFrame({"pc": [0.2, 0.8], "cost": [0.1, 0.1]}))


@pytest.mark.parametrize(
    ("curve", "message"),
    [
        # Both once returned NaN or negative expected costs (-2.5 for the second).
        (
            pd.DataFrame({"pc": [0.0, 0.5, 1.0], "cost": [0.0, np.nan, 0.0]}),
            r"column 'cost' of curve must hold normalized costs in \[0, 1\], but has "
            r"nan at position 1",
        ),
        (
            pd.DataFrame({"pc": [0.0, 1.0], "cost": [-2.5, -2.5]}),
            r"column 'cost' of curve must hold normalized costs in \[0, 1\], but has "
            r"-2\.5 at position 0",
        ),
        (
            pd.DataFrame({"pc": [0.0, 1.0, 2.0], "cost": [0.1, 0.1, 0.1]}),
            r"column 'pc' of curve must hold operating points in \[0, 1\], but has 2\.0",
        ),
        (
            pd.DataFrame({"fpr": [0.1, np.nan], "tpr": [0.5, 0.6]}),
            r"column 'fpr' of curve must hold rates in \[0, 1\], but has nan at position 1",
        ),
    ],
)
def test_bad_curves_are_refused_not_integrated(curve, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.expected_cost(curve)
    with pytest.raises(cc.CostchartError, match=message):
        cc.cost_at(curve, [0.25, 0.5])


def test_cost_at_refuses_a_two_dimensional_pc():
    with pytest.raises(
        cc.CostchartError,
        match=r"pc must be a number or a 1-D list of numbers, but has shape \(2, 2\); flatten",
    ):
        cc.cost_at(POINTS, [[0.1, 0.2], [0.3, 0.4]])


@pytest.mark.parametrize(
    ("density", "message"),
    [
        (
            lambda pc: 1.0,
            r"density must return one value per pc: given an array of shape \(1,\) it returned "
            r"shape \(\); write it with numpy operations",
        ),
        (
            lambda pc: np.ones((len(pc), 2)),
            r"density must return one value per pc: given an array of shape \(1,\) it returned "
            r"shape \(1, 2\)",
        ),
        (
            lambda pc: np.full_like(pc, np.nan),
            r"density returned nan at pc=.*; a density must be finite and non-negative",
        ),
        (
            lambda pc: 3 - 4 * pc,  # integrates to 1 but is negative above 0.75
            r"density returned -.* at pc=0\.\d+; a density must be finite and non-negative",
        ),
        (
            lambda pc: pc["x"],
            r"density failed on a numpy array of pc values \(IndexError: .*\); it must take an "
            r"array",
        ),
        (object(), r"density=<object .*> must be a scipy.stats frozen distribution"),
        (42, r"density=42 must be a scipy.stats frozen distribution"),
        (stats.beta, r"density.cdf failed on .*must be frozen, e.g. scipy.stats.beta\(2, 5\)"),
    ],
)
def test_bad_densities_are_refused(density, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.expected_cost(ENVELOPE, density=density)


@pytest.mark.parametrize(
    ("pc", "message"),
    [
        ("0.3", r"pc='0\.3' must be a number or numbers, not str"),
        (True, r"pc=True must be a number or numbers, not bool True"),
        ([0.1, "x"], r"pc must be a number or numbers, not str 'x'"),
        ([None], r"pc must be a number or numbers, not NoneType None"),
        (np.array([1j]), r"must be a number or numbers, not complex"),
    ],
)
def test_cost_at_refuses_pc_that_is_not_numbers(pc, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.cost_at(POINTS, pc)


def test_a_line_gives_its_own_cost_not_the_envelope():
    # The classifier at FPR 0.09, TPR 0.36: its line is 0.09 + 0.55 pc, 0.53 at pc 0.8,
    # where the always-positive classifier (and so the envelope) costs 0.2.
    point = pd.DataFrame({"fpr": [0.09], "tpr": [0.36]})
    lines = cc.to_cost_lines(point)
    for table in (point, lines):
        assert cc.cost_at(table, [0.8])["cost"].iat[0] == pytest.approx(0.53, abs=1e-12)
    assert cc.cost_at(cc.lower_envelope(point), [0.8])["cost"].iat[0] == pytest.approx(0.2)


def test_each_line_of_a_table_is_evaluated_on_its_own():
    got = cc.cost_at(POINTS, [0.0, 0.5, 1.0])
    assert list(got.columns) == ["threshold", "tpr", "fpr", "pc", "cost"]
    assert got["threshold"].tolist() == [2.0, 2.0, 2.0, 1.0, 1.0, 1.0]
    fpr, fnr = got["fpr"].to_numpy(), 1 - got["tpr"].to_numpy()
    np.testing.assert_allclose(got["cost"], fpr + got["pc"] * (fnr - fpr), atol=0)
    np.testing.assert_allclose(got["cost"], [0.1, 0.3, 0.5, 0.4, 0.25, 0.1])


def test_expected_cost_of_lines_is_each_lines_area():
    got = cc.expected_cost(POINTS)
    assert list(got.columns) == ["threshold", "tpr", "fpr", "expected_cost"]
    np.testing.assert_allclose(got["expected_cost"], [(0.1 + 0.5) / 2, (0.4 + 0.1) / 2])
    density = stats.beta(2, 5)  # mean 2/7: the line's cost at the mean pc
    weighted = cc.expected_cost(POINTS, density=density)["expected_cost"]
    np.testing.assert_allclose(weighted, [0.1 + 0.4 * 2 / 7, 0.4 - 0.3 * 2 / 7], rtol=1e-10)


def test_a_jump_holds_no_mass_under_any_density_and_needs_its_rows_in_order():
    from scipy import stats

    jump = pd.DataFrame({"pc": [0.0, 0.5, 0.5, 1.0], "cost": [0.0, 0.5, 0.1, 0.1]})
    uniform = cc.expected_cost(jump)["expected_cost"].item()
    assert uniform == pytest.approx(0.175)
    # A cdf-based density once counted the jump as a segment: -0.025 here.
    assert cc.expected_cost(jump, density=stats.uniform())["expected_cost"].item() == (
        pytest.approx(uniform)
    )
    beta = cc.expected_cost(jump, density=stats.beta(2, 2))["expected_cost"].item()
    assert beta == pytest.approx(
        cc.expected_cost(jump, density=lambda x: 6 * x * (1 - x))["expected_cost"].item()
    )
    with pytest.raises(cc.CostchartError, match=r"jumps at pc=0\.5, but its rows are not in pc"):
        cc.expected_cost(jump.iloc[::-1])
    unsorted = pd.DataFrame({"pc": [1.0, 0.0, 0.5], "cost": [0.0, 0.0, 0.3]})
    assert cc.expected_cost(unsorted)["expected_cost"].item() == pytest.approx(0.15)
