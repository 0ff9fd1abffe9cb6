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
from costchart import _tables
from costchart.datasets import load_predictions

PACKAGE = Path(cc.__file__).resolve().parent

#: Private modules a chart or layer may import: input, validation and grouping, Vega and
#: colours, decorations (trivial and iso lines, cuts); no statistics.
ALLOWED = {
    "costchart._charts",
    "costchart.layers",
    "costchart._frames",
    "costchart._tables",
    "costchart._kinds",
    "costchart._groups",
    "costchart._schema",
    "costchart._errors",
    "costchart._validation",
    "costchart._data_checks",
    "costchart._vega",
    "costchart._palette",
    "costchart._geometry",
}
#: Single names a chart may take from a statistics module: the Vega expression of the
#: public rule for the hull vertex used at a pc, parameter checks, and the recorded
#: description of a band table.
ALLOWED_NAMES = {
    ("costchart._optimal", "vertex_expression"),
    ("costchart._average", "over_names"),
    ("costchart._compare", "check_names"),
    ("costchart._bands.describe", "recorded_level"),
    ("costchart._bands.describe", "recorded_names"),
}


def _private_imports(path: Path) -> list[tuple[str, str]]:
    """(module, name) of every ``from costchart._x import name`` / ``import costchart._x``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            module = node.module
            if module == "costchart":  # from costchart import _schema as col
                found += [(f"costchart.{a.name}", "*") for a in node.names if a.name[0] == "_"]
            elif module.startswith("costchart."):
                found += [(module, a.name) for a in node.names]
        elif isinstance(node, ast.Import):
            found += [(a.name, "*") for a in node.names if a.name.startswith("costchart._")]
    return found


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
    module.write_text("from costchart._thin import thinned_points\nimport costchart as cc\n")
    assert _private_imports(module) == [("costchart._thin", "thinned_points")]
    assert not _allowed("costchart._thin", "thinned_points")
    assert _allowed("costchart._frames", "infer_by")
