"""The default band's level, calibrated by a double bootstrap (``_bands/choice_level.py``)."""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._bands import choice_level, resampled_choice
from costchart._bands.smoothing import smoothed_cells
from costchart._io.errors import CostchartWarning

# Eighths: exact in binary, so a tie of costs is a tie in the code too (first of equals).
PC = np.arange(1, 8) / 8


def _binormal(seed, n_pos=40, n_neg=30, shift=1.2):
    rng = np.random.default_rng(seed)
    scores = np.r_[rng.normal(shift, 1, n_pos), rng.normal(0, 1, n_neg)]
    return pd.DataFrame({"s": scores, "y": np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]})


def _reference_deviations(worlds, totals, rng, draws):
    """``D`` and ``s`` of each world's resamples, one resample at a time.

    Draws as the vectorised code does (every resample's positives, then every resample's
    negatives); the choice is the first cheapest candidate, compared in whole numbers
    (``pc`` in eighths), and ``s`` is the Jeffreys standard error written out.
    """
    rows = [(w, r) for w in range(len(worlds)) for r in range(draws)]
    cells = [
        [np.clip(np.diff(np.r_[0.0, above, 1.0]), 0, None) for above in world[1:]]
        for world in worlds
    ]
    pos = [rng.multinomial(int(totals[w][0]), cells[w][0]) for w, _ in rows]
    neg = [rng.multinomial(int(totals[w][1]), cells[w][1]) for w, _ in rows]
    d, s = np.empty((len(rows), len(PC))), np.empty((len(rows), len(PC)))
    for i, (w, _) in enumerate(rows):
        n_pos, n_neg = totals[w]
        tp, fp = np.r_[0, np.cumsum(pos[i])], np.r_[0, np.cumsum(neg[i])]
        true_tpr = np.r_[0.0, worlds[w][1], 1.0]
        true_fpr = np.r_[0.0, worlds[w][2], 1.0]
        for j, p in enumerate(PC):
            eighths = round(p * 8)
            whole = eighths * (n_pos - tp) * n_neg + (8 - eighths) * fp * n_pos
            c = int(np.argmin(whole))  # the first of equals: the highest threshold
            fn_c, fp_c = n_pos - tp[c], fp[c]
            apparent = p * fn_c / n_pos + (1 - p) * fp_c / n_neg
            d[i, j] = apparent - (p * (1 - true_tpr[c]) + (1 - p) * true_fpr[c])
            r_fn, r_fp = (fn_c + 0.5) / (n_pos + 1), (fp_c + 0.5) / (n_neg + 1)
            s[i, j] = np.sqrt(
                (p / n_pos) ** 2 * n_pos * r_fn * (1 - r_fn)
                + ((1 - p) / n_neg) ** 2 * n_neg * r_fp * (1 - r_fp)
            )
    return d, s


def _reference_levels(d_outer, s_outer, d_inner, s_inner, level, n_resamples, simultaneous):
    """The calibrated level by loops over resamples and ``pc``."""
    keep, inner = d_outer.shape[0], d_inner.shape[0] // d_outer.shape[0]
    u = np.empty((keep, len(PC)))
    u_whole = np.empty(keep)
    for b in range(keep):
        own_d, own_s = d_inner[b * inner : (b + 1) * inner], s_inner[b * inner : (b + 1) * inner]
        worst_inner, worst_own = np.zeros(inner), 0.0
        for j in range(len(PC)):
            column = own_d[:, j]
            if column.std() == 0:
                u[b, j] = 0.0
                continue
            floor = np.maximum(own_s[:, j], 0.5 * np.median(own_s[:, j]))
            ratios = (column - column.mean()) / floor
            mine = (d_outer[b, j] - column.mean()) / s_outer[b, j]
            worst_inner = np.maximum(worst_inner, np.abs(ratios))
            worst_own = max(worst_own, abs(mine))
            place = np.mean(ratios < mine) + 0.5 * np.mean(ratios == mine)
            if d_outer[b, j] < 0:
                u[b, j] = max(1 - 2 * place, 0.0)
            elif d_outer[b, j] > 0:
                u[b, j] = max(2 * place - 1, 0.0)
            else:
                u[b, j] = 0.0
        u_whole[b] = np.mean(worst_inner < worst_own) + 0.5 * np.mean(worst_inner == worst_own)
    if simultaneous:
        wanted = np.quantile(u_whole, level)
        return min(max(wanted, level), max(level, 1 - 10 / n_resamples)), wanted
    raw = np.quantile(u, level, axis=0)
    wanted = np.ones(len(PC))
    for j, p in enumerate(PC):
        near = (np.abs(PC - p) <= choice_level.WINDOW + 1e-12) & (raw < 1)
        if raw[j] < 1:
            wanted[j] = raw[near].mean()
    return np.clip(wanted, level, max(level, 1 - 20 / n_resamples)), wanted


