"""costchart._cli.demo: the gallery ships with the package and the demo runs some of it."""

import ast
import re
from importlib import resources
from pathlib import Path

import altair as alt
import pytest

import costchart as cc
from costchart._cli.demo import DEMO_FIGURES, describe, gallery_figures, run_figure

GALLERY = Path(__file__).resolve().parent.parent / "gallery"
#: What the demo's scripts may import: costchart's own dependencies.
CORE = {"altair", "numpy", "pandas", "scipy", "costchart", "os", "pathlib"}


def test_the_packaged_gallery_is_the_gallery_folder():
    assert gallery_figures() == sorted(p.stem for p in GALLERY.glob("*/plot_*.py"))
    data = resources.files("costchart.gallery") / "data" / "sonar.csv"
    assert data.is_file()


@pytest.mark.parametrize("name", DEMO_FIGURES)
def test_demo_figures_need_only_costchart_and_its_dependencies(name):
    (path,) = GALLERY.glob(f"*/{name}.py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module.split(".")[0])
    assert imported <= CORE, imported - CORE


def test_run_figure_returns_the_chart_and_the_docstring(capsys):
    figure = run_figure("plot_dh2000_fig08_one_cost_line")
    assert isinstance(figure.chart, alt.TopLevelMixin)
    assert figure.title.endswith("(dh2000, Fig. 8)")
    assert figure.summary.startswith("A classifier with false positive rate 0.09")
    assert "\n" not in figure.summary
    assert capsys.readouterr().out == ""  # the script's prints are dropped


def test_describe_reads_a_sphinx_gallery_docstring():
    text = "Title here\n==========\n\nFirst  paragraph\nwraps.\n\nSecond one."
    assert describe(text) == ("Title here", "First paragraph wraps.")


def test_unknown_figure_is_refused():
    with pytest.raises(cc.CostchartError, match=r"no gallery figure 'plot_nope'; pass one of"):
        run_figure("plot_nope")


def test_captions_show_text_not_rest_markup():
    for name in gallery_figures():
        (path,) = GALLERY.glob(f"*/{name}.py")
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        title, summary = describe(docstring)
        for text in (title, summary):
            assert "``" not in text and ":func:" not in text, (name, text)
            assert not re.search(r"(?<![\w*])\*[^*\s][^*]*\*(?![\w*])", text), (name, text)
    assert describe("T\n=\n\nThe *one* ``pc`` of :func:`cc.auc`.") == (
        "T",
        "The one pc of cc.auc.",
    )
