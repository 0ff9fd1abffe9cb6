import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from strategies import arbitrary_points, scored_instances

import costchart as cc


def _line_costs(points, pc):
    """Cost of every line (rows) at every pc (columns), trivial classifiers included."""
    fpr = np.append(points["fpr"].to_numpy(float), [0.0, 1.0])
    tpr = np.append(points["tpr"].to_numpy(float), [0.0, 1.0])
    return fpr[:, None] + np.asarray(pc)[None, :] * (1 - tpr - fpr)[:, None]


def _intersections(points):
    """Every pc where two lines cross (the brute-force candidate vertices)."""
    fpr = np.append(points["fpr"].to_numpy(float), [0.0, 1.0])
    slope = np.append(
        1 - points["tpr"].to_numpy(float) - points["fpr"].to_numpy(float), [1.0, -1.0]
    )
    pcs = [0.0, 1.0]
    for i, j in itertools.combinations(range(len(fpr)), 2):
        if slope[i] != slope[j]:
            x = (fpr[j] - fpr[i]) / (slope[i] - slope[j])
            if 0 <= x <= 1:
                pcs.append(x)
    return np.unique(pcs)


def _check_envelope(points, rng):
    envelope = cc.lower_envelope(points)
    lines = cc.to_cost_lines(points)
    pc = envelope["pc"].to_numpy()
    assert pc[0] == 0 and pc[-1] == 1 and np.all(np.diff(pc) > 0)
    # Equal to the minimum of the lines at 1,000 random pc values.
    at = rng.random(1000)
    brute = _line_costs(points, at).min(axis=0)
    np.testing.assert_allclose(np.interp(at, pc, envelope["cost"]), brute, rtol=0, atol=1e-12)
    # Never above any line (checked at the lines' ends and the envelope's vertices).
    assert np.all(envelope["cost"].to_numpy() <= _line_costs(points, pc).min(axis=0) + 1e-12)
    # Envelope from lines equals envelope from points.
    pd.testing.assert_frame_equal(cc.lower_envelope(lines), envelope)
    # Its vertices equal the brute-force minimum at every pairwise intersection.
    candidates = _intersections(points)
    np.testing.assert_allclose(
        np.interp(candidates, pc, envelope["cost"]),
        _line_costs(points, candidates).min(axis=0),
        rtol=0,
        atol=1e-12,
    )
    # The active classifier's own line gives the cost at each vertex.
    active = envelope["fpr"] + envelope["pc"] * (1 - envelope["tpr"] - envelope["fpr"])
    np.testing.assert_allclose(active, envelope["cost"], rtol=0, atol=1e-15)
    return envelope


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(scored_instances())
def test_envelope_of_scored_data(data):
    points = cc.roc_points(data, score="score", label="y")
    _check_envelope(points, np.random.default_rng(0))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(arbitrary_points())
def test_envelope_of_arbitrary_points(points):
    _check_envelope(points, np.random.default_rng(1))


def test_worked_line_of_the_cost_curve_paper():
    lines = cc.to_cost_lines(pd.DataFrame({"fpr": [0.09], "tpr": [0.36]}))
    assert lines["pc"].tolist() == [0, 1]
    np.testing.assert_allclose(lines["cost"], [0.09, 0.64])


def test_envelope_of_trivial_classifiers_is_min_pc_one_minus_pc(rng):
    trivial = pd.DataFrame({"fpr": [0.0, 1.0], "tpr": [0.0, 1.0]})
    envelope = cc.lower_envelope(trivial)
    assert envelope["pc"].tolist() == [0, 0.5, 1]
    at = rng.random(100)
    np.testing.assert_allclose(
        np.interp(at, envelope["pc"], envelope["cost"]), np.minimum(at, 1 - at), atol=1e-15
    )