@pytest.mark.parametrize("simultaneous", [False, True])
def test_calibrated_level_equals_a_loop_over_resamples(monkeypatch, simultaneous):
    monkeypatch.setattr(resampled_choice, "CHUNK", 2**30)  # one chunk: draws in loop order
    monkeypatch.setattr("costchart._bands.choice.CALIBRATION_OUTER", 40)
    monkeypatch.setattr(choice_level, "CALIBRATION_INNER", 30)
    seen = {}
    original_calibrated = choice_level.calibrated_level
    original_deviations = choice_level.resampled_deviations

    def spy_calibrated(drawn, d, s, pc, options, simultaneous):
        seen["outer"] = (drawn, d.copy(), s.copy())
        seen["result"] = original_calibrated(drawn, d, s, pc, options, simultaneous)
        return seen["result"]

    def spy_deviations(world, pc, draws, options, **kwargs):
        seen["world"], seen["rng"] = world, copy.deepcopy(options.rng)
        seen["inner"] = original_deviations(world, pc, draws, options, **kwargs)
        return seen["inner"]

    monkeypatch.setattr("costchart._bands.choice.calibrated_level", spy_calibrated)
    monkeypatch.setattr(choice_level, "resampled_deviations", spy_deviations)
    cc.bootstrap_band(_binormal(1), score="s", label="y", pc=PC, rng=1, simultaneous=simultaneous)
    drawn, d_outer, s_outer = seen["outer"]
    worlds = [
        smoothed_cells(p, n, cells=choice_level.INNER_CELLS, centres=choice_level.INNER_CENTRES)
        for p, n in zip(drawn.positives, drawn.negatives, strict=True)
    ]
    np.testing.assert_array_equal(seen["world"].above_pos, np.stack([w[1] for w in worlds]))
    totals = list(zip(drawn.n_pos, drawn.n_neg, strict=True))
    d_inner, s_inner = _reference_deviations(worlds, totals, seen["rng"], 30)
    np.testing.assert_allclose(seen["inner"][0], d_inner, rtol=0, atol=1e-14)
    np.testing.assert_allclose(seen["inner"][1], s_inner, rtol=0, atol=1e-14)
    taken, wanted = _reference_levels(d_outer, s_outer, d_inner, s_inner, 0.9, 2000, simultaneous)
    np.testing.assert_allclose(seen["result"][0], taken, rtol=0, atol=1e-12)
    np.testing.assert_allclose(seen["result"][1], wanted, rtol=0, atol=1e-12)
    assert np.max(wanted) > 0.9  # the case exercises the calibration, not only its floor


def test_level_1_stays_1_and_is_left_out_of_its_neighbours():
    pc = np.array([0.1, 0.12, 0.14, 0.5])
    wanted = np.array([1.0, 0.92, 0.96, 0.95])
    got = choice_level._averaged(wanted, pc)
    np.testing.assert_allclose(got, [1.0, 0.94, 0.94, 0.95])


