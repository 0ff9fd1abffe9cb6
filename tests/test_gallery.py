"""Every gallery script runs (scaled down), ends with its chart, and the papers are covered."""

from __future__ import annotations

import ast
import re
import runpy
from collections import Counter
from pathlib import Path

import altair as alt
import pytest
import vl_convert as vlc
from scenegraph import drawn_colours, swatch_dashes_lost, swatches_not_drawn

from costchart._export.image import chart_spec, vl_version
from costchart._palette import COLORS
from costchart.layers._base import INK
from costchart.layers.keys import STYLES

GALLERY = Path(__file__).resolve().parent.parent / "gallery"
SCRIPTS = sorted(GALLERY.glob("*/plot_*.py"))
NAME = re.compile(
    r"^plot_(?:(dh2000|dh2006|pf1997|fawcett2006|dg2008)_fig(\d\d)|(threshold_choice|which_classifier))_[a-z0-9_]+\.py$"
)
#: Sections on a topic beyond the five papers' figures (no figure numbers).
TOPICS = ("threshold_choice", "which_classifier")
# The scripts per paper: every figure of ../shared/FIGURES.md (issue 21 added DH2000 Figs.
# 1-2, 9, 10 and 17-18 and DH2006 Fig. 2, and dropped Fawcett's Fig. 1, Fig. 8's left half).
REQUIRED = {"dh2000": 9, "dh2006": 21, "pf1997": 6, "fawcett2006": 6, "dg2008": 6}


def test_the_gallery_has_one_section_per_paper():
    for path in SCRIPTS:
        match = NAME.match(path.name)
        assert path.parent.name == (match.group(1) or match.group(3)), path
    for paper in (*REQUIRED, *TOPICS):
        header = GALLERY / paper / "GALLERY_HEADER.rst"
        title, underline, *intro = header.read_text(encoding="utf-8").splitlines()
        assert set(underline) == {"-"} and len(underline) >= len(title), header
        assert len(" ".join(intro).split()) >= 40, f"{header}: say what the paper is"


def test_every_paper_has_its_figures():
    papers = Counter(NAME.match(path.name).group(1) for path in SCRIPTS if NAME.match(path.name))
    for paper, least in REQUIRED.items():
        assert papers[paper] == least, (paper, papers[paper])


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_script_is_a_sphinx_gallery_example(path):
    assert NAME.match(path.name), f"{path.name} does not follow plot_<paper>_fig<NN>_<what>.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstring = ast.get_docstring(tree)
    assert docstring, "the script needs a docstring: a title, then what the figure shows"
    title, underline, *body = docstring.splitlines()
    assert re.fullmatch(r"=+", underline) and len(underline) >= len(title), title
    assert len(" ".join(body).split()) >= 40, "say what the figure shows and what was concluded"
    last = tree.body[-1]
    assert isinstance(last, ast.Expr) and isinstance(last.value, ast.Name), (
        "end with the chart as the last expression"
    )


@pytest.mark.slow
@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_script_runs_and_draws_data(path, monkeypatch, tmp_path):
    monkeypatch.delenv("COSTCHART_GALLERY_FULL", raising=False)
    monkeypatch.chdir(tmp_path)  # anything a script saves lands here
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = tree.body[-1].value.id
    namespace = runpy.run_path(str(path), run_name="__main__")
    chart = namespace[name]
    assert isinstance(chart, alt.TopLevelMixin)
    spec = chart_spec(chart)  # as the docs export it: validated, shared scales merged
    datasets = spec.get("datasets", {})
    inline = [len(v) for v in datasets.values()]
    assert inline and max(inline) > 0, "the chart draws no data"
    graph = vlc.vegalite_to_scenegraph(spec, vl_version=vl_version())
    assert key_mismatches(graph) == {}, "key swatches in colours no mark is drawn in"
    assert swatch_dashes_lost(graph, spec) == {}, "key swatches that lost their dash"


def key_mismatches(graph: dict) -> dict[str, str]:
    """Key entries whose swatch colour no mark of the chart is drawn in.

    One exception: where curves are coloured by classifier, a key entry for an element
    drawn in each curve's colour keeps a neutral grey, the colour legend naming the
    curves: the ink (the ROC curve, its hull), or the key's lighter greys for a thin,
    wide or pale element drawn so (cost lines, the owners' envelope, the set's bars).
    """
    missing = swatches_not_drawn(graph)
    by_curve = len(drawn_colours(graph) & {c.lower() for c in COLORS}) >= 2
    neutral = {INK.lower()} | {
        STYLES[kind].get("stroke", STYLES[kind].get("fill")).lower()
        for kind in ("thin line", "wide line", "bar", "pale bar")
    }
    return {label: c for label, c in missing.items() if not (by_curve and c in neutral)}
