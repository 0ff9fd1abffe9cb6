"""Dugas & Gadoury 2008 (dg2008): each gallery figure holds the paper's claim on its own tables.

Every test runs its script once, scaled down (``COSTCHART_GALLERY_FULL`` unset), and checks
what the paper says the figure shows on the tables the script binds. Coverage tolerances are
given in binomial standard errors of a coverage near 0.9 over the script's simulations.
"""

from __future__ import annotations

import os
import runpy
from pathlib import Path

import numpy as np
import pytest

GALLERY = Path(__file__).resolve().parent.parent / "gallery" / "dg2008"


def _run(figure: str, tmp_path_factory) -> dict:
    os.environ.pop("COSTCHART_GALLERY_FULL", None)
    (path,) = GALLERY.glob(f"plot_dg2008_{figure}_*.py")
    here = Path.cwd()
    os.chdir(tmp_path_factory.mktemp(figure))
    try:
        return runpy.run_path(str(path), run_name="__main__")
    finally:
        os.chdir(here)


def _standard_error(simulations: int, level: float = 0.9) -> float:
    """Binomial standard error of a coverage near ``level`` over ``simulations`` test sets."""
    return float(np.sqrt(level * (1 - level) / simulations))


@pytest.fixture(scope="module")
def fig01(tmp_path_factory):
    return _run("fig01", tmp_path_factory)


def test_fig01_the_best_threshold_at_pc_033_depends_on_the_classifier(fig01):
    best = fig01["best"]
    assert set(best["pc"]) == {0.33}
    winner = best.loc[best.groupby("classifier")["cost"].idxmin()].set_index("classifier")
    # The weak classifier's cheapest line at pc = 0.33 is the high threshold's, the strong
    # one's the middle threshold's.
    assert winner.loc["weak", "marked"] == "high (0.8)"
    assert winner.loc["strong", "marked"] == "middle (0)"
    # Lower thresholds have higher true and false positive rates on both ROC curves.
    chosen = fig01["chosen"]
    for _, own in chosen.groupby("classifier"):
        own = own.sort_values("threshold")
        assert own["tpr"].is_monotonic_decreasing and own["fpr"].is_monotonic_decreasing
        assert own["tpr"].diff().dropna().lt(0).all()
