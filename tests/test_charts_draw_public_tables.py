"""Charts draw what public transformers return (issue 30, part 2).

* No module of ``costchart/_charts`` or ``costchart/layers`` imports a private statistics
  module: statistics come from public calls (``cc.thin_points``, ``cc.roc_hull``, ...).
* :func:`costchart.chart_tables` gives back, by name, the tables each chart draws; the rows
  drawn (read from the spec's datasets) equal those public calls' output.
* ``roc_cost_chart`` reads its input table once.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._io import tables as _tables
from costchart.datasets import load_predictions

PACKAGE = Path(cc.__file__).resolve().parent

#: Private modules a chart or layer may import: input, validation and grouping, Vega and
#: colours, decorations (trivial and iso lines, cuts); no statistics.
ALLOWED = {
    "costchart._charts",
    "costchart.layers",
    "costchart._io",  # input, validation, table kinds and grouping, schema, errors
    "costchart._vega",
    "costchart._palette",
    "costchart._cost.geometry",
}
#: Single names a chart may take from a statistics module: the Vega expression of the
#: public rule for the hull vertex used at a pc, parameter checks, and the recorded
#: description of a band table.
ALLOWED_NAMES = {
    ("costchart._roc.optimal", "vertex_expression"),
    ("costchart._cost.average", "over_names"),
    ("costchart._cost.compare", "check_names"),
    ("costchart._bands.describe", "recorded_level"),
    ("costchart._bands.describe", "recorded_names"),
    ("costchart._bands.describe", "pair_of"),  # checks the a=, b= names
}


def _private_imports(path: Path) -> list[tuple[str, str]]:
    """(module, name) of every ``from costchart._x import name`` / ``import costchart._x``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            module = node.module
            if module == "costchart":  # from costchart import _schema as col
                found += [(f"costchart.{a.name}", "*") for a in node.names if a.name[0] == "_"]
            elif module.startswith("costchart."):  # a module of a package, or a name
                found += [
                    (f"{module}.{a.name}", "*") if _is_module(module, a.name) else (module, a.name)
                    for a in node.names
                ]
        elif isinstance(node, ast.Import):
            found += [(a.name, "*") for a in node.names if a.name.startswith("costchart._")]
    return found


def _is_module(package: str, name: str) -> bool:
    folder = PACKAGE.parent.joinpath(*package.split("."))
    return (folder / f"{name}.py").exists() or (folder / name / "__init__.py").exists()


def _allowed(module: str, name: str) -> bool:
    if (module, name) in ALLOWED_NAMES:
        return True
    return any(module == a or module.startswith(a + ".") for a in ALLOWED) or not any(
        part.startswith("_") for part in module.split(".")[1:]
    )


