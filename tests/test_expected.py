import numpy as np
import pandas as pd
import pytest
from scipy import integrate, stats

import costchart as cc

POINTS = pd.DataFrame({"threshold": [2.0, 1.0], "fpr": [0.1, 0.4], "tpr": [0.5, 0.9]})


def _envelope_function(points):
    envelope = cc.lower_envelope(points)
    return lambda pc: np.interp(pc, envelope["pc"], envelope["cost"]), envelope["pc"].to_numpy()


def test_uniform_expected_cost_is_area_under_envelope():
    f, breaks = _envelope_function(POINTS)
    area = sum(integrate.quad(f, a, b)[0] for a, b in zip(breaks[:-1], breaks[1:]))
    assert cc.expected_cost(POINTS)["expected_cost"].iat[0] == pytest.approx(area, rel=1e-12)


def test_trivial_classifiers_cost_one_quarter_on_average():
    trivial = pd.DataFrame({"fpr": [0.0], "tpr": [0.0]})
    assert cc.expected_cost(trivial)["expected_cost"].iat[0] == pytest.approx(0.25)


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
    got = cc.expected_cost(POINTS, density=density)["expected_cost"].iat[0]
    assert got == pytest.approx(expected, rel=1e-7)


def test_callable_density():
    f, breaks = _envelope_function(POINTS)

    def density(pc):
        return 6 * pc * (1 - pc)

    expected = sum(
        integrate.quad(lambda x: f(x) * density(x), a, b)[0]
        for a, b in zip(breaks[:-1], breaks[1:])
    )
    got = cc.expected_cost(POINTS, density=density)["expected_cost"].iat[0]
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
    envelope = cc.lower_envelope(points)
    result = cc.expected_cost(envelope)
    assert list(result.columns) == ["model", "expected_cost"]
    assert result["expected_cost"].iat[1] == pytest.approx(0.25)


def test_curve_must_span_unit_interval():
    with pytest.raises(
        cc.CostchartError, match="must span pc from 0 to 1, but one runs from 0.2 to 0.8"
    ):
        cc.expected_cost(pd.DataFrame({"pc": [0.2, 0.8], "cost": [0.1, 0.1]}))
