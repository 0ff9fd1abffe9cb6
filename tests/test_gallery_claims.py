"""Every gallery figure states its paper's claim, and a claims test holds the figure to it.

The claims themselves are tested per paper, on each script's own tables, in
``test_gallery_claims_<paper>*.py`` (one test or more per figure, named
``test_fig<NN>_<claim>``). This file checks that none is missing: a new or renamed figure
without its claim, or without a test of it, fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
GALLERY = TESTS.parent / "gallery"
SCRIPTS = sorted(GALLERY.glob("*/plot_*.py"))
HEADING = re.compile(r"^What the (?:papers?|page) shows?\n-{19,}$", re.M)
#: Sections on a topic beyond the five papers' figures: their claims tests are named
#: after the script (``test_<what>_...`` for ``plot_<topic>_<what>_...``).
TOPICS = ("threshold_choice", "which_classifier")


def _claim(docstring: str) -> str:
    """The text of the docstring's "What the paper shows" section."""
    match = HEADING.search(docstring)
    assert match, "the docstring needs a 'What the paper shows' section (reST, ---- underline)"
    rest = docstring[match.end() :]
    following = re.search(r"^\S[^\n]*\n-{3,}$", rest, re.M)  # the next section, if any
    return rest[: following.start()] if following else rest


def _figures(docstring: str) -> set[int]:
    """The figure numbers the title names: "(dh2006, Figs. 18-20)" gives 18, 19 and 20."""
    title = docstring.splitlines()[0]
    found = re.search(r"Figs?\.\s*([\d\s,and\-\u2013]+)\)\s*$", title)
    assert found, f"the title should end with '(<paper>, Fig. N)': {title!r}"
    numbers: set[int] = set()
    for low, high in re.findall(r"(\d+)(?:\s*[-\u2013]\s*(\d+))?", found.group(1)):
        numbers |= set(range(int(low), int(high or low) + 1))
    return numbers


def _tested(paper: str) -> set[int]:
    """The figure numbers the paper's claims tests name (test_fig19a_... counts 19)."""
    names = set()
    for path in TESTS.glob(f"test_gallery_claims_{paper}*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names |= {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    return {int(m.group(1)) for name in names if (m := re.match(r"test_fig(\d+)", name))}


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_every_figure_states_its_claim_and_has_a_test_of_it(path):
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    claim = _claim(docstring)
    assert len(claim.split()) >= 30, "say in your own words what the paper says it shows"
    paper = path.parent.name
    if paper in TOPICS:
        what = path.stem.removeprefix(f"plot_{paper}_").split("_")[0]
        tree = ast.parse((TESTS / f"test_gallery_claims_{paper}.py").read_text(encoding="utf-8"))
        names = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        assert any(name.startswith(f"test_{what}_") for name in names), (
            f"no test_{what}_ in test_gallery_claims_{paper}.py"
        )
        return
    figures = _figures(docstring)
    assert figures & _tested(paper), (
        f"no test_fig<NN>_ in test_gallery_claims_{paper}*.py for Fig(s). {sorted(figures)}"
    )


def test_the_helpers_read_titles_and_sections():
    assert _figures("X (dh2006, Figs. 18-20)") == {18, 19, 20}
    assert _figures("X (fawcett2006, Fig. 5 and 10)") == {5, 10}
    text = "T\n=\n\nWhat the paper shows\n--------------------\n\nA claim.\n\nNext\n----\n\nMore."
    assert _claim(text).split() == ["A", "claim."]


def _tables_read(paper: str, numbers: set[int] | None, topic: str | None) -> set[str]:
    """The names the claims tests of these figures read from the script (``ns["hull"]``)."""
    names: set[str] = set()
    for path in TESTS.glob(f"test_gallery_claims_{paper}*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            match = re.match(r"test_fig(\d+)", node.name)
            if topic is not None:
                if not node.name.startswith(f"test_{topic}_"):
                    continue
            elif not match or int(match.group(1)) not in numbers:
                continue
            for sub in ast.walk(node):
                if isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Constant):
                    if isinstance(sub.slice.value, str):
                        names.add(sub.slice.value)
                # drawn(ns, ...) checks the chart itself, in the claims test.
                if isinstance(sub, ast.Call) and getattr(sub.func, "id", "") == "drawn":
                    names.add(DRAWN_CALL)
    return names


#: Stands for a claims test calling ``gallery_scripts.drawn``: it reads the chart itself.
DRAWN_CALL = "<drawn()>"


@pytest.mark.slow
@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_every_figures_claims_read_a_table_the_figure_draws(path):
    """A claims test that held only the script's tables would pass for a figure drawing the
    wrong one: at least one table each figure's claims read must be drawn by its chart."""
    import pandas as pd
    from gallery_scripts import draws_any, run_figure

    paper = path.parent.name
    if paper in TOPICS:
        fragment = path.stem.removeprefix(f"plot_{paper}_").split("_")[0]
        names = _tables_read(paper, None, fragment)
    else:
        fragment = re.search(r"_(fig\d\d)_", path.name).group(1)
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        names = _tables_read(paper, _figures(docstring), None)
    if DRAWN_CALL in names:
        return  # the claims test checks its tables against the chart (gallery_scripts.drawn)
    ns = run_figure(paper, fragment)
    tables = {n: ns[n] for n in names if isinstance(ns.get(n), pd.DataFrame)}
    assert tables, f"the claims tests read no table of the script ({sorted(names)})"
    assert any(draws_any(ns, table) for table in tables.values()), (
        f"the chart draws none of the tables its claims read: {sorted(tables)}"
    )


def test_the_drawn_check_finds_rows_to_1e5_and_misses_others():
    import numpy as np
    import pandas as pd
    from gallery_scripts import _found

    chart = pd.DataFrame(
        {"fpr": [0.0, 0.25, 1.0], "tpr": [0.0, 0.612346, 1.0], "t": ["∞", "0.5", "0"]}
    )
    script = pd.DataFrame({"fpr": [0.25, 1.0], "tpr": [0.6123456, 1.0], "t": [np.inf, 0.0]})
    assert _found(script, [(chart, ["fpr", "tpr", "t"])]).all()
    swapped = script.rename(columns={"fpr": "tpr", "tpr": "fpr"})
    assert not _found(swapped, [(chart, ["fpr", "tpr"])]).all()
    # Rows may be spread over several drawn tables (one layer per curve).
    first, second = chart.iloc[:2], chart.iloc[2:]
    assert _found(script, [(first, ["fpr", "tpr"]), (second, ["fpr", "tpr"])]).all()
    assert not _found(script, [(first, ["fpr", "tpr"])]).all()