@pytest.mark.parametrize(
    "path",
    sorted([*PACKAGE.glob("_charts/*.py"), *PACKAGE.glob("layers/*.py")]),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_charts_and_layers_import_no_private_statistics(path):
    wrong = [(m, n) for m, n in _private_imports(path) if not _allowed(m, n)]
    assert wrong == [], f"{path.name} imports private statistics: {wrong}; call cc.<name>"


def test_the_import_rule_catches_a_kernel(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from costchart._roc.thin import thinned_points\nimport costchart as cc\n")
    assert _private_imports(module) == [("costchart._roc.thin", "thinned_points")]
    assert not _allowed("costchart._roc.thin", "thinned_points")
    assert not _allowed("costchart._cost.envelope", "envelope_of_hulls")
    assert _allowed("costchart._io.frames", "infer_by")
    module.write_text("from costchart._roc import hull\nfrom costchart._io import schema as col\n")
    assert _private_imports(module) == [("costchart._roc.hull", "*"), ("costchart._io.schema", "*")]
    assert not _allowed("costchart._roc.hull", "*")


# --- the drawn rows are the public calls' output ---------------------------------------

DIGITS = 5  # decimals the charts keep in embedded data


def _drawn(chart) -> list[pd.DataFrame]:
    """Every table embedded in the spec, one per shared-data part (``costchart_table``)."""
    frames = []
    for rows in chart.to_dict()["datasets"].values():
        frame = pd.DataFrame(rows)
        parts = frame.groupby("costchart_table") if "costchart_table" in frame else [(0, frame)]
        frames += [part.dropna(axis=1, how="all").reset_index(drop=True) for _, part in parts]
    return frames


def _same(drawn: pd.DataFrame, expected: pd.DataFrame, digits) -> bool:
    if len(drawn) != len(expected):
        return False
    for name in expected.columns:
        got, want = drawn[name].to_numpy(), expected[name].to_numpy()
        if want.dtype.kind in "fiu":  # whole numbers come back as floats beside NaN
            want = want.astype(np.float64)
            want = np.round(want, digits) if digits is not None else want
            got = got.astype(np.float64)
            if not np.array_equal(got, want, equal_nan=True):
                return False
        elif not (got.astype(str) == want.astype(str)).all():
            return False
    return True


def assert_drawn(chart, expected: pd.DataFrame, *, digits: int | None = None, where=None):
    """Some table the chart embeds holds exactly ``expected``'s rows (rounded to ``digits``).

    ``where`` picks the drawn rows to compare (e.g. the hull's: ``on_hull``).
    """
    expected = expected.reset_index(drop=True)
    candidates = [f for f in _drawn(chart) if set(expected.columns) <= set(f.columns)]
    for frame in candidates:
        rows = frame if where is None else frame[where(frame)].reset_index(drop=True)
        if _same(rows[list(expected.columns)], expected, digits):
            return
    shapes = [(len(f), list(f.columns)) for f in candidates]
    raise AssertionError(f"no drawn table holds {list(expected.columns)}; candidates: {shapes}")


def assert_recorded(chart, expected: dict[str, pd.DataFrame]) -> None:
    """``cc.chart_tables(chart)`` gives exactly the public calls' tables, by name."""
    tables = cc.chart_tables(chart)
    assert sorted(tables) == sorted(expected)
    for name, table in expected.items():
        pd.testing.assert_frame_equal(tables[name], table, obj=name)


@pytest.fixture(scope="module")
def data():
    return load_predictions()


@pytest.fixture(scope="module")
def sonar(data):
    return cc.roc_points(
        data[data.dataset == "sonar"], score="score", label="label", by="classifier"
    )


def _roc_tables(points, by, *, max_total=3_000) -> dict[str, pd.DataFrame]:
    """What the ROC and cost charts draw, by the public calls the docs name."""
    thinned = cc.thin_points(points, max_points=100, max_total=max_total, by=by)
    hull = cc.roc_hull(thinned, by=by)
    return {
        "points": thinned,
        "operating_range": cc.operating_range(thinned, of="lines", by=by),
        "hull": hull,
        "envelope": cc.lower_envelope(hull, by=by),
        "envelope_range": cc.operating_range(hull, of="envelope", by=by),
    }


def _assert_roc_and_cost_drawn(chart, tables, *, roc=True, cost=True):
    ranges = tables["operating_range"]
    points = tables["points"][["classifier", "fpr", "tpr"]].assign(
        range_lo=ranges["pc_lo"].to_numpy(), range_hi=ranges["pc_hi"].to_numpy()
    )
    assert_drawn(chart, points, digits=DIGITS)
    if roc:  # the hull is drawn through the points flagged on it
        hull = tables["hull"][["classifier", "fpr", "tpr"]]
        assert_drawn(chart, hull, digits=DIGITS, where=lambda f: f["on_hull"].astype(bool))
    if cost:
        assert_drawn(chart, tables["envelope"][["classifier", "pc", "cost"]], digits=DIGITS)
        assert_drawn(chart, tables["envelope_range"])


def test_roc_chart_draws_public_tables(sonar):
    chart = cc.roc_chart(sonar, classifier="classifier", show_auc=True)
    tables = _roc_tables(sonar, "classifier")
    tables["auc"] = cc.auc(sonar, by="classifier")
    assert_recorded(chart, tables)
    _assert_roc_and_cost_drawn(chart, tables, cost=False)
    text = str(chart.to_dict())
    for name, area in zip(tables["auc"]["classifier"], tables["auc"]["auc"], strict=True):
        assert f"{name} (AUC {area:.3f})" in text


def test_cost_chart_draws_public_tables(sonar):
    chart = cc.cost_chart(sonar, classifier="classifier")
    tables = _roc_tables(sonar, "classifier")
    assert_recorded(chart, tables)
    _assert_roc_and_cost_drawn(chart, tables, roc=False)


def _drawn_owners(chart) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The stretches (two rows each) and the mixtures ``show_owners=True`` drew."""
    frames = _drawn(chart)
    (stretches,) = [f for f in frames if "costchart_stretch" in f]
    (mixtures,) = [f for f in frames if "classifier_2" in f]
    return stretches, mixtures


def _assert_owners_drawn(stretches, mixtures, regions, envelope):
    """Each drawn stretch is an interval of ``regions`` with its owner, along ``envelope``."""
    single = regions[regions["choice"] == "threshold"].reset_index(drop=True)
    ends = stretches.groupby("costchart_stretch", sort=True).agg(
        dataset=("dataset", "first"),
        classifier=("classifier", "first"),
        pc_lo=("pc", "min"),
        pc_hi=("pc", "max"),
        owners=("classifier", "nunique"),
    )
    assert (ends["owners"] == 1).all()
    assert ends["dataset"].tolist() == single["dataset"].tolist()
    assert ends["classifier"].tolist() == single["classifier"].tolist()
    np.testing.assert_allclose(ends["pc_lo"], single["pc_lo"].round(DIGITS), rtol=0, atol=0)
    np.testing.assert_allclose(ends["pc_hi"], single["pc_hi"].round(DIGITS), rtol=0, atol=0)
    for dataset, curve in envelope.groupby("dataset"):
        drawn = stretches[stretches["dataset"] == dataset]
        at = np.interp(drawn["pc"], curve["pc"], curve["cost"])
        np.testing.assert_allclose(drawn["cost"], at, rtol=0, atol=2e-5)
    mixed = regions[regions["choice"] == "mixture"].reset_index(drop=True)
    assert mixtures["classifier"].tolist() == mixed["classifier"].tolist()
    assert mixtures["classifier_2"].tolist() == mixed["classifier_2"].tolist()
    np.testing.assert_allclose(mixtures["pc"], mixed["pc_lo"].round(DIGITS), rtol=0, atol=0)
    np.testing.assert_allclose(mixtures["cost"], mixed["cost_lo"].round(DIGITS), rtol=0, atol=0)


@pytest.mark.slow  # four panels of three classifiers: seconds
def test_cost_chart_shows_which_classifier_owns_each_stretch(data):
    """show_owners=True draws cheapest_regions along the pooled envelope (issue 33, item 1)."""
    points = cc.roc_points(data, score="score", label="label", by=["dataset", "classifier"])
    chart = cc.cost_chart(points, classifier="classifier", facet="dataset", show_owners=True)
    tables = _roc_tables(points, ["dataset", "classifier"])
    tables["cheapest_regions"] = cc.cheapest_regions(tables["points"], by="dataset")
    tables["pooled_envelope"] = cc.lower_envelope(tables["points"], by="dataset")
    assert_recorded(chart, tables)
    # The points drawn keep every hull vertex: the table is the one of all the points.
    pd.testing.assert_frame_equal(
        tables["cheapest_regions"], cc.cheapest_regions(points, by="dataset")
    )
    regions, envelope = tables["cheapest_regions"], tables["pooled_envelope"]
    stretches, mixtures = _drawn_owners(chart)
    assert len(mixtures) > 0
    _assert_owners_drawn(stretches, mixtures, regions, envelope)
    # A swapped owner fails: the check can fail.
    first = regions.index[regions["choice"] == "threshold"][0]
    swapped = regions.copy()
    swapped.loc[first, "classifier"] = (
        "tree" if swapped.loc[first, "classifier"] != "tree" else "logistic"
    )
    with pytest.raises(AssertionError):
        _assert_owners_drawn(stretches, mixtures, swapped, envelope)
    key = str(chart.to_dict())
    assert "cheapest of all classifiers (its colour)" in key
    assert "mixture of two classifiers (switch)" in key
    with pytest.raises(cc.CostchartError, match=r"show_owners=True .* pass classifier="):
        cc.cost_chart(points, facet="dataset", by=["dataset", "classifier"], show_owners=True)


def test_show_owners_draws_the_trivial_classifiers_stretches_in_grey():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 60)
    scores = [np.r_[y + rng.normal(0, spread, 60), 9, -9] for spread in (1.2, 1.0)]
    raw = pd.DataFrame(
        {
            "s": np.r_[scores[0], scores[1]],
            "y": np.r_[y, 0, 1, y, 0, 1],
            "m": ["a"] * 62 + ["b"] * 62,
        }
    )
    points = cc.roc_points(raw, score="s", label="y", by="m")
    chart = cc.cost_chart(points, classifier="m", show_owners=True)
    regions = cc.chart_tables(chart)["cheapest_regions"]
    assert {"always negative", "always positive"} <= set(regions["choice"])
    parts = [f for f in _drawn(chart) if "costchart_stretch" in f]
    assert len(parts) == 2  # the owned stretches and the trivial ones, two layers
    stretches = pd.concat(parts, ignore_index=True)
    assert set(parts[0]["choice"]) == {"threshold"}
    trivial = stretches[stretches["choice"] != "threshold"]
    expected = regions[regions["choice"].str.startswith("always")]
    assert sorted(trivial["pc"].unique()) == sorted(
        {*expected["pc_lo"].round(DIGITS), *expected["pc_hi"].round(DIGITS)}
    )
    assert "cheapest: a trivial classifier" in str(chart.to_dict())


@pytest.mark.parametrize("combined", [False, True])
def test_roc_cost_chart_draws_public_tables(data, combined):
    two = data[data.dataset.isin(["sonar", "diabetes"])]
    points = cc.roc_points(two, score="score", label="label", by=["dataset", "classifier"])
    chart = cc.roc_cost_chart(points, classifier="classifier", facet="dataset", combined=combined)
    by = ["dataset", "classifier"]
    tables = _roc_tables(points, by)
    assert_recorded(chart, tables)
    _assert_roc_and_cost_drawn(chart, tables)
    if combined:  # the page's minimum runs over each curve's envelope at its vertices
        (grid,) = [f for f in _drawn(chart) if "costchart_mid_cost" in f]
        for key, envelope in tables["envelope"].groupby(by):
            curve = grid[(grid["dataset"] == key[0]) & (grid["classifier"] == key[1])]
            at = np.interp(envelope["pc"], curve["pc"], curve["cost"])
            np.testing.assert_allclose(at, envelope["cost"], rtol=0, atol=1e-12)


def test_chart_tables_shares_points_among_many_curves(data):
    folds = cc.roc_points(data, score="score", label="label", by=["dataset", "classifier", "fold"])
    chart = cc.cost_chart(folds, classifier="classifier", facet="dataset")
    by = ["dataset", "classifier", "fold"]
    tables = _roc_tables(folds, by)
    assert_recorded(chart, tables)
    per_curve = tables["points"].groupby(by).size()
    assert per_curve.max() < 100  # 60 curves: 3000 // 60 = 50 each, plus hull vertices
    _assert_roc_and_cost_drawn(chart, tables, roc=False)


def test_band_and_difference_charts_draw_public_tables(data):
    two = data[data.dataset == "sonar"]
    grid = np.linspace(0, 1, 51)
    band = cc.bootstrap_band(two, score="score", label="label", by="classifier", pc=grid)
    chart = cc.band_chart(band, classifier="classifier")
    assert_recorded(chart, {"band": band})
    assert_drawn(chart, band[["classifier", "pc", "cost", "lower", "upper"]])
    difference = cc.difference_band(
        two,
        score="score",
        label="label",
        classifier="classifier",
        instance="instance",
        a="logistic",
        b="tree",
        pc=grid,
    )
    chart = cc.difference_chart(difference)
    regions = cc.significant_regions(difference)
    assert_recorded(chart, {"difference": difference, "significant_regions": regions})
    assert_drawn(chart, difference[["pc", "difference", "lower", "upper"]])
    assert_drawn(chart, regions)


def test_average_chart_draws_public_tables(data):
    folds = cc.roc_points(
        data[data.dataset == "diabetes"], score="score", label="label", by=["classifier", "fold"]
    )
    chart = cc.average_chart(folds, over="fold", classifier="classifier")
    average = cc.vertical_average(folds, over="fold", by="classifier")
    roc = cc.roc_average(folds, over="fold", averaging="vertical")
    assert_recorded(chart, {"vertical_average": average, "roc_average": roc})
    assert_drawn(chart, average[["classifier", "pc", "cost"]])
    assert_drawn(chart, roc[["classifier", "fpr", "tpr"]])


def test_pr_chart_draws_public_tables(sonar):
    chart = cc.pr_chart(sonar, classifier="classifier")
    thinned = cc.thin_points(sonar, max_points=100, by="classifier")
    hull = cc.roc_hull(thinned, by="classifier")
    tables = {
        "points": thinned,
        "pr_curve": cc.pr_curve(thinned, by="classifier", steps=20),
        "pr_points": cc.pr_points(thinned, by="classifier"),
        "hull": hull,
        "hull_pr_curve": cc.pr_curve(hull, by="classifier", steps=20),
    }
    assert_recorded(chart, tables)
    for name in ("pr_curve", "pr_points", "hull_pr_curve"):
        assert_drawn(chart, tables[name][["classifier", "recall", "precision"]])


def test_decision_curve_chart_draws_public_tables(data, sonar):
    diabetes = data[data.dataset == "diabetes"]
    table = cc.net_benefit(diabetes, score="score", label="label", by="classifier")
    chart = cc.decision_curve_chart(table, classifier="classifier")
    assert_recorded(chart, {"net_benefit": table})
    model = table[table["strategy"] == "model"]
    assert_drawn(chart, model[["classifier", "threshold", "net_benefit"]])
    one = table[table["classifier"] == "tree"].drop(columns="classifier")
    points = sonar[sonar["classifier"] == "tree"].drop(columns="classifier")
    chart = cc.decision_curve_chart(one, points=points)
    envelope = cc.lower_envelope(points)
    assert_recorded(chart, {"net_benefit": one, "envelope": envelope})
    assert_drawn(chart, envelope[["pc", "cost"]])


def test_threshold_choice_chart_draws_public_tables(data):
    diabetes = data[data.dataset == "diabetes"]
    chart = cc.threshold_choice_chart(
        diabetes, score="score", label="label", classifier="classifier"
    )
    points = cc.roc_points(diabetes, score="score", label="label", by="classifier")
    grid = np.linspace(0, 1, 281)  # one pc a pixel of the default size
    tables = {
        "points": cc.thin_points(points, max_points=100, by="classifier"),
        "envelope": cc.lower_envelope(points),
        "brier_curve": cc.brier_curve(
            diabetes, score="score", label="label", by="classifier", pc=grid
        ),
        "rate_driven_curve": cc.rate_driven_curve(points, pc=grid),
        "expected_loss": cc.expected_loss(
            points, threshold_choice=["optimal", "score_driven", "rate_driven"]
        ),
    }
    assert_recorded(chart, tables)
    assert_drawn(chart, tables["points"][["classifier", "fpr", "tpr"]])
    drawn = [f for f in _drawn(chart) if "threshold_choice" in f]
    (curves,) = drawn
    for name, choice in [
        ("envelope", "optimal"),
        ("brier_curve", "score_driven"),
        ("rate_driven_curve", "rate_driven"),
    ]:
        rows = curves[curves["threshold_choice"] == choice].reset_index(drop=True)
        assert _same(rows, tables[name][["classifier", "pc", "cost"]], None), name
    # The legend's labelExpr holds the losses as a JSON list (JavaScript source).
    text = " ".join(_strings(chart.to_dict())).encode().decode("unicode_escape")
    loss = tables["expected_loss"].pivot(
        index="classifier", columns="threshold_choice", values="expected_loss"
    )
    for _, row in loss.iterrows():
        shown = " · ".join(f"{row[c]:.3f}" for c in ("optimal", "score_driven", "rate_driven"))
        assert shown in text


def _strings(spec) -> list[str]:
    """Every string of a spec, depth first."""
    if isinstance(spec, str):
        return [spec]
    if isinstance(spec, dict):
        return [s for value in spec.values() for s in _strings(value)]
    if isinstance(spec, list):
        return [s for value in spec for s in _strings(value)]
    return []


def test_explorer_draws_public_tables(sonar):
    chart = cc.explorer(sonar, classifier="classifier", pc=0.3)
    thinned = cc.thin_points(sonar, max_points=100, by="classifier")
    hull = cc.roc_hull(thinned, by="classifier")
    envelope = cc.lower_envelope(hull, by="classifier")
    assert_recorded(chart, {"points": thinned, "hull": hull, "envelope": envelope})
    assert_drawn(chart, thinned[["classifier", "fpr", "tpr"]])
    assert_drawn(chart, hull[["classifier", "fpr", "tpr"]])
    assert_drawn(chart, envelope[["classifier", "pc", "cost"]])


def test_chart_tables_refuses_what_is_not_a_chart_costchart_returned(sonar):
    chart = cc.roc_chart(sonar, classifier="classifier")
    with pytest.raises(cc.CostchartError, match=r"chart_tables takes a chart as a costchart"):
        cc.chart_tables(chart.properties(width=100))
    with pytest.raises(cc.CostchartError, match="chart_tables takes a chart"):
        cc.chart_tables(sonar)
    tables = cc.chart_tables(chart)
    tables["hull"].loc[0, "fpr"] = 0.5  # a copy: the chart's record is unchanged
    assert cc.chart_tables(chart)["hull"].loc[0, "fpr"] == 0.0


# --- each input table is read once ------------------------------------------------------


def test_roc_cost_chart_reads_its_input_table_once(monkeypatch, data):
    points = cc.roc_points(
        data[data.dataset.isin(["sonar", "diabetes"])],
        score="score",
        label="label",
        by=["dataset", "classifier"],
    )
    original = _tables.read_table
    reads: list[int] = []

    def counting(table, name):
        reads.append(id(table))
        return original(table, name)

    monkeypatch.setattr(_tables, "read_table", counting)
    for combined in (False, True):
        reads.clear()
        cc.roc_cost_chart(points, classifier="classifier", facet="dataset", combined=combined)
        assert reads.count(id(points)) == 1, f"combined={combined}: {len(reads)} reads"
    # The counter sees reads at all: the public transformers read their tables through it.
    reads.clear()
    cc.roc_hull(points)
    assert reads == [id(points)]
