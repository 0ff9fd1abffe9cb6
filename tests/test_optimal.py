"""The one rule for which hull vertex is used at pc: numpy, fast index and Vega agree."""

import re

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._roc.optimal import (
    RULE,
    optimal_vertices,
    vertex_expression,
    vertex_index,
    vertex_mask,
)


def _tiling(rng, n, zero_width=True):
    """Intervals tiling [0, 1] in order, some of zero width, ends shared exactly."""
    cuts = np.sort(rng.choice(np.linspace(0, 1, 21)[1:-1], size=n - 1, replace=zero_width))
    edges = np.concatenate([[0.0], cuts, [1.0]])
    return edges[:-1], edges[1:]


def _evaluate_vega(expression: str, lo: float, hi: float, pc: float) -> bool:
    python = expression.replace("&&", " and ").replace("||", " or ")
    python = re.sub(r"datum\.(\w+)", r"\1", python)
    return bool(eval(python, {}, {"pc_lo": lo, "pc_hi": hi, "p": pc}))  # our own text


@pytest.mark.parametrize("seed", range(20))
def test_one_vertex_per_pc_and_all_forms_agree(seed):
    rng = np.random.default_rng(seed)
    lo, hi = _tiling(rng, int(rng.integers(1, 8)))
    pcs = np.unique(np.concatenate([lo, hi, rng.random(30), [0.0, 1.0]]))
    mask = vertex_mask(lo, hi, pcs)
    assert (mask.sum(axis=0) == 1).all()  # exactly one vertex at every pc
    np.testing.assert_array_equal(vertex_index(lo, pcs), mask.argmax(axis=0))
    expression = vertex_expression("p")
    for j, pc in enumerate(pcs):
        vega = [_evaluate_vega(expression, a, b, pc) for a, b in zip(lo, hi, strict=True)]
        np.testing.assert_array_equal(vega, mask[:, j])


def test_ties_go_to_the_vertex_on_the_right_and_the_end_to_the_last_wide_one():
    lo, hi = np.array([0.0, 0.4, 1.0]), np.array([0.4, 1.0, 1.0])
    assert vertex_index(lo, np.array([0.4])).tolist() == [1]  # shared end: the right one
    assert vertex_index(lo, np.array([1.0])).tolist() == [1]  # not the zero-width [1, 1]
    assert optimal_vertices(lo, hi, 0.4).tolist() == [True, True, False]  # both optimal
    assert optimal_vertices(lo, hi, 1.0).tolist() == [False, True, True]


def test_the_rule_is_written_once_as_data():
    assert len(RULE) == 2 and all(len(clause) == 3 for alt in RULE for clause in alt)


def test_selection_bands_iso_lines_and_explorer_choose_the_same_vertex(demo_points):
    sonar = demo_points[demo_points.dataset == "sonar"].drop(columns="dataset")
    tree = sonar[sonar.classifier == "tree"].drop(columns="classifier")
    hull = cc.roc_hull(tree)
    pcs = np.unique(np.concatenate([hull.pc_lo, hull.pc_hi, np.linspace(0, 1, 41)]))
    expected = hull.iloc[vertex_index(hull.pc_lo.to_numpy(), pcs)]
    # Selection tables, as applied by the bands and apply_selection.
    selection = cc.selection_table(tree)
    starts = selection.pc_lo.to_numpy()
    chosen = selection.iloc[vertex_index(starts, pcs)]
    np.testing.assert_array_equal(chosen[["fpr", "tpr"]], expected[["fpr", "tpr"]])
    # The iso-performance lines drawn touch the same vertex.
    from costchart._cost.geometry import iso_performance_lines

    lines = iso_performance_lines(hull, pcs)
    touch = lines.groupby("pc", sort=False).first()
    slope = touch.slope.to_numpy()
    finite = np.isfinite(slope)  # pc 0 and 1: vertical and flat lines, no intercept
    slope, fpr, tpr = slope[finite], touch.fpr.to_numpy()[finite], touch.tpr.to_numpy()[finite]
    intercepts = tpr - slope * fpr
    own = expected.tpr.to_numpy()[finite] - slope * expected.fpr.to_numpy()[finite]
    np.testing.assert_allclose(intercepts, own, atol=1e-9)
    # The explorer filters its vertices with the Vega form of the same rule.
    from costchart._charts._explorer_signals import chosen_rule

    assert chosen_rule("p") == vertex_expression("p")


def test_a_hull_that_leaves_pc_uncovered_is_refused():
    hull = pd.DataFrame({"fpr": [0.0, 1.0], "tpr": [0.0, 1.0], "pc_lo": [0.9, 0.9]})
    hull["pc_hi"] = 1.0
    assert not vertex_mask(hull.pc_lo, hull.pc_hi, np.array([0.5])).any()
