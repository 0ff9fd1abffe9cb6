"""The wheel a user installs holds the whole package: modules, bundled data and the gallery.

The wheel is built (by pip, as ``pip install`` would) from a copy of the files the package
is made of, so the test neither writes into the clone nor depends on what else lies in it.
CI also installs the wheel in a fresh environment and runs it (``.ci/check-wheel``).
"""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: What the package is built from (pyproject.toml reads README.md and LICENSE too).
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "costchart", "gallery")


def _files(folder: Path) -> list[Path]:
    return sorted(
        path.relative_to(folder)
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out)]
    result = subprocess.run([*command, str(source)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    (built,) = out.glob("costchart-*.whl")
    return built


@pytest.fixture(scope="module")
def wheel_names(wheel) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


@pytest.mark.slow
def test_wheel_holds_every_module_and_the_bundled_data(wheel_names):
    expected = {f"costchart/{path.as_posix()}" for path in _files(ROOT / "costchart")}
    assert {"costchart/datasets/predictions.csv", "costchart/py.typed"} <= expected
    assert sorted(expected - wheel_names) == []


@pytest.mark.slow
def test_wheel_holds_the_gallery_with_its_data(wheel_names):
    # The gallery folder ships whole as costchart.gallery: the scripts `costchart demo`
    # runs, the data sets they read, the section headers.
    gallery = {f"costchart/gallery/{path.as_posix()}" for path in _files(ROOT / "gallery")}
    scripts = {name for name in gallery if Path(name).name.startswith("plot_")}
    assert len(scripts) >= 40
    assert "costchart/gallery/data/sonar.csv" in gallery
    assert sorted(gallery - wheel_names) == []


@pytest.mark.slow
def test_wheel_has_the_command_and_no_tests(wheel, wheel_names):
    (entry_points,) = [name for name in wheel_names if name.endswith(".dist-info/entry_points.txt")]
    with zipfile.ZipFile(wheel) as archive:
        text = archive.read(entry_points).decode()
    assert "[console_scripts]\ncostchart = costchart._cli:main" in text
    assert not [name for name in wheel_names if name.startswith(("tests/", "docs/"))]
    assert not [name for name in wheel_names if "__pycache__" in name]


def test_ci_installs_the_wheel_outside_the_clone():
    script = (ROOT / ".ci" / "check-wheel").read_text()
    assert "python -m build" in script and 'pip install --quiet "$wheel"' in script
    assert 'cd "$work"' in script  # run from outside the clone
    for command in ("costchart demo", "costchart plot", "costchart table", "costchart.gallery"):
        assert command in script
    assert "bash .ci/check-wheel" in (ROOT / ".ci" / "run").read_text()
