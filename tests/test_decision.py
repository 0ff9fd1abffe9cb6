"""Decision curves: net benefit against counting, the cost-curve correspondence, the band."""

from functools import partial

import numpy as np
import pandas as pd
import pytest
from scenegraph import data_marks, legend_labels, scene
from strategies import GROUP_KEY_KINDS, compare_tables, many_groups, same_warnings

import costchart as cc


def _data(seed, n=400):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    p = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.5 * y - 1)))
    return np.round(p, 2), y


@pytest.mark.parametrize("seed", range(3))
def test_net_benefit_equals_counting(seed):
    p, y = _data(seed)
    grid = np.array([0.05, 0.1, 0.2, 0.33, 0.5, 0.7])
    table = cc.net_benefit({"p": p, "y": y}, score="p", label="y", thresholds=grid)
    n = len(y)
    for t in grid:
        act = p >= t
        tp, fp = np.sum(act & y), np.sum(act & ~y)
        w = t / (1 - t)
        expected = {
            "model": tp / n - fp / n * w,
            "all": y.sum() / n - (~y).sum() / n * w,
            "none": 0.0,
        }
        rows = table[table["threshold"] == t].set_index("strategy")
        for strategy, value in expected.items():
            assert rows.loc[strategy, "net_benefit"] == pytest.approx(value, abs=1e-14)
            assert rows.loc[strategy, "standardized_net_benefit"] == pytest.approx(
                value / y.mean(), abs=1e-13
            )
            avoided = (value - expected["all"]) * (1 - t) / t * 100
            assert rows.loc[strategy, "interventions_avoided"] == pytest.approx(avoided, abs=1e-11)


def test_net_benefit_is_affine_in_the_cost_curve():
    p, y = _data(5)
    table = cc.net_benefit({"p": p, "y": y}, score="p", label="y")
    model = table[table["strategy"] == "model"]
    prevalence = y.mean()
    for row in model.itertuples():
        act = p >= row.threshold
        tpr, fpr = np.mean(act[y]), np.mean(act[~y])
        cost = row.pc * (1 - tpr) + (1 - row.pc) * fpr  # the cost line at the row's pc
        w = row.threshold / (1 - row.threshold)
        assert row.net_benefit == pytest.approx(
            prevalence - cost * (prevalence + w * (1 - prevalence)), abs=1e-12
        )


@pytest.mark.slow  # statistical: 40,000 bootstrap draws
def test_band_uses_the_exact_bootstrap_variance():
    p, y = _data(7, n=200)
    t = 0.3
    table = cc.net_benefit({"p": p, "y": y}, score="p", label="y", thresholds=[t])
    model = table[table["strategy"] == "model"].iloc[0]
    rng = np.random.default_rng(0)
    pos, neg = p[y], p[~y]
    draws = []
    for _ in range(40_000):
        a, b = rng.choice(pos, len(pos)), rng.choice(neg, len(neg))
        draws.append(np.sum(a >= t) / len(p) - np.sum(b >= t) / len(p) * t / (1 - t))
    assert model["se"] == pytest.approx(np.std(draws), rel=0.02)
    assert model["lower"] < model["net_benefit"] < model["upper"]
    others = table[table["strategy"] != "model"]
    assert (others["se"] == 0).all()


def _discrete_quantiles(values, weights, levels):
    """The smallest value whose cumulative probability reaches each level."""
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(weights[order])
    return [values[order][np.searchsorted(cumulative, q * cumulative[-1] - 1e-12)] for q in levels]


@pytest.mark.parametrize("level", [0.8, 0.9])
def test_discrete_band_is_the_exact_bootstrap_distributions_quantiles(level):
    from scipy import stats

    p = np.array([0.9, 0.8, 0.7, 0.65, 0.6, 0.4, 0.35, 0.3, 0.2, 0.1, 0.05, 0.5])
    y = np.array([1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1], dtype=bool)
    grid = np.array([0.25, 0.5, 0.75])
    table = cc.net_benefit(
        {"p": p, "y": y}, score="p", label="y", thresholds=grid, interval="discrete",
        confidence_level=level,
    )  # fmt: skip
    normal = cc.net_benefit(
        {"p": p, "y": y}, score="p", label="y", thresholds=grid, confidence_level=level
    )
    model = table[table.strategy == "model"].reset_index(drop=True)
    n, positives, negatives = len(y), y.sum(), (~y).sum()
    for k, t in enumerate(grid):
        # Stratified resampling: the true positives ~ Bin(P, TPR), false positives ~ Bin(N, FPR)
        tp, fp = np.arange(positives + 1), np.arange(negatives + 1)
        p_tp = stats.binom.pmf(tp, positives, np.sum(y & (p >= t)) / positives)
        p_fp = stats.binom.pmf(fp, negatives, np.sum(~y & (p >= t)) / negatives)
        values = (tp[:, None] / n - fp[None, :] / n * t / (1 - t)).ravel()
        low, high = _discrete_quantiles(
            values, np.outer(p_tp, p_fp).ravel(), [(1 - level) / 2, (1 + level) / 2]
        )
        estimate = model.net_benefit[k]
        assert model.lower[k] == pytest.approx(min(low, estimate), abs=1e-12)
        assert model.upper[k] == pytest.approx(max(high, estimate), abs=1e-12)
    # the estimate and the standard error are the normal band's; all and none have no width
    pd.testing.assert_series_equal(table.net_benefit, normal.net_benefit)
    pd.testing.assert_series_equal(table.se, normal.se)
    others = table.strategy != "model"
    assert (table.lower[others] == table.net_benefit[others]).all()
    assert (table.upper[others] == table.net_benefit[others]).all()
    assert table.attrs["costchart"]["interval"] == "discrete"


