import numpy as np
import pandas as pd
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
        (
            lambda: cc.pc_from_costs("often"),
            r"p_pos='often' must be a number or numbers, not str",
        ),
    ],
)
def test_bad_conditions(call, message):
    with pytest.raises(cc.CostchartError, match=message):
        call()


NOT_NUMBERS = [
    ("0.5", r"='0\.5' must be a number or numbers, not str"),
    (None, r"=None must be a number or numbers, not NoneType None"),
    (True, r"=True must be a number or numbers, not bool True"),
    (["0.1", "0.2"], r" must be a number or numbers, not str '0\.1'"),
    ([0.1, None], r" must be a number or numbers, not NoneType None"),
    ([0.1, [0.2, 0.3]], r" must be a number or numbers, not list \[0\.2, 0\.3\]"),
    (pd.Series([0.1, pd.NA], dtype=object), r" must be a number or numbers, not NAType <NA>"),
    ({"pc": 0.5}, r"=\{'pc': 0\.5\} must be a number or numbers, not dict"),
]

# Each function with every parameter, and values that are good for the others.
FUNCTIONS = {
    "pc_from_costs": (cc.pc_from_costs, {"p_pos": 0.3, "cost_fn": 2.0, "cost_fp": 1.0}),
    "pc_from_cost_ratio": (cc.pc_from_cost_ratio, {"cost_ratio": 2.0, "p_pos": 0.3}),
    "p_pos_from_pc": (cc.p_pos_from_pc, {"pc": 0.3, "cost_fn": 2.0, "cost_fp": 1.0}),
    "cost_ratio_from_pc": (cc.cost_ratio_from_pc, {"pc": 0.3, "p_pos": 0.4}),
    "pc_from_slope": (cc.pc_from_slope, {"slope": 2.0}),
    "slope_from_pc": (cc.slope_from_pc, {"pc": 0.3}),
    "roc_point_to_cost_line": (cc.roc_point_to_cost_line, {"fpr": 0.2, "tpr": 0.7}),
    "cost_line_to_roc_point": (cc.cost_line_to_roc_point, {"slope": 0.1, "intercept": 0.2}),
    "roc_line_to_cost_point": (cc.roc_line_to_cost_point, {"slope": 2.0, "intercept": 0.1}),
    "cost_point_to_roc_line": (cc.cost_point_to_roc_line, {"pc": 0.3, "cost": 0.2}),
}
PARAMETERS = [(f, p) for f, (_, good) in FUNCTIONS.items() for p in good]


@pytest.mark.parametrize(("function", "parameter"), PARAMETERS)
@pytest.mark.parametrize(("value", "message"), NOT_NUMBERS)
def test_not_numbers_are_refused_naming_the_parameter(function, parameter, value, message):
    call, good = FUNCTIONS[function]
    with pytest.raises(cc.CostchartError, match="^" + parameter + message):
        call(**{**good, parameter: value})


@pytest.mark.parametrize(("function", "parameter"), PARAMETERS)
def test_nan_is_refused_naming_the_parameter(function, parameter):
    call, good = FUNCTIONS[function]
    with pytest.raises(cc.CostchartError, match=f"^{parameter}=nan "):
        call(**{**good, parameter: np.nan})
    with pytest.raises(cc.CostchartError, match=f"^{parameter}=nan "):
        call(**{**good, parameter: [0.1, np.nan]})


