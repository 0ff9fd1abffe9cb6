"""Charts in Jupyter with no network: a notebook run by nbclient, its outputs in Chromium.

``cc.enable_offline()`` must make every chart output carry the Vega libraries and its
spec, load no script from elsewhere, and keep a hostile name as text. The notebook runs in
a real kernel (nbclient + ipykernel; skipped without them). Its outputs are then put into
one page, as JupyterLab and VS Code put a notebook's outputs into one document, and opened
in Chromium with every request off the file blocked: both charts must draw.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_browser import browser, recording_page  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
EVIL = "</script><script>window.pwned=1</script>"

CELLS = [
    "import costchart as cc\nprint(cc.__file__)\nenabled = cc.enable_offline()",
    "from costchart.datasets import load_predictions\n"
    "data = load_predictions()\n"
    "data = data[data.dataset == 'sonar']\n"
    f"data = data.replace({{'classifier': {{'naive bayes': {EVIL!r}}}}})\n"
    "points = cc.roc_points(data, score='score', label='label', by=['classifier'])\n"
    "cc.roc_cost_chart(points, classifier='classifier', size=200)",
    "cc.cost_chart(points, classifier='classifier', size=200)",
]

#: Script elements, and any element loading something, with an address off the page.
_EXTERNAL = re.compile(
    r"""<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)\s*=\s*["']?(?:https?:)?//""", re.I
)


@pytest.fixture(scope="module")
def executed():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    client = nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    )
    client.execute()
    return notebook


def _html_outputs(cell) -> list[str]:
    return [o["data"]["text/html"] for o in cell.outputs if "text/html" in o.get("data", {})]


def test_each_chart_output_holds_the_libraries_and_its_spec(executed):
    for cell in executed.cells[1:]:
        assert [o.get("output_type") for o in cell.outputs] == ["execute_result"], cell.outputs
        (page,) = _html_outputs(cell)
        assert page.count('class="costchart-notebook-spec"') == 1
        assert len(page) > 500_000 and "costchartDrawn" in page  # the bundle is inline
        assert _EXTERNAL.search(page) is None
        assert "cdn.jsdelivr" not in page and "<script src" not in page
    first = _html_outputs(executed.cells[1])[0]
    assert EVIL not in first  # the name is in the spec, escaped
    assert "\\u003c/script\\u003e\\u003cscript\\u003ewindow.pwned=1" in first


def test_the_kernel_drew_with_the_costchart_under_test(executed):
    # The notebook runs in the repository root, so the kernel imports this costchart.
    (printed,) = [o["text"] for o in executed.cells[0].outputs if o.get("name") == "stdout"]
    assert Path(printed.strip()) == ROOT / "costchart" / "__init__.py"


_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
{outputs}
</body></html>"""


def test_the_outputs_draw_offline_side_by_side_in_one_page(executed, tmp_path, browser):  # noqa: F811
    outputs = [page for cell in executed.cells[1:] for page in _html_outputs(cell)]
    path = tmp_path / "outputs.html"
    path.write_text(_PAGE.format(outputs="\n".join(outputs)), encoding="utf-8")
    page = recording_page(browser, height=1400)
    errors, requests = page.costchart_errors, page.costchart_requests
    try:
        page.goto(path.as_uri())
        page.wait_for_function(
            "() => document.querySelectorAll('.costchart-notebook-chart svg.marks').length == 2",
            timeout=30_000,
        )
        assert errors == [] and requests == []
        assert page.evaluate("() => typeof window.pwned") == "undefined"
        texts = page.locator(".costchart-notebook-chart svg text").all_text_contents()
        assert any(text.startswith("</script><script>window.pwned") for text in texts)
    finally:
        page.close()


def test_altair_finds_the_renderer_by_its_entry_point():
    # Installed, `alt.renderers.enable("costchart")` works without importing costchart.
    import altair as alt

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    from costchart._export import notebook

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    group = alt.renderers.entry_point_group
    (target,) = project["entry-points"][group].values()
    module, _, name = target.partition(":")
    assert project["entry-points"][group] == {notebook.RENDERER: target}
    assert getattr(__import__(module, fromlist=[name]), name) is notebook.render


def test_altairs_embed_options_reach_the_output():
    # alt.renderers.set_embed_options (or enable(..., embed_options=)) updates costchart's
    # own vega-embed options for each output; unset, they are costchart's.
    import json

    import altair as alt

    import costchart as cc

    points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")

    def options_drawn():
        bundle = cc.cost_chart(points)._repr_mimebundle_()
        html = (bundle[0] if isinstance(bundle, tuple) else bundle)["text/html"]
        found = re.search(r'class="costchart-notebook-spec">(.*?)</script>', html, re.S)
        return json.loads(found.group(1))["options"]

    with cc.enable_offline():
        assert options_drawn()["actions"]["export"] is True and "theme" not in options_drawn()
    with alt.renderers.enable("costchart", embed_options={"actions": False, "theme": "dark"}):
        drawn = options_drawn()
    assert drawn["actions"] is False and drawn["theme"] == "dark"
    assert drawn["renderer"] == "svg"  # costchart's own, kept
