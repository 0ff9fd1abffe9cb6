"""costchart uses Altair's public API only, so an Altair release cannot break it unseen.

No private accessor (``._get(``), no import of ``altair.utils.schemapi`` internals, no
subclass of Altair's classes; compound charts are Altair's own classes. CI also runs the
chart and export tests against the oldest Altair ``pyproject.toml`` allows (``.ci/run``).
"""

import ast
import re
from pathlib import Path

import altair as alt
import pytest

import costchart as cc

PACKAGE = Path(cc.__file__).resolve().parent

#: Text that reaches into Altair's internals: its private accessor, its schema machinery,
#: any of its submodules (the public API is ``import altair as alt``).
PRIVATE = re.compile(r"\._get\(|schemapi|from altair\.|import altair\.")


def _private_uses(source: str) -> list[str]:
    return [line.strip() for line in source.splitlines() if PRIVATE.search(line)]


def _altair_subclasses(source: str) -> list[str]:
    """Classes whose bases are reached through ``alt.`` or ``altair.`` (any depth)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                root = base
                while isinstance(root, ast.Attribute):
                    root = root.value
                if isinstance(root, ast.Name) and root.id in {"alt", "altair"}:
                    found.append(f"{node.name}({ast.unparse(base)})")
    return found


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_the_checks_find_what_they_look_for():
    source = (
        "from altair.utils.schemapi import debug_mode\n"
        "title = chart._get('title')\n"
        "class LayerChart(alt.LayerChart):\n    pass\n"
        "class Deep(altair.vegalite.v6.api.Chart):\n    pass\n"
        "class Fine(object):\n    pass\n"
        "from altair.vegalite.v6 import api\n"
        "import altair as alt\n"
    )
    assert _private_uses(source) == [
        "from altair.utils.schemapi import debug_mode",
        "title = chart._get('title')",
        "from altair.vegalite.v6 import api",
    ]
    assert _altair_subclasses(source) == [
        "LayerChart(alt.LayerChart)",
        "Deep(altair.vegalite.v6.api.Chart)",
    ]


def test_the_package_uses_no_private_altair_api():
    found = {
        str(path.relative_to(PACKAGE)): uses
        for path in _modules()
        if (uses := _private_uses(path.read_text(encoding="utf-8")))
    }
    assert len(_modules()) > 50  # the whole package was read
    assert found == {}


def test_the_package_subclasses_no_altair_class():
    found = {
        str(path.relative_to(PACKAGE)): classes
        for path in _modules()
        if (classes := _altair_subclasses(path.read_text(encoding="utf-8")))
    }
    assert found == {}


@pytest.fixture(scope="module")
def points():
    data = {
        "s": [4, 3, 2, 1] * 4,
        "y": [1, 0, 1, 0] * 4,
        "model": ["a"] * 8 + ["b"] * 8,
        "dataset": (["x"] * 4 + ["z"] * 4) * 2,
    }
    return cc.roc_points(data, score="s", label="y", by=["dataset", "model"])


def test_compound_charts_are_altairs_own_classes(points):
    """Altair's chart classes, with each view of layers, and each pair of views inside a
    grid, Altair's schema class of it (copied without Altair's merging)."""
    pair = cc.roc_cost_chart(points[points.dataset == "x"], classifier="model")
    grid = cc.roc_cost_chart(points, classifier="model", facet="dataset")
    assert type(pair) is alt.HConcatChart
    assert type(grid) is alt.ConcatChart
    assert {type(view) for view in pair.hconcat} == {alt.LayerSpec}
    assert {type(p) for p in grid.concat} == {alt.HConcatSpecGenericSpec}
    assert {type(view) for p in grid.concat for view in p.hconcat} == {alt.LayerSpec}
    # Altair renames the named layers of concatenated LayerCharts ("<name>_<position>"),
    # on every copy; costchart's views keep their content names, which its top-level
    # selections list, through copies.
    for chart in (pair, grid, pair.properties(title="copied"), grid.copy(deep=True)):
        spec = chart.to_dict()
        views = {
            layer["name"]
            for outer in spec.get("concat", [spec])
            for view in outer["hconcat"]
            for layer in view["layer"]
            if "name" in layer
        }
        declared = {v for param in spec["params"] for v in param["views"]}
        assert declared and declared <= views
        assert not any(re.search(r"_\d+$", name) for name in views)
    # Still Altair charts: they compose and copy as any.
    both = pair & grid
    assert isinstance(both, alt.VConcatChart)
    assert len(both.to_dict()["vconcat"]) == 2


def test_roc_layers_take_their_titles_and_labels_when_built(points):
    """ROCIV points: every ROC layer is built with the amounts' titles, none patched."""
    from costchart.layers import iso, roc
    from costchart.layers._base import FPR_IV_TITLE, TPR_IV_TITLE, Axes

    axes = Axes(FPR_IV_TITLE, TPR_IV_TITLE, labels="upper(datum.label)")
    one = points[points.dataset == "x"]
    built = [
        roc.draw_roc_curve(one, axes=axes, color="model"),
        roc.draw_hull(one, axes=axes, color="model"),
        roc.draw_roc_markers(one, axes=axes, color="model"),
        iso.draw_iso_lines(cc.roc_hull(one), axes=axes, iso=[0.5], color="model"),
    ]
    for layer in built:
        encoding = layer.to_dict()["encoding"]
        assert (encoding["x"]["title"], encoding["y"]["title"]) == (FPR_IV_TITLE, TPR_IV_TITLE)
        assert encoding["color"]["legend"] == {"labelExpr": "upper(datum.label)", "labelLimit": 400}
    diagonal = roc.draw_chance(axes=axes).to_dict()["encoding"]
    assert diagonal["x"]["title"] == FPR_IV_TITLE
    # The public layers keep their own titles and legend.
    public = cc.layers.roc_curve(one, classifier="model").to_dict()["encoding"]
    assert public["x"]["title"] == "False positive rate"
    assert "legend" not in public["color"]