def test_the_calibration_widens_the_band_where_it_raises_the_level(monkeypatch):
    data = _binormal(2, 50, 50)
    pc = np.linspace(0.1, 0.9, 17)
    calibrated = cc.bootstrap_band(data, score="s", label="y", pc=pc, rng=3)
    levels = []
    original = choice_level.calibrated_level

    def nominal(drawn, d, s, pc, options, simultaneous):
        taken, _ = original(drawn, d, s, pc, options, simultaneous)
        levels.append(taken)
        return np.full(len(pc), options.confidence_level), np.full(len(pc), 0.9)

    monkeypatch.setattr("costchart._bands.choice.calibrated_level", nominal)
    plain = cc.bootstrap_band(data, score="s", label="y", pc=pc, rng=3)
    raised = levels[0] > 0.9 + 1e-12
    assert raised.any()
    width, plain_width = calibrated["upper"] - calibrated["lower"], plain["upper"] - plain["lower"]
    assert np.all(width[raised] > plain_width[raised])
    np.testing.assert_allclose(width[~raised], plain_width[~raised], rtol=0, atol=1e-15)
    pd.testing.assert_series_equal(calibrated["cost"], plain["cost"])


def test_too_few_resamples_for_the_calibrated_level_warn_with_the_number_needed():
    data = _binormal(4, 50, 50)
    with pytest.warns(
        CostchartWarning,
        match=r"calibrated its band to level 0\.9\d+.*n_resamples=200.*pass n_resamples >= \d",
    ):
        band = cc.bootstrap_band(data, score="s", label="y", pc=PC, rng=1, n_resamples=200)
    assert (band["lower"] <= band["cost"]).all() and (band["cost"] <= band["upper"]).all()


def test_a_resample_without_a_class_is_left_out_of_the_calibration():
    # "full" sampling of a class of 2 draws it empty in about one resample in 20.
    data = _binormal(5, 2, 38)
    band = cc.bootstrap_band(data, score="s", label="y", pc=PC, rng=2, sampling="full")
    assert band[["lower", "upper"]].notna().all().all()


def _calibration_of(monkeypatch, data, **options):
    """The levels the calibration asked for, group by group, in one band call."""
    wanted = []
    original = choice_level.calibrated_level

    def spy(*args):
        taken, asked = original(*args)
        wanted.append(asked)
        return taken, asked

    monkeypatch.setattr("costchart._bands.choice.calibrated_level", spy)
    band = cc.bootstrap_band(data, score="s", label="y", pc=PC, **options)
    return band, wanted


def test_the_calibration_depends_on_neither_n_resamples_nor_the_other_groups(monkeypatch):
    # Groups a and b; then b after a group a of another size: b's band and calibration
    # are the same, and a's calibration is the same at 1,000 and 3,000 resamples.
    a, b = _binormal(6, 50, 50).assign(g="a"), _binormal(7).assign(g="b")
    bigger_a = _binormal(8, 90, 70).assign(g="a")
    one, asked_one = _calibration_of(monkeypatch, pd.concat([a, b]), by="g", rng=4)
    two, asked_two = _calibration_of(monkeypatch, pd.concat([bigger_a, b]), by="g", rng=4)
    pd.testing.assert_frame_equal(
        one[one["g"] == "b"].reset_index(drop=True), two[two["g"] == "b"].reset_index(drop=True)
    )
    np.testing.assert_array_equal(asked_one[1], asked_two[1])
    _, fewer = _calibration_of(monkeypatch, a, rng=4, n_resamples=1000)
    _, more = _calibration_of(monkeypatch, a, rng=4, n_resamples=3000)
    np.testing.assert_array_equal(fewer[0], more[0])


def test_the_number_the_warning_names_resolves_the_level():
    data = _binormal(4, 50, 50)
    options = dict(score="s", label="y", pc=PC, rng=1)
    with pytest.warns(CostchartWarning, match=r"pass n_resamples >= ") as told:
        cc.bootstrap_band(data, n_resamples=200, **options)
    named = int(str(told[0].message).rsplit(">= ", 1)[1].replace(",", ""))
    assert named > 200
    cc.bootstrap_band(data, n_resamples=named, **options)  # warnings are errors in tests


def test_level_1_at_the_level_asked_for_itself_warns():
    # At level 0.99 and 2,000 resamples the cap is 0.99 itself: a pc calibrated to level 1
    # is left uncalibrated, and the band says so, naming the number that halves the gap.
    data = _binormal(9, 40, 40)
    with pytest.warns(CostchartWarning, match=r"to level 1, .*up to 0\.99 only.*>= 4,000"):
        cc.bootstrap_band(data, score="s", label="y", pc=PC, rng=0, confidence_level=0.99)
