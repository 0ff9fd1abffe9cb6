"""The all-groups-at-once ``curve_points`` and ``roc_average`` against their per-group code.

The reference functions below are the per-group implementations they replaced (a Python
loop over groups stacking small frames), kept verbatim in substance; the new code must
give the same rows, order, columns, dtypes, values, warnings and errors.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from strategies import key_series

import costchart as cc
from costchart._cost.average import check_over, cluster_representatives
from costchart._io import schema as col
from costchart._io.errors import CostchartError, CostchartWarning, warn
from costchart._io.frames import describe_group
from costchart._io.groups import combine_groups, split_groups
from costchart._io.tables import curve_groups, points_groups, read_table
from costchart._io.validation import one_of
from costchart._roc.average import _check_grid, curves_by

_ROUNDING = 64 * float(np.finfo(np.float64).eps)


# --- the per-group reference implementations -------------------------------------------


def _segment_rates_one(pc, cost, where):
    width = np.diff(pc)
    slope = np.diff(cost) / width
    intercept = cost[:-1] - slope * pc[:-1]
    fpr, tpr = intercept, 1 - slope - intercept
    scale = np.maximum(1.0, np.maximum(np.abs(cost[:-1]), np.abs(cost[1:])))
    bound = _ROUNDING * scale * (1 + np.abs(slope)) * (1 + 1 / width)
    outside = [(rates < -bound) | (rates > 1 + bound) | ~np.isfinite(rates) for rates in (fpr, tpr)]
    if np.any(outside):
        k = int(np.flatnonzero(outside[0] | outside[1])[0])
        name, rate = (col.FPR, fpr[k]) if outside[0][k] else (col.TPR, tpr[k])
        msg = (
            f"{where}'s segment from pc={float(pc[k])!r} to pc={float(pc[k + 1])!r} is the "
            f"cost line of a point with {name}={float(rate)!r}, outside [0, 1]: the table is "
            "not a cost curve of ROC points (costs between 0 and 1, slopes between -1 and 1)"
        )
        raise CostchartError(msg)
    return np.clip(fpr, 0.0, 1.0), np.clip(tpr, 0.0, 1.0)


def _curve_points_group_by_group(curve, *, by=None):
    table, by, groups = curve_groups(read_table(curve, "curve"), by)
    if len(table) == 0:
        msg = "curve has no rows; pass a cost curve (pc, cost), e.g. from vertical_average"
        raise CostchartError(msg)
    parts = []
    for group in groups:
        pc = table[col.PC].to_numpy(np.float64)[group.positions]
        cost = table[col.COST].to_numpy(np.float64)[group.positions]
        order = np.argsort(pc, kind="stable")
        pc, cost = pc[order], cost[order]
        kept = cluster_representatives(pc)
        pc, cost = pc[kept], cost[kept]
        where = f"group {describe_group(by, group.key)}" if by else "curve"
        fpr, tpr = _segment_rates_one(pc, cost, where)
        parts.append(
            pd.DataFrame({col.PC_LO: pc[:-1], col.PC_HI: pc[1:], col.FPR: fpr, col.TPR: tpr})
        )
    return combine_groups(table, by, groups, parts, [col.PC_LO, col.PC_HI, col.FPR, col.TPR])


def _roc_average_group_by_group(points, *, over, averaging="vertical", grid=None, by=None):
    one_of(averaging, "averaging", ("vertical", "horizontal", "by_threshold"))
    method = {"by_threshold": "threshold"}.get(averaging, averaging)
    table = read_table(points, "points")
    over = check_over(table, over, "points")
    table, inferred, _ = points_groups(table, curves_by(by, over), declared=over)
    if method == "threshold" and col.THRESHOLD not in table.columns:
        msg = "averaging='by_threshold' needs a 'threshold' column (ROC points from roc_points)"
        raise CostchartError(msg)
    if method == "threshold":
        thresholds = table[col.THRESHOLD].to_numpy(np.float64, na_value=np.nan)
        if np.isnan(thresholds).any():
            msg = (
                f"column 'threshold' of points has {int(np.isnan(thresholds).sum())} NaN "
                "values; averaging='by_threshold' needs every point's threshold"
            )
            raise CostchartError(msg)
    grid = _check_grid(grid, method)
    by = [c for c in inferred if c not in over]
    groups = split_groups(table, by)
    parts = []
    for group in groups:
        part = table.iloc[group.positions]
        members = split_groups(part, over)
        curves = [part.iloc[m.positions] for m in members]
        if len(curves) == 1:
            warn(f"roc_average over {over} found one curve in a group; spreads are NaN")
        parts.append(_roc_average_one(curves, method, grid))
    return combine_groups(table, by, groups, parts, col.ROC_AVERAGE_TABLE)


def _upper_envelope_function(x, y):
    order = np.lexsort((y, x))
    x, y = x[order], y[order]
    last = np.append(x[1:] != x[:-1], True)
    return x[last], y[last]


def _with_corners(rates, first, last):
    return np.concatenate([[first], rates, [last]])


def _roc_average_one(curves, method, grid):
    fprs = [c[col.FPR].to_numpy(np.float64) for c in curves]
    tprs = [c[col.TPR].to_numpy(np.float64) for c in curves]
    if method in ("vertical", "horizontal"):
        own = fprs if method == "vertical" else tprs
        fixed = (
            np.unique(np.concatenate([[0.0, 1.0], *own]))
            if grid is None
            else np.asarray(grid, float)
        )
        fprs = [_with_corners(f, 0.0, 1.0) for f in fprs]
        tprs = [_with_corners(t, 0.0, 1.0) for t in tprs]
    if method == "vertical":
        values = np.array(
            [
                np.interp(fixed, *_upper_envelope_function(f, t))
                for f, t in zip(fprs, tprs, strict=True)
            ]
        )
        return _summary(np.nan, np.tile(fixed, (len(curves), 1)), values)
    if method == "horizontal":
        values = np.array(
            [
                -np.interp(fixed, *_upper_envelope_function(t, -f))
                for f, t in zip(fprs, tprs, strict=True)
            ]
        )
        return _summary(np.nan, values, np.tile(fixed, (len(curves), 1)))
    thresholds = [c[col.THRESHOLD].to_numpy(np.float64) for c in curves]
    fixed = np.unique(np.concatenate(thresholds)) if grid is None else np.asarray(grid, float)
    fixed = fixed[::-1]
    at_f, at_t = [], []
    for f, t, th in zip(fprs, tprs, thresholds, strict=True):
        order = np.argsort(-th, kind="stable")
        f = _with_corners(f[order], 0.0, 1.0)
        t = _with_corners(t[order], 0.0, 1.0)
        th = _with_corners(th[order], np.inf, -np.inf)
        index = np.searchsorted(-th, -fixed, side="right") - 1
        at_f.append(f[index])
        at_t.append(t[index])
    return _summary(fixed, np.array(at_f), np.array(at_t))


def _summary(threshold, fpr, tpr):
    n = fpr.shape[0]
    sd = (lambda v: v.std(axis=0, ddof=1)) if n > 1 else (lambda v: np.full(v.shape[1], np.nan))
    result = pd.DataFrame(
        {
            col.THRESHOLD: threshold if np.ndim(threshold) else np.full(fpr.shape[1], np.nan),
            col.FPR: fpr.mean(axis=0),
            col.TPR: tpr.mean(axis=0),
            col.FPR_LO: fpr.min(axis=0),
            col.FPR_HI: fpr.max(axis=0),
            col.FPR_SD: sd(fpr),
            col.TPR_LO: tpr.min(axis=0),
            col.TPR_HI: tpr.max(axis=0),
            col.TPR_SD: sd(tpr),
            col.N_CURVES: np.full(fpr.shape[1], n, dtype=np.int64),
        }
    )
    return result.sort_values([col.FPR, col.TPR], kind="stable").reset_index(drop=True)


# --- random inputs -------------------------------------------------------------------------


def _random_points(rng, n_groups, kind, *, one_curve_groups=True):
    """ROC points of several folds per group: coarse rates and thresholds (many ties)."""
    keys = key_series(rng, n_groups, kind)
    frames = []
    for g in range(n_groups):
        n_folds = 1 if one_curve_groups and g % 5 == 1 else int(rng.integers(2, 6))
        for fold in rng.permutation(n_folds):
            # One curve: rates that never fall as the (distinct) thresholds fall.
            n = int(rng.integers(1, 7))
            grain = int(rng.choice([2, 4, 10, 1000]))
            thresholds = rng.choice([np.inf, 2.0, 1.0, 0.5, 0.25, -np.inf], n, replace=False)
            frames.append(
                pd.DataFrame(
                    {
                        "fold": fold,
                        "fpr": np.sort(rng.integers(0, grain + 1, n)) / grain,
                        "tpr": np.sort(rng.integers(0, grain + 1, n)) / grain,
                        "threshold": np.sort(thresholds)[::-1],
                        "row": g,
                    }
                )
            )
    frame = pd.concat(frames, ignore_index=True)
    frame = frame.iloc[rng.permutation(len(frame))].reset_index(drop=True)  # groups interleave
    frame.insert(0, "key", keys.iloc[frame.pop("row").to_numpy()].reset_index(drop=True))
    return frame


KINDS = ["str", "int", "float", "category"]


def _same(new, old):
    if isinstance(old, CostchartError):
        assert isinstance(new, CostchartError)
        assert str(new) == str(old)
        return
    pd.testing.assert_frame_equal(new, old, check_exact=False, rtol=1e-12, atol=1e-15)
    exact = [c for c in new.columns if c not in ("fpr", "tpr") and not c.endswith("_sd")]
    pd.testing.assert_frame_equal(new[exact], old[exact], check_exact=True)


def _outcome(function, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = function(*args, **kwargs)
        except CostchartError as error:
            result = error
    return result, [(w.category, str(w.message)) for w in caught]


# --- roc_average ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("method", ["vertical", "horizontal", "by_threshold"])
def test_roc_average_equals_the_per_group_code(kind, method):
    rng = np.random.default_rng(hash((kind, method)) % 2**32)
    for n_groups in (1, 2, 7, 40):
        points = _random_points(rng, n_groups, kind)
        for grid in (None, [0.5, 0.0, 1.0, 0.25, 0.5], [0.3]):
            if method == "by_threshold" and grid is not None:
                grid = [2.0, np.inf, 0.7, -np.inf, 2.0][: len(grid)]
            new, new_warnings = _outcome(
                cc.roc_average, points, over="fold", averaging=method, grid=grid, by="key"
            )
            old, old_warnings = _outcome(
                _roc_average_group_by_group,
                points,
                over="fold",
                averaging=method,
                grid=grid,
                by="key",
            )
            _same(new, old)
            assert new_warnings == old_warnings


def test_roc_average_without_grouping_and_with_two_over_columns():
    rng = np.random.default_rng(3)
    points = _random_points(rng, 9, "int").assign(rep=lambda f: f.fold % 2)
    single = points.drop(columns=["key", "rep"])
    for method in ("vertical", "horizontal", "by_threshold"):
        for table, over, by in (
            (single, "fold", None),
            (points, ["fold", "rep"], "key"),
            (points.drop(columns="rep"), ["key", "fold"], []),
        ):
            new, new_warnings = _outcome(cc.roc_average, table, over=over, averaging=method, by=by)
            old, old_warnings = _outcome(
                _roc_average_group_by_group, table, over=over, averaging=method, by=by
            )
            _same(new, old)
            assert new_warnings == old_warnings


def test_roc_average_of_real_roc_points(demo_points):
    from costchart.datasets import load_predictions

    data = load_predictions()
    points = cc.roc_points(data, score="score", label="label", by=["dataset", "classifier", "fold"])
    for method in ("vertical", "horizontal", "by_threshold"):
        new = cc.roc_average(points, over="fold", averaging=method)
        old = _roc_average_group_by_group(points, over="fold", averaging=method)
        _same(new, old)


def test_roc_average_errors_are_unchanged():
    points = _random_points(np.random.default_rng(4), 5, "str")
    bad = points.assign(threshold=points.threshold.where(points.index != 7))
    for args in (
        (points, {"over": "fold", "averaging": "median"}),
        (bad, {"over": "fold", "averaging": "by_threshold"}),
        (points, {"over": "fold", "grid": [0.5, 2.0]}),
        (points.drop(columns="threshold"), {"over": "fold", "averaging": "by_threshold"}),
    ):
        new, _ = _outcome(cc.roc_average, args[0], **args[1])
        old, _ = _outcome(_roc_average_group_by_group, args[0], **args[1])
        assert isinstance(new, CostchartError)
        assert str(new) == str(old)


# --- curve_points --------------------------------------------------------------------------


def _random_curves(rng, n_groups, kind):
    """Cost curves of several groups: envelopes, averages, and vertices a hair apart."""
    points = _random_points(rng, n_groups, kind, one_curve_groups=False)
    envelope = cc.lower_envelope(points.drop(columns="threshold"), by=["key", "fold"])
    average = cc.vertical_average(points.drop(columns="threshold"), over="fold", by="key")
    curves = envelope[["key", "fold", "pc", "cost"]]
    # An inner vertex duplicated within rounding (a segment of no real width) in some
    # groups; a curve starts and ends once (a repeated end is two curves).
    inner = curves[(curves.pc > 0) & (curves.pc < 1)]
    hair = inner.iloc[::7].assign(pc=lambda f: np.clip(f.pc + 1e-17, 0, 1))
    below = inner.iloc[1::5].assign(pc=lambda f: np.clip(f.pc - 1e-16, 0, 1))
    curves = pd.concat([curves, hair, below], ignore_index=True)
    curves = curves.iloc[rng.permutation(len(curves))].reset_index(drop=True)
    return curves, average[["key", "pc", "cost"]]


@pytest.mark.parametrize("kind", KINDS)
def test_curve_points_equals_the_per_group_code(kind):
    rng = np.random.default_rng(len(kind))
    for n_groups in (1, 3, 30):
        curves, average = _random_curves(rng, n_groups, kind)
        for table, by in ((curves, ["key", "fold"]), (average, "key"), (average, None)):
            if by is None:
                first = table.key.iloc[0]
                mask = table.key.isna() if pd.isna(first) else table.key == first
                table = table[mask].drop(columns="key")
            new, new_warnings = _outcome(cc.curve_points, table, by=by)
            old, old_warnings = _outcome(_curve_points_group_by_group, table, by=by)
            assert isinstance(old, pd.DataFrame)
            pd.testing.assert_frame_equal(new, old, check_exact=True)
            assert new_warnings == old_warnings


def test_curve_points_of_a_one_vertex_group_and_refusals_are_unchanged():
    curve = pd.DataFrame(
        {
            "g": ["a", "a", "b", "c", "c", "c", "d", "d"],
            "pc": [0.0, 1.0, 0.5, 0.0, 0.5, 1.0, 0.0, 1.0],
            "cost": [0.0, 0.0, 0.2, 0.0, 0.5, 0.0, 0.0, 0.0],
        }
    )
    pd.testing.assert_frame_equal(
        cc.curve_points(curve, by="g"), _curve_points_group_by_group(curve, by="g")
    )
    steep = curve.assign(cost=[0.0, 0.0, 0.2, 0.0, 0.9, 0.0, 0.0, 3.0])
    for table, by in ((steep, "g"), (steep[steep.g == "d"].drop(columns="g"), None)):
        new, _ = _outcome(cc.curve_points, table, by=by)
        old, _ = _outcome(_curve_points_group_by_group, table, by=by)
        assert isinstance(new, CostchartError)
        assert str(new) == str(old)
    only_b = curve[curve.g == "b"]
    pd.testing.assert_frame_equal(
        cc.curve_points(only_b, by="g"), _curve_points_group_by_group(only_b, by="g")
    )


def test_warnings_are_costchart_warnings():
    points = _random_points(np.random.default_rng(5), 6, "int")
    with pytest.warns(CostchartWarning, match="found one curve in a group"):
        cc.roc_average(points, over="fold", by="key")
