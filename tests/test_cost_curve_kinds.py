"""One cost curve per group: tables of several cost curves read as one are refused.

Two envelopes concatenated keep their record (pandas keeps ``attrs`` that agree), so the
table says it is one envelope; read as one curve, its expected cost was neither curve's,
without a word. ``costchart._io.curves.check_cost_curves`` refuses it before a statistic
is read off it, naming the column that tells the curves apart where there is one.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import polars as pl
import pytest

import costchart as cc

SEVERAL = r"not one cost curve per group"


def _runs(shifts=(1.5, 0.2), folds=3, n=60, seed=0) -> pd.DataFrame:
    """Scores of classifiers (``clf``) on folds (``fold``)."""
    rng = np.random.default_rng(seed)
    rows = []
    for clf, shift in zip("AB", shifts, strict=False):
        for fold in range(folds):
            y = rng.random(n) < 0.5
            s = rng.normal(size=n) + shift * y
            rows.append(pd.DataFrame({"clf": clf, "fold": fold, "s": s, "y": y}))
    return pd.concat(rows, ignore_index=True)


def _envelopes() -> pd.DataFrame:
    return cc.lower_envelope(cc.roc_points(_runs(), score="s", label="y", by=["clf", "fold"]))


READERS = {
    "expected_cost": lambda t, **k: cc.expected_cost(t, **k),
    "cost_at": lambda t, **k: cc.cost_at(t, [0.5], **k),
    "curve_points": lambda t, **k: cc.curve_points(t, **k),
    "selection_table": lambda t, **k: cc.selection_table(t, **k),
    "compare": lambda t, **k: cc.compare(t, t),
}


@pytest.mark.parametrize("name", READERS)
def test_two_envelopes_concatenated_are_refused_not_read_as_one(name):
    envelopes = _envelopes()
    a = envelopes[(envelopes.clf == "A") & (envelopes.fold == 0)].drop(columns=["clf", "fold"])
    b = envelopes[(envelopes.clf == "B") & (envelopes.fold == 0)].drop(columns=["clf", "fold"])
    both = pd.concat([a, b], ignore_index=True)
    assert both.attrs == a.attrs  # the table still says it is one envelope
    with pytest.raises(cc.CostchartError, match=SEVERAL + r".*appears twice.*pd\.concat"):
        READERS[name](both)
    # Told apart as the message says, each curve reads as it does alone.
    runs = pd.concat([a, b], keys=["a", "b"], names=["run"]).reset_index("run")
    if name == "expected_cost":
        expected = [cc.expected_cost(a).iat[0, 0], cc.expected_cost(b).iat[0, 0]]
        got = cc.expected_cost(runs, by="run")["expected_cost"].to_numpy()
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-15)


@pytest.mark.parametrize("name", ["expected_cost", "cost_at", "curve_points"])
def test_a_dropped_or_forgotten_grouping_column_is_named_in_the_fix(name):
    envelopes = _envelopes()
    # A grouping coarser than the table's: the classifier is left out of by=.
    with pytest.raises(cc.CostchartError, match=SEVERAL + r".*'clf' tells them apart"):
        READERS[name](envelopes, by="fold")
    # Through polars the record is lost: by= alone says how to read it.
    with pytest.raises(cc.CostchartError, match=r"by=\['fold', 'clf'\]"):
        READERS[name](pl.from_pandas(envelopes), by="fold")
    # With the classifier column dropped, nothing tells them apart.
    with pytest.raises(cc.CostchartError, match=SEVERAL + r".*add a column"):
        READERS[name](envelopes.drop(columns="clf"), by="fold")
    assert len(READERS[name](envelopes, by=["clf", "fold"])) >= 6


def test_vertical_average_over_folds_of_several_classifiers_is_refused_with_both_fixes():
    envelopes = _envelopes()
    with pytest.raises(
        cc.CostchartError,
        match=r"group \{'fold': 0\}.*by=\['clf'\] for one average per clf, or "
        r"over=\['fold', 'clf'\] to average them all",
    ):
        cc.vertical_average(envelopes, over="fold", by=[])
    # Either fix averages the curves the ROC points would.
    points = cc.roc_points(_runs(), score="s", label="y", by=["clf", "fold"])
    each = cc.vertical_average(envelopes, over="fold", by="clf")
    pd.testing.assert_frame_equal(each, cc.vertical_average(points, over="fold", by="clf"))
    pooled = cc.vertical_average(envelopes, over=["fold", "clf"], by=[])
    assert pooled["n_curves"].max() == 6


def test_two_bands_on_one_grid_concatenated_are_refused():
    data = _runs()
    options = dict(score="s", label="y", pc=[0.3, 0.5, 0.7], inference="exact_bootstrap")
    a = cc.bootstrap_band(data[data.clf == "A"].drop(columns=["clf", "fold"]), **options)
    b = cc.bootstrap_band(data[data.clf == "B"].drop(columns=["clf", "fold"]), **options)
    both = pd.concat([a, b], ignore_index=True)
    with pytest.raises(cc.CostchartError, match=SEVERAL + r".*two costs at pc=0\.3.*one row per"):
        cc.curve_points(both)
    assert len(cc.curve_points(a)) == 2


def test_one_curve_with_a_repeated_inner_vertex_or_a_jump_is_still_one_curve():
    envelope = _envelopes()
    one = envelope[(envelope.clf == "A") & (envelope.fold == 1)].drop(columns=["clf", "fold"])
    inner = one[(one.pc > 0) & (one.pc < 1)].iloc[:1]
    repeated = pd.concat([one, inner]).sort_values("pc", kind="stable")
    assert cc.expected_cost(repeated).iat[0, 0] == pytest.approx(cc.expected_cost(one).iat[0, 0])
    jump = pd.DataFrame({"pc": [0.0, 0.5, 0.5, 1.0], "cost": [0.0, 0.3, 0.1, 0.0]})
    assert cc.expected_cost(jump)["expected_cost"].item() == pytest.approx(0.1)


def _hybrids() -> pd.DataFrame:
    """Honest hybrid curves of two classifiers: one threshold each, chosen on other data."""
    data = _runs(folds=2, n=120)
    chose, test = data[data.fold == 0], data[data.fold == 1]
    selection = cc.selection_table(
        cc.lower_envelope(cc.roc_points(chose, score="s", label="y", by="clf"))
    )
    return cc.apply_selection(test, selection, score="s", label="y", by="clf")


def test_two_lines_concatenated_start_twice_at_different_costs():
    # Curves of one fixed threshold are lines: their ends differ, no point repeats.
    lines = pd.DataFrame(
        {"clf": ["A", "A", "B", "B"], "pc": [0.0, 1.0, 0.0, 1.0], "cost": [0.1, 0.3, 0.2, 0.6]}
    )
    alone = [cc.expected_cost(lines[lines.clf == c].drop(columns="clf")).iat[0, 0] for c in "AB"]
    pooled = lines.drop(columns="clf").sort_values("pc", kind="stable")
    with pytest.raises(
        cc.CostchartError, match=SEVERAL + r".*two rows at pc=0\.0 \(costs 0\.1, 0\.2\)"
    ):
        cc.expected_cost(pooled)
    with pytest.raises(cc.CostchartError, match=r"'clf' tells them apart"):
        cc.expected_cost(lines, by=[])
    got = cc.expected_cost(lines, by="clf")["expected_cost"].to_numpy()
    np.testing.assert_allclose(got, alone, rtol=0, atol=1e-15)


def test_curve_points_reads_a_jump_as_the_curve_leaves_it():
    jump = pd.DataFrame({"pc": [0.0, 0.5, 0.5, 1.0], "cost": [0.0, 0.3, 0.1, 0.0]})
    points = cc.curve_points(jump)
    # Leaving pc 0.5 at cost 0.1 for cost 0 at 1: the line of fpr 0.2, tpr 1.
    np.testing.assert_allclose(points[["fpr", "tpr"]].to_numpy(), [[0.0, 0.4], [0.2, 1.0]])
    with pytest.raises(cc.CostchartError, match=r"jumps at pc=0\.5, but its rows are not in pc"):
        cc.curve_points(jump.iloc[[3, 1, 2, 0]])


def test_the_segments_of_honest_hybrids_are_their_roc_points():
    hybrids = _hybrids()
    data = _runs(folds=2, n=120)
    test = data[data.fold == 1]
    for clf, curve in hybrids.groupby("clf"):
        points = cc.roc_points(test[test.clf == clf], score="s", label="y")
        segments = cc.curve_points(curve.drop(columns="clf"))
        for row in segments.itertuples():
            near = (np.abs(points.fpr - row.fpr) < 1e-12) & (np.abs(points.tpr - row.tpr) < 1e-12)
            assert near.any(), (clf, row)


def test_vertical_average_refuses_curves_that_jump():
    hybrids = _hybrids()
    jumps = hybrids.groupby("clf")["pc"].apply(lambda pc: pc.duplicated().any())
    assert jumps.any()  # an honest hybrid changes threshold somewhere: it jumps there
    with pytest.raises(cc.CostchartError, match=r"jumps at pc=.*vertical_average averages curves"):
        cc.vertical_average(hybrids, over="clf", by=[])


def test_the_selection_of_an_honest_hybrid_has_no_empty_intervals_and_gives_it_back():
    hybrids = _hybrids()
    selection = cc.selection_table(hybrids, by="clf")
    assert (selection.pc_hi > selection.pc_lo).all()  # the jumps made empty intervals
    for _, own in selection.groupby("clf"):
        np.testing.assert_array_equal(own.pc_lo.to_numpy()[1:], own.pc_hi.to_numpy()[:-1])
    data = _runs(folds=2, n=120)
    again = cc.apply_selection(data[data.fold == 1], selection, score="s", label="y", by="clf")
    np.testing.assert_allclose(again[["pc", "cost"]], hybrids[["pc", "cost"]], rtol=0, atol=1e-15)


def test_compare_refuses_curves_that_jump():
    # It read one side of each jump: b, cheaper below pc 0.5, was never called better.
    jump = pd.DataFrame({"pc": [0.0, 0.5, 0.5, 1.0], "cost": [0.0, 0.5, 0.2, 0.0]})
    line = pd.DataFrame({"pc": [0.0, 0.5, 1.0], "cost": [0.0, 0.3, 0.0]})
    with pytest.raises(cc.CostchartError, match=r"a jumps at pc=0\.5 .*compare reads curves"):
        cc.compare(jump, line)
    with pytest.raises(cc.CostchartError, match=r"b jumps at pc=0\.5"):
        cc.compare(line, jump)
    assert cc.compare(line, line).crossovers.size == 0
