"""The compact difference band (``difference_band(compact=True)``) and its readers.

Every setting is compared with the full band of the same call, as in
``test_compact_band.py``: each kept row equals the full band's row at its ``pc`` to the
last bit; interpolating linearly between kept rows gives ``difference`` within rounding
and ``lower``, ``upper``, ``se`` within ``TOLERANCE`` at every ``pc`` of the grid;
``significant`` holds between kept rows exactly where it holds at both; and
``significant_regions`` finds the same regions.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from compact_checks import check_compact_agreement

import costchart as cc
from costchart._bands.compact import DIFFERENCE_VALUES, TOLERANCE
from costchart._io import schema as col
from costchart._io.errors import CostchartError

VALUES = list(DIFFERENCE_VALUES)
CALL = {"score": "score", "label": "label", "classifier": "model", "instance": "id"}


def _data(seed: int = 0) -> pd.DataFrame:
    """Paired scores of two classifiers in groups of 20 to 1,500 instances (some rounded)."""
    rng = np.random.default_rng(seed)
    parts = []
    for g, n in enumerate([20, 80, 400, 1500]):
        label = rng.random(n) < 0.4
        shared = rng.normal(size=n)
        a = 0.6 * shared + 0.8 * rng.normal(size=n) + 1.0 * label
        b = 0.6 * shared + 0.8 * rng.normal(size=n) + 1.6 * label
        if g % 2:
            a, b = np.round(a, 1), np.round(b, 1)
        for name, score in (("a", a), ("b", b)):
            parts.append(
                pd.DataFrame(
                    {"group": f"g{g}", "model": name, "id": np.arange(n), "score": score}
                ).assign(label=label)
            )
    return pd.concat(parts, ignore_index=True)


DATA = _data()


def _selection(data: pd.DataFrame):
    """Each classifier's selection table, grouped by ``group``, chosen on ``data``."""
    tables = []
    for name in ("a", "b"):
        own = data[data.model == name]
        points = cc.roc_points(own, score="score", label="label", by="group")
        tables.append(cc.selection_table(cc.lower_envelope(points)))
    return tuple(tables)


SETTINGS = {
    "exact bootstrap, auto (the default)": {},
    "normal fit": {"interval": "normal"},
    "normal fit, full sampling": {"interval": "normal", "sampling": "full"},
    "normal fit, level 0.3": {"interval": "normal", "confidence_level": 0.3},
    "normal fit, level 0.99": {"interval": "normal", "confidence_level": 0.99},
    "normal fit, 101 pc": {"interval": "normal", "pc": np.linspace(0, 1, 101)},
    "normal fit, uneven pc": {
        "interval": "normal",
        "pc": np.unique(np.r_[np.linspace(0.1, 0.9, 300) ** 2, 0.5]),
    },
    "auto, fixed thresholds": {"threshold": (0.5, 0.8)},
    "auto, selection": {"selection": _selection(_data(1))},
    "discrete": {"interval": "discrete"},
    "discrete, full sampling": {"interval": "discrete", "sampling": "full"},
    "resampled": {"inference": "bootstrap", "n_resamples": 200, "rng": 0},
}


def _both(data=DATA, by="group", **options):
    call = {**CALL, "by": by, **options}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cc.CostchartWarning)
        return cc.difference_band(data, **call), cc.difference_band(data, compact=True, **call)


def _check_agreement(full: pd.DataFrame, compact: pd.DataFrame, by: list[str]) -> None:
    check_compact_agreement(
        full, compact, by, values=VALUES, linear=col.DIFFERENCE, flag=col.SIGNIFICANT
    )
    # The same regions, to the last bit (edges are midpoints of neighbouring grid points).
    pd.testing.assert_frame_equal(cc.significant_regions(compact), cc.significant_regions(full))


#: Settings of more than a second (the quick loop leaves them out).
SLOW = {"discrete", "discrete, full sampling"}


@pytest.mark.parametrize(
    "setting",
    [pytest.param(s, marks=pytest.mark.slow) if s in SLOW else s for s in SETTINGS],
)
def test_the_compact_difference_band_is_the_full_band_between_its_rows(setting):
    full, compact = _both(**SETTINGS[setting])
    _check_agreement(full, compact, ["group"])
    assert compact.attrs["costchart"]["compact"] == TOLERANCE
    assert "compact" not in full.attrs["costchart"]
    recorded = {k: v for k, v in compact.attrs["costchart"].items() if k != "compact"}
    assert recorded == full.attrs["costchart"]
    assert compact.attrs["costchart_kind"] == full.attrs["costchart_kind"] == "difference_band"
    assert cc.significant_regions(full).shape[0] > 0  # there is something to find
    assert len(compact) < len(full) / 2


