"""The default band resamples the envelope's choice of thresholds (``_bands/choice.py``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._bands import resampled_choice, smoothing
from costchart._io.errors import CostchartError


def _binormal(rng, n_pos=60, n_neg=60, shift=1.5):
    scores = np.r_[rng.normal(shift, 1, n_pos), rng.normal(0, 1, n_neg)]
    return pd.DataFrame({"s": scores, "y": np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]})


@pytest.mark.parametrize("seed", range(4))
def test_each_resample_chooses_its_cheapest_candidate_first_of_equals(seed):
    rng = np.random.default_rng(seed)
    draws, cells = 200, int(rng.integers(5, 300))
    n_pos, n_neg = int(rng.integers(1, 120)), int(rng.integers(1, 120))
    # Cells as the smoothed resamples draw them: many empty, so points repeat.
    tp = np.cumsum(rng.multinomial(n_pos, rng.dirichlet(np.ones(cells)), size=draws), axis=1)
    fp = np.cumsum(rng.multinomial(n_neg, rng.dirichlet(np.ones(cells)), size=draws), axis=1)
    tp = np.concatenate([np.zeros((draws, 1)), tp], axis=1)
    fp = np.concatenate([np.zeros((draws, 1)), fp], axis=1)
    pc = np.r_[0.0, np.sort(rng.random(40)), 1.0]
    # Brute force in exact integer arithmetic: cost * P * N = pc N fn + (1 - pc) P fp,
    # with pc a multiple of 1/2**20 so that every product is a whole number.
    pc_int = np.round(pc * 2**20).astype(np.int64)
    got = resampled_choice.envelope_choice(tp, fp, pc_int / 2**20, float(n_pos), float(n_neg))
    fn = (n_pos - tp).astype(np.int64)
    scaled = (
        pc_int[None, :, None] * n_neg * fn[:, None, :]
        + (2**20 - pc_int)[None, :, None] * n_pos * fp.astype(np.int64)[:, None, :]
    )
    np.testing.assert_array_equal(got, scaled.argmin(axis=2))


def test_the_choice_at_a_switch_is_decided_exactly():
    """Small whole counts put many edges' switches exactly on pc like 1/2 and 1/4."""
    rng = np.random.default_rng(7)
    for _ in range(200):
        rows, width = int(rng.integers(1, 30)), int(rng.integers(1, 12))
        n_pos, n_neg = int(rng.integers(1, 15)), int(rng.integers(1, 15))
        counts = [rng.multinomial(n, np.full(width, 1 / width), size=rows) for n in (n_pos, n_neg)]
        tp, fp = (np.c_[np.zeros(rows), np.cumsum(c, axis=1)] for c in counts)
        pc_int = np.unique(np.r_[np.arange(0, 2**20 + 1, 2**16), rng.integers(0, 2**20, 5)])
        got = resampled_choice.envelope_choice(tp, fp, pc_int / 2**20, float(n_pos), float(n_neg))
        fn = (n_pos - tp).astype(np.int64)
        scaled = (
            pc_int[None, :, None] * n_neg * fn[:, None, :]
            + (2**20 - pc_int)[None, :, None] * n_pos * fp.astype(np.int64)[:, None, :]
        )
        np.testing.assert_array_equal(got, scaled.argmin(axis=2))


