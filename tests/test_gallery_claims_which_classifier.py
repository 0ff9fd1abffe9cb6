"""The which-classifier gallery page tells its story, on the script's own tables.

The claims: the envelope names an owner everywhere, but only the largest data set
(credit) names one classifier with confidence, logistic regression over a stretch around
pc 0.6, and logistic regression is never ruled out there; diabetes and sonar rule out the
tree over short stretches of high pc only; ionosphere rules out nothing although its
envelope switches classifier three times; the data's own cheapest is always in the set.
"""

from __future__ import annotations

import numpy as np
import pytest
from gallery_scripts import drawn, run_figure

# Gallery tests: each runs a gallery script (the quick loop leaves them out).
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def page():
    return run_figure("which_classifier", "set")


def _in_set(sets, dataset, classifier, pc):
    rows = sets[(sets.dataset == dataset) & (sets.classifier == classifier)]
    return np.array([((rows.pc_lo <= p) & (p <= rows.pc_hi)).any() for p in pc])


def test_set_the_strip_draws_the_confidence_set(page):
    sets = drawn(page, "sets", ["dataset", "classifier", "pc_lo", "pc_hi"])
    assert set(sets.dataset) == {"credit", "diabetes", "ionosphere", "sonar"}


def test_set_only_credit_names_one_classifier(page):
    alone = page["alone"]
    assert set(alone.dataset) == {"credit"}
    assert set(alone["first"]) == {"logistic"}
    # Over a stretch of some width around pc 0.6, not a single pc.
    widest = (alone.pc_hi - alone.pc_lo).max()
    assert widest >= 0.05
    assert ((alone.pc_lo <= 0.6) & (0.6 <= alone.pc_hi)).any()


def test_set_logistic_is_never_ruled_out_on_credit(page):
    grid = np.unique(page["sets"].query("dataset == 'credit'")[["pc_lo", "pc_hi"]].to_numpy())
    assert _in_set(page["sets"], "credit", "logistic", grid).all()


def test_set_ionosphere_rules_out_nothing_though_its_envelope_switches(page):
    sets, switches = page["sets"], page["switches"]
    ionosphere = sets[sets.dataset == "ionosphere"]
    assert set(ionosphere.groupby(["pc_lo", "pc_hi"]).size()) == {3}
    assert switches["ionosphere"] == 3
    decided = page["decided"]
    assert "ionosphere" not in decided.index or decided["ionosphere"] == 0


def test_set_diabetes_and_sonar_rule_out_the_tree_over_short_stretches_of_high_pc(page):
    sets, decided = page["sets"], page["decided"]
    assert decided["credit"] > 0.2
    for name in ("diabetes", "sonar"):
        assert 0 < decided[name] < 0.15
        runs = sets[sets.dataset == name].groupby(["pc_lo", "pc_hi"])["classifier"]
        narrowed = runs.agg(frozenset)[runs.size() < 3]
        assert set(narrowed) == {frozenset({"logistic", "naive bayes"})}
        assert (narrowed.index.get_level_values("pc_lo") >= 0.7).all()


def test_set_the_data_cheapest_is_always_in_the_set(page):
    sets = page["sets"]
    assert sets.groupby(["dataset", "pc_lo"])["cheapest"].any().all()