def test_weighted_and_ungrouped_compact_difference_bands():
    weighted = DATA.assign(w=np.arange(len(DATA)) % 4 // 2 + 1)
    weighted.loc[weighted.model == "b", "w"] = weighted.loc[weighted.model == "a", "w"].to_numpy()
    full, compact = _both(weighted, weight="w", interval="normal")
    _check_agreement(full, compact, ["group"])
    one = DATA[DATA.group == "g2"].drop(columns="group")
    full, compact = _both(one, by=None)
    _check_agreement(full, compact, [])
    assert len(compact) < len(full) / 4


def _two_signs(pc) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One significant run whose difference ``0.5 - pc`` changes sign between grid points.

    Four instances of 10**8 copies each: ``a`` is right on every positive and wrong on
    half the negatives, ``b`` the other way round, so the band is narrow and nearly
    straight everywhere, and the region's cheaper classifier is the sign of its sum.
    """
    data = pd.DataFrame(
        {
            "model": np.repeat(["a", "b"], 4),
            "id": np.tile(np.arange(4), 2),
            "label": [1, 1, 0, 0] * 2,
            "score": [1, 1, 1, 0, 1, 0, 0, 0],
            "w": 10**8,
        }
    )
    return _both(data, by=None, weight="w", threshold=(0.5, 0.5), pc=pc)


def test_a_significant_run_of_both_signs_keeps_every_row():
    # The sum over the run is -0.05 (a cheaper); over its two ends +0.1 (b).
    pc = [0.0, 0.05, 0.6, 0.7, 0.8, 0.9]
    full, compact = _two_signs(pc)
    assert full[col.SIGNIFICANT].all()
    pd.testing.assert_frame_equal(compact, full, check_like=False)
    regions = cc.significant_regions(compact)
    assert regions[["pc_lo", "pc_hi"]].to_numpy().tolist() == [[0.0, 0.9]]
    assert regions["cheaper"].tolist() == ["a"]
    # One sign only: the straight run keeps its ends.
    full, compact = _two_signs([0.6, 0.7, 0.8, 0.9])
    assert compact[col.PC].tolist() == [0.6, 0.9]
    _check_agreement(full, compact, [])


def _regions_drawn(chart) -> list[pd.DataFrame]:
    return [
        table
        for table in cc.chart_tables(chart).values()
        if {"pc_lo", "pc_hi", "cheaper"} <= set(table.columns)
    ]


def test_the_readers_of_a_difference_band_read_a_compact_one():
    full, compact = _both(interval="normal")
    one_full = full[full.group == "g3"].drop(columns="group")
    one = compact[compact.group == "g3"].drop(columns="group")
    expected = cc.significant_regions(one_full)
    assert len(expected) > 0
    # difference_chart: the band as drawn, and the same shaded regions.
    chart = cc.difference_chart(compact, facet="group")
    assert chart.to_dict()
    drawn = cc.chart_tables(chart)
    assert any(len(table) == len(compact) for table in drawn.values())
    (regions,) = _regions_drawn(chart)
    pd.testing.assert_frame_equal(
        regions.reset_index(drop=True), cc.significant_regions(full).reset_index(drop=True)
    )
    # The layers.
    layer = cc.layers.significance(one)
    assert layer.to_dict()["mark"]["type"] == "rect"
    pd.testing.assert_frame_equal(layer.data.reset_index(drop=True), expected)
    curve = cc.layers.difference_curve(one, a="a", b="b")
    assert curve.to_dict()["mark"]["type"] == "line"
    # The curve drawn through the kept rows is the full curve (a straight line between them).
    table = curve.data
    assert len(table) == len(one)
    drawn = np.interp(one_full[col.PC], table[col.PC], table[col.DIFFERENCE])
    np.testing.assert_allclose(drawn, one_full[col.DIFFERENCE], rtol=0, atol=1e-12)


def test_compact_needs_an_increasing_grid():
    with pytest.raises(CostchartError, match=r"pc must increase without repeats"):
        cc.difference_band(DATA, **CALL, by="group", pc=[0.5, 0.2], compact=True)
    with pytest.raises(CostchartError, match=r"compact='yes' must be True or False"):
        cc.difference_band(DATA, **CALL, by="group", compact="yes")