MEANINGLESS_INF = [
    ("pc_from_costs", "p_pos", r"p_pos=inf is outside \[0, 1\]"),
    ("pc_from_costs", "cost_fn", r"cost_fn=inf must be a positive, finite number"),
    ("pc_from_costs", "cost_fp", r"cost_fp=inf must be a positive, finite number"),
    ("pc_from_cost_ratio", "p_pos", r"p_pos=inf is outside \[0, 1\]"),
    ("p_pos_from_pc", "pc", r"pc=inf is outside \[0, 1\]"),
    ("p_pos_from_pc", "cost_fn", r"cost_fn=inf must be a positive, finite number"),
    ("p_pos_from_pc", "cost_fp", r"cost_fp=inf must be a positive, finite number"),
    ("cost_ratio_from_pc", "pc", r"pc=inf is outside \[0, 1\]"),
    ("cost_ratio_from_pc", "p_pos", r"p_pos=inf is outside \[0, 1\]"),  # the word's range
    ("slope_from_pc", "pc", r"pc=inf is outside \[0, 1\]"),
    ("roc_point_to_cost_line", "fpr", r"fpr=inf is outside \[0, 1\]"),
    ("roc_point_to_cost_line", "tpr", r"tpr=inf is outside \[0, 1\]"),
    ("cost_line_to_roc_point", "slope", r"slope=inf must be a finite number"),
    ("cost_line_to_roc_point", "intercept", r"intercept=inf must be a finite number"),
    ("roc_line_to_cost_point", "intercept", r"intercept=inf must be a finite number"),
    ("cost_point_to_roc_line", "pc", r"pc=inf is outside \[0, 1\]"),  # the word's range
    ("cost_point_to_roc_line", "cost", r"cost=inf must be a finite number"),
]


@pytest.mark.parametrize(("function", "parameter", "message"), MEANINGLESS_INF)
def test_meaningless_infinities_are_refused(function, parameter, message):
    call, good = FUNCTIONS[function]
    for infinity in (np.inf, -np.inf):
        expected = message.replace("=inf", "=-inf") if infinity < 0 else message
        if infinity < 0 and "outside" not in message and "finite" not in message:
            continue
        with pytest.raises(cc.CostchartError, match=expected):
            call(**{**good, parameter: infinity})


def test_every_parameter_is_checked_for_infinities():
    covered = {(f, p) for f, p, _ in MEANINGLESS_INF}
    meaningful = {
        ("pc_from_cost_ratio", "cost_ratio"),
        ("pc_from_slope", "slope"),
        ("roc_line_to_cost_point", "slope"),
    }
    assert covered | meaningful == set(PARAMETERS)


def test_meaningful_infinities_are_kept():
    assert cc.pc_from_slope(np.inf) == 0.0
    assert cc.slope_from_pc(0.0) == np.inf
    assert cc.roc_line_to_cost_point(np.inf, 0.3) == (0.0, 0.0)
    assert cc.cost_ratio_from_pc(1.0, p_pos=0.3) == np.inf
    assert cc.pc_from_cost_ratio(np.inf, p_pos=0.3) == 1.0
    assert cc.cost_ratio_from_pc(0.0, p_pos=0.3) == 0.0
    assert cc.pc_from_cost_ratio(0.0, p_pos=0.3) == 0.0
    np.testing.assert_array_equal(cc.pc_from_cost_ratio([0.0, 1.0, np.inf], p_pos=0.2), [0, 0.2, 1])
    np.testing.assert_array_equal(cc.pc_from_slope([0.0, 1.0, np.inf]), [1.0, 0.5, 0.0])