def test_envelope_vertex_between_hull_vertices():
    points = pd.DataFrame({"threshold": [2.0, 1.0], "fpr": [0.1, 0.4], "tpr": [0.5, 0.9]})
    envelope = cc.lower_envelope(points)
    # Between the two hull vertices: pc = dFPR / (dFPR + dTPR) = 0.3 / 0.7.
    assert envelope["pc"].iloc[2] == pytest.approx(0.3 / 0.7)
    assert envelope["threshold"].tolist() == [np.inf, 2.0, 1.0, -np.inf, -np.inf]


def test_operating_range_formula():
    ranges = cc.operating_range(pd.DataFrame({"fpr": [0.09, 0.5, 0.0], "tpr": [0.36, 0.5, 0.4]}))
    np.testing.assert_allclose(ranges["pc_lo"], [0.09 / 0.45, np.nan, 0.0])
    np.testing.assert_allclose(ranges["pc_hi"], [0.91 / 1.55, np.nan, 1 / 1.6])
    # At the ends the line ties with a trivial classifier.
    lo, hi = ranges["pc_lo"].iat[0], ranges["pc_hi"].iat[0]
    assert 0.09 + lo * (0.64 - 0.09) == pytest.approx(lo)
    assert 0.09 + hi * (0.64 - 0.09) == pytest.approx(1 - hi)


def test_operating_range_of_envelope():
    points = pd.DataFrame({"fpr": [0.1, 0.4], "tpr": [0.5, 0.9]})
    ranges = cc.operating_range(points, of="envelope")
    assert ranges["pc_lo"].iat[0] == pytest.approx(0.1 / 0.6)
    assert ranges["pc_hi"].iat[0] == pytest.approx(0.6 / 0.7)
    useless = cc.operating_range(pd.DataFrame({"fpr": [0.5], "tpr": [0.4]}), of="envelope")
    assert useless[["pc_lo", "pc_hi"]].isna().all(axis=None)


def test_selection_table_tiles_unit_interval_and_names_trivial_classifiers(rng):
    points = pd.DataFrame({"threshold": [2.0, 1.0], "fpr": [0.1, 0.4], "tpr": [0.5, 0.9]})
    selection = cc.selection_table(cc.lower_envelope(points))
    assert list(selection.columns) == ["pc_lo", "pc_hi", "threshold", "fpr", "tpr"]
    assert selection["pc_lo"].iat[0] == 0 and selection["pc_hi"].iat[-1] == 1
    np.testing.assert_array_equal(
        selection["pc_hi"].to_numpy()[:-1], selection["pc_lo"].to_numpy()[1:]
    )
    assert selection["threshold"].tolist() == [np.inf, 2.0, 1.0, -np.inf]
    pd.testing.assert_frame_equal(cc.selection_table(points), selection)


def test_cost_at_matches_lines():
    points = pd.DataFrame({"fpr": [0.09], "tpr": [0.36]})
    got = cc.cost_at(cc.lower_envelope(points), [0.0, 0.1, 0.5, 1.0])
    expected = np.minimum.reduce([0.09 + got["pc"] * 0.55, got["pc"], 1 - got["pc"]])
    np.testing.assert_allclose(got["cost"], expected, atol=1e-15)


def test_selection_table_needs_thresholds():
    # Points without thresholds would give a selection with NaN thresholds, which
    # apply_selection and bootstrap_band cannot look up.
    with pytest.raises(
        cc.CostchartError,
        match=r"the envelope selects a classifier with no threshold \(NaN\) at pc=0\.1666",
    ):
        cc.selection_table(pd.DataFrame({"fpr": [0.1], "tpr": [0.5]}))


def test_selection_table_refuses_a_curve_that_is_not_an_envelope():
    curve = pd.DataFrame(
        {"pc": [1.0, 0.0], "cost": [0.0, 0.0], "threshold": [1.0, 1.0], "fpr": 0.0, "tpr": 1.0}
    )
    with pytest.raises(cc.CostchartError, match=r"the curve is not a lower envelope"):
        cc.selection_table(curve)


def test_operating_range_of_is_checked():
    with pytest.raises(cc.CostchartError, match=r"of=None is not an option; pass one of 'lines'"):
        cc.operating_range(pd.DataFrame({"fpr": [0.1], "tpr": [0.5]}), of=None)
