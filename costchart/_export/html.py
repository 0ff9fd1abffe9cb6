"""Offline, script-safe HTML pages of charts, and reports of charts, tables and text.

A page embeds the Vega, Vega-Lite and vega-embed libraries (one bundle from vl-convert),
so it opens with no network at all, and a Content-Security-Policy forbids any request.
Specs are written as JSON with ``<``, ``>`` and ``&`` escaped (:func:`safe_json`), so no
name, title or data value can close the script element and inject code; tables
(:mod:`costchart._export.table_html`) and text (:mod:`costchart._export.markdown`) are
escaped HTML. :func:`to_html` builds a page, :func:`report` writes one, and
:func:`~costchart._export.files.output_path` checks a path before anything is written.
"""

from __future__ import annotations

import functools
import html
import json
from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path

from costchart._export.bundle_cache import cached_bundle
from costchart._export.files import output_path, write_file
from costchart._export.image import chart_spec, vl_version
from costchart._export.markdown import Markdown, markdown_html, text_html
from costchart._export.packing import UNPACK_SCRIPT, pack_datasets
from costchart._export.table_html import TABLE_STYLE, as_frame, table_html
from costchart._io.errors import CostchartError
from costchart._io.parameters import checked
from costchart._io.validation import flag

__all__ = [
    "EMBED_OPTIONS",
    "bundle",
    "output_path",
    "page_of",
    "page_title",
    "report",
    "safe_json",
    "to_html",
]


EMBED_OPTIONS = {
    "renderer": "svg",
    "actions": {"export": True, "source": False, "compiled": False, "editor": False},
}


