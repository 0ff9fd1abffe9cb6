"""PNG, SVG and PDF images of charts, rendered by vl-convert, and the spec checks.

:func:`chart_spec` turns a chart (or a Vega-Lite dict, validated against the schema and
compiled by vl-convert) into the spec every format writes. :func:`render_image` drops the
invisible hover targets (:func:`without_hover_targets`), refuses charts over the mark and
pixel budgets of :mod:`costchart._export._budget`, renders the SVG once with text in
Liberation Sans, and converts it to PDF or PNG.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import altair as alt

from costchart._export._budget import MAX_MARKS, MAX_PIXELS, estimate_marks
from costchart._export.fast_schema import surely_valid
from costchart._export.scales import merge_scales
from costchart._io.errors import CostchartError
from costchart.layers.interaction import TARGET_VIEWS

__all__ = [
    "HOVER_TARGETS",
    "IMAGE_FONT",
    "chart_spec",
    "render_image",
    "vl_version",
    "without_hover_targets",
]


#: Used for text in images, so they look the same on every machine (vl-convert ships it).
IMAGE_FONT = "Liberation Sans"


def vl_version() -> str:
    """The Vega-Lite version of the installed altair's schema, as vl-convert names it."""
    major, minor = alt.SCHEMA_VERSION.lstrip("v").split(".")[:2]
    return f"{major}.{minor}"


def chart_spec(chart) -> dict:
    """The chart's Vega-Lite spec as a dict (validated; no 5,000-row limit).

    Views that declare different mappings for one shared scale get their union
    (:func:`~costchart._export.scales.merge_scales`), so no category is drawn in
    another's colour.
    """
    if isinstance(chart, dict):
        _check_dict_spec(chart)
        return merge_scales(chart)
    if not isinstance(chart, alt.TopLevelMixin):
        msg = f"chart must be an Altair chart or a Vega-Lite dict; got {type(chart).__name__}"
        raise CostchartError(msg)
    with alt.data_transformers.disable_max_rows():
        # Validated once, without its inline rows: Altair's own validation checks every row
        # of every data set against the schema, which took most of the time of saving a
        # chart of many curves (rows costchart wrote itself), yet a hand-edited chart that
        # is not Vega-Lite is still refused.
        spec = chart.to_dict(validate=False)
    _check_schema(spec)
    return page_spec(spec)


def page_spec(spec: dict) -> dict:
    """A spec Altair made, ready for a page: JSON rows, no line separators, merged scales."""
    return merge_scales(_without_line_separators(_json_rows(spec)))


def _json_rows(spec: dict) -> dict:
    """``spec`` with every non-finite number in its inline rows as null, as JSON needs.

    Works around: Altair's data transformer (under pandas 3) writes a missing value of a
    text column as NaN, which no JSON parser takes.
    """
    datasets = spec.get("datasets")
    if not isinstance(datasets, dict):
        return spec
    fixed = {}
    for name, rows in datasets.items():
        if isinstance(rows, list) and any(_has_non_finite(row) for row in rows):
            rows = [_finite_row(row) for row in rows]
        fixed[name] = rows
    return {**spec, "datasets": fixed}


#: Characters a JSON string may hold but a Vega expression's may not (Vega reads them as
#: line ends): Vega-Lite copies names and values into expressions (sort orders, filters,
#: tooltips) with ``JSON.stringify``, which leaves them as they are.
_SEPARATORS = ("\u2028", "\u2029")


def _without_line_separators(spec: dict) -> dict:
    """``spec`` with every line or paragraph separator in its strings read as a space.

    Every occurrence becomes the same space, in the data and in the scales and sort
    orders alike, so the chart still matches each value to its colour and panel.
    """
    text = json.dumps(spec, ensure_ascii=False)
    if not any(separator in text for separator in _SEPARATORS):
        return spec
    for separator in _SEPARATORS:
        text = text.replace(separator, " ")
    return json.loads(text)


def _non_finite(value) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def _has_non_finite(row) -> bool:
    return isinstance(row, dict) and any(_non_finite(v) for v in row.values())


def _finite_row(row):
    if not isinstance(row, dict):
        return row
    return {k: None if _non_finite(v) else v for k, v in row.items()}


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


def _check_schema(spec: dict, *, values: bool = False) -> None:
    """Refuse a spec that altair's Vega-Lite schema rejects, naming where and why.

    With ``values=False`` the inline rows are left out of the check (costchart wrote them,
    and checking each of thousands of rows is what made saving slow).
    """
    import jsonschema  # the validator Altair's schema classes use

    checked = spec if values else _without_values(spec)
    if surely_valid(checked):  # a compiled validator: most specs end here
        return
    try:
        alt.TopLevelSpec.validate(checked)
    except jsonschema.ValidationError as error:
        where = error.json_path if error.absolute_path else "its top level"
        msg = (
            f"chart is not a valid Vega-Lite {alt.SCHEMA_VERSION} spec: at {where}, "
            f"{error.message}; pass an Altair chart or the dict its to_dict() returns"
        )
        raise CostchartError(msg) from None


def _check_dict_spec(spec: dict) -> None:
    """Refuse a dict that is not a valid Vega-Lite spec, before anything is written.

    Checked against altair's Vega-Lite schema, then compiled to Vega by vl-convert
    (without its data), which catches specs the schema allows but Vega-Lite cannot draw.
    """
    import vl_convert as vlc

    _check_schema(spec, values=True)
    try:
        vlc.vegalite_to_vega(_without_values(spec), vl_version=vl_version())
    except ValueError as error:
        first = str(error).strip().splitlines()
        reason = first[1].strip() if len(first) > 1 else str(error)
        msg = (
            f"chart is not a Vega-Lite spec that Vega-Lite can compile ({reason}); "
            "pass an Altair chart or the dict its to_dict() returns"
        )
        raise CostchartError(msg) from None


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


def render_image(spec: dict, suffix: str, scale_factor: float) -> bytes:
    """Render ``spec`` as PNG, SVG or PDF, refusing charts that would abort the renderer.

    vl-convert makes PNG and PDF from its SVG (byte for byte the same as its direct
    conversions), so the SVG is rendered once, after the mark count is checked, and gives
    the exact raster size before any pixel is allocated. The SVG of a PNG or PDF leaves
    out the ARIA attributes, which only an SVG file keeps.
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
    config: dict[str, Any] = {"font": IMAGE_FONT}
    if suffix != ".svg":
        # A PNG or PDF keeps none of the SVG's ARIA labels and roles: without them the
        # SVG is about half the size, quicker to write and to parse, and draws the same pixels.
        config["aria"] = False
    options: dict[str, Any] = {
        "vl_version": vl_version(),
        "config": config,
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
