"""Offline, script-safe HTML pages of charts, and the report of several charts.

A page embeds the Vega, Vega-Lite and vega-embed libraries (one bundle from vl-convert),
so it opens with no network at all, and a Content-Security-Policy forbids any request.
Specs are written as JSON with ``<``, ``>`` and ``&`` escaped (:func:`safe_json`), so no
name, title or data value can close the script element and inject code. :func:`to_html`
builds a page of one or several charts, :func:`report` writes one, and
:func:`output_path` checks a path before anything is written.
"""

from __future__ import annotations

import functools
import html
import json
from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path

from costchart._export.image import chart_spec, vl_version
from costchart._export.packing import UNPACK_SCRIPT, pack_datasets
from costchart._io.errors import CostchartError
from costchart._io.parameters import checked
from costchart._io.validation import flag

__all__ = ["output_path", "page_of", "page_title", "report", "safe_json", "to_html"]


_EMBED_OPTIONS = {
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
</style>
</head>
<body>
{heading}{figures}
<script type="application/json" id="costchart-specs">{specs}</script>
<script type="application/json" id="costchart-options">{options}</script>
<script>
(function () {{
{bundle}
}})();
</script>
</body>
</html>
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


@functools.lru_cache(maxsize=2)
def _bundle(vl_version: str) -> str:
    """The Vega libraries and the embedding snippet, as one script (cached per process)."""
    import vl_convert as vlc

    code = vlc.javascript_bundle(_EMBED_SNIPPET, vl_version=vl_version)
    # Inside <script>, "</script" or "<!--" in the code would end or confuse the element;
    # in JavaScript strings and regexes "<\/" and "<\!" mean the same.
    return code.replace("</script", "<\\/script").replace("<!--", "<\\!--")


def to_html(charts, *, title: str = "costchart", heading: bool = True) -> str:
    """One offline HTML page showing the given charts, with the libraries included once.

    Parameters
    ----------
    charts : Altair chart, list of charts, or dict of caption to chart
        Captions are shown above their chart (as text, never as HTML).
    title : str
        The page's title (and heading).
    heading : bool
        Show the title as a heading above the charts.

    Returns
    -------
    str
        The page.
    """
    if isinstance(charts, Mapping):
        items = list(charts.items())
    elif isinstance(charts, Sequence) and not isinstance(charts, (str, dict)):
        items = [(None, chart) for chart in charts]
    else:
        items = [(None, charts)]
    if not items:
        msg = "charts is empty; pass at least one chart"
        raise CostchartError(msg)
    title = page_title(title)
    specs = [chart_spec(chart) for _, chart in items]
    return page_of(specs, [caption for caption, _ in items], title=title, heading=heading)


def page_of(specs: list[dict], captions: list, *, title: str, heading: bool = True) -> str:
    """The page of specs already checked (by :func:`chart_spec`): none is checked again.

    Their inline rows are stored column by column (:mod:`costchart._export.packing`) and
    unpacked by the page before the charts are drawn.
    """
    figures = "\n".join(
        "<figure>"
        + (f"<figcaption>{html.escape(str(caption))}</figcaption>" if caption else "")
        + f'<div id="costchart-chart-{number}"></div></figure>'
        for number, caption in enumerate(captions)
    )
    return _PAGE.format(
        title=html.escape(title),
        heading=f"<h1>{html.escape(title)}</h1>\n" if flag(heading, "heading") else "",
        figures=figures,
        specs=safe_json([pack_datasets(spec) for spec in specs]),
        options=safe_json(_EMBED_OPTIONS),
        bundle=_bundle(vl_version()),
    )


@checked
def report(charts, path, *, title: str | None = None) -> Path:
    """Write several charts to one offline HTML page (the libraries included once).

    Parameters
    ----------
    charts : list of charts, or dict of caption to chart
        The charts, in order.
    path : str or pathlib.Path
        Where to write the page (``.html``).
    title : str
        The page's title and heading.

    Returns
    -------
    pathlib.Path
        The path written.
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


def output_path(path, suffixes: Sequence[str]) -> Path:
    """``path`` as a Path with one of ``suffixes``, in an existing folder, not a folder."""
    if not isinstance(path, (str, PathLike)):
        msg = f"path={path!r} must be a file name (a str or pathlib.Path)"
        raise CostchartError(msg)
    path = Path(path)
    suffix = path.suffix.lower()
    if "\0" in str(path):
        msg = f"path={str(path)!r} holds a null character, which no file name can; remove it"
        raise CostchartError(msg)
    try:
        is_folder, parent_exists = path.is_dir(), path.parent.is_dir()
    except OSError as error:  # e.g. a name longer than the file system allows
        msg = f"cannot write {str(path)!r}: {error.strerror or error}; pass a shorter file name"
        raise CostchartError(msg) from None
    if is_folder:
        msg = (
            f"path={str(path)!r} is a folder; pass a file name such as {str(path / 'chart.html')!r}"
        )
        raise CostchartError(msg)
    if suffix not in suffixes:
        msg = (
            f"cannot tell the format of {str(path)!r} from its suffix {suffix!r}; "
            f"use one of {', '.join(suffixes)}"
        )
        raise CostchartError(msg)
    if not parent_exists:
        msg = (
            f"cannot write {str(path)!r}: the folder {str(path.parent)!r} does not exist; "
            "create it first"
        )
        raise CostchartError(msg)
    return path


def write_file(path: Path, content: str | bytes) -> None:
    """Write ``content`` to ``path``, or say plainly why the file system refused it."""
    try:
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    except OSError as error:
        msg = (
            f"cannot write {str(path)!r}: {error.strerror or error}; pass a file name the "
            "file system accepts, in a folder you can write to"
        )
        raise CostchartError(msg) from None
