"""The cheapest set's headline coverage and power, on fewer simulated test sets.

``tests/benchmarks/bench_cheapest_set.py`` measures the cells on 1,000 test sets each
(``docs/cheapest_set.md``); here :func:`costchart.cheapest_set` itself builds the sets of
``SETS`` test sets per cell, and each share must reach 0.9 less three Monte Carlo standard
errors, ``3 * sqrt(0.9 * 0.1 / SETS)``.
"""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

import costchart as cc

pytestmark = pytest.mark.slow

SETS = 300
RESAMPLES = 500
LEVEL = 0.9
FLOOR = LEVEL - 3 * np.sqrt(LEVEL * (1 - LEVEL) / SETS)
WHOLE = np.linspace(0.0, 1.0, 101)
INNER = np.linspace(0.05, 0.95, 91)


def _true_cost(classifier, pc):
    """The true optimal cost of a binormal classifier at each ``pc`` (20,001 thresholds)."""
    mu_pos, sd_pos, mu_neg, sd_neg = classifier
    t = np.linspace(-10.0, 12.0, 20001)[:, None]
    cost = pc * norm.cdf((t - mu_pos) / sd_pos) + (1 - pc) * norm.sf((t - mu_neg) / sd_neg)
    return cost.min(axis=0)


def _test_sets(a, b, n, seed):
    """``SETS`` paired test sets of classifiers ``a`` and ``b``, ``n`` per class, long format."""
    rng = np.random.default_rng(seed)
    positive = np.tile(np.r_[np.ones(n, bool), np.zeros(n, bool)], SETS)
    parts = []
    for name, (mu_pos, sd_pos, mu_neg, sd_neg) in (("a", a), ("b", b)):
        z = rng.standard_normal(len(positive))
        score = np.where(positive, mu_pos + sd_pos * z, mu_neg + sd_neg * z)
        parts.append(
            pd.DataFrame(
                {
                    "simulation": np.repeat(np.arange(SETS), 2 * n),
                    "id": np.tile(np.arange(2 * n), SETS),
                    "model": name,
                    "y": positive.astype(int),
                    "s": score,
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def _member(data, pc, seed):
    """Whether each classifier is in each test set's set at each ``pc`` (sets x 2 x pc)."""
    table = cc.cheapest_set(
        data,
        score="s",
        label="y",
        classifier="model",
        instance="id",
        by="simulation",
        pc=pc,
        n_resamples=RESAMPLES,
        rng=seed,
    )
    member = np.zeros((SETS, 2, len(pc)), bool)
    for row in table.itertuples(index=False):
        inside = (pc >= row.pc_lo - 1e-12) & (pc <= row.pc_hi + 1e-12)
        member[row.simulation, "ab".index(row.model), inside] = True
    return member


def test_two_equal_classifiers_stay_in_the_set_over_the_whole_range():
    equal = (1.0, 1.0, 0.0, 1.0)
    member = _member(_test_sets(equal, equal, 100, 1), WHOLE, 11)
    both = member.all(axis=(1, 2)).mean()
    assert both >= FLOOR, f"both in the set over the whole range in {both:.3f} of test sets"


def test_the_set_holds_the_cheapest_of_two_crossing_classifiers():
    a, b = (1.5, 1.0, 0.0, 1.0), (1.2, 0.5, 0.0, 1.0)
    truth = np.stack([_true_cost(a, INNER), _true_cost(b, INNER)])
    cheapest = truth <= truth.min(axis=0) + 1e-9
    assert cheapest[0].any() and cheapest[1].any()  # the true curves cross inside INNER
    member = _member(_test_sets(a, b, 300, 2), INNER, 12)
    held = (member & cheapest[None]).any(axis=1).all(axis=1).mean()
    assert held >= FLOOR, f"the true cheapest held at every pc in {held:.3f} of test sets"


def test_a_clearly_better_classifier_stands_alone_at_pc_one_half():
    better, worse = (3.0, 1.0, 0.0, 1.0), (0.5, 1.0, 0.0, 1.0)
    # The bounds hold over all of INNER at once, as in the benchmark; read at pc 0.5.
    middle = int(np.argmin(np.abs(INNER - 0.5)))
    member = _member(_test_sets(better, worse, 300, 3), INNER, 13)
    alone = (member[:, 0, middle] & ~member[:, 1, middle]).mean()
    assert alone >= FLOOR, f"the better one alone at pc 0.5 in {alone:.3f} of test sets"
