"""Code blocks in the README and docs run as written."""

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _python_blocks():
    for path in DOCUMENTS:
        for number, block in enumerate(re.findall(r"```python\n(.*?)```", path.read_text(), re.S)):
            yield pytest.param(block, id=f"{path.name}-{number}")


@pytest.mark.slow
@pytest.mark.parametrize("code", list(_python_blocks()))
def test_code_block_runs(code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "<doc>", "exec"), {})


def test_readme_has_the_ci_test_command():
    readme = (ROOT / "README.md").read_text()
    command = re.search(r"<!-- test-command -->\n```bash\n(.*?)\n```", readme, re.S)
    assert command is not None
    assert "pytest" in command.group(1)
    assert "<!-- test-command -->" in (ROOT / ".ci" / "run").read_text()


def test_charts_page_shows_every_chart_kind_as_a_picture():
    import costchart as cc

    page = (ROOT / "docs" / "charts.md").read_text()
    pictures = re.findall(r"!\[[^\]]+\]\((images/[^)]+)\)", page)
    assert all((ROOT / "docs" / p).is_file() for p in pictures), pictures
    # coverage_chart draws a coverage experiment, not predictions: the gallery's
    # exact-bootstrap figures show it.
    kinds = {n for n in cc.__all__ if n.endswith("_chart")} - {"coverage_chart"} | {"explorer"}
    shown = {Path(p).stem.removesuffix("_zoom") for p in pictures}
    assert kinds <= shown, kinds - shown


