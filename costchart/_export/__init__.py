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
import math
import re
from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Any

import altair as alt

from costchart._errors import CostchartError
from costchart._validation import finite_number, flag
from costchart.layers.interaction import TARGET_VIEWS

__all__ = ["estimate_marks", "report", "save", "to_html"]

#: The suffixes :func:`save` understands.
FORMATS = (".json", ".html", ".png", ".svg", ".pdf")
#: Used for text in images, so they look the same on every machine (vl-convert ships it).
IMAGE_FONT = "Liberation Sans"
#: Largest PNG written, in pixels (width x height x scale_factor²). 100 megapixels take
#: 400 MB as RGBA; far larger rasters make vl-convert abort the whole Python process.
MAX_PIXELS = 100_000_000
#: Largest estimated mark count rendered to PNG, SVG or PDF (see :func:`estimate_marks`).
#: vl-convert renders in a JavaScript engine with a heap of about 1.4 GB; when that runs
#: out, it aborts the whole Python process ("Fatal JavaScript out of memory"). Measured
#: with vl-convert 1.9 on cost charts of 100 classifiers: 25,000 ROC points (an estimate
#: of 103,000 marks) render, 32,000 points (124,000) abort. 300,000 plain points and
#: 60,000 separate line segments (120,000) render. Rows with more or longer fields take
#: more memory, so the bound keeps a margin of 1.5 below the first abort.
MAX_MARKS = 80_000

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
  vegaEmbed(target, spec, options).then((result) => {
    // The Vega views, for pages and tests that read or set their signals.
    (window.costchartViews = window.costchartViews || [])[i] = result.view;
  }).catch((error) => {
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
        _check_dict_spec(chart)
        return chart
    if not isinstance(chart, alt.TopLevelMixin):
        msg = f"chart must be an Altair chart or a Vega-Lite dict; got {type(chart).__name__}"
        raise CostchartError(msg)
    with alt.data_transformers.disable_max_rows():
        return chart.to_dict(validate=True)


def _without_values(spec):
    """A copy of ``spec`` whose inline data sets are empty (compiling does not read them)."""
    if isinstance(spec, dict):
        stripped: dict[str, Any] = {}
        for key, value in spec.items():
            if key == "datasets" and isinstance(value, dict):
                stripped[key] = {name: [] for name in value}
            elif key == "values" and isinstance(value, list):
                stripped[key] = []
            else:
                stripped[key] = _without_values(value)
        return stripped
    if isinstance(spec, list):
        return [_without_values(value) for value in spec]
    return spec


def _check_dict_spec(spec: dict) -> None:
    """Refuse a dict that is not a valid Vega-Lite spec, before anything is written.

    Checked against altair's Vega-Lite schema, then compiled to Vega by vl-convert
    (without its data), which catches specs the schema allows but Vega-Lite cannot draw.
    """
    import vl_convert as vlc
    from altair.utils.schemapi import jsonschema  # altair's own validator

    try:
        alt.TopLevelSpec.validate(spec)
    except jsonschema.ValidationError as error:
        where = error.json_path if error.absolute_path else "its top level"
        msg = (
            f"chart is not a valid Vega-Lite {alt.SCHEMA_VERSION} spec: at {where}, "
            f"{error.message}; pass an Altair chart or the dict its to_dict() returns"
        )
        raise CostchartError(msg) from None
    try:
        vlc.vegalite_to_vega(_without_values(spec), vl_version=_vl_version())
    except ValueError as error:
        first = str(error).strip().splitlines()
        reason = first[1].strip() if len(first) > 1 else str(error)
        msg = (
            f"chart is not a Vega-Lite spec that Vega-Lite can compile ({reason}); "
            "pass an Altair chart or the dict its to_dict() returns"
        )
        raise CostchartError(msg) from None


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
    title = _title(title)
    specs = [_spec(chart) for _, chart in items]
    figures = "\n".join(
        "<figure>"
        + (f"<figcaption>{html.escape(str(caption))}</figcaption>" if caption else "")
        + f'<div id="costchart-chart-{number}"></div></figure>'
        for number, (caption, _) in enumerate(items)
    )
    return _PAGE.format(
        title=html.escape(title),
        heading=f"<h1>{html.escape(title)}</h1>\n" if flag(heading, "heading") else "",
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
    if isinstance(path, (str, PathLike)) and Path(path).suffix.lower() != ".html":
        msg = f"report writes HTML; path={str(path)!r} should end in .html"
        raise CostchartError(msg)
    path = _output_path(path, (".html",))
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
        SVG and PDF are vector formats and ignore it. A PNG may have at most
        :data:`MAX_PIXELS` pixels.
    title : str, optional
        The HTML page's title, also shown as a heading (default: the file name, no heading).

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    CostchartError
        For an unknown suffix, a folder or a missing parent folder, an invalid Vega-Lite
        dict, and before rendering an image that would exhaust the renderer: more than
        :data:`MAX_MARKS` estimated marks (see :func:`estimate_marks`) or more than
        :data:`MAX_PIXELS` pixels. Nothing is written then.

    Examples
    --------
    >>> import tempfile, pathlib, costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> cc.save(cc.cost_chart(points), folder / "cost.json").stat().st_size > 0
    True
    """
    path = _output_path(path, FORMATS)
    suffix = path.suffix.lower()
    scale_factor = finite_number(scale_factor, "scale_factor", positive=True)
    if title is not None:
        title = _title(title)
    spec = _spec(chart)
    if suffix == ".json":
        text = json.dumps(spec, indent=2)
        path.write_text(text, encoding="utf-8")
    elif suffix == ".html":
        # A chart alone shows no heading unless given a title (its own title is in the
        # chart); the page's title is the file name.
        page = to_html([spec], title=title or path.stem, heading=title is not None)
        path.write_text(page, encoding="utf-8")
    else:
        path.write_bytes(_image(spec, suffix, scale_factor))
    return path


def _title(title) -> str:
    if not isinstance(title, str):
        msg = f"title={title!r} must be a string (the page's title)"
        raise CostchartError(msg)
    return title


def _output_path(path, suffixes: Sequence[str]) -> Path:
    """``path`` as a Path with one of ``suffixes``, in an existing folder, not a folder."""
    if not isinstance(path, (str, PathLike)):
        msg = f"path={path!r} must be a file name (a str or pathlib.Path)"
        raise CostchartError(msg)
    path = Path(path)
    suffix = path.suffix.lower()
    if path.is_dir():
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
    if not path.parent.is_dir():
        msg = (
            f"cannot write {str(path)!r}: the folder {str(path.parent)!r} does not exist; "
            "create it first"
        )
        raise CostchartError(msg)
    return path


def _data_rows(data, datasets: Mapping) -> list | int:
    """The rows of a Vega-Lite data object (a list), or just their number when not inline."""
    if not isinstance(data, Mapping):
        return 0
    if isinstance(data.get("values"), list):
        return data["values"]
    if "name" in data and isinstance(datasets.get(data["name"]), list):
        return datasets[data["name"]]
    sequence = data.get("sequence")
    if isinstance(sequence, Mapping):
        try:
            start, stop = float(sequence.get("start", 0)), float(sequence["stop"])
            step = float(sequence.get("step", 1))
            return max(0, math.ceil((stop - start) / step))  # stop is excluded
        except (KeyError, TypeError, ValueError, ZeroDivisionError, OverflowError):
            return 0
    return 0  # a URL (image export allows none) or a generator


def _unescaped(field: str) -> str:
    return re.sub(r"\\(.)", r"\1", field)


def _panels(facet, rows: list | int) -> int:
    """How many panels a facet operator makes from its data."""
    fields = [facet] if "field" in facet else [facet.get("row"), facet.get("column")]
    count = 1
    for definition in fields:
        if isinstance(definition, Mapping) and isinstance(definition.get("field"), str):
            if isinstance(rows, list):
                name = _unescaped(definition["field"])
                count *= max(1, len({json.dumps(row.get(name), default=str) for row in rows}))
    return count


_OWN_TABLE = re.compile(r"datum\.costchart_table == (\d+)")
#: The filter keeping one panel's rows (costchart._charts' facet layout of linked views).
_PANEL = re.compile(r'datum\[("(?:[^"\\]|\\.)*")\] === (.+)')


def _kept(rows: list, transform: Mapping) -> list:
    """The rows costchart's own filters keep (its table, one panel, hull vertices)."""
    text = str(transform.get("filter", ""))
    own = _OWN_TABLE.fullmatch(text)
    if own:
        return [row for row in rows if row.get("costchart_table") == int(own.group(1))]
    panel = _PANEL.fullmatch(text)
    if panel:
        try:
            name, value = json.loads(panel.group(1)), json.loads(panel.group(2))
        except ValueError:
            return rows
        return [row for row in rows if row.get(name) == value]
    if text == "datum.on_hull":
        return [row for row in rows if row.get("on_hull") is True]
    return rows


def _view_marks(view: Mapping, rows: list | int) -> int:
    """Marks one unit view draws: its rows, kept by costchart's own filters, times folds."""
    kept = rows
    folds = 1
    for transform in view.get("transform") or []:
        if not isinstance(transform, Mapping):
            continue
        if isinstance(kept, list) and "filter" in transform:
            kept = _kept(kept, transform)
        if isinstance(transform.get("fold"), list):
            folds *= max(1, len(transform["fold"]))
    return (len(kept) if isinstance(kept, list) else kept) * folds


def estimate_marks(spec: Mapping) -> int:
    """An upper estimate of the marks a Vega-Lite spec draws.

    Each unit view draws one mark per row of its data, times the fields it folds; rows a
    view filters out with costchart's own table filter are not counted. Concatenated and
    layered views add up. A facet splits its own data among the panels, but data defined
    inside it is drawn in every panel; a repeat draws everything once per repetition.

    Parameters
    ----------
    spec : dict
        A Vega-Lite spec (as ``chart.to_dict()`` returns it).

    Returns
    -------
    int
    """
    datasets = spec.get("datasets") or {}
    return _marks(spec, datasets, (0, 1), 1)


def _marks(node, datasets: Mapping, inherited: tuple, repeat: int) -> int:
    """Marks of ``node``; ``inherited`` is (rows, times drawn), ``repeat`` multiplies new data."""
    if not isinstance(node, Mapping):
        return 0
    if "data" in node and node["data"] is not None:
        inherited = (_data_rows(node["data"], datasets), repeat)
    total = 0
    if isinstance(node.get("spec"), Mapping):
        if isinstance(node.get("facet"), Mapping):
            panels = _panels(node["facet"], inherited[0])
            total += _marks(node["spec"], datasets, inherited, repeat * panels)
        elif "repeat" in node:
            repeats = node["repeat"]
            times = 1
            if isinstance(repeats, list):
                times = len(repeats)
            elif isinstance(repeats, Mapping):
                for values in repeats.values():
                    times *= max(1, len(values)) if isinstance(values, list) else 1
            rows, drawn = inherited
            total += _marks(node["spec"], datasets, (rows, drawn * times), repeat * times)
    for key in ("layer", "concat", "hconcat", "vconcat"):
        for child in node.get(key) or []:
            total += _marks(child, datasets, inherited, repeat)
    if "mark" in node:
        rows, drawn = inherited
        total += drawn * _view_marks(node, rows)
    return total


def _svg_size(svg: str) -> tuple[float, float]:
    root = re.search(r"<svg\b[^>]*>", svg)
    width = re.search(r'\swidth="([\d.eE+]+)"', root.group(0)) if root else None
    height = re.search(r'\sheight="([\d.eE+]+)"', root.group(0)) if root else None
    if width is None or height is None:
        msg = "could not read the size of the rendered chart; save it as .html or .svg instead"
        raise CostchartError(msg)
    return float(width.group(1)), float(height.group(1))


#: Views of invisible marks that only catch the pointer (:func:`costchart.layers.hover_targets`).
HOVER_TARGETS = tuple(TARGET_VIEWS.values())


def without_hover_targets(spec: dict) -> dict:
    """A copy of ``spec`` whose hover-target views draw nothing.

    A static image has no pointer, and those invisible marks (one per cost line or ROC
    point) would double the drawing. The views stay, with their selection parameters
    and legends, but filter out all their rows.
    """

    def visit(node):
        if isinstance(node, list):
            return [visit(item) for item in node]
        if not isinstance(node, dict):
            return node
        copy = {key: visit(value) for key, value in node.items()}
        name = copy.get("name")
        # Altair numbers the views of a concatenation (``costchart_roc_targets_0``).
        if isinstance(name, str) and name.startswith(HOVER_TARGETS) and "mark" in copy:
            copy["transform"] = [{"filter": "false"}, *copy.get("transform", [])]
        return copy

    return visit(spec)


def _image(spec: dict, suffix: str, scale_factor: float) -> bytes:
    """Render ``spec`` as PNG, SVG or PDF, refusing charts that would abort the renderer.

    vl-convert makes PNG and PDF from its SVG (byte for byte the same as its direct
    conversions), so the SVG is rendered once, after the mark count is checked, and gives
    the exact raster size before any pixel is allocated.
    """
    import vl_convert as vlc

    spec = without_hover_targets(spec)
    marks = estimate_marks(spec)
    if marks > MAX_MARKS:
        msg = (
            f"this chart draws about {marks:,} marks, too many to render as {suffix} (at "
            f"most {MAX_MARKS:,}; more exhaust the renderer's memory and abort Python). "
            "Draw fewer points per curve (max_points= of the chart, or cc.thin_points), "
            "fewer groups, or save it as .html, which the browser draws"
        )
        raise CostchartError(msg)
    options: dict[str, Any] = {
        "vl_version": _vl_version(),
        "config": {"font": IMAGE_FONT},
        "allowed_base_urls": [],
    }
    try:
        svg = vlc.vegalite_to_svg(spec, **options)
    except ValueError as error:
        lines = str(error).strip().splitlines()
        reason = lines[1].strip() if len(lines) > 1 else str(error)
        msg = f"vl-convert could not draw this chart ({reason}); check the spec"
        raise CostchartError(msg) from None
    if suffix == ".svg":
        return svg.encode("utf-8")
    if suffix == ".pdf":
        return vlc.svg_to_pdf(svg)
    width, height = _svg_size(svg)
    pixels = width * height * scale_factor**2
    if pixels > MAX_PIXELS:
        largest = (MAX_PIXELS / (width * height)) ** 0.5
        msg = (
            f"scale_factor={scale_factor:g} makes a {width * scale_factor:,.0f} x "
            f"{height * scale_factor:,.0f} pixel PNG ({pixels / 1e6:,.0f} megapixels; at "
            f"most {MAX_PIXELS / 1e6:,.0f}); pass scale_factor <= {largest:.3g}, make the "
            "chart smaller, or save it as .svg, .pdf or .html"
        )
        raise CostchartError(msg)
    return vlc.svg_to_png(svg, scale=scale_factor)