def test_smoothed_cells_are_shares_that_follow_the_classes():
    rng = np.random.default_rng(1)
    data = _binormal(rng, 80, 40)
    points = cc.roc_points(data, score="s", label="y")
    positives = np.diff(points["tp"].to_numpy(float), prepend=0.0)
    negatives = np.diff(points["fp"].to_numpy(float), prepend=0.0)
    edges, above_pos, above_neg = smoothing.smoothed_cells(positives, negatives)
    assert np.all(np.diff(edges) < 0)  # decreasing, as the candidates' thresholds
    for above in (above_pos, above_neg):
        assert np.all((above >= 0) & (above <= 1)) and np.all(np.diff(above) >= -1e-15)
    # Positives score higher: more of them lie above every edge in the middle.
    middle = slice(len(edges) // 4, 3 * len(edges) // 4)
    assert np.all(above_pos[middle] > above_neg[middle])


def test_the_default_band_resamples_the_choice_and_fixed_thresholds_stay_exact():
    data = _binormal(np.random.default_rng(2))
    default = cc.bootstrap_band(data, score="s", label="y", pc=[0.3, 0.5], rng=0)
    recorded = default.attrs["costchart"]
    assert recorded["inference"] == "smoothed_bootstrap"
    assert recorded["interval"] == "studentized"
    assert "chosen on these data" in recorded["covers"]
    assert "choice of thresholds resampled" in cc.band_label(default)
    fixed = cc.bootstrap_band(data, score="s", label="y", pc=[0.3, 0.5], threshold=0.7)
    exact = cc.bootstrap_band(
        data, score="s", label="y", pc=[0.3, 0.5], threshold=0.7, inference="exact_bootstrap"
    )
    pd.testing.assert_frame_equal(fixed, exact)
    assert fixed.attrs["costchart"]["covers"].startswith("the true cost of fixed")
    as_if = cc.bootstrap_band(data, score="s", label="y", pc=[0.5], inference="exact_bootstrap")
    assert "optimistic" in as_if.attrs["costchart"]["covers"]


def test_the_band_corrects_the_envelopes_optimism_upward():
    # The envelope's cost is optimistic: the band's centre lies above it at every pc.
    data = _binormal(np.random.default_rng(3), 100, 100, shift=1.0)
    pc = np.linspace(0.2, 0.8, 13)
    band = cc.bootstrap_band(data, score="s", label="y", pc=pc, rng=4)
    fixed = cc.bootstrap_band(data, score="s", label="y", pc=pc, inference="exact_bootstrap")
    assert np.all(band["upper"] > fixed["upper"])
    assert np.all(band["lower"] <= band["cost"]) and np.all(band["cost"] <= band["upper"])


def test_only_the_scores_order_matters_and_a_seed_repeats_the_band():
    data = _binormal(np.random.default_rng(5))
    pc = np.linspace(0.1, 0.9, 9)
    band = cc.bootstrap_band(data, score="s", label="y", pc=pc, rng=6)
    again = cc.bootstrap_band(data, score="s", label="y", pc=pc, rng=6)
    squashed = data.assign(s=1 / (1 + np.exp(-3 * data["s"])))  # increasing transform
    moved = cc.bootstrap_band(squashed, score="s", label="y", pc=pc, rng=6)
    pd.testing.assert_frame_equal(band, again)
    columns = ["cost", "lower", "upper", "se"]
    np.testing.assert_allclose(band[columns], moved[columns], rtol=0, atol=1e-12)


def test_the_default_band_reports_progress_group_by_group_and_changes_nothing():
    rng = np.random.default_rng(9)
    data = pd.concat([_binormal(rng).assign(g=g) for g in "ab"], ignore_index=True)
    pc = [0.25, 0.5, 0.75]
    messages: list[str] = []
    band = cc.bootstrap_band(
        data, score="s", label="y", by="g", pc=pc, rng=3, progress=messages.append
    )
    pd.testing.assert_frame_equal(
        band, cc.bootstrap_band(data, score="s", label="y", by="g", pc=pc, rng=3)
    )
    assert messages[0].startswith("group 1 of 2: resampled ")
    # Each group's 2,000 resamples, then its calibration's 200 x 50 (choice_level.py).
    assert messages[-1] == "group 2 of 2: calibrating the level: resampled 10,000 of 10,000"
    for group in (1, 2):
        done = messages.index(f"group {group} of 2: resampled 2,000 of 2,000")
        calibrated = f"group {group} of 2: calibrating the level: resampled 10,000 of 10,000"
        assert messages.index(calibrated) > done


def test_whole_weights_give_the_band_of_repeated_rows():
    rng = np.random.default_rng(7)
    data = _binormal(rng, 30, 30).assign(w=rng.integers(1, 4, 60))
    repeated = data.loc[data.index.repeat(data["w"])].reset_index(drop=True)
    pc = [0.25, 0.5, 0.75]
    weighted = cc.bootstrap_band(data, score="s", label="y", weight="w", pc=pc, rng=8)
    plain = cc.bootstrap_band(repeated, score="s", label="y", pc=pc, rng=8)
    pd.testing.assert_frame_equal(weighted, plain)


def test_groups_are_banded_apart_and_many_pc_are_interpolated():
    rng = np.random.default_rng(9)
    data = pd.concat([_binormal(rng).assign(g=g) for g in "ab"], ignore_index=True)
    band = cc.bootstrap_band(data, score="s", label="y", by="g", rng=1)  # 501 pc
    assert list(band.columns[:2]) == ["g", "pc"] and len(band) == 2 * 501
    for _, part in band.groupby("g"):
        assert np.all(part["lower"] <= part["cost"] + 1e-15)
        assert np.all(part["cost"] <= part["upper"] + 1e-15)
        assert np.all(np.diff(part["pc"]) > 0)
    # pc 0: every resample chooses the always-negative classifier, of no variance (at
    # pc 1 each chooses the highest threshold catching all its positives, whose true
    # miss rate is not 0: that band has width).
    assert band.loc[band["pc"] == 0.0, "degenerate"].all()


def test_simultaneous_is_wider_than_pointwise():
    data = _binormal(np.random.default_rng(10))
    pc = np.linspace(0.1, 0.9, 33)
    each = cc.bootstrap_band(data, score="s", label="y", pc=pc, rng=2)
    whole = cc.bootstrap_band(data, score="s", label="y", pc=pc, rng=2, simultaneous=True)
    assert "simultaneous" in cc.band_label(whole) and "resampled" in cc.band_label(whole)
    assert np.mean(whole["upper"] - whole["lower"]) > np.mean(each["upper"] - each["lower"])


@pytest.mark.parametrize("simultaneous", [False, True])
def test_the_band_of_tiny_classes_stays_within_0_and_1(simultaneous):
    # Two instances per class, resampled in full: the studentized quantiles times the
    # cost's standard error reach past 1 at some pc, a cost no classifier can have.
    rng = np.random.default_rng(4)
    data = _binormal(rng, n_pos=2, n_neg=2, shift=1.0)
    band = cc.bootstrap_band(
        data, score="s", label="y", rng=4, sampling="full", simultaneous=simultaneous
    )
    assert band["upper"].max() == 1.0 and band["lower"].min() >= 0
    assert (band["lower"] <= band["cost"]).all() and (band["cost"] <= band["upper"]).all()


def test_full_sampling_varies_the_class_totals():
    data = _binormal(np.random.default_rng(11))
    pc = [0.3, 0.5, 0.7]
    full = cc.bootstrap_band(data, score="s", label="y", pc=pc, rng=3, sampling="full")
    stratified = cc.bootstrap_band(data, score="s", label="y", pc=pc, rng=3)
    assert full.attrs["costchart"]["sampling"] == "full"
    assert np.all(full["se"] > 0) and not np.allclose(full["se"], stratified["se"])


def test_a_smoothed_bootstrap_of_fixed_thresholds_is_refused():
    data = _binormal(np.random.default_rng(12))
    with pytest.raises(CostchartError, match="inference='exact_bootstrap'"):
        cc.bootstrap_band(data, score="s", label="y", threshold=0.5, inference="smoothed_bootstrap")
    with pytest.raises(CostchartError, match="n_resamples"):
        cc.bootstrap_band(data, score="s", label="y", n_resamples=50)
    with pytest.raises(CostchartError, match="not available"):
        cc.bootstrap_band(data, score="s", label="y", interval="discrete", inference="auto")


@pytest.mark.parametrize("weight", [2**50, 2**52])
def test_one_huge_whole_weight_gives_the_band_of_its_shares(weight):
    # One weight dwarfing the rest: its neighbours' rank shares round to 0 or 1, and the
    # resampled counts pass 2**53 in sum over resamples; the band is still a band.
    data = _binormal(np.random.default_rng(13)).assign(w=1)
    data.loc[0, "w"] = weight
    band = cc.bootstrap_band(data, score="s", label="y", weight="w", pc=[0.2, 0.5, 0.8], rng=0)
    assert band[["lower", "cost", "upper"]].notna().all().all()
    assert (band["lower"] <= band["cost"]).all() and (band["cost"] <= band["upper"]).all()


def test_weights_past_2_53_in_sum_are_refused():
    data = _binormal(np.random.default_rng(14)).assign(w=1.0)
    data.loc[0, "w"] = 1e20
    with pytest.raises(CostchartError, match=r"add up to 1e\+20 .*exact_bootstrap"):
        cc.bootstrap_band(data, score="s", label="y", weight="w", pc=[0.5], rng=0)


@pytest.mark.slow
def test_the_default_band_covers_the_true_cost_of_its_thresholds():
    # Setting C of docs/bands.md (N(1.5, 1) vs N(0, 1), 50 per class), 150 test sets. The
    # benchmark's 1,000 (5 December 2026) gave the default band a pointwise coverage of
    # 0.928 on average over pc in [0.1, 0.9] and 0.913 at its worst pc in [0.2, 0.8]; the
    # band that treats the chosen thresholds as fixed held 0.785 on average; and the
    # simultaneous band held the whole curve in 0.925. With 150 sets the Monte Carlo se of
    # a share near 0.9 is 0.025 (less for a mean over correlated pc): each bound below is
    # two se inside the measured value, three for the worst of 61 pc.
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))
    import bench_band_coverage as bench

    rows = bench.run("C", bench.SETTINGS["C"], 150, 0.9, 2026, {"envelope"})
    table = pd.DataFrame(rows).set_index(["thresholds", "band"])
    default = table.loc[("envelope", "pointwise")]
    assert default["mean"] >= 0.88
    assert default["worst 0.2-0.8"] >= 0.84
    assert default["mean"] - table.loc[("envelope, fixed", "pointwise"), "mean"] >= 0.08
    assert table.loc[("envelope", "simultaneous"), "whole"] >= 0.875
