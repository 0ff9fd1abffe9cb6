"""The package's layout: small modules, each named in CONTRIBUTING.md's map.

Reading the map stays simple: in the section "How the code is laid out", a module is
written as a backticked path ending in ``.py``, relative to ``costchart/``
(``_io/frames.py``, ``_bands/exact.py``, ``layers/__init__.py``); the backticked names in
the parentheses right after a module, e.g. ``_io/frames.py`` (``as_pandas``, ``table``), are
names that module defines. Anywhere in CONTRIBUTING.md, a backticked dotted name whose
first part is a costchart module or package, such as ``layers._base.build``, must resolve.
"""

import ast
import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "costchart"
CONTRIBUTING = ROOT / "CONTRIBUTING.md"

#: The most physical lines a module may have.
MAX_LINES = 400


def _modules() -> dict[str, Path]:
    """Every module of the package by its path relative to ``costchart/``."""
    return {path.relative_to(PACKAGE).as_posix(): path for path in PACKAGE.rglob("*.py")}


def _lines(path: Path) -> int:
    """Physical lines, as ``wc -l`` counts them when the file ends with a newline."""
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_is_over_the_limit():
    modules = _modules()
    assert len(modules) > 50  # the package's modules were found
    long = {name: _lines(path) for name, path in modules.items() if _lines(path) > MAX_LINES}
    assert not long, f"split these modules by concept (at most {MAX_LINES} lines): {long}"


def _map() -> str:
    """The section "How the code is laid out" of CONTRIBUTING.md."""
    text = CONTRIBUTING.read_text(encoding="utf-8")
    return text.split("## How the code is laid out", 1)[1].split("\n## ", 1)[0]


def test_the_map_names_every_module():
    named = set(re.findall(r"`([\w/]+\.py)`", _map()))
    missing = sorted(set(_modules()) - named)
    assert not missing, f"name these modules in CONTRIBUTING.md's map: {missing}"


def test_the_map_names_no_module_that_does_not_exist():
    named = set(re.findall(r"`([\w/]+\.py)`", _map()))
    gone = sorted(named - set(_modules()))
    assert not gone, f"CONTRIBUTING.md's map names modules that do not exist: {gone}"


def _import(path: str):
    """The module of ``path`` (relative to ``costchart/``)."""
    name = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    return importlib.import_module(f"costchart.{name}")


def test_the_names_the_map_gives_a_module_are_in_it():
    stale = []
    for path, names in re.findall(r"`([\w/]+\.py)` \(([^()]*)\)", _map()):
        if path not in _modules():
            continue  # reported by test_the_map_names_no_module_that_does_not_exist
        module = _import(path)
        stale += [
            f"{path}: {name}" for name in re.findall(r"`(\w+)`", names) if not hasattr(module, name)
        ]
    assert not stale, f"CONTRIBUTING.md's map names what these modules do not define: {stale}"


def _resolves(dotted: str) -> bool:
    """``costchart.<dotted>``: the longest importable prefix, then attributes."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        try:
            value = importlib.import_module("costchart." + ".".join(parts[:end]))
        except ImportError:
            continue
        for part in parts[end:]:
            if not hasattr(value, part):
                return False
            value = getattr(value, part)
        return True
    return False


def test_dotted_names_in_contributing_resolve():
    tops = {name.split("/")[0].removesuffix(".py") for name in _modules()} - {"__init__"}
    dotted = set(re.findall(r"`(\w+(?:\.\w+)+)`", CONTRIBUTING.read_text(encoding="utf-8")))
    ours = sorted(
        name for name in dotted if name.split(".")[0] in tops and not name.endswith(".py")
    )
    assert ours, "no dotted name of costchart found: has the parsing broken?"
    stale = [name for name in ours if not _resolves(name)]
    assert not stale, f"CONTRIBUTING.md names what costchart does not have: {stale}"


def test_the_quick_loops_families_are_parametrized_tests():
    """Each entry of conftest's QUICK_COVER names a test taking the parameters it names."""
    from conftest import QUICK_COVER

    for key, names in QUICK_COVER.items():
        file, name = key.split("::")
        tree = ast.parse((ROOT / "tests" / file).read_text(encoding="utf-8"))
        found = [node for node in tree.body if getattr(node, "name", None) == name]
        assert found, f"{key} is not a test: fix conftest's QUICK_COVER"
        decorators = " ".join(ast.unparse(node) for node in found[0].decorator_list)
        assert "parametrize" in decorators, f"{key} is not parametrized"
        arguments = {argument.arg for argument in found[0].args.args}
        assert set(names) <= arguments, f"{key} takes no {sorted(set(names) - arguments)}"
