"""The threshold-choice gallery page tells its papers' story, on the script's own tables.

The claims: the envelope is a lower bound of the other two curves; each curve's area is
its metric (the envelope's expected cost, the class-balanced Brier score, 1/3 + (1 - 2
AUC)/4), so the rate-driven losses rank the classifiers as the AUC does; naive Bayes, with
uncalibrated scores, loses most by trusting them; the hull's rate-driven curve lies
between the envelope and the classifier's own.
"""

from __future__ import annotations

import numpy as np
import pytest
from gallery_scripts import drawn, run_figure

import costchart as cc

# Gallery tests: each runs a gallery script (the quick loop leaves them out).
pytestmark = pytest.mark.slow

CLASSIFIERS = ["logistic", "naive bayes", "tree"]


@pytest.fixture(scope="module")
def three():
    return run_figure("threshold_choice", "three")


def test_three_the_envelope_lies_under_both_other_curves(three):
    gaps = three["gaps"]
    assert set(gaps.classifier) == set(CLASSIFIERS)
    assert (gaps.brier_above >= -1e-12).all() and (gaps.rate_above >= -1e-12).all()
    # Strictly above somewhere: neither rule finds the best threshold everywhere.
    assert (gaps.groupby("classifier")[["brier_above", "rate_above"]].max() > 0.01).all().all()


def test_three_each_area_is_its_metric(three):
    data, table = three["data"], three["table"]
    for name in CLASSIFIERS:
        part = data[data.classifier == name]
        y = part.label.to_numpy().astype(bool)
        p = part.score.to_numpy()
        brier = (np.mean((1 - p[y]) ** 2) + np.mean(p[~y] ** 2)) / 2
        pos, neg = p[y], p[~y]
        auc = (pos[:, None] > neg).mean() + 0.5 * (pos[:, None] == neg).mean()
        assert table.loc[name, "score_driven"] == pytest.approx(brier, abs=1e-12)
        assert table.loc[name, "rate_driven"] == pytest.approx(1 / 3 + (1 - 2 * auc) / 4, abs=1e-12)
        fpr, fnr = np.mean(neg >= 0.5), np.mean(pos < 0.5)
        assert table.loc[name, "fixed"] == pytest.approx((fpr + fnr) / 2, abs=1e-12)
        assert table.loc[name, "optimal"] <= min(
            table.loc[name, ["score_driven", "rate_driven", "fixed"]]
        )


def test_three_rate_driven_losses_rank_as_the_auc(three):
    table, auc = three["table"], three["auc"].set_index("classifier")["auc"]
    by_rate = table["rate_driven"].sort_values().index.tolist()
    by_auc = auc.sort_values(ascending=False).index.tolist()
    assert by_rate == by_auc == CLASSIFIERS


def test_three_naive_bayes_loses_most_by_trusting_its_scores(three):
    table, gaps = three["table"], three["gaps"]
    auc = three["auc"].set_index("classifier")["auc"]
    assert auc.rank(ascending=False)["naive bayes"] == 2  # it ranks well
    trust_cost = table["score_driven"] - table["rate_driven"]
    assert trust_cost.idxmax() == "naive bayes"
    assert gaps.groupby("classifier").brier_above.max().idxmax() == "naive bayes"


def test_three_the_hulls_rate_driven_curve_lies_between(three):
    gaps = three["gaps"]
    # Drawn rows: chords within 1.25e-5 of the parabolas.
    assert (gaps.hull_rate_above >= -1.25e-5).all()
    assert (gaps.hull_rate_above <= gaps.rate_above + 2.5e-5).all()
    assert (gaps.groupby("classifier").hull_rate_above.max() > 0.004).all()


def test_three_the_chart_draws_every_classifier_in_its_own_panel(three):
    # Nine curves in one panel were unreadable: one panel pair per classifier, each with
    # only its own three curves, and the losses it prints are the script's.
    spec = three["chart"].to_dict()
    assert len(spec["concat"]) == len(CLASSIFIERS)
    tables = cc.chart_tables(three["chart"])
    for name in ("envelope", "brier_curve", "rate_driven_curve", "expected_loss"):
        table = tables[name]
        assert (table["panel"] == table["classifier"]).all(), name
        assert sorted(table["classifier"].unique()) == CLASSIFIERS
    shown = tables["expected_loss"].pivot(
        index="classifier", columns="threshold_choice", values="expected_loss"
    )
    for method in ("optimal", "score_driven", "rate_driven"):
        np.testing.assert_allclose(shown[method], three["table"].loc[shown.index, method])
    # The envelopes drawn are the script's.
    drawn(three, three["curves"]["envelope"], ["classifier", "pc", "cost"])
    # The cost axis is cut at the 0.35 the script gives, above every drawn curve.
    assert tables["brier_curve"]["cost"].max() < 0.35
