"""A sphinx-gallery image scraper for Altair charts.

After each code block of a gallery script, the chart bound to ``chart`` (the name every
script ends with) is drawn as a PNG through vl-convert, if it is new since the last block.
A chart with selections (linked, hoverable views) is also saved as an offline HTML page,
linked below its picture, since a PNG cannot show the interaction.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import altair as alt
from sphinx_gallery.scrapers import figure_rst

import costchart as cc
from costchart._cli.demo import describe

#: The variable each gallery script binds its chart to.
CHART_NAME = "chart"


def _has_params(spec: dict) -> bool:
    """Whether a Vega-Lite spec (as a dict) declares a selection or parameter anywhere."""
    if not isinstance(spec, dict):
        return False
    if spec.get("params"):
        return True
    parts = [spec.get(key) for key in ("layer", "hconcat", "vconcat", "concat")]
    parts += [spec.get("spec")]
    return any(
        _has_params(item)
        for part in parts
        if part
        for item in (part if isinstance(part, list) else [part])
    )


def alt_text(block_vars) -> str:
    """What the picture shows, for readers who cannot see it: the script's title and summary.

    sphinx-gallery's default is the file name ("plot dh2000 fig08 one cost line").
    """
    source = Path(block_vars.get("src_file", ""))
    if not source.is_file():
        return ""
    docstring = ast.get_docstring(ast.parse(source.read_text(encoding="utf-8"))) or ""
    title, summary = describe(docstring)
    first = re.split(r"(?<=[.!?])\s", summary, maxsplit=1)[0] if summary else ""
    return f"Chart: {title}. {first}".strip()


def altair_scraper(block, block_vars, gallery_conf, **kwargs):
    """Save the example's new chart as PNG (and HTML when it is interactive)."""
    chart = block_vars["example_globals"].get(CHART_NAME)
    if not isinstance(chart, alt.TopLevelMixin):
        return ""
    if block_vars.get("costchart_last_chart") is chart:
        return ""
    block_vars["costchart_last_chart"] = chart
    png = Path(next(block_vars["image_path_iterator"]))
    cc.save(chart, png)
    rst = figure_rst([str(png)], gallery_conf["src_dir"], fig_titles=alt_text(block_vars))
    if _has_params(chart.to_dict()):
        html = png.with_suffix(".html")
        cc.save(chart, html)
        relative = html.relative_to(Path(gallery_conf["src_dir"])).as_posix()
        rst += (
            f"\n\n:download:`The interactive chart (offline HTML) </{relative}>`: "
            "hover and click to link the views.\n\n"
        )
    return rst
