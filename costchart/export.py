"""Saving charts: Vega-Lite JSON, offline and script-safe HTML, PNG, SVG and PDF.

HTML pages embed the Vega, Vega-Lite and vega-embed libraries (from vl-convert), so they
open with no network at all, and a Content-Security-Policy forbids any request. Specs are
written as JSON with ``<``, ``>`` and ``&`` escaped, so no name, title or data value can
close the script element and inject code. Images are rendered by vl-convert.
"""

from __future__ import annotations

import functools
import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import altair as alt

from costchart._errors import CostchartError

__all__ = ["report", "save", "to_html"]

#: The suffixes :func:`save` understands.
FORMATS = (".json", ".html", ".png", ".svg", ".pdf")
#: Used for text in images, so they look the same on every machine (vl-convert ships it).
IMAGE_FONT = "Liberation Sans"

_EMBED_OPTIONS = {
    "renderer": "svg",
    "actions": {"export": True, "source": False, "compiled": False, "editor": False},
}

# Runs inside the bundle's own scope: embeds every spec found in the page.
_EMBED_SNIPPET = """
const specs = JSON.parse(document.getElementById("costchart-specs").textContent);
const options = JSON.parse(document.getElementById("costchart-options").textContent);
specs.forEach((spec, i) => {
  const target = document.getElementById("costchart-chart-" + i);
  vegaEmbed(target, spec, options).catch((error) => {
    target.textContent = "This chart could not be drawn: " + error;
    console.error(error);
  });
});
"""

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
<h1>{title}</h1>
{figures}
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


def _vl_version() -> str:
    """The Vega-Lite version of the installed altair's schema, as vl-convert names it."""
    major, minor = alt.SCHEMA_VERSION.lstrip("v").split(".")[:2]
    return f"{major}.{minor}"


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


def _spec(chart) -> dict:
    """The chart's Vega-Lite spec as a dict (validated; no 5,000-row limit)."""
    if isinstance(chart, dict):
        return chart
    if not isinstance(chart, alt.TopLevelMixin):
        msg = f"chart must be an Altair chart or a Vega-Lite dict; got {type(chart).__name__}"
        raise CostchartError(msg)
    with alt.data_transformers.disable_max_rows():
        return chart.to_dict(validate=True)


def to_html(charts, *, title: str = "costchart") -> str:
    """One offline HTML page showing the given charts, with the libraries included once.

    Parameters
    ----------
    charts : Altair chart, list of charts, or dict of caption to chart
        Captions are shown above their chart (as text, never as HTML).
    title : str
        The page's title and heading.

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
    specs = [_spec(chart) for _, chart in items]
    figures = "\n".join(
        "<figure>"
        + (f"<figcaption>{html.escape(str(caption))}</figcaption>" if caption else "")
        + f'<div id="costchart-chart-{number}"></div></figure>'
        for number, (caption, _) in enumerate(items)
    )
    return _PAGE.format(
        title=html.escape(title),
        figures=figures,
        specs=safe_json(specs),
        options=safe_json(_EMBED_OPTIONS),
        bundle=_bundle(_vl_version()),
    )


def report(charts, path, *, title: str = "costchart report") -> Path:
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
    path = Path(path)
    if path.suffix.lower() != ".html":
        msg = f"report writes HTML; path={str(path)!r} should end in .html"
        raise CostchartError(msg)
    path.write_text(to_html(charts, title=title), encoding="utf-8")
    return path


def save(chart, path, *, scale_factor: float = 2.0, title: str | None = None) -> Path:
    """Save a chart; the format follows the file's suffix.

    Parameters
    ----------
    chart : Altair chart or Vega-Lite dict
        The chart to save.
    path : str or pathlib.Path
        ``.json`` (the Vega-Lite spec), ``.html`` (an offline, script-safe page), ``.png``,
        ``.svg`` or ``.pdf`` (rendered by vl-convert, text in Liberation Sans).
    scale_factor : float
        Pixel density of PNG output (2 gives sharp images on high-resolution screens).
        SVG and PDF are vector formats and ignore it.
    title : str, optional
        The HTML page's title (default: the file name).

    Returns
    -------
    pathlib.Path
        The path written.

    Examples
    --------
    >>> import tempfile, pathlib, costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> cc.save(cc.cost_chart(points), folder / "cost.json").stat().st_size > 0
    True
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        msg = (
            f"cannot tell the format of {str(path)!r} from its suffix {suffix!r}; "
            f"use one of {', '.join(FORMATS)}"
        )
        raise CostchartError(msg)
    if not scale_factor > 0:
        msg = f"scale_factor={scale_factor!r} must be a positive number"
        raise CostchartError(msg)
    spec = _spec(chart)
    if suffix == ".json":
        path.write_text(json.dumps(spec, indent=2), encoding="utf-8")
    elif suffix == ".html":
        path.write_text(to_html([spec], title=title or path.stem), encoding="utf-8")
    else:
        path.write_bytes(_image(spec, suffix, scale_factor))
    return path


def _image(spec: dict, suffix: str, scale_factor: float) -> bytes:
    import vl_convert as vlc

    options: dict[str, Any] = {
        "vl_version": _vl_version(),
        "config": {"font": IMAGE_FONT},
        "allowed_base_urls": [],
    }
    if suffix == ".png":
        return vlc.vegalite_to_png(spec, scale=scale_factor, **options)
    if suffix == ".pdf":
        return vlc.vegalite_to_pdf(spec, **options)
    return vlc.vegalite_to_svg(spec, **options).encode("utf-8")
