"""The compact band (``compact=True``): the full band's own rows, and within the tolerance between.

Every setting is compared with the full band of the same call: each kept row equals the
full band's row at its ``pc`` to the last bit, and interpolating linearly between kept
rows gives the full band at every ``pc`` of the grid within ``TOLERANCE`` (the cost within
rounding, since the grid points on both sides of every change of threshold are kept).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from compact_checks import check_compact_agreement

import costchart as cc
from costchart._bands.compact import TOLERANCE, runs_of
from costchart._bands.rows import envelope_runs, grouped_rows
from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.groups import split_groups
from costchart._roc.points import points_and_columns

VALUES = ["cost", "lower", "upper", "se"]


def _data(seed: int = 0) -> pd.DataFrame:
    """Groups of 15 to 3,000 instances, distinct and rounded scores."""
    rng = np.random.default_rng(seed)
    parts = []
    for g, n in enumerate([15, 60, 400, 3000]):
        label = rng.random(n) < 0.35
        score = rng.normal(size=n) + 1.2 * label
        if g % 2:
            score = np.round(score, 1)
        parts.append(pd.DataFrame({"group": f"g{g}", "score": score, "label": label}))
    return pd.concat(parts, ignore_index=True)


DATA = _data()
SELECTION = cc.selection_table(
    cc.lower_envelope(cc.roc_points(_data(1), score="score", label="label", by="group"))
)

SETTINGS = {
    "normal fit": {"inference": "exact_bootstrap", "interval": "normal"},
    "normal fit, full sampling": {
        "inference": "exact_bootstrap",
        "interval": "normal",
        "sampling": "full",
    },
    "normal fit, level 0.3 (z < 1)": {
        "inference": "exact_bootstrap",
        "interval": "normal",
        "confidence_level": 0.3,
    },
    "normal fit, level 0.99": {
        "inference": "exact_bootstrap",
        "interval": "normal",
        "confidence_level": 0.99,
    },
    "normal fit, 101 pc": {
        "inference": "exact_bootstrap",
        "interval": "normal",
        "pc": np.linspace(0, 1, 101),
    },
    "normal fit, uneven pc": {
        "inference": "exact_bootstrap",
        "interval": "normal",
        "pc": np.unique(np.r_[np.linspace(0.1, 0.9, 300) ** 2, 0.5]),
    },
    "normal fit, threshold": {
        "inference": "exact_bootstrap",
        "interval": "normal",
        "threshold": 0.5,
    },
    "normal fit, selection": {
        "inference": "exact_bootstrap",
        "interval": "normal",
        "selection": SELECTION,
    },
    "normal fit, bins": {"inference": "exact_bootstrap", "interval": "normal", "bins": 20},
    "exact bootstrap, auto": {"inference": "exact_bootstrap"},
    "exact bootstrap, discrete": {"inference": "exact_bootstrap", "interval": "discrete"},
    "resampled": {"inference": "bootstrap", "n_resamples": 200, "rng": 0},
    "smoothed bootstrap (the default band)": {"n_resamples": 200, "rng": 0},
    "simultaneous": {
        "inference": "exact_bootstrap",
        "simultaneous": True,
        "n_resamples": 400,
        "rng": 0,
    },
}


def _both(**options):
    call = {"score": "score", "label": "label", "by": "group", **options}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cc.CostchartWarning)
        return cc.bootstrap_band(DATA, **call), cc.bootstrap_band(DATA, compact=True, **call)


def _check_agreement(full: pd.DataFrame, compact: pd.DataFrame, by: list[str]) -> None:
    check_compact_agreement(full, compact, by, values=VALUES, linear=col.COST, flag=col.DEGENERATE)


#: Settings of more than a second (the quick loop leaves them out).
SLOW = {"simultaneous", "exact bootstrap, auto"}


@pytest.mark.parametrize(
    "setting",
    [pytest.param(s, marks=pytest.mark.slow) if s in SLOW else s for s in SETTINGS],
)
def test_the_compact_band_is_the_full_band_between_its_rows(setting):
    full, compact = _both(**SETTINGS[setting])
    _check_agreement(full, compact, ["group"])
    assert compact.attrs["costchart"]["compact"] == TOLERANCE
    assert "compact" not in full.attrs["costchart"]
    assert {k: v for k, v in compact.attrs["costchart"].items() if k != "compact"} == (
        full.attrs["costchart"]
    )
    # Compact: fewer rows than the grid wherever a group has many.
    sizes = compact.groupby("group").size()
    assert sizes["g3"] < len(full) / 4 / 2


@pytest.mark.slow
def test_the_normal_fit_keeps_few_rows_on_many_groups():
    rng = np.random.default_rng(3)
    n = 100 * 300
    label = rng.random(n) < 0.3
    data = pd.DataFrame(
        {"g": np.repeat(np.arange(300), 100), "score": rng.normal(size=n) + label, "label": label}
    )
    call = {"score": "score", "label": "label", "by": "g", "inference": "exact_bootstrap"}
    full = cc.bootstrap_band(data, interval="normal", **call)
    compact = cc.bootstrap_band(data, interval="normal", compact=True, **call)
    _check_agreement(full, compact, ["g"])
    assert len(compact) < len(full) / 8


@pytest.mark.parametrize("of", ["lines", "envelope"])
def test_confusion_band_compact(of):
    counts = pd.DataFrame(
        {
            "name": ["a", "b", "c"],
            "TP": [16, 3, 40],
            "FN": [4, 0, 9],
            "FP": [4, 2, 0],
            "TN": [6, 9, 50],
        }
    )
    call = {"tp": "TP", "fn": "FN", "fp": "FP", "tn": "TN", "by": "name", "of": of}
    for interval in ("normal", "auto"):
        full = cc.confusion_band(counts, interval=interval, **call)
        compact = cc.confusion_band(counts, interval=interval, compact=True, **call)
        _check_agreement(full, compact, ["name"])


def test_weighted_compact_band():
    weighted = DATA.assign(w=np.arange(len(DATA)) % 3)
    call = {"score": "score", "label": "label", "by": "group", "weight": "w"}
    call |= {"inference": "exact_bootstrap", "interval": "normal"}
    full = cc.bootstrap_band(weighted, **call)
    _check_agreement(full, cc.bootstrap_band(weighted, compact=True, **call), ["group"])


@pytest.mark.parametrize(
    "pc",
    [
        np.linspace(0, 1, 501),
        np.linspace(0, 1, 7),
        np.array([0.0, 0.3, 1.0]),
        np.array([0.5]),
        np.linspace(0.2, 0.6, 50),
        "vertices",  # a grid holding every vertex's pc_lo exactly, and 1
    ],
)
def test_envelope_runs_are_the_rows_of_every_pc(pc):
    """The runs found without the (groups, pc) table are those of the table."""
    rng = np.random.default_rng(5)
    frames = []
    for g, n in enumerate([2, 3, 5, 30, 300, 40]):
        label = rng.random(n) < 0.4
        label[:2] = [True, False]  # both classes in every group
        score = np.round(rng.normal(size=n) + label, 1)
        score[1] -= 10 * (g % 2)  # a negative below all: the hull's last vertex at pc_lo 1
        frames.append(pd.DataFrame({"g": g, "score": score, "y": label}))
    data = pd.concat(frames, ignore_index=True)
    points, read = points_and_columns(
        data, score="score", label="y", by="g", frequency="test", as_frame=False
    )
    if isinstance(pc, str):
        hull = cc.roc_hull(cc.roc_points(data, score="score", label="y", by="g"))
        pc = np.unique(np.r_[hull[col.PC_LO].to_numpy(), hull[col.PC_HI].to_numpy(), 1.0])
    groups = split_groups(points, ["g"])
    read = dict(read or {})
    for name in (col.THRESHOLD, col.TP, col.FN, col.FP, col.TN, col.FPR, col.TPR):
        read.setdefault(name, points[name].to_numpy())
    rows = grouped_rows(points, groups, pc, None, None, ["g"], read=read).reshape(-1)
    starts, run_rows = envelope_runs(points, groups, pc, read, own_points=False)
    expected = runs_of(rows, len(pc))
    np.testing.assert_array_equal(starts, expected)
    np.testing.assert_array_equal(run_rows, rows[expected])


def test_band_at_reads_a_compact_band_between_its_rows():
    full, compact = _both(inference="exact_bootstrap", interval="normal")
    one_full = full[full.group == "g3"]
    one = compact[compact.group == "g3"]
    for pc in one_full[col.PC].to_numpy()[::7]:
        at, expected = cc.band_at(one, pc), cc.band_at(one_full, pc)
        assert at.pc == pc and at.confidence_level == 0.9
        for name in VALUES:
            assert abs(getattr(at, name) - getattr(expected, name)) <= TOLERANCE
        if pc in one[col.PC].to_numpy():
            assert at == expected
    # Between grid points it is the line the chart draws, not the nearest row.
    pc = float(one[col.PC].iloc[3] + one[col.PC].iloc[4]) / 2
    lower = np.interp(pc, one[col.PC], one[col.LOWER])
    assert cc.band_at(one, pc).lower == pytest.approx(lower, abs=1e-15)
    nearest = one.iloc[int(np.argmin(np.abs(one[col.PC].to_numpy() - pc)))]
    assert nearest[col.LOWER] != pytest.approx(lower, abs=1e-6)  # the two readings differ
    # Read at its nearest row, it would be off: compact= may not contradict the record.
    with pytest.raises(
        CostchartError, match=r"compact=False, but the band records that it is a compact"
    ):
        cc.band_at(one, pc, compact=False)
    assert cc.band_at(one, pc, compact=True).lower == pytest.approx(lower, abs=1e-15)
    lost = pd.DataFrame({c: one[c].to_numpy() for c in one.columns if c != "group"})
    assert cc.band_at(lost, pc, confidence_level=0.9, compact=False).lower == nearest[col.LOWER]


def _lost(band: pd.DataFrame):
    """``band`` as it comes back from other libraries: the same columns, nothing recorded."""
    plain = {name: band[name].to_numpy() for name in band.columns if name != "group"}
    return [plain, pl.DataFrame(plain), pa.table(plain), pd.DataFrame(plain)]


def test_band_at_refuses_to_guess_how_to_read_a_band_that_lost_its_record():
    _, compact = _both(inference="exact_bootstrap", interval="normal")
    one = compact[compact.group == "g3"]
    pc = float(one[col.PC].iloc[3] + one[col.PC].iloc[4]) / 2
    between = np.interp(pc, one[col.PC], one[col.LOWER])
    on_row = float(one[col.PC].iloc[3])
    for lost in _lost(one):
        with pytest.raises(CostchartError, match=r"lies between the band's rows.*compact=True"):
            cc.band_at(lost, pc, confidence_level=0.9)
        # Told how it was made, it reads the band as the chart draws it.
        read = cc.band_at(lost, pc, confidence_level=0.9, compact=True)
        assert read.lower == pytest.approx(between, abs=1e-15) and read.pc == pc
        # At a row's pc both readings agree: nothing to ask.
        assert cc.band_at(lost, on_row, confidence_level=0.9).lower == one[col.LOWER].iloc[3]


@pytest.mark.slow
def test_the_charts_draw_a_compact_band():
    _, compact = _both(inference="exact_bootstrap", interval="normal")
    chart = cc.band_chart(compact, classifier="group")
    spec = chart.to_dict()
    assert spec
    drawn = cc.chart_tables(chart)
    assert any(len(table) == len(compact) for table in drawn.values())
    layer = cc.layers.band(compact[compact.group == "g3"])
    assert layer.to_dict()["mark"]["type"] == "area"


def test_compact_needs_an_increasing_grid():
    with pytest.raises(cc.CostchartError, match=r"pc must increase without repeats"):
        cc.bootstrap_band(
            DATA, score="score", label="label", by="group", pc=[0.5, 0.2], compact=True
        )
    with pytest.raises(cc.CostchartError, match=r"compact='yes' must be True or False"):
        cc.bootstrap_band(DATA, score="score", label="label", by="group", compact="yes")
