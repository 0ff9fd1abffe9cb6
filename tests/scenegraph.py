"""What a chart draws, read from the scenegraph vl-convert renders: marks, legends, colours.

Tests assert on these rather than on the spec, so a swapped label, a band drawn from the
wrong field or a missing cut fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Mark:
    marktype: str
    role: str
    name: str
    items: list = field(default_factory=list)


def scene(chart) -> dict:
    import vl_convert as vlc

    from costchart._export.image import vl_version

    return vlc.vegalite_to_scenegraph(chart.to_dict(validate=True), vl_version=vl_version())


def marks(graph: dict) -> list[Mark]:
    """Every mark of the scene, depth first (groups included)."""
    found: list[Mark] = []

    def visit(node):
        if isinstance(node, dict):
            if "marktype" in node:
                found.append(
                    Mark(
                        node["marktype"],
                        node.get("role", ""),
                        node.get("name", ""),
                        [i for i in node.get("items", []) if isinstance(i, dict)],
                    )
                )
            for value in node.values():
                if isinstance(value, (dict, list)):
                    visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(graph["scenegraph"])
    return found


def data_marks(graph: dict) -> list[Mark]:
    """The marks that draw data (not axes, legends, titles or frames)."""
    return [m for m in marks(graph) if m.role == "mark" and m.marktype != "group"]


def legend_labels(graph: dict) -> list[str]:
    return [i.get("text") for m in marks(graph) if m.role == "legend-label" for i in m.items]


def legend_symbols(graph: dict) -> dict[str, dict]:
    """Each legend entry's label -> its symbol's drawn properties (stroke, dash, fill)."""
    entries, symbol = {}, {}
    for m in marks(graph):
        if m.role == "legend-symbol" and m.items:
            symbol = m.items[0]
        elif m.role == "legend-label" and m.items:
            entries[m.items[0].get("text")] = symbol
            symbol = {}
    return entries


def texts(graph: dict) -> list[str]:
    return [str(i.get("text")) for m in marks(graph) if m.marktype == "text" for i in m.items]


def _colour(value) -> str | None:
    """A drawn colour, lower-cased; None for nothing drawn."""
    if not isinstance(value, str) or value.strip().lower() in ("", "transparent", "none"):
        return None
    return value.strip().lower()


def swatch_colour(symbol: dict) -> str | None:
    """The colour a legend symbol shows: its stroke if it has one, else its fill."""
    stroke = _colour(symbol.get("stroke"))
    if stroke and (symbol.get("strokeWidth") is None or symbol.get("strokeWidth", 0) > 0):
        return stroke
    return _colour(symbol.get("fill"))


def drawn_colours(graph: dict) -> set[str]:
    """Every stroke and fill colour the data marks draw (text marks included)."""
    found = set()
    for mark in data_marks(graph):
        for item in mark.items:
            if item.get("opacity", 1) == 0:
                continue
            for prop in ("stroke", "fill"):
                colour = _colour(item.get(prop))
                if colour:
                    found.add(colour)
    return found


def swatches_not_drawn(graph: dict) -> dict[str, str]:
    """Legend entries whose swatch colour no data mark draws: label -> colour."""
    drawn = drawn_colours(graph)
    missing = {}
    for label, symbol in legend_symbols(graph).items():
        colour = swatch_colour(symbol)
        if colour and colour not in drawn:
            missing[label] = colour
    return missing


def spec_views(spec: dict) -> list[dict]:
    """Every unit view of a Vega-Lite spec (the dicts with a mark), depth first."""
    found: list[dict] = []

    def visit(node):
        if isinstance(node, dict):
            if "mark" in node:
                found.append(node)
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(spec)
    return found


def _dash(value) -> tuple:
    """A drawn dash pattern; () for a solid stroke (none, or a dash longer than a symbol)."""
    if not isinstance(value, (list, tuple)) or not value or not any(value[1::2]):
        return ()
    return tuple(float(v) for v in value)


def drawn_dashes(graph: dict) -> set[tuple]:
    """Every dash pattern the data marks' strokes draw (() for solid)."""
    found = set()
    for mark in data_marks(graph):
        for item in mark.items:
            if item.get("opacity", 1) == 0 or not _colour(item.get("stroke")):
                continue
            found.add(_dash(item.get("strokeDash")))
    return found


def key_dashes(spec: dict, field: str = "costchart_key") -> dict[str, tuple]:
    """Each key entry's declared dash (the key layers' strokeDash scales): label -> dash."""
    declared = {}
    for view in spec_views(spec):
        dash = view.get("encoding", {}).get("strokeDash", {})
        scale = dash.get("scale", {}) if isinstance(dash, dict) else {}
        if dash.get("field") == field and isinstance(scale.get("domain"), list):
            for label, value in zip(scale["domain"], scale["range"], strict=True):
                declared[label] = _dash(value)
    return declared


def swatch_dashes_lost(graph: dict, spec: dict) -> dict[str, tuple]:
    """Key entries whose swatch does not show the dash the key declares, or shows a dashed
    stroke where no data mark is dashed: label -> (declared, shown)."""
    declared = key_dashes(spec)
    dashed_marks = {d for d in drawn_dashes(graph) if d}
    wrong = {}
    for label, symbol in legend_symbols(graph).items():
        if label not in declared or not symbol.get("strokeWidth"):
            continue
        shown = _dash(symbol.get("strokeDash"))
        if shown != declared[label] or (shown and not dashed_marks):
            wrong[label] = (declared[label], shown)
    return wrong
