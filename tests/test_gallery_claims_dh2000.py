"""Drummond & Holte 2000: each gallery figure holds the paper's claim on its own tables."""

import os
import runpy
from pathlib import Path

import numpy as np
import pytest

GALLERY = Path(__file__).resolve().parent.parent / "gallery" / "dh2000"


def run_script(name, tmp_path_factory):
    """Run one dh2000 script as __main__ in a scratch directory; return its namespace."""
    os.environ.pop("COSTCHART_GALLERY_FULL", None)
    (path,) = GALLERY.glob(f"plot_dh2000_{name}_*.py")
    cwd = os.getcwd()
    os.chdir(tmp_path_factory.mktemp(name))
    try:
        return runpy.run_path(str(path), run_name="__main__")
    finally:
        os.chdir(cwd)


@pytest.fixture(scope="module")
def fig08(tmp_path_factory):
    return run_script("fig08", tmp_path_factory)


def test_fig08_costs_are_read_off_the_classifiers_own_line(fig08):
    classifier = fig08["classifier"]
    assert classifier[["fpr", "tpr"]].to_numpy().tolist() == [[0.09, 0.36]]
    read_off = fig08["read_off"]
    pc = read_off["pc"].to_numpy()
    expected = (1 - 0.36) * pc + 0.09 * (1 - pc)
    np.testing.assert_allclose(read_off["cost"], expected, atol=1e-12)
    # The paper's example: at pc = 0.8 the line is at 0.53, not the always-positive 0.2.
    at_08 = read_off.loc[np.isclose(pc, 0.8), "cost"]
    assert len(at_08) == 1 and at_08.iat[0] == pytest.approx(0.53, abs=1e-9)
    assert at_08.iat[0] > 1 - 0.8  # above the always-positive classifier there
    operating = fig08["operating"]
    assert operating["pc_lo"].iat[0] == pytest.approx(0.2)
    assert operating["pc_hi"].iat[0] == pytest.approx(0.91 / 1.55)
