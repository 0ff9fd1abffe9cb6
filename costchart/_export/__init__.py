"""Saving charts: :func:`save` writes Vega-Lite JSON, HTML, PNG, SVG or PDF by suffix.

The formats live in their own modules: offline, script-safe HTML pages and the report of
several charts in :mod:`costchart._export.html`, images rendered by vl-convert in
:mod:`costchart._export.image`, and the mark and pixel budgets that keep vl-convert from
aborting Python in :mod:`costchart._export._budget`. :func:`report` is re-exported here.
"""

from __future__ import annotations

from pathlib import Path

from costchart._export.files import output_path, write_file
from costchart._export.html import page_of, page_title, report, safe_json
from costchart._export.image import chart_spec, render_image
from costchart._io.errors import CostchartError
from costchart._io.parameters import checked
from costchart._io.validation import finite_number

__all__ = ["report", "save"]


#: The suffixes :func:`save` understands.
FORMATS = (".json", ".html", ".png", ".svg", ".pdf")


@checked
def save(chart, path, *, scale_factor: float = 2.0, title: str | None = None) -> Path:
    """Save a chart; the format follows the file's suffix.

    Parameters
    ----------
    chart : Altair chart or Vega-Lite dict
        The chart to save.
    path : str or pathlib.Path
        ``.json`` (the Vega-Lite spec, compact JSON with ``<``, ``>`` and ``&`` escaped,
        so it can be pasted into a web page's ``<script>`` element; see *Embed in a web
        page* in the docs), ``.html`` (an offline, script-safe
        page), ``.png``, ``.svg`` or ``.pdf`` (rendered by vl-convert, text in Liberation
        Sans).
    scale_factor : float
        Pixel density of PNG output (2 gives sharp images on high-resolution screens).
        SVG and PDF are vector formats and ignore it. A PNG may have at most
        :data:`MAX_PIXELS` pixels.
    title : str, optional
        The HTML page's title, also shown as a heading (default: the file name, no heading).
        Only ``.html`` has one: refused for the other formats (the chart's own title is
        ``chart.properties(title=...)``).

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    CostchartError
        For an unknown suffix, a folder or a missing parent folder, a file the file system
        refuses to write, ``title`` for a format other than HTML, an invalid Vega-Lite
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
    path = output_path(path, FORMATS)
    write_file(path, content_of(chart, path, scale_factor=scale_factor, title=title))
    return path


def content_of(chart, path: Path, *, scale_factor=2.0, title=None) -> str | bytes:
    """What :func:`save` writes to ``path`` (by its suffix), all checks done, nothing written.

    The command line writes it through :func:`~costchart._export.files.write_file` itself,
    so that a file system's refusal names ``--out``.
    """
    suffix = path.suffix.lower()
    scale_factor = finite_number(scale_factor, "scale_factor", positive=True)
    if title is not None:
        title = page_title(title)
        if suffix != ".html":
            msg = (
                f"title={title!r} is the title of an HTML page, which {suffix} has not; drop "
                "it, or give the chart its own title with chart.properties(title=...)"
            )
            raise CostchartError(msg)
    spec = chart_spec(chart)
    if suffix == ".json":
        # Compact: a spec is read by programs (vega-embed, a web page); indentation only
        # makes it larger (tests/test_export.py measures how much). ``<``, ``>`` and ``&``
        # are written as \u003c, \u003e, \u0026 (the same JSON), so the text can be pasted
        # into a page's <script> element as it is (docs/embed.md).
        return safe_json(spec)
    if suffix == ".html":
        # A chart alone shows no heading unless given a title (its own title is in the
        # chart); the page's title is the file name.
        # The spec is checked (above); the page does not check it again.
        return page_of(
            [spec], [None], title=page_title(title or path.stem), heading=title is not None
        )
    return render_image(spec, suffix, scale_factor)