def test_resampled_band_converges_to_the_discrete_one_and_is_seeded():
    p, y = _data(4, n=300)
    common = {"score": "p", "label": "y", "thresholds": [0.2, 0.4, 0.6]}
    discrete = cc.net_benefit({"p": p, "y": y}, interval="discrete", **common)
    resampled = cc.net_benefit(
        {"p": p, "y": y}, inference="bootstrap", n_resamples=40_000, rng=5, **common
    )
    again = cc.net_benefit(
        {"p": p, "y": y}, inference="bootstrap", n_resamples=40_000, rng=5, **common
    )
    pd.testing.assert_frame_equal(resampled, again)
    model = resampled.strategy == "model"
    # Monte Carlo quantiles of 40,000 resamples: within about one count's step of the exact
    step = 1 / len(y) * 0.6 / 0.4
    np.testing.assert_allclose(resampled.lower[model], discrete.lower[model], atol=step)
    np.testing.assert_allclose(resampled.upper[model], discrete.upper[model], atol=step)
    np.testing.assert_allclose(resampled.se[model], discrete.se[model], rtol=0.02)
    assert resampled.attrs["costchart"]["n_resamples"] == 40_000
    with pytest.raises(cc.CostchartError, match=r"n_resamples=50 is too few for a 0\.9 band"):
        cc.net_benefit({"p": p, "y": y}, inference="bootstrap", n_resamples=50, **common)


def test_groups_chart_and_refusals():
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset == 'diabetes'")
    table = cc.net_benefit(data, score="score", label="label", by="classifier")
    assert list(table.columns[:3]) == ["classifier", "strategy", "threshold"]
    assert len(table) == 3 * 3 * 99
    graph = scene(cc.decision_curve_chart(table, color="classifier"))
    lines = [m for m in data_marks(graph) if m.marktype == "line"]
    areas = [m for m in data_marks(graph) if m.marktype == "area"]
    assert sum(len(m.items) for m in lines) >= 3 + 2  # three models, treat all and none
    assert len(areas) >= 1
    labels = legend_labels(graph)
    assert {"treat all", "treat none", "net benefit of the model"} <= set(labels)
    assert "90 % bootstrap band (exact moments)" in labels
    with pytest.raises(cc.CostchartError, match="thresholds="):
        cc.net_benefit(data, score="score", label="label", thresholds=[0.0, 0.5])
    with pytest.raises(cc.CostchartError, match="net_benefit table"):
        cc.decision_curve_chart(pd.DataFrame({"x": [1]}))


@pytest.mark.slow
def test_linked_cost_view_marks_the_hovered_thresholds_pc(tmp_path):
    playwright_api = pytest.importorskip("playwright.sync_api")
    from test_browser import _chromium

    from costchart.datasets import load_predictions

    executable = _chromium()
    data = load_predictions().query("dataset == 'diabetes'")
    table = cc.net_benefit(data, score="score", label="label", by="classifier")
    points = cc.roc_points(data, score="score", label="label", by="classifier")
    chart = cc.decision_curve_chart(table, color="classifier", points=points)
    spec = chart.to_dict()
    assert len(spec["hconcat"]) == 2
    with pytest.raises(cc.CostchartError, match="leave out facet="):
        cc.decision_curve_chart(table, facet="classifier", points=points)
    path = cc.save(chart, tmp_path / "linked.html")
    pcs = {f"{pc:.3f}" for pc in table["pc"]}
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(path.as_uri())
        page.wait_for_selector("#costchart-chart-0 svg", timeout=30_000)
        box = page.locator("#costchart-chart-0 svg.marks").first.bounding_box()
        shown = set()
        for share in (0.2, 0.35, 0.5):  # across the decision panel
            page.mouse.move(box["x"] + 60 + share * 280, box["y"] + 150)
            page.wait_for_timeout(300)
            texts = page.locator("#costchart-chart-0 svg text").all_text_contents()
            shown |= {t for t in texts if t in pcs}
        browser.close()
    assert len(shown) >= 2  # the pc under the pointer is written on the cost view, and moves
    assert errors == []