@pytest.mark.parametrize(
    ("ratio", "p_pos"), [(np.inf, 0.0), (0.0, 1.0), ([1.0, np.inf], [0.5, 0.0])]
)
def test_cost_ratio_ends_with_a_degenerate_prior(ratio, p_pos):
    with pytest.raises(cc.CostchartError, match=r"has no operating point \(0 times inf\)"):
        cc.pc_from_cost_ratio(ratio, p_pos=p_pos)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: cc.pc_from_cost_ratio(-1.0), r"cost_ratio=-1\.0 must be a non-negative number"),
        (lambda: cc.p_pos_from_pc(0.3, cost_fn=-2.0), r"cost_fn=-2\.0 must be a positive"),
        (lambda: cc.p_pos_from_pc(0.3, cost_fp=[1.0, -1.0]), r"cost_fp=-1\.0 must be a positive"),
        (lambda: cc.pc_from_costs(0.3, cost_fn=[2.0, 0.0]), r"cost_fn=0\.0 must be a positive"),
        (
            lambda: cc.cost_point_to_roc_line(0.3, -0.1),
            r"cost=-0\.1 is negative; an expected cost is at least 0",
        ),
        (
            lambda: cc.roc_line_to_cost_point(1.0, 1.5),
            r"intercept=1\.5 is above 1: the line passes above every ROC point",
        ),
        (lambda: cc.roc_line_to_cost_point(-1.0, 0.5), r"slope=-1\.0 has no cost point.*parallel"),
        (lambda: cc.roc_line_to_cost_point(-np.inf, 0.5), r"slope=-inf must be a number other"),
    ],
)
def test_negative_costs_and_impossible_lines(call, message):
    with pytest.raises(cc.CostchartError, match=message):
        call()


@pytest.mark.parametrize(
    "function", sorted(f for f, (_, good) in FUNCTIONS.items() if len(good) > 1)
)
def test_shapes_that_do_not_match(function):
    call, good = FUNCTIONS[function]
    first, second = list(good)[:2]
    values = {**good, first: np.full(2, good[first]), second: np.full(3, good[second])}
    with pytest.raises(
        cc.CostchartError,
        match=rf"the shapes of {first} \(2,\), {second} \(3,\).* do not match; pass numbers or arrays of one shape",
    ):
        call(**values)


@pytest.mark.parametrize("function", sorted(FUNCTIONS))
def test_numbers_lists_series_and_2d_arrays_agree(function):
    call, good = FUNCTIONS[function]
    scalar = call(**good)
    for kind in ("list", "series", "2d", "numpy scalar", "int"):
        if kind == "list":
            values = {p: [v, v] for p, v in good.items()}
        elif kind == "series":
            values = {p: pd.Series([v, v, v]) for p, v in good.items()}
        elif kind == "2d":
            values = {p: np.full((2, 3), v) for p, v in good.items()}
        elif kind == "numpy scalar":
            values = {p: np.float32(v) if p == next(iter(good)) else v for p, v in good.items()}
        else:
            values = {
                p: 1 if p in ("cost_fn", "cost_fp", "cost_ratio", "slope") else v
                for p, v in good.items()
            }
        result = call(**values)
        parts = result if isinstance(result, tuple) else (result,)
        expected = call(**{p: float(np.ravel(v)[0]) for p, v in values.items()})
        expected = expected if isinstance(expected, tuple) else (expected,)
        for part, value in zip(parts, expected):
            shape = np.shape(next(iter(values.values())))
            assert np.shape(part) == shape
            np.testing.assert_allclose(part, value, rtol=1e-6 if kind == "numpy scalar" else 0)
    assert all(isinstance(v, float) for v in (scalar if isinstance(scalar, tuple) else (scalar,)))


@pytest.mark.parametrize(
    ("n_pos", "n_neg", "flagged"), [(100, 300, 150), (300, 100, 50), (40, 60, 70)]
)
def test_workforce_lines_have_a_virtual_cost_point(n_pos, n_neg, flagged):
    # tp + fp = flagged: tpr = -(n_neg / n_pos) * fpr + flagged / n_pos, a negative slope.
    slope, intercept = -n_neg / n_pos, flagged / n_pos
    pc, cost = cc.roc_line_to_cost_point(slope, intercept)
    assert not 0 <= pc <= 1  # outside the chart: a virtual point
    # Brute force: the cost line of every ROC point on the line passes through it.
    rng = np.random.default_rng(n_pos)
    fpr = rng.uniform(0, 1, 20)
    tpr = slope * fpr + intercept
    np.testing.assert_allclose(fpr * (1 - pc) + (1 - tpr) * pc, cost, atol=1e-12)
