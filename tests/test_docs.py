"""Code blocks in the README and docs run as written."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _python_blocks():
    for path in DOCUMENTS:
        for number, block in enumerate(re.findall(r"```python\n(.*?)```", path.read_text(), re.S)):
            yield pytest.param(block, id=f"{path.name}-{number}")


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
    kinds = {n for n in cc.__all__ if n.endswith("_chart")} | {"explorer"}
    shown = {Path(p).stem.removesuffix("_zoom") for p in pictures}
    assert kinds <= shown, kinds - shown


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