@pytest.mark.slow
def test_chart_pictures_are_made_by_the_script(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_images", ROOT / "docs" / "make_images.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    names = set(module.charts())
    assert names == {p.stem for p in (ROOT / "docs" / "images").glob("*.png")}


def test_one_version_source():
    import importlib.metadata

    import costchart as cc

    tomllib = pytest.importorskip("tomllib")  # Python 3.11 on

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert importlib.metadata.version("costchart") == cc.__version__
    assert "## Unreleased" in (ROOT / "CHANGELOG.md").read_text()


def test_licence_names_bsd_and_the_data_licence():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("BSD 3-Clause License")
    assert "CC BY 4.0" in text and "UCI Machine" in text


def test_readme_has_the_docs_command_and_ci_runs_it():
    readme = (ROOT / "README.md").read_text()
    command = re.search(r"<!-- docs-command -->\n```bash\n(.*?)\n```", readme, re.S)
    assert command is not None
    assert '".[docs]"' in command.group(1)
    assert "sphinx-build -W" in command.group(1)
    assert "<!-- docs-command -->" in (ROOT / ".ci" / "run").read_text()


def _api_entries() -> set[str]:
    """The names the API reference lists, qualified by their ``currentmodule``."""
    module, names = None, set()
    for line in (ROOT / "docs" / "api.rst").read_text().splitlines():
        if line.startswith(".. currentmodule::"):
            module = line.split("::")[1].strip()
        elif re.fullmatch(r"   [A-Za-z_][\w.]*", line) and module:
            names.add(f"{module}.{line.strip()}")
    return names


def test_api_reference_lists_every_public_name():
    import costchart as cc
    from costchart import datasets, layers
    from costchart.datasets import binormal

    listed = _api_entries()
    expected = {f"costchart.{name}" for name in cc.__all__ if name not in ("layers", "theme")}
    expected |= {f"costchart.layers.{name}" for name in layers.__all__}
    expected |= {f"costchart.datasets.{name}" for name in datasets.__all__}
    expected |= {f"costchart.datasets.binormal.{name}" for name in binormal.__all__}
    expected.add("costchart.theme.theme")
    assert sorted(expected - listed) == []
    assert sorted(listed - expected) == []


def test_every_page_is_in_the_site_navigation():
    # The index lists the first steps and the guide; the guide lists its pages, so they
    # share the guide's left-hand navigation.
    tables = "".join((ROOT / "docs" / f"{name}.md").read_text() for name in ("index", "guide"))
    pages = {path.stem for path in (ROOT / "docs").glob("*.md")} - {"index"}
    missing = [page for page in sorted(pages) if f"\n{page}\n" not in tables]
    assert missing == []


def _cli_reference():
    import sys

    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        import cli_reference
    finally:
        sys.path.pop(0)
    return cli_reference


def test_cli_page_shows_the_current_help_of_every_command(monkeypatch):
    # docs/cli.md holds the help texts themselves, so it reads as Markdown on its own.
    cli_reference = _cli_reference()
    texts = cli_reference.help_texts()
    assert set(texts) == {"costchart", "demo", "plot", "table"}
    assert texts["plot"].startswith("usage: costchart plot")
    monkeypatch.setenv("COLUMNS", "200")  # wrapped as on an 80-column terminal, whatever this is
    assert cli_reference.help_texts() == texts
    shown = cli_reference.page_texts((ROOT / "docs" / "cli.md").read_text())
    assert set(shown) == set(texts)
    # Compared word for word: where a Python version wraps a line differently is no matter.
    stale = [name for name in texts if shown[name].split() != texts[name].split()]
    assert stale == [], f"help texts changed: run python docs/_ext/cli_reference.py ({stale})"


def test_cli_page_rewrite_replaces_only_the_help_blocks():
    cli_reference = _cli_reference()
    page = "# T\n\n<!-- help: plot -->\n```text\nold\nlines\n```\n\ntext\n\n```text\nkept\n```\n"
    rewritten = cli_reference.rewrite(page, {"plot": "usage: new"})
    assert rewritten == page.replace("old\nlines", "usage: new")
    assert cli_reference.page_texts(rewritten) == {"plot": "usage: new"}
    assert cli_reference.rewrite(rewritten, {"plot": "usage: new"}) == rewritten


@pytest.mark.slow
def test_gallery_scraper_saves_png_and_html_for_linked_charts(tmp_path):
    import sys

    # The test extra installs sphinx-gallery (the docs build uses the scraper); CI, which
    # installs it, must run this test, not skip it.
    try:
        import sphinx_gallery  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("sphinx-gallery is not installed: the test extra lists it")
        pytest.skip("sphinx-gallery is not installed (pip install -e '.[test]')")

    import costchart as cc
    from costchart.datasets import load_predictions

    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        from altair_scraper import altair_scraper
    finally:
        sys.path.pop(0)
    data = load_predictions().query("dataset == 'sonar' and classifier == 'logistic'")
    points = cc.roc_points(data, score="score", label="label")
    images = iter([str(tmp_path / "images" / f"fig_{i}.png") for i in range(3)])
    (tmp_path / "images").mkdir()
    block_vars = {"example_globals": {"chart": cc.roc_cost_chart(points)}}
    block_vars["image_path_iterator"] = images
    conf = {"src_dir": str(tmp_path)}
    rst = altair_scraper(None, block_vars, conf)
    assert (tmp_path / "images" / "fig_0.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "images" / "fig_0.html").exists()
    assert "/images/fig_0.png" in rst and "</images/fig_0.html>" in rst
    # The same chart after the next block is not drawn again; a static chart gets no HTML.
    assert altair_scraper(None, block_vars, conf) == ""
    block_vars["example_globals"]["chart"] = cc.cost_chart(points, show_key=False).interactive(
        False
    )
    rst = altair_scraper(None, block_vars, conf)
    assert "fig_1.png" in rst
    # A gallery script's picture is described by its title and first sentence.
    script = next((ROOT / "gallery" / "dh2000").glob("plot_dh2000_fig08_*.py"))
    block_vars["src_file"] = str(script)
    block_vars["example_globals"]["chart"] = cc.cost_chart(points, show_key=False).interactive(
        False
    )
    rst = altair_scraper(None, block_vars, conf)
    assert ":alt: Chart: Reading costs off one classifier's cost line (dh2000, Fig. 8). A " in rst
