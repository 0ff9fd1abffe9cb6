"""The budget of an image: how many marks and pixels vl-convert may be asked to render.

vl-convert renders in a JavaScript engine whose memory runs out on very large charts, and
then aborts the whole Python process, so images are checked first: :func:`estimate_marks`
gives an upper estimate of the marks a Vega-Lite spec draws (rows of each unit view,
kept by costchart's own filters, times folds, facet panels and repeats), to compare with
:data:`MAX_MARKS`; a PNG may have at most :data:`MAX_PIXELS` pixels.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping

__all__ = ["MAX_MARKS", "MAX_PIXELS", "estimate_marks"]


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