def test_a_grouping_column_named_strategy_is_refused():
    p, y = _data(1)
    data = pd.DataFrame({"p": p, "y": y, "strategy": "x"})
    with pytest.raises(cc.CostchartError, match=r"by=\['strategy'\] includes 'strategy'"):
        cc.net_benefit(data, score="p", label="y", by="strategy")


def _net_benefit_group_by_group(
    data,
    *,
    score,
    label,
    thresholds=None,
    by=None,
    pos_label=None,
    weight=None,
    confidence_level=0.9,
):
    """The per-group loop net_benefit was before it computed all groups in shared passes."""
    from scipy import stats

    from costchart._cost.decision import DEFAULT_THRESHOLDS, _thresholds
    from costchart._io import schema as col
    from costchart._io.frames import normalize_by
    from costchart._io.groups import assemble, split_groups
    from costchart._io.validation import confidence_level as check_confidence
    from costchart._roc.points import points_of

    grid = DEFAULT_THRESHOLDS if thresholds is None else _thresholds(thresholds)
    level = check_confidence(confidence_level)
    by = normalize_by(by)
    points = points_of(
        data,
        score=score,
        label=label,
        by=by or None,
        pos_label=pos_label,
        weight=weight,
        frequency="net_benefit's band (the stratified bootstrap)",
    )
    groups = split_groups(points, by)
    z = stats.norm.ppf(0.5 + level / 2)
    odds = grid / (1 - grid)
    tables = []
    for group in groups:
        rows = group.positions
        own = points[col.THRESHOLD].to_numpy(np.float64)[rows]
        tp = points[col.TP].to_numpy(np.float64)[rows]
        fp = points[col.FP].to_numpy(np.float64)[rows]
        positives, negatives = tp[-1], fp[-1]
        n = positives + negatives
        at = np.searchsorted(-own, -grid, side="right") - 1
        true_pos, false_pos = tp[at], fp[at]
        false_neg = positives - true_pos
        model = true_pos / n - false_pos / n * odds
        everyone = positives / n - negatives / n * odds
        variance = (
            false_neg * (positives - false_neg) / positives
            + odds**2 * false_pos * (negatives - false_pos) / negatives
        ) / n**2
        se = np.sqrt(np.maximum(variance, 0.0))
        prevalence = positives / n
        pc = prevalence * (1 - grid) / (prevalence * (1 - grid) + (1 - prevalence) * grid)
        blocks = []
        for strategy, values, spread in (
            ("model", model, se),
            ("all", everyone, np.zeros_like(grid)),
            ("none", np.zeros_like(grid), np.zeros_like(grid)),
        ):
            blocks.append(
                pd.DataFrame(
                    {
                        "strategy": strategy,
                        col.THRESHOLD: grid,
                        "net_benefit": values,
                        "standardized_net_benefit": values / prevalence,
                        "interventions_avoided": (values - everyone) / odds * 100,
                        col.PC: pc,
                        col.LOWER: values - z * spread,
                        col.UPPER: values + z * spread,
                        col.SE: spread,
                    }
                )
            )
        tables.append(pd.concat(blocks, ignore_index=True))
    body = pd.concat(tables, ignore_index=True)
    lengths = np.array([len(block) for block in tables])
    result = assemble(groups, lengths, {c: body[c].to_numpy() for c in body.columns})
    result.attrs["costchart"] = {
        "confidence_level": level,
        "inference": "exact_bootstrap",
        "interval": "normal",
        "sampling": "stratified",
    }
    return result


@pytest.mark.parametrize("key", GROUP_KEY_KINDS)
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weight", [None, "w"])
def test_all_groups_at_once_equal_each_group_alone(seed, key, weight):
    data, by = many_groups(seed, key, groups=50, max_rows=40)
    # unsorted, on scores (ties with the thresholds), near 0 and 1; and the default grid
    grid = [0.5, 0.01, 0.99, 0.25, 0.37, 1e-9, 1 - 1e-9, 0.37] if seed < 2 else None
    options = {"score": "s", "label": "y", "by": by, "weight": weight, "thresholds": grid}
    fast, slow = same_warnings(
        partial(cc.net_benefit, data, **options),
        partial(_net_benefit_group_by_group, data, **options),
    )
    compare_tables(fast, slow)


def test_one_group_and_polars_input_equal_the_loop():
    pl = pytest.importorskip("polars")
    data, by = many_groups(4, "int", groups=30)
    for frame, grouping in ((pl.from_pandas(data), by), (data, None)):
        options = {"score": "s", "label": "y", "by": grouping, "thresholds": [0.3, 0.7]}
        compare_tables(
            *same_warnings(
                partial(cc.net_benefit, frame, **options),
                partial(_net_benefit_group_by_group, frame, **options),
            )
        )