# Runs inside the bundle's own scope: unpacks and embeds every spec found in the page.
_EMBED_SNIPPET = (
    UNPACK_SCRIPT
    + """
const specs = JSON.parse(document.getElementById("costchart-specs").textContent);
const options = JSON.parse(document.getElementById("costchart-options").textContent);
specs.forEach((spec, i) => {
  const target = document.getElementById("costchart-chart-" + i);
  vegaEmbed(target, costchartUnpack(spec), options).then((result) => {
    // The Vega views, for pages and tests that read or set their signals.
    (window.costchartViews = window.costchartViews || [])[i] = result.view;
  }).catch((error) => {
    target.textContent = "This chart could not be drawn: " + error;
    console.error(error);
  });
});
"""
)


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; img-src data: blob:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: "Liberation Sans", Arial, sans-serif; margin: 2rem; color: #222; }}
figure {{ margin: 0 0 2.5rem 0; }}
figcaption {{ font-size: 0.95rem; margin-bottom: 0.5rem; max-width: 60rem; }}
.costchart-text {{ max-width: 60rem; line-height: 1.45; margin-bottom: 1.5rem; }}
.costchart-text code, .costchart-text pre {{ background: #f4f4f4; }}
.costchart-text pre {{ padding: 0.5rem; overflow: auto; }}
{table_style}</style>
</head>
<body>
{heading}{figures}
{scripts}</body>
</html>
"""


_SCRIPTS = """<script type="application/json" id="costchart-specs">{specs}</script>
<script type="application/json" id="costchart-options">{options}</script>
<script>
(function () {{
{bundle}
}})();
</script>
"""


def safe_json(value) -> str:
    r"""JSON text that is safe inside an HTML ``<script>`` element.

    ``<``, ``>`` and ``&`` become ``\u003c``, ``\u003e``, ``\u0026`` (the same string to
    a JSON parser), and so do the line separators U+2028 / U+2029.
    """
    text = json.dumps(value, separators=(",", ":"), allow_nan=False)
    for char, escaped in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, escaped)
    return text


@functools.lru_cache(maxsize=4)
def bundle(vl_version: str, snippet: str = _EMBED_SNIPPET) -> str:
    """The Vega libraries and an embedding snippet, as one script.

    Cached per process, and on disk between processes (:mod:`costchart._export.bundle_cache`,
    keyed by vl-convert's version, ``vl_version`` and the snippet).
    """
    import vl_convert as vlc

    key = ("vl-convert", str(getattr(vlc, "__version__", "")), vl_version, snippet)
    code = cached_bundle(key, lambda: vlc.javascript_bundle(snippet, vl_version=vl_version))
    # Inside <script>, "</script" or "<!--" in the code would end or confuse the element;
    # in JavaScript strings and regexes "<\/" and "<\!" mean the same.
    return code.replace("</script", "<\\/script").replace("<!--", "<\\!--")


def to_html(charts, *, title: str = "costchart", heading: bool = True) -> str:
    """One offline HTML page of charts, tables and text, with the libraries included once.

    Parameters
    ----------
    charts : chart, table or text, a list of them, or a dict of caption to one
        Shown in order: Altair charts (or Vega-Lite dicts), pandas DataFrames (tables),
        strings (plain text) and :func:`~costchart.markdown` text. Captions are shown
        above their item (as text, never as HTML).
    title : str
        The page's title (and heading).
    heading : bool
        Show the title as a heading above the charts.

    Returns
    -------
    str
        The page.
    """
    if isinstance(charts, Mapping) and not _is_spec(charts):
        items = list(charts.items())
        names = [f"charts[{caption!r}]" for caption in charts]
    elif isinstance(charts, Sequence) and not isinstance(charts, (str, dict)):
        items = [(None, chart) for chart in charts]
        names = [f"charts[{number}]" for number in range(len(items))]
    else:
        items, names = [(None, charts)], ["charts"]
    if not items:
        msg = "charts is empty; pass at least one chart, table or text"
        raise CostchartError(msg)
    title = page_title(title)
    blocks = [_block(item, name) for (_, item), name in zip(items, names, strict=True)]
    return page_of(blocks, [caption for caption, _ in items], title=title, heading=heading)


#: Keys of which a Vega-Lite spec has at least one (a dict of captions is read as one
#: unless it has them).
_SPEC_KEYS = ("$schema", "mark", "layer", "hconcat", "vconcat", "concat", "facet", "repeat")


def _is_spec(mapping: Mapping) -> bool:
    """Whether a dict is a Vega-Lite spec (one chart) rather than captions of sections."""
    return any(key in mapping for key in _SPEC_KEYS)


def _block(item, where: str):
    """A chart's checked spec (a dict), or the HTML of a table or text section (a str)."""
    if isinstance(item, Markdown):
        return _Html(f'<section class="costchart-text">{markdown_html(item.text)}</section>')
    if type(item).__name__ == "Markdown" and isinstance(getattr(item, "data", None), str):
        # IPython.display.Markdown, which notebook users know.
        return _Html(f'<section class="costchart-text">{markdown_html(item.data)}</section>')
    if isinstance(item, str):
        return _Html(f'<section class="costchart-text">{text_html(item)}</section>')
    frame = as_frame(item)
    if frame is not None:
        return _Html(table_html(frame))
    if isinstance(item, dict) or type(item).__module__.split(".")[0] == "altair":
        return chart_spec(item)
    msg = (
        f"{where} is of type {type(item).__name__}, which a report cannot show; pass Altair "
        "charts, pandas DataFrames (shown as tables), strings (plain text) or "
        "cc.markdown(text) (Markdown), in a list or a dict of caption to item"
    )
    raise CostchartError(msg)


class _Html(str):
    """HTML made here from escaped text (a table or a text section), not a chart."""


def page_of(blocks: list, captions: list, *, title: str, heading: bool = True) -> str:
    """The page of specs already checked (by :func:`chart_spec`) and HTML sections.

    ``blocks`` holds chart specs (dicts), none checked again, and the HTML of tables and
    text sections (:class:`_Html`), in order. The specs' inline rows are stored column by
    column (:mod:`costchart._export.packing`) and unpacked by the page before the charts
    are drawn. A page without charts has no scripts at all.
    """
    specs = [block for block in blocks if not isinstance(block, _Html)]
    figures = []
    chart_number = 0
    for block, caption in zip(blocks, captions, strict=True):
        if isinstance(block, _Html):
            body = str(block)
        else:
            body = f'<div id="costchart-chart-{chart_number}"></div>'
            chart_number += 1
        caption_html = f"<figcaption>{html.escape(str(caption))}</figcaption>" if caption else ""
        figures.append(f"<figure>{caption_html}{body}</figure>")
    scripts = ""
    if specs:
        scripts = _SCRIPTS.format(
            specs=safe_json([pack_datasets(spec) for spec in specs]),
            options=safe_json(EMBED_OPTIONS),
            bundle=bundle(vl_version()),
        )
    return _PAGE.format(
        title=html.escape(title),
        heading=f"<h1>{html.escape(title)}</h1>\n" if flag(heading, "heading") else "",
        figures="\n".join(figures),
        table_style=TABLE_STYLE,
        scripts=scripts,
    )


@checked
def report(charts, path, *, title: str | None = None) -> Path:
    """Write charts, tables and text to one offline HTML page (the libraries included once).

    Parameters
    ----------
    charts : list of charts, tables and text, or dict of caption to one
        The page's sections, in order: Altair charts (or Vega-Lite dicts); pandas
        DataFrames, such as costchart's own tables, shown as tables (a meaningful index
        as row headers, numbers right-aligned with 6 significant digits, missing values
        as ``NaN``; a wide or long table scrolls); strings, shown as plain text
        (paragraphs split at blank lines); and :func:`markdown` text, read as a safe
        subset of Markdown. Everything is shown as text: no HTML in a table or text
        is run.
    path : str or pathlib.Path
        Where to write the page (``.html``).
    title : str
        The page's title and heading.

    Returns
    -------
    pathlib.Path
        The path written.

    Examples
    --------
    >>> import tempfile, pathlib, costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> page = pathlib.Path(tempfile.mkdtemp()) / "report.html"
    >>> cc.report(
    ...     [cc.markdown("The *envelope*:"), cc.cost_chart(points), "AUC:", cc.auc(points)],
    ...     page,
    ...     title="A report",
    ... ).name
    'report.html'
    """
    if isinstance(path, (str, PathLike)) and Path(path).suffix.lower() != ".html":
        msg = f"report writes HTML; path={str(path)!r} should end in .html"
        raise CostchartError(msg)
    path = output_path(path, (".html",))
    title = "costchart report" if title is None else title
    write_file(path, to_html(charts, title=title))
    return path


def page_title(title) -> str:
    if not isinstance(title, str):
        msg = f"title={title!r} must be a string (the page's title)"
        raise CostchartError(msg)
    return title
