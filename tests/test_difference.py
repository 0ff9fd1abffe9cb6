"""difference_band: the band on the cost difference of two paired classifiers.

The statistical tests (enumeration, Monte Carlo) live in test_bootstrap.py; this module
covers the edges of the inputs (issue 10).
"""

import numpy as np
import pandas as pd
import pytest

import costchart as cc

N = 20
PAIR = pd.DataFrame(
    {
        "model": ["a"] * N + ["b"] * N,
        "id": list(range(N)) * 2,
        "y": [1, 0] * N,
        "p": np.r_[np.arange(N), np.arange(N)[::-1]].astype(float),
    }
)


def _difference(data=PAIR, **options):
    options.setdefault("pc", [0.5])
    return cc.difference_band(
        data, score="p", label="y", classifier="model", instance="id", **options
    )


@pytest.mark.parametrize(
    ("thresholds", "message"),
    [
        ((np.nan, 0.5), r"thresholds\[0\]=nan is not a threshold; pass a number"),
        ((0.5, float("nan")), r"thresholds\[1\]=nan is not a threshold"),
        ((0.5,), r"thresholds=\(0\.5,\) must be a pair \(t_a, t_b\) of thresholds, one per"),
        (0.5, r"thresholds=0\.5 must be a pair \(t_a, t_b\)"),
        ("ab", r"thresholds='ab' must be a pair"),
        (("a", 1), r"thresholds\[0\]='a' must be a number"),
    ],
)
def test_thresholds_must_be_a_pair_of_numbers(thresholds, message):
    with pytest.raises(cc.CostchartError, match=message):
        _difference(thresholds=thresholds)


def test_infinite_thresholds_are_the_trivial_classifiers():
    pc = np.array([0.2, 0.7])
    band = _difference(thresholds=(np.inf, -np.inf), pc=pc)
    # always negative (cost pc) minus always positive (cost 1 - pc), with no variance
    np.testing.assert_allclose(band["difference"], 2 * pc - 1, atol=1e-15)
    np.testing.assert_array_equal(band["se"], 0)
