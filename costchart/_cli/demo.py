"""``costchart demo``: a handful of the gallery's figures in one offline HTML report.

The gallery's scripts ship with the package as :mod:`costchart.gallery`; each builds one of
the papers' figures from costchart's tables and ends with its chart, bound to ``chart``.
The demo runs the scripts of :data:`DEMO_FIGURES` (those that need only costchart's own
dependencies), saves each chart as a PNG and writes all of them into one report.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import runpy
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import altair as alt

from costchart._io.errors import CostchartError

__all__ = ["DEMO_FIGURES", "Figure", "describe", "gallery_figures", "render_demo", "run_figure"]

#: The gallery scripts the demo renders, in the report's order.
DEMO_FIGURES = (
    "plot_dh2006_fig04_ten_points_envelope",
    "plot_dh2000_fig08_one_cost_line",
    "plot_pf1997_fig03_iso_performance_lines",
    "plot_dh2006_fig12_comparing_two",
    "plot_dh2006_fig23_neyman_pearson",
    "plot_dh2006_fig18_paired_difference_bands",
    "plot_fawcett2006_fig08_credit_performance",
    "plot_dg2008_fig01_scores_roc_cost",
)


@dataclass(frozen=True)
class Figure:
    """One gallery figure: its script's name, title and first paragraph, and its chart."""

    name: str
    title: str
    summary: str
    chart: alt.TopLevelMixin


def gallery_figures() -> list[str]:
    """The names of every gallery script (``plot_<paper>_fig<NN>_<what>``), sorted.

    Examples
    --------
    >>> from costchart._cli.demo import gallery_figures
    >>> "plot_dh2000_fig08_one_cost_line" in gallery_figures()
    True
    """
    return sorted(_scripts())


def _scripts() -> dict:
    """Every gallery script by name; they live in one folder per paper."""
    folders = [f for f in resources.files("costchart.gallery").iterdir() if f.is_dir()]
    scripts = (item for folder in folders for item in folder.iterdir())
    return {
        s.name[:-3]: s for s in scripts if s.name.startswith("plot_") and s.name.endswith(".py")
    }


def run_figure(name: str) -> Figure:
    """Run one gallery script (its printed output dropped) and return its figure.

    Examples
    --------
    >>> from costchart._cli.demo import run_figure
    >>> figure = run_figure("plot_dh2000_fig08_one_cost_line")
    >>> figure.title
    "Reading costs off one classifier's cost line (dh2000, Fig. 8)"
    """
    source = _scripts().get(name)
    if source is None:
        msg = f"no gallery figure {name!r}; pass one of costchart._cli.demo.gallery_figures()"
        raise CostchartError(msg)
    with resources.as_file(source) as path:
        text = Path(path).read_text(encoding="utf-8")
        with contextlib.redirect_stdout(io.StringIO()):
            namespace = runpy.run_path(str(path), run_name="__main__")
    chart = namespace.get("chart")
    if not isinstance(chart, alt.TopLevelMixin):
        msg = f"gallery script {name!r} did not bind its chart to 'chart'"
        raise CostchartError(msg)
    title, summary = describe(ast.get_docstring(ast.parse(text)) or name)
    return Figure(name, title, summary, chart)


def describe(docstring: str) -> tuple[str, str]:
    """The docstring's title and its first paragraph as one line."""
    lines = docstring.strip().splitlines()
    title = lines[0].strip()
    body = "\n".join(lines[2:] if len(lines) > 1 and set(lines[1]) == {"="} else lines[1:])
    paragraph = body.strip().split("\n\n")[0]
    return _plain(title), _plain(" ".join(paragraph.split()))


#: reST inline markup a docstring uses, and what a caption shows instead: the text.
_MARKUP = (
    (re.compile(r":[a-z]+:`~?([^`<]*?)(?:\s*<[^>]*>)?`"), r"\1"),  # :func:`name`, :ref:`t <x>`
    (re.compile(r"``([^`]+)``"), r"\1"),  # ``code``
    (re.compile(r"`([^`<]+?)\s*<[^>]+>`_+"), r"\1"),  # `text <url>`_
    (re.compile(r"\*\*([^*]+)\*\*"), r"\1"),  # **strong**
    (re.compile(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])"), r"\1"),  # *emphasis*
    (re.compile(r"`([^`]+)`"), r"\1"),  # `interpreted`
)


def _plain(text: str) -> str:
    """ReST inline markup as the plain text a reader of the HTML caption should see.

    Examples
    --------
    >>> _plain("The *envelope* of ``roc_hull`` (:func:`costchart.roc_hull`), **exact**.")
    'The envelope of roc_hull (costchart.roc_hull), exact.'
    """
    for pattern, replacement in _MARKUP:
        text = pattern.sub(replacement, text)
    return text


def render_demo(
    out: Path, *, names=DEMO_FIGURES, progress: Callable[[str], None] | None = None
) -> list[Path]:
    """Render the figures ``names`` into ``out``: one PNG each and ``costchart-demo.html``."""
    from costchart._export import report, save

    out.mkdir(parents=True, exist_ok=True)
    written, sections = [], {}
    for name in names:
        if progress:
            progress(f"making {name} ...")
        figure = run_figure(name)
        written.append(save(figure.chart, out / f"{name}.png"))
        if progress:
            progress(f"wrote {written[-1]}")
        sections[f"{figure.title}. {figure.summary}"] = figure.chart
    page = report(
        sections,
        out / "costchart-demo.html",
        title="costchart demo: figures of the cost-curve and ROC papers, rebuilt",
    )
    if progress:
        progress(f"wrote {page}")
    return [page, *written]
