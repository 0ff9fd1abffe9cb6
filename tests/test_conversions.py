import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import costchart as cc

unit = st.floats(0, 1)
inner = st.floats(0.001, 0.999)
cost = st.floats(0.01, 100)


@given(inner, cost, cost)
def test_pc_and_prior_round_trip(p, fn, fp):
    pc = cc.pc_from_costs(p, cost_fn=fn, cost_fp=fp)
    assert cc.p_pos_from_pc(pc, cost_fn=fn, cost_fp=fp) == pytest.approx(p, rel=1e-9)
    slope = (1 - p) * fp / (p * fn)
    assert cc.pc_from_slope(slope) == pytest.approx(pc, rel=1e-9)
    assert cc.slope_from_pc(pc) == pytest.approx(slope, rel=1e-9)


@given(inner, st.floats(0.01, 100))
def test_cost_ratio_round_trip(p, ratio):
    pc = cc.pc_from_cost_ratio(ratio, p_pos=p)
    assert cc.cost_ratio_from_pc(pc, p_pos=p) == pytest.approx(ratio, rel=1e-9)


@given(unit, unit)
def test_roc_point_cost_line_round_trip(fpr, tpr):
    slope, intercept = cc.roc_point_to_cost_line(fpr, tpr)
    back = cc.cost_line_to_roc_point(slope, intercept)
    assert back == pytest.approx((fpr, tpr), abs=1e-12)


@given(st.floats(0, 1e3), st.floats(-1, 1))
def test_roc_line_cost_point_round_trip(slope, intercept):
    pc, cost = cc.roc_line_to_cost_point(slope, intercept)
    back = cc.cost_point_to_roc_line(pc, cost)
    assert back == pytest.approx((slope, intercept), rel=1e-9, abs=1e-9)


@given(unit, unit, inner)
def test_points_on_a_roc_line_share_the_cost_point(fpr, intercept, pc):
    # Every ROC point on the iso-performance line of pc costs the same at pc.
    slope = cc.slope_from_pc(pc)
    tpr = slope * fpr + intercept
    line_slope, line_intercept = cc.roc_point_to_cost_line(0.0, min(max(intercept, 0), 1))
    _, cost = cc.roc_line_to_cost_point(slope, intercept)
    assert fpr + pc * (1 - tpr - fpr) == pytest.approx(cost, abs=1e-9)
    assert line_slope + line_intercept == pytest.approx(1 - min(max(intercept, 0), 1))


def test_equal_costs_pc_is_prior_and_arrays_work():
    np.testing.assert_allclose(cc.pc_from_costs(np.array([0.1, 0.7])), [0.1, 0.7])
    assert cc.pc_from_slope(np.inf) == 0.0
    assert cc.slope_from_pc(0.0) == np.inf


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: cc.pc_from_costs(1.5),
            r"p_pos=1\.5 is outside \[0, 1\]; pass a value in \[0, 1\]",
        ),
        (
            lambda: cc.pc_from_costs(0.5, cost_fn=-1),
            r"cost_fn=-1\.0 must be a positive, finite number",
        ),
        (lambda: cc.pc_from_costs(0.5, cost_fp=0), r"cost_fp=0\.0 must be a positive"),
        (lambda: cc.slope_from_pc(-0.1), r"pc=-0\.1 is outside \[0, 1\]"),
        (lambda: cc.pc_from_slope(-2), r"slope=-2\.0 must be a non-negative number"),
        (lambda: cc.cost_ratio_from_pc(0.5, p_pos=1), r"p_pos=1\.0 is outside \(0, 1\)"),
        (lambda: cc.cost_point_to_roc_line(0, 0.1), r"pc=0\.0 is outside \(0, 1\]"),
        (lambda: cc.pc_from_costs("often"), r"p_pos='often' must be a number between 0 and 1"),
    ],
)
def test_bad_conditions(call, message):
    with pytest.raises(cc.CostchartError, match=message):
        call()
